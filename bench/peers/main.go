// Command peers compares StrataGate's raw-message search with two embedded
// full-text engines, bleve v2 (scorch, BM25) and SQLite FTS5 (bm25()), on
// the same deterministic synthetic corpus and the same queries.
//
// It is its own module so that the main module never depends on bleve or
// cgo. Run it from this folder (the FTS5 build tag is required):
//
//	cd bench/peers && go run -tags sqlite_fts5 . -n 100000
//	make peers   # the same, from the repository root
//
// For each engine it builds an index of N messages on disk (timed: build
// messages/s), closes it and measures its size (allocated bytes of its
// files, as du counts them, per message), reopens it, runs every query
// once to warm up, then measures each query once: p50/p95/p99 and maximum
// latency in µs, mean results, and how many of StrataGate's top k each peer
// also returns (overlap). Ratios are peer / StrataGate.
//
// With -peer-queries N, every engine other than stratagate (including
// stratagate-memory) warms up on and measures only the first N of the same
// query list, so that slow peers stay bounded on large corpora (make
// peers-1m); each engine's measured query count is in the table and in the
// JSON (queries). A peer's overlap is over its N queries, against
// StrataGate's results for the same N; its latency ratios still divide its
// percentiles (and maximum) by StrataGate's, so they compare percentiles
// over different query counts (N against -queries).
//
// The engines compared are indexes: none stores the message text (an
// application keeps its messages somewhere; in StrataGate they are the L5
// records the raw index points at), and each returns the ids of its top k:
//   - stratagate: StrataGate's raw-message index (package index, with the
//     tokenizer, query expansion and keywords Memory's raw index uses) in a
//     StrataGate file, written in transactions of 1,000 messages; queries
//     are exact top-k BM25 with MaxScore pruning.
//   - bleve indexes text and scope (the text not stored); SQLite FTS5 is
//     a contentless table indexing the text (with positions), the scope a
//     stored UNINDEXED column.
//   - All three filter by the corpus's three scopes (bleve as a
//     non-scoring filter clause, FTS5 with scope IN (...), StrataGate with
//     its scope bitmaps) and OR the query words.
//
// A fourth engine, stratagate-memory, is the whole product for reference:
// its build is the whole ingest through the public API, Append (messages,
// threads, raw index; turns of two messages, without receipts; a block
// sealed every 12 turns of a thread) and WaitIdle (block derivation and
// event extraction in the background), and its file holds all of that,
// messages included. Its hits are Memory.SearchRaw's: each carries a
// snippet and the neighbouring messages, and each search logs an
// observation, as in production. Ratios are against stratagate (the index).
//
// Flags: -n, -queries, -peer-queries (the measured queries of every engine
// but stratagate; default 0: as many as -queries; more than -queries is
// clamped to -queries; negative is an error), -k, -json, -dir (default a
// temporary folder, removed at the end; a given folder is kept), -seed,
// -sgwriters, -engines, -progress, -cpuprofile (the measured queries;
// profile one engine at a time).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

type config struct {
	n, queries, k, sgWriters int
	peerQueries              int // measured queries of the engines other than stratagate
	json                     bool
	dir                      string
	seed                     uint64
	engines                  []string
	progress                 time.Duration
	cpuprofile               string
	prof                     *os.File
}

var allEngines = []string{"stratagate", "bleve", "sqlite-fts5", "stratagate-memory"}

