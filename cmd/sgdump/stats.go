package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
)

var statsCommand = &command{
	name: "stats", args: "[-sizes]", summary: "file size, format version, keys per bucket, block states, jobs",
	define: func(fs *flag.FlagSet) runner {
		sizes := fs.Bool("sizes", false, "also report the bytes and pages of every bucket, per message and per turn")
		return func(e *env, args []string) error { return runStats(e, args, *sizes) }
	},
}

type statsOut struct {
	Path          string         `json:"path"`
	Format        uint32         `json:"format"`
	FileBytes     int64          `json:"file_bytes"`
	Threads       int            `json:"threads"`
	Messages      int            `json:"messages"`
	Receipts      int            `json:"receipts"`
	Blocks        int            `json:"blocks"`
	BlocksPending int            `json:"blocks_pending"`
	BlocksReady   int            `json:"blocks_ready"`
	BlocksFailed  int            `json:"blocks_failed"`
	JobsQueued    int            `json:"jobs_queued"`
	JobsFailed    int            `json:"jobs_failed"`
	Events        int            `json:"events"`
	GraphNodes    int            `json:"graph_nodes"`
	GraphFacts    int            `json:"graph_facts"`
	GraphEdges    int            `json:"graph_edges"`
	Buckets       map[string]int `json:"buckets"`
	// Usage is the model usage by job kind and gate task (Stats.Usage).
	Usage map[string]model.Usage `json:"usage,omitempty"`
	// Sizes is present with -sizes.
	Sizes *sizesOut `json:"sizes,omitempty"`
}

func runStats(e *env, args []string, sizes bool) error {
	if len(args) > 0 {
		return usagef("stats takes no arguments")
	}
	mem, err := e.memory()
	if err != nil {
		return err
	}
	s, err := mem.Stats(e.ctx)
	if err != nil {
		return err
	}
	o := statsOut{
		Path: e.db, Format: s.Format, FileBytes: s.FileBytes, Threads: s.Threads, Messages: s.Messages,
		Receipts: s.Receipts, Blocks: s.Blocks, BlocksPending: s.BlocksPending, BlocksReady: s.BlocksReady,
		BlocksFailed: s.BlocksFailed, JobsQueued: s.JobsQueued, JobsFailed: s.JobsFailed, Buckets: s.Buckets, Usage: s.Usage,
		Events: s.Buckets[string(kv.BucketEvents)], GraphNodes: s.Buckets[string(kv.BucketGraphNodes)],
		GraphFacts: s.Buckets[string(kv.BucketGraphFacts)], GraphEdges: s.Buckets[string(kv.BucketGraphEdges)],
	}
	if sizes {
		ths, err := mem.Threads(e.ctx)
		if err != nil {
			return err
		}
		var turns uint64
		for _, th := range ths {
			turns += th.Turns
		}
		o.Sizes = newSizes(s, turns)
	}
	return e.emit(o, func(w io.Writer) error {
		tw := newTable(w)
		fmt.Fprintf(tw, "file\t%s\n", o.Path)
		fmt.Fprintf(tw, "format\t%d\n", o.Format)
		fmt.Fprintf(tw, "size\t%d bytes\n", o.FileBytes)
		fmt.Fprintf(tw, "threads\t%d\n", o.Threads)
		fmt.Fprintf(tw, "messages\t%d\n", o.Messages)
		fmt.Fprintf(tw, "receipts\t%d\n", o.Receipts)
		fmt.Fprintf(tw, "blocks\t%d (ready %d, pending %d, failed %d)\n", o.Blocks, o.BlocksReady, o.BlocksPending, o.BlocksFailed)
		fmt.Fprintf(tw, "events\t%d cards\n", o.Events)
		fmt.Fprintf(tw, "graph\t%d nodes, %d facts, %d edges\n", o.GraphNodes, o.GraphFacts, o.GraphEdges)
		fmt.Fprintf(tw, "jobs\t%d queued (pending or running), %d failed\n", o.JobsQueued, o.JobsFailed)
		if o.JobsFailed > 0 {
			fmt.Fprintf(tw, "\tsee: sgdump -db %s jobs -state failed\n", o.Path)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(o.Usage) > 0 {
			fmt.Fprintln(w)
			tw = newTable(w)
			fmt.Fprintln(tw, "MODEL USE\tCALLS\tPROMPT TOKENS\tCACHED\tCOMPLETION TOKENS\tMODEL TIME")
			for _, name := range slices.Sorted(maps.Keys(o.Usage)) {
				u := o.Usage[name]
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\n", name, u.Calls, u.PromptTokens, u.CachedTokens, u.CompletionTokens, u.Latency.Round(time.Millisecond))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
		if o.Sizes != nil {
			fmt.Fprintln(w)
			if err := o.Sizes.write(w); err != nil {
				return err
			}
		}
		fmt.Fprintln(w)
		tw = newTable(w)
		fmt.Fprintln(tw, "BUCKET\tKEYS")
		for _, name := range bucketOrder(o.Buckets) {
			fmt.Fprintf(tw, "%s\t%d\n", name, o.Buckets[name])
		}
		return tw.Flush()
	})
}

// bucketOrder lists the buckets in kv.AllBuckets order, then any others
// by name.
func bucketOrder(counts map[string]int) []string {
	var out []string
	known := map[string]bool{}
	for _, b := range kv.AllBuckets {
		if _, ok := counts[string(b)]; ok {
			out = append(out, string(b))
			known[string(b)] = true
		}
	}
	var rest []string
	for name := range counts {
		if !known[name] {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

var threadsCommand = &command{
	name: "threads", summary: "threads with scope, turns, blocks and open tail",
	define: noFlags(runThreads),
}

type threadOut struct {
	Name           string   `json:"name"`
	Scope          string   `json:"scope"`
	Created        string   `json:"created"`
	LastAt         string   `json:"last_at"`
	Turns          uint64   `json:"turns"`
	Blocks         uint64   `json:"blocks"`
	OpenTurns      int      `json:"open_turns"`
	OpenMessageIDs []uint64 `json:"open_message_ids"`
}

func runThreads(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("threads takes no arguments")
	}
	mem, err := e.memory()
	if err != nil {
		return err
	}
	ths, err := mem.Threads(e.ctx)
	if err != nil {
		return err
	}
	out := make([]threadOut, len(ths))
	for i, th := range ths {
		out[i] = threadOut{
			Name: th.Name, Scope: th.Scope, Created: stamp(th.Created), LastAt: stamp(th.LastAt),
			Turns: th.Turns, Blocks: th.Blocks, OpenTurns: th.OpenTurns, OpenMessageIDs: th.OpenTail,
		}
		if out[i].OpenMessageIDs == nil {
			out[i].OpenMessageIDs = []uint64{}
		}
	}
	return e.emit(struct {
		Threads []threadOut `json:"threads"`
	}{out}, func(w io.Writer) error {
		tw := newTable(w)
		fmt.Fprintln(tw, "THREAD\tSCOPE\tTURNS\tBLOCKS\tOPEN TURNS\tOPEN MSGS\tLAST MESSAGE")
		for _, t := range out {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%s\n", t.Name, t.Scope, t.Turns, t.Blocks, t.OpenTurns, len(t.OpenMessageIDs), dash(t.LastAt))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "%d threads\n", len(out))
		return nil
	})
}
