package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/model"
)

var ingestCommand = &command{
	name:     "ingest",
	synopsis: "-turns N [-sync] [-writers W] [-seed S] [-out FILE] [-model SPEC]",
	summary:  "measure end-to-end ingest (Append + sealing + background derivation) into a fresh file",
	define: func(fs *flag.FlagSet) func(context.Context, *common) (report, error) {
		turns := fs.Int("turns", 10000, "number of turns (2 messages each)")
		fsync := fs.Bool("sync", false, "fsync every commit (default: NoSync)")
		writers := fs.Int("writers", 1, "concurrent appenders; each owns a subset of the threads (turn order within a thread is kept)")
		seed := fs.Uint64("seed", 1, "generator seed")
		out := fs.String("out", "", "keep the file at `FILE` (must not exist; default: a temporary file, removed)")
		var mf modelFlags
		mf.register(fs, false)
		return func(ctx context.Context, o *common) (report, error) {
			if *turns <= 0 {
				return nil, usageError("-turns must be positive")
			}
			if *writers <= 0 || *writers > threadCount {
				return nil, usageError(fmt.Sprintf("-writers must be in 1–%d", threadCount))
			}
			m, _, err := mf.open()
			if err != nil {
				return nil, err
			}
			return ingest(ctx, o, *turns, *fsync, *writers, *seed, *out, m)
		}
	},
}

type appendSample struct {
	d      time.Duration
	sealed bool
}

func ingest(ctx context.Context, o *common, turns int, fsync bool, writers int, seed uint64, out string, mdl model.Model) (report, error) {
	path := out
	if path == "" {
		dir, err := os.MkdirTemp("", "sgbench-ingest-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "ingest.sg")
	} else if _, err := os.Stat(path); err == nil {
		return nil, fmt.Errorf("%s exists", path)
	}

	// Generate everything first: generation is not what is measured.
	g := newGenerator(seed)
	queues := make([][]stratagate.Turn, writers)
	messages := 0
	for range turns {
		t, th := g.next()
		queues[th%writers] = append(queues[th%writers], t)
		messages += len(t.Messages)
	}

	m, err := stratagate.Open(path, &stratagate.Options{NoSync: !fsync, Model: mdl})
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if err := o.startProfile(); err != nil {
		return nil, err
	}
	defer o.stopProfile()

	p := startProgress(o.stderr, o.progress, "ingest", "turns", turns)
	samples := make([][]appendSample, writers)
	errs := make([]error, writers)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := make([]appendSample, 0, len(queues[w]))
			for _, t := range queues[w] {
				t0 := time.Now()
				ref, err := m.Append(ctx, t)
				d := time.Since(t0)
				if err != nil {
					errs[w] = fmt.Errorf("thread %s: %w", t.Thread, err)
					return
				}
				s = append(s, appendSample{d, ref.SealedBlockID != 0})
				p.add(1)
			}
			samples[w] = s
		}()
	}
	wg.Wait()
	appendTime := time.Since(start)
	p.stop()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	w0 := time.Now()
	if err := waitIdle(ctx, m, o.stderr, o.progress, "ingest"); err != nil {
		return nil, err
	}
	waitTime := time.Since(w0)
	total := time.Since(start)
	if err := o.stopProfile(); err != nil {
		return nil, err
	}

	st, err := m.Stats(ctx)
	if err != nil {
		return nil, err
	}
	if err := m.Close(); err != nil {
		return nil, err
	}
	size := fileSize(path)
	compacted, err := compactedSize(ctx, path)
	if err != nil {
		return nil, err
	}

	var all, seals []time.Duration
	for _, s := range samples {
		for _, x := range s {
			all = append(all, x.d)
			if x.sealed {
				seals = append(seals, x.d)
			}
		}
	}
	al, sl := summarize(all), summarize(seals)

	var r report
	r.add("turns", "turns", turns)
	r.add("sync", "fsync per commit", fsync)
	r.add("writers", "writers", writers)
	r.add("turns_per_s", "turns/s (incl. WaitIdle)", float64(turns)/total.Seconds())
	r.add("seal_p50_us", "seal Append p50 (µs)", sl.P50)
	r.add("seal_p99_us", "seal Append p99 (µs)", sl.P99)
	r.add("seal_max_us", "seal Append max (µs)", sl.Max)
	r.add("seals", "sealing Appends", sl.N)
	r.add("append_p50_us", "Append p50 (µs)", al.P50)
	r.add("append_p99_us", "Append p99 (µs)", al.P99)
	r.add("append_max_us", "Append max (µs)", al.Max)
	r.add("append_turns_per_s", "turns/s (Appends only)", float64(turns)/appendTime.Seconds())
	r.add("msgs_per_s", "messages/s (incl. WaitIdle)", float64(messages)/total.Seconds())
	r.add("append_s", "append time (s)", appendTime.Seconds())
	r.add("wait_idle_ms", "WaitIdle (ms)", float64(waitTime.Microseconds())/1e3)
	r.add("elapsed_s", "total (s)", total.Seconds())
	r.add("messages", "messages", st.Messages)
	r.add("blocks", "blocks", st.Blocks)
	r.add("blocks_ready", "blocks ready", st.BlocksReady)
	r.add("events", "event cards", st.Buckets["events"])
	r.add("jobs_failed", "jobs failed", st.JobsFailed)
	addSizes(&r, turns, st, size, compacted)
	r.add("file_bytes", "file size (bytes)", size)
	r.add("bytes_per_msg", "bytes per message", float64(size)/float64(max(1, st.Messages)))
	r.add("model", "model use", usageReport(st.Model, st.Usage, turns, model.Usage{}, 0))
	return r, nil
}