func newEngine(name string, cfg *config) engine {
	switch name {
	case "stratagate":
		return &rawEngine{}
	case "stratagate-memory":
		return &sgEngine{writers: cfg.sgWriters}
	case "bleve":
		return &bleveEngine{}
	case "sqlite-fts5":
		return &sqliteEngine{}
	}
	return nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("peers", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	var engines string
	fs.IntVar(&cfg.n, "n", 100000, "messages in the corpus")
	fs.IntVar(&cfg.queries, "queries", 1000, "measured queries")
	fs.IntVar(&cfg.peerQueries, "peer-queries", 0, "measured queries of every engine but stratagate: the first `N` of the same list\n(0: as many as -queries; more is clamped to -queries); their latency ratios\nthen compare percentiles over different query counts")
	fs.IntVar(&cfg.k, "k", 10, "results per query")
	fs.BoolVar(&cfg.json, "json", false, "print one JSON object")
	fs.StringVar(&cfg.dir, "dir", "", "folder for the indexes (default: a temporary folder, removed at the end)")
	fs.Uint64Var(&cfg.seed, "seed", 1, "corpus and query seed")
	fs.IntVar(&cfg.sgWriters, "sgwriters", 1, "concurrent StrataGate appenders (threads are split among them)")
	fs.StringVar(&engines, "engines", strings.Join(allEngines, ","), "comma-separated engines to run")
	fs.DurationVar(&cfg.progress, "progress", 2*time.Second, "interval of progress lines on stderr (0: none)")
	fs.StringVar(&cfg.cpuprofile, "cpuprofile", "", "write a CPU profile of the measured queries (all engines) to this file")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run -tags sqlite_fts5 . [flags]")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "Ratios are peer / stratagate. With -peer-queries below -queries, a peer's")
		fmt.Fprintln(stderr, "percentiles are over fewer queries than stratagate's, and its overlap is over")
		fmt.Fprintln(stderr, "the queries it ran.")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "peers: "+format+"\n", a...)
		fs.Usage()
		return 2
	}
	switch {
	case fs.NArg() > 0:
		return bad("unexpected argument %q", fs.Arg(0))
	case cfg.n < 2:
		return bad("-n must be at least 2")
	case cfg.queries < 1:
		return bad("-queries must be positive")
	case cfg.peerQueries < 0:
		return bad("-peer-queries must not be negative (0: as many as -queries), got %d", cfg.peerQueries)
	case cfg.k < 1 || cfg.k > 200:
		return bad("-k must be in 1–200")
	case cfg.sgWriters < 1 || cfg.sgWriters > threadCount:
		return bad("-sgwriters must be in 1–%d", threadCount)
	}
	if cfg.peerQueries == 0 || cfg.peerQueries > cfg.queries {
		cfg.peerQueries = cfg.queries
	}
	for _, e := range strings.Split(engines, ",") {
		e = strings.TrimSpace(e)
		if !slices.Contains(allEngines, e) {
			return bad("unknown engine %q (want %s)", e, strings.Join(allEngines, ", "))
		}
		if !slices.Contains(cfg.engines, e) {
			cfg.engines = append(cfg.engines, e)
		}
	}
	if cfg.cpuprofile != "" {
		f, err := os.Create(cfg.cpuprofile)
		if err != nil {
			fmt.Fprintf(stderr, "peers: %v\n", err)
			return 1
		}
		defer f.Close()
		cfg.prof = f
	}
	res, err := bench(ctx, &cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "peers: %v\n", err)
		return 1
	}
	if cfg.json {
		b, err := json.Marshal(res)
		if err != nil {
			fmt.Fprintf(stderr, "peers: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	printTable(stdout, res)
	return 0
}

// result is the output; its JSON field names are a contract.
type result struct {
	Docs    int            `json:"docs"`
	Queries int            `json:"queries"`      // -queries: stratagate's measured queries
	PeerQ   int            `json:"peer_queries"` // -peer-queries after clamping: every other engine's
	K       int            `json:"k"`
	Seed    uint64         `json:"seed"`
	Engines []engineResult `json:"engines"`
}

type engineResult struct {
	Name           string  `json:"name"`
	Scoring        string  `json:"scoring"`
	Queries        int     `json:"queries"` // measured (and warm-up) queries: -queries for stratagate, -peer-queries for the others
	BuildMsgsPerS  float64 `json:"build_msgs_per_s"`
	BuildS         float64 `json:"build_s"`
	BytesPerMsg    float64 `json:"bytes_per_msg"`
	DiskBytes      int64   `json:"disk_bytes"`
	P50us          float64 `json:"p50_us"`
	P95us          float64 `json:"p95_us"`
	P99us          float64 `json:"p99_us"`
	MaxUs          float64 `json:"max_us"`
	MeanUs         float64 `json:"mean_us"`
	MeanResults    float64 `json:"mean_results"`
	ZeroResults    int     `json:"zero_result_queries"`
	OverlapAtK     float64 `json:"overlap_at_k"`
	RatioBuild     float64 `json:"ratio_build_msgs_per_s"`
	RatioBytes     float64 `json:"ratio_bytes_per_msg"`
	RatioP50       float64 `json:"ratio_p50"`
	RatioP95       float64 `json:"ratio_p95"`
	RatioP99       float64 `json:"ratio_p99"`
	RatioMax       float64 `json:"ratio_max"`
	AppendMsgsPerS float64 `json:"append_msgs_per_s,omitempty"` // StrataGate: Appends only, before WaitIdle
	// UncompactedBytesPerMsg is stratagate's written file before the
	// compaction its build ends with; CompactedBytesPerMsg is
	// stratagate-memory's file after Memory.CompactTo (not part of its build).
	UncompactedBytesPerMsg float64 `json:"uncompacted_bytes_per_msg,omitempty"`
	CompactedBytesPerMsg   float64 `json:"compacted_bytes_per_msg,omitempty"`
	SGWriters              int     `json:"writers,omitempty"`

	hits [][]int
}

func bench(ctx context.Context, cfg *config, stderr io.Writer) (*result, error) {
	logf := func(format string, a ...any) {
		if cfg.progress > 0 {
			fmt.Fprintf(stderr, format+"\n", a...)
		}
	}
	root := cfg.dir
	if root == "" {
		d, err := os.MkdirTemp("", "sg-peers-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(d)
		root = d
	}
	t0 := time.Now()
	c := newCorpus(cfg.n, cfg.seed)
	c.docs, c.ranks = c.docs[:cfg.n], c.ranks[:cfg.n]
	qs := c.queries(cfg.queries, cfg.seed)
	logf("corpus: %d messages, %d queries, generated in %s", len(c.docs), len(qs), time.Since(t0).Round(time.Millisecond))

	res := &result{Docs: len(c.docs), Queries: len(qs), PeerQ: cfg.peerQueries, K: cfg.k, Seed: cfg.seed}
	for _, name := range cfg.engines {
		e := newEngine(name, cfg)
		eqs := qs
		if name != "stratagate" {
			eqs = qs[:cfg.peerQueries]
		}
		r, err := measure(ctx, cfg, e, c, eqs, root, logf)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		res.Engines = append(res.Engines, r)
	}

	// Ratios and overlap against StrataGate.
	i := slices.IndexFunc(res.Engines, func(r engineResult) bool { return r.Name == "stratagate" })
	if i >= 0 {
		sg := res.Engines[i]
		for j := range res.Engines {
			r := &res.Engines[j]
			r.RatioBuild = ratio(r.BuildMsgsPerS, sg.BuildMsgsPerS)
			r.RatioBytes = ratio(r.BytesPerMsg, sg.BytesPerMsg)
			r.RatioP50 = ratio(r.P50us, sg.P50us)
			r.RatioP95 = ratio(r.P95us, sg.P95us)
			r.RatioP99 = ratio(r.P99us, sg.P99us)
			r.RatioMax = ratio(r.MaxUs, sg.MaxUs)
			// Over the queries r ran: a prefix of stratagate's.
			r.OverlapAtK = overlap(sg.hits, r.hits)
		}
	}
	return res, nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return round3(a / b)
}

func round3(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Round(x*1000) / 1000
}

// overlap is the mean, over queries where ref returned something, of the
// fraction of ref's results that got also returned. Only the queries both
// ran count: got may cover a prefix of ref's queries (or the reverse).
func overlap(ref, got [][]int) float64 {
	var sum float64
	n := 0
	for i := range min(len(ref), len(got)) {
		if len(ref[i]) == 0 {
			continue
		}
		common := 0
		for _, d := range ref[i] {
			if slices.Contains(got[i], d) {
				common++
			}
		}
		sum += float64(common) / float64(len(ref[i]))
		n++
	}
	if n == 0 {
		return 0
	}
	return round3(sum / float64(n))
}

func measure(ctx context.Context, cfg *config, e engine, c *corpus, qs []string, root string, logf func(string, ...any)) (engineResult, error) {
	r := engineResult{Name: e.name(), Scoring: e.scoring(), Queries: len(qs)}
	dir := filepath.Join(root, e.name())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, err
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		return r, fmt.Errorf("%s is not empty", dir)
	}

	var done atomic.Int64
	stop := ticker(cfg.progress, func(el time.Duration) {
		n := done.Load()
		logf("%s: built %d/%d messages, %.0f msgs/s", e.name(), n, len(c.docs), float64(n)/el.Seconds())
	})
	start := time.Now()
	err := e.build(ctx, c, dir, func(n int) { done.Add(int64(n)) })
	build := time.Since(start)
	stop()
	if cerr := e.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return r, err
	}
	r.BuildS = round3(build.Seconds())
	r.BuildMsgsPerS = round3(float64(len(c.docs)) / build.Seconds())
	if sg, ok := e.(*sgEngine); ok {
		r.AppendMsgsPerS = round3(float64(len(c.docs)) / sg.appendTime.Seconds())
		r.SGWriters = sg.writers
	}
	if r.DiskBytes, err = diskBytes(dir); err != nil {
		return r, err
	}
	r.BytesPerMsg = round3(float64(r.DiskBytes) / float64(len(c.docs)))
	switch e := e.(type) {
	case *rawEngine:
		r.UncompactedBytesPerMsg = round3(float64(e.liveBytes) / float64(len(c.docs)))
	case *sgEngine:
		n, err := e.compactedBytes(ctx, dir)
		if err != nil {
			return r, err
		}
		r.CompactedBytesPerMsg = round3(float64(n) / float64(len(c.docs)))
	}
	logf("%s: built in %s, %.0f msgs/s, %.1f bytes/msg", e.name(), build.Round(time.Millisecond), r.BuildMsgsPerS, r.BytesPerMsg)

	if err := e.open(dir); err != nil {
		return r, err
	}
	defer e.close()
	for _, q := range qs { // warm-up
		if _, err := e.search(ctx, q, cfg.k); err != nil {
			return r, fmt.Errorf("query %q: %w", q, err)
		}
	}
	if cfg.prof != nil {
		if err := pprof.StartCPUProfile(cfg.prof); err == nil {
			defer pprof.StopCPUProfile()
		}
	}
	lat := make([]float64, len(qs))
	r.hits = make([][]int, len(qs))
	total := 0
	for i, q := range qs {
		t := time.Now()
		hits, err := e.search(ctx, q, cfg.k)
		lat[i] = float64(time.Since(t).Nanoseconds()) / 1e3
		if err != nil {
			return r, fmt.Errorf("query %q: %w", q, err)
		}
		r.hits[i] = hits
		total += len(hits)
		if len(hits) == 0 {
			r.ZeroResults++
		}
	}
	var sum float64
	for _, l := range lat {
		sum += l
	}
	slices.Sort(lat)
	r.P50us, r.P95us, r.P99us = round3(percentile(lat, 50)), round3(percentile(lat, 95)), round3(percentile(lat, 99))
	r.MaxUs, r.MeanUs = round3(lat[len(lat)-1]), round3(sum/float64(len(lat)))
	r.MeanResults = round3(float64(total) / float64(len(qs)))
	logf("%s: %d queries, p50 %.0f µs, p95 %.0f µs, p99 %.0f µs, max %.0f µs", e.name(), len(qs), r.P50us, r.P95us, r.P99us, r.MaxUs)
	return r, nil
}

// percentile is the nearest-rank p-th percentile of sorted.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[max(1, min(rank, len(sorted)))-1]
}

