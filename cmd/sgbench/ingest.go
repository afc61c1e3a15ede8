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
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
)

var ingestCommand = &command{
	name:     "ingest",
	synopsis: "-turns N [-batch B] [-sync] [-writers W] [-index-buffer N] [-seed S] [-out FILE] [-model SPEC]",
	summary:  "measure end-to-end ingest (Append + sealing + background derivation) into a fresh file",
	define: func(fs *flag.FlagSet) func(context.Context, *common) (report, error) {
		turns := fs.Int("turns", 10000, "number of turns (2 messages each)")
		fsync := fs.Bool("sync", false, "fsync every commit (default: NoSync)")
		batch := fs.Int("batch", 1, "turns per AppendBatch call (1: one Append per turn)")
		writers := fs.Int("writers", 1, "concurrent appenders; each owns a subset of the threads (turn order within a thread is kept)")
		seed := fs.Uint64("seed", 1, "generator seed")
		indexBuffer := fs.Int("index-buffer", 0, "Options.IndexBuffer: messages the raw index holds in memory before a merge (0: the default; negative: merge at every commit)")
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
			if *batch <= 0 || *batch > stratagate.MaxBatchTurns {
				return nil, usageError(fmt.Sprintf("-batch must be in 1–%d", stratagate.MaxBatchTurns))
			}
			m, _, err := mf.open()
			if err != nil {
				return nil, err
			}
			return ingest(ctx, o, ingestConfig{turns: *turns, batch: *batch, fsync: *fsync, writers: *writers, indexBuffer: *indexBuffer, seed: *seed, out: *out}, m)
		}
	},
}

// ingestConfig is what sgbench ingest was asked to measure.
type ingestConfig struct {
	turns, batch, writers int
	indexBuffer           int
	fsync                 bool
	seed                  uint64
	out                   string
}

// appendSample is one Append or AppendBatch call: its latency and whether
// it sealed a block.
type appendSample struct {
	d      time.Duration
	sealed bool
}

// appendAll appends ts in order, batch turns per call, and returns one
// sample per call.
func appendAll(ctx context.Context, m *stratagate.Memory, ts []stratagate.Turn, batch int, p *progress) ([]appendSample, error) {
	s := make([]appendSample, 0, (len(ts)+batch-1)/batch)
	for len(ts) > 0 {
		n := min(batch, len(ts))
		t0 := time.Now()
		sealed := false
		if batch == 1 {
			ref, err := m.Append(ctx, ts[0])
			if err != nil {
				return nil, fmt.Errorf("thread %s: %w", ts[0].Thread, err)
			}
			sealed = ref.SealedBlockID != 0
		} else {
			refs, err := m.AppendBatch(ctx, ts[:n])
			if err != nil {
				return nil, err
			}
			for _, r := range refs {
				sealed = sealed || r.SealedBlockID != 0
			}
		}
		s = append(s, appendSample{time.Since(t0), sealed})
		p.add(n)
		ts = ts[n:]
	}
	return s, nil
}

func ingest(ctx context.Context, o *common, c ingestConfig, mdl model.Model) (report, error) {
	turns, fsync, writers, out := c.turns, c.fsync, c.writers, c.out
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
	g := newGenerator(c.seed)
	queues := make([][]stratagate.Turn, writers)
	messages := 0
	for range turns {
		t, th := g.next()
		queues[th%writers] = append(queues[th%writers], t)
		messages += len(t.Messages)
	}

	m, err := stratagate.Open(path, &stratagate.Options{NoSync: !fsync, Model: mdl, IndexBuffer: c.indexBuffer})
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
			samples[w], errs[w] = appendAll(ctx, m, queues[w], c.batch, p)
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
	r.add("batch", "turns per call", c.batch)
	ib := c.indexBuffer
	if ib == 0 {
		ib = stratagate.DefaultIndexBuffer
	}
	r.add("index_buffer", "raw index buffer (messages; negative: none)", ib)
	r.add("turns_per_s", "turns/s (incl. WaitIdle)", float64(turns)/total.Seconds())
	call := "Append"
	if c.batch > 1 {
		call = "AppendBatch"
	}
	r.add("seal_p50_us", "sealing "+call+" p50 (µs)", sl.P50)
	r.add("seal_p99_us", "sealing "+call+" p99 (µs)", sl.P99)
	r.add("seal_max_us", "sealing "+call+" max (µs)", sl.Max)
	r.add("seals", "sealing calls", sl.N)
	r.add("append_p50_us", call+" p50 (µs)", al.P50)
	r.add("append_p99_us", call+" p99 (µs)", al.P99)
	r.add("append_max_us", call+" max (µs)", al.Max)
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
	if fsync {
		appendRate := float64(turns) / appendTime.Seconds()
		// The floor: what bbolt itself commits durably, one small record
		// per transaction, on the same disk in the same run.
		rate, err := bareCommitRate(filepath.Dir(path), bareCommits)
		if err != nil {
			return nil, err
		}
		r.add("bbolt_commits_per_s", fmt.Sprintf("bare bbolt fsync commits/s (%d one-record transactions)", bareCommits), rate)
		r.add("vs_bbolt", "calls/s ÷ bare bbolt commits/s", appendRate/float64(c.batch)/rate)
		if c.batch == 1 {
			// Between the two: bbolt writing an Append's pages and nothing
			// else, which parts the gap into page shape and StrataGate's work.
			ms, ts := st.Sizes[string(kv.BucketMessages)], st.Sizes[string(kv.BucketThreads)]
			shape := pageShape{messages: ms.Keys, msgBytes: perKey(ms), threads: ts.Keys, threadBytes: perKey(ts)}
			shaped, err := shapedCommitRate(filepath.Dir(path), bareCommits, shape)
			if err != nil {
				return nil, err
			}
			r.add("shaped_commits_per_s", fmt.Sprintf("bbolt fsync commits/s with a turn's pages (2 × %d B into %d messages, %d B over %d threads)",
				shape.msgBytes, shape.messages, shape.threadBytes, shape.threads), shaped)
			r.add("vs_shaped", "Appends/s ÷ shaped bbolt commits/s", appendRate/shaped)
		}
	}
	r.add("model", "model use", usageReport(st.Model, st.Usage, turns, model.Usage{}, 0))
	return r, nil
}
