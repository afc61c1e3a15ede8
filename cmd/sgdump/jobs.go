package main

import (
	"flag"
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/wal"
)

var jobsCommand = &command{
	name: "jobs", args: "[-state S]", summary: "the job log with states, attempts and errors",
	define: func(fs *flag.FlagSet) runner {
		state := fs.String("state", "", "list only jobs in `STATE`: pending, running, done or failed")
		return func(e *env, args []string) error { return runJobs(e, args, *state) }
	},
}

type jobOut struct {
	ID        uint64 `json:"id"`
	Kind      string `json:"kind"`
	Target    uint64 `json:"target"`
	State     string `json:"state"`
	Attempts  int    `json:"attempts"`
	Error     string `json:"error,omitempty"`
	Created   string `json:"created"`
	Updated   string `json:"updated"`
	NotBefore string `json:"not_before,omitempty"`
	// Prompt and Usage: the model prompt of the last attempt and what
	// every recorded attempt cost.
	Prompt string      `json:"prompt,omitempty"`
	Usage  model.Usage `json:"usage"`
}

func runJobs(e *env, args []string, state string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q", args[0])
	}
	if err := oneOf("state", state,
		string(wal.StatePending), string(wal.StateRunning), string(wal.StateDone), string(wal.StateFailed)); err != nil {
		return err
	}
	// Memory has no job listing: read the log through kv and wal, with the
	// same read-only open and lock timeout as every other command.
	db, err := kv.Open(e.db, kv.Options{ReadOnly: true, LockTimeout: max(e.timeout, 0)})
	if err != nil {
		return openError(e, err)
	}
	defer db.Close()
	var jobs []wal.Job
	if err := db.View(func(tx *bolt.Tx) error {
		jobs, err = wal.List(tx, wal.State(state))
		return err
	}); err != nil {
		return err
	}
	out := make([]jobOut, len(jobs))
	for i, j := range jobs {
		out[i] = jobOut{
			ID: j.ID, Kind: string(j.Kind), Target: j.Target, State: string(j.State), Attempts: j.Attempts,
			Error: j.Err, Created: stamp(j.Created), Updated: stamp(j.Updated), NotBefore: stamp(j.NotBefore),
			Prompt: j.Prompt, Usage: j.Usage,
		}
	}
	return e.emit(struct {
		Jobs []jobOut `json:"jobs"`
	}{out}, func(w io.Writer) error {
		tw := newTable(w)
		fmt.Fprintln(tw, "ID\tKIND\tTARGET\tSTATE\tATTEMPTS\tUPDATED\tCALLS\tTOKENS\tPROMPT\tERROR")
		counts := map[string]int{}
		for _, j := range out {
			counts[j.State]++
			fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%d\t%s\t%d\t%d/%d\t%s\t%s\n", j.ID, j.Kind, j.Target, j.State, j.Attempts, dash(j.Updated),
				j.Usage.Calls, j.Usage.PromptTokens, j.Usage.CompletionTokens, dash(j.Prompt), dash(oneLine(j.Error, 80)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "%d jobs: %d pending, %d running, %d done, %d failed\n", len(out),
			counts[string(wal.StatePending)], counts[string(wal.StateRunning)], counts[string(wal.StateDone)], counts[string(wal.StateFailed)])
		return nil
	})
}