// ticker calls f with the elapsed time every interval until the returned
// stop is called.
func ticker(every time.Duration, f func(time.Duration)) (stop func()) {
	if every <= 0 {
		return func() {}
	}
	start := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f(time.Since(start))
			}
		}
	}()
	return func() { close(done); <-finished }
}

func printTable(w io.Writer, res *result) {
	fmt.Fprintf(w, "docs %d, queries %d, peer queries %d, k %d, seed %d\n\n", res.Docs, res.Queries, res.PeerQ, res.K, res.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "engine\tbuild msgs/s\tbuild s\tbytes/msg\tqueries\tp50 µs\tp95 µs\tp99 µs\tmax µs\tresults/q\toverlap@k\t")
	for _, r := range res.Engines {
		fmt.Fprintf(tw, "%s\t%.0f\t%.1f\t%.0f\t%d\t%.0f\t%.0f\t%.0f\t%.0f\t%.2f\t%.3f\t\n",
			r.Name, r.BuildMsgsPerS, r.BuildS, r.BytesPerMsg, r.Queries, r.P50us, r.P95us, r.P99us, r.MaxUs, r.MeanResults, r.OverlapAtK)
	}
	tw.Flush()
	if slices.ContainsFunc(res.Engines, func(r engineResult) bool { return r.Name == "stratagate" }) && len(res.Engines) > 1 {
		fmt.Fprintln(w)
		fmt.Fprintln(tw, "peer / stratagate\tbuild msgs/s\tbytes/msg\tp50\tp95\tp99\tmax\t")
		for _, r := range res.Engines {
			if r.Name == "stratagate" {
				continue
			}
			fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n", r.Name, r.RatioBuild, r.RatioBytes, r.RatioP50, r.RatioP95, r.RatioP99, r.RatioMax)
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
	for _, r := range res.Engines {
		fmt.Fprintf(w, "%s: %s\n", r.Name, r.Scoring)
		if r.UncompactedBytesPerMsg > 0 {
			fmt.Fprintf(w, "%s: build = write (transactions of %d) + compaction; %.0f bytes/msg before compaction\n", r.Name, rawBatch, r.UncompactedBytesPerMsg)
		}
		if r.CompactedBytesPerMsg > 0 {
			fmt.Fprintf(w, "%s: %.0f bytes/msg after Memory.CompactTo (not in build time)\n", r.Name, r.CompactedBytesPerMsg)
		}
		if r.AppendMsgsPerS > 0 {
			fmt.Fprintf(w, "%s: build = Appends (%d writer(s), %.0f msgs/s) + WaitIdle (derivation, extraction)\n", r.Name, r.SGWriters, r.AppendMsgsPerS)
		}
	}
	fmt.Fprintln(w, "overlap@k: mean share of StrataGate's top k that the engine also returns (over the queries the engine ran)")
	if slices.ContainsFunc(res.Engines, func(r engineResult) bool { return r.Queries != res.Queries }) {
		fmt.Fprintln(w, "queries: engines measured different query counts (-peer-queries); their latency ratios compare percentiles over different counts")
	}
}
