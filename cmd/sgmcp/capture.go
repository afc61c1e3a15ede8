package main

// sgmcp hook and sgmcp import: automatic capture of agent sessions.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/capture"
	"github.com/stratagate/stratagate/model/heuristic"
)

// hookStdin is where the hook reads its input (tests replace it).
var hookStdin io.Reader = os.Stdin

// runHook is `sgmcp hook claude-code|codex -db FILE [-recall] [-timeout D]`:
// the command an agent runs at each turn's end. It always exits 0 with the
// hook reply on stdout (failures go to FILE.hook.log), so it can never
// block or stall the agent.
func runHook(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: sgmcp hook claude-code|codex -db FILE [-recall] [-timeout D]")
		return errUsage
	}
	kind, err := capture.ParseKind(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "sgmcp hook: %v\n", err)
		return errUsage
	}
	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "memory file; required")
	recall := fs.Bool("recall", false, "on UserPromptSubmit, reply with memories of the project as additional context")
	timeout := fs.Duration("timeout", capture.DefaultHookTimeout, "bound on the whole run; the reply is written by then")
	if err := fs.Parse(args[1:]); err != nil || *db == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: sgmcp hook claude-code|codex -db FILE [-recall] [-timeout D]")
		return errUsage
	}
	opts, err := storeOptions()
	if err != nil {
		fmt.Fprintf(stderr, "sgmcp hook: %v\n", err) // the reply still goes out below
	}
	return capture.Hook(ctx, capture.HookOptions{
		DB: *db, Kind: kind, Timeout: *timeout, Recall: *recall,
		Stdin: hookStdin, Stdout: stdout, Store: opts, Dial: dialStore(*db),
	})
}

// runImport is `sgmcp import claude-code|codex -db FILE PATH...`: backfill
// from existing transcripts or rollout files, idempotently.
func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: sgmcp import claude-code|codex -db FILE PATH...")
		return errUsage
	}
	kind, err := capture.ParseKind(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "sgmcp import: %v\n", err)
		return errUsage
	}
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "", "memory file (created if missing); required")
	if err := fs.Parse(args[1:]); err != nil || *db == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: sgmcp import claude-code|codex -db FILE PATH...")
		return errUsage
	}
	st, closeStore, err := importStore(ctx, *db)
	if err != nil {
		return err
	}
	start := time.Now()
	sum, err := capture.Import(ctx, st, kind, fs.Args(), stderr)
	if cerr := closeStore(); err == nil {
		err = cerr
	}
	fmt.Fprintf(stdout, "%s (%v)\n", sum, time.Since(start).Round(time.Millisecond))
	return err
}

// importStore is the running server's store when one holds db, else db
// opened here (and its derivation jobs run to the end before it closes).
func importStore(ctx context.Context, db string) (capture.Store, func() error, error) {
	if dial := dialStore(db); dial != nil {
		st, err := dial(ctx)
		if err == nil {
			return st, func() error {
				if c, ok := st.(io.Closer); ok {
					return c.Close()
				}
				return nil
			}, nil
		}
	}
	opts, err := storeOptions()
	if err != nil {
		return nil, nil, err
	}
	mem, err := stratagate.Open(db, opts)
	if err != nil {
		return nil, nil, err
	}
	return mem, func() error {
		werr := mem.WaitIdle(ctx)
		if err := mem.Close(); err != nil {
			return err
		}
		return werr
	}, nil
}

// storeOptions are the Open options of a store this process opens itself:
// the model STRATAGATE_MODEL names (as serve uses), else the offline one.
func storeOptions() (*stratagate.Options, error) {
	m, err := stratagate.ModelFromSpec("", nil)
	if err != nil {
		return &stratagate.Options{}, err
	}
	return &stratagate.Options{Model: m, GateModel: m.Name() != heuristic.Name}, nil
}
