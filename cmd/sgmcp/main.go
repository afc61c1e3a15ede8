// Command sgmcp serves a StrataGate memory file to AI agents over the
// Model Context Protocol, on stdio or streamable HTTP.
//
//	sgmcp serve -db FILE [-scope SCOPE]... [-http 127.0.0.1:PORT] [-token T]
//	sgmcp hook claude-code|codex -db FILE [-recall] [-timeout D]
//	sgmcp import claude-code|codex -db FILE PATH...
//
// One process owns a store at a time: a running serve listens on a unix
// socket beside the file (<db>.sock, mode 0600), and a second serve on the
// same file attaches to it over that socket instead of opening the file.
//
// See README.md beside this file for the tools and for wiring it into an
// agent.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// command is one subcommand: its name, a line of help and its body.
type command struct {
	name, help string
	run        func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands are sgmcp's subcommands.
var commands = []command{
	{"serve", "serve a memory file over MCP (stdio, or streamable HTTP with -http)", runServe},
	{"hook", "capture a finished turn: run by an agent's hook (claude-code or codex), always exits 0", runHook},
	{"import", "backfill from existing transcripts: import claude-code|codex -db FILE PATH...", runImport},
}

// errUsage marks a usage error (exit status 2).
var errUsage = errors.New("sgmcp: usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil:
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		// Our sentinels carry the prefix already.
		fmt.Fprintln(os.Stderr, "sgmcp:", strings.TrimPrefix(err.Error(), "sgmcp: "))
		os.Exit(1)
	}
}

// run dispatches args to a subcommand.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		return errUsage
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "sgmcp: unknown command %q\n", args[0])
	usage(stderr)
	return errUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: sgmcp COMMAND [flags]")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.help)
	}
}
