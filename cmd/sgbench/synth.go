package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/stratagate/stratagate"
)

var synthCommand = &command{
	name:     "synth",
	synopsis: "-turns N -out FILE [-seed S] [-nosync] [-force]",
	summary:  "write a deterministic synthetic multi-thread conversation into a StrataGate file",
	define: func(fs *flag.FlagSet) func(context.Context, *common) (report, error) {
		turns := fs.Int("turns", 10000, "number of turns (2 messages each)")
		out := fs.String("out", "", "StrataGate `FILE` to create (required)")
		seed := fs.Uint64("seed", 1, "generator seed")
		nosync := fs.Bool("nosync", false, "open with NoSync (no fsync per commit)")
		force := fs.Bool("force", false, "replace FILE if it exists")
		return func(ctx context.Context, o *common) (report, error) {
			if *out == "" {
				return nil, usageError("-out is required")
			}
			if *turns <= 0 {
				return nil, usageError("-turns must be positive")
			}
			if _, err := os.Stat(*out); err == nil {
				if !*force {
					return nil, fmt.Errorf("%s exists (use -force to replace it)", *out)
				}
				if err := os.Remove(*out); err != nil {
					return nil, err
				}
			} else if !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
			return synth(ctx, o, *out, *turns, *seed, *nosync)
		}
	},
}

func synth(ctx context.Context, o *common, path string, turns int, seed uint64, nosync bool) (report, error) {
	start := time.Now()
	if err := o.startProfile(); err != nil {
		return nil, err
	}
	defer o.stopProfile()
	g := newGenerator(seed)
	m, err := stratagate.Open(path, &stratagate.Options{NoSync: nosync})
	if err != nil {
		return nil, err
	}
	defer m.Close()
	p := startProgress(o.stderr, o.progress, "synth", "turns", turns)
	// AppendBatch stores the same file as one Append per turn, faster.
	const batch = 500
	ts := make([]stratagate.Turn, 0, batch)
	for done := 0; done < turns; done += len(ts) {
		ts = ts[:0]
		for range min(batch, turns-done) {
			t, _ := g.next()
			ts = append(ts, t)
		}
		if _, err := m.AppendBatch(ctx, ts); err != nil {
			p.stop()
			return nil, fmt.Errorf("turns %d–%d: %w", done+1, done+len(ts), err)
		}
		p.add(len(ts))
	}
	p.stop()
	appended := time.Since(start)
	if err := waitIdle(ctx, m, o.stderr, o.progress, "synth"); err != nil {
		return nil, err
	}
	st, err := m.Stats(ctx)
	if err != nil {
		return nil, err
	}
	if err := m.Close(); err != nil {
		return nil, err
	}
	if err := o.stopProfile(); err != nil {
		return nil, err
	}
	elapsed := time.Since(start)
	size := fileSize(path)
	var r report
	r.add("file", "file", path)
	r.add("seed", "seed", seed)
	r.add("nosync", "no fsync", nosync)
	r.add("turns", "turns", turns)
	r.add("messages", "messages", st.Messages)
	r.add("threads", "threads", st.Threads)
	r.add("blocks", "blocks", st.Blocks)
	r.add("blocks_ready", "blocks ready", st.BlocksReady)
	r.add("blocks_failed", "blocks failed", st.BlocksFailed)
	r.add("events", "event cards", st.Buckets["events"])
	r.add("jobs_failed", "jobs failed", st.JobsFailed)
	r.add("file_bytes", "file size (bytes)", size)
	r.add("file_size", "file size", humanBytes(size))
	r.add("append_s", "append time (s)", appended.Seconds())
	r.add("elapsed_s", "elapsed (s)", elapsed.Seconds())
	r.add("turns_per_s", "turns/s (incl. WaitIdle)", float64(turns)/elapsed.Seconds())
	return r, nil
}

// waitIdle waits for the background jobs, printing how many are queued
// every interval.
func waitIdle(ctx context.Context, m *stratagate.Memory, w io.Writer, every time.Duration, label string) error {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		if every <= 0 {
			return
		}
		start := time.Now()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if st, err := m.Stats(ctx); err == nil {
					fmt.Fprintf(w, "%s: waiting for background jobs: %d queued, %d/%d blocks ready, %s\n",
						label, st.JobsQueued, st.BlocksReady, st.Blocks, time.Since(start).Round(time.Second))
				}
			}
		}
	}()
	err := m.WaitIdle(ctx)
	close(done)
	<-stopped
	return err
}
