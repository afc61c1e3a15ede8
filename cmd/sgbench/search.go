package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/bm25"
)

var searchCommand = &command{
	name:     "search",
	synopsis: "-db FILE -queries Q [-channel raw|events|graph] [-k 10] [-seed S] [-readonly]",
	summary:  "measure query latency and allocations on queries sampled from a file's messages",
	define: func(fs *flag.FlagSet) func(context.Context, *common) (report, error) {
		db := fs.String("db", "", "StrataGate `FILE` to search (required), e.g. one written by synth")
		queries := fs.Int("queries", 1000, "number of measured queries")
		channel := fs.String("channel", "raw", "search channel: raw (SearchRaw), events (SearchEvents) or graph (SearchGraphNodes)")
		k := fs.Int("k", 10, "results per query (Query.Limit)")
		seed := fs.Uint64("seed", 1, "query sampling seed")
		readonly := fs.Bool("readonly", false, "open read-only: no retrieval observations are written")
		return func(ctx context.Context, o *common) (report, error) {
			switch {
			case *db == "":
				return nil, usageError("-db is required")
			case *queries <= 0:
				return nil, usageError("-queries must be positive")
			case *channel != "raw" && *channel != "events" && *channel != "graph":
				return nil, usageError(fmt.Sprintf("-channel %q: want raw, events or graph", *channel))
			case *k < 1 || *k > stratagate.MaxLimit:
				return nil, usageError(fmt.Sprintf("-k must be in 1–%d", stratagate.MaxLimit))
			}
			return search(ctx, o, *db, *queries, *channel, *k, *seed, *readonly)
		}
	},
}

func search(ctx context.Context, o *common, path string, nq int, channel string, k int, seed uint64, readonly bool) (report, error) {
	// Open would create a missing file: measuring an empty new store is
	// never what was meant.
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	m, err := stratagate.Open(path, &stratagate.Options{ReadOnly: readonly})
	if err != nil {
		return nil, err
	}
	defer m.Close()
	if !readonly {
		// Settle any job left by the writer so that none runs while we measure.
		if err := m.WaitIdle(ctx); err != nil {
			return nil, err
		}
	}
	threads, err := m.Threads(ctx)
	if err != nil {
		return nil, err
	}
	var ids []uint64
	var scopes []string
	for _, th := range threads {
		if !slices.Contains(scopes, th.Scope) {
			scopes = append(scopes, th.Scope)
		}
		blocks, err := m.Blocks(ctx, th.Name)
		if err != nil {
			return nil, err
		}
		for _, b := range blocks {
			ids = append(ids, b.MessageIDs...)
		}
		ids = append(ids, th.OpenTail...)
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%s holds no messages", path)
	}
	slices.Sort(ids)
	slices.Sort(scopes)
	st, err := m.Stats(ctx)
	if err != nil {
		return nil, err
	}
	docs := len(ids)
	switch channel {
	case "events":
		docs = st.Buckets["events"]
	case "graph":
		docs = st.Buckets["graph.nodes"]
	}

	qs, err := sampleQueries(ctx, m, ids, nq, seed)
	if err != nil {
		return nil, err
	}
	do := func(text string) (int, error) {
		q := stratagate.Query{Text: text, Scopes: scopes, Limit: k}
		switch channel {
		case "events":
			h, err := m.SearchEvents(ctx, q)
			return len(h), err
		case "graph":
			h, err := m.SearchGraphNodes(ctx, q)
			return len(h), err
		}
		h, err := m.SearchRaw(ctx, q)
		return len(h), err
	}

	// Warm up: every query once.
	p := startProgress(o.stderr, o.progress, "search warm-up", "queries", len(qs))
	for _, q := range qs {
		if _, err := do(q); err != nil {
			p.stop()
			return nil, fmt.Errorf("query %q: %w", q, err)
		}
		p.add(1)
	}
	p.stop()

	if err := o.startProfile(); err != nil {
		return nil, err
	}
	defer o.stopProfile()
	lat := make([]time.Duration, len(qs))
	results, zero := 0, 0
	p = startProgress(o.stderr, o.progress, "search", "queries", len(qs))
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i, q := range qs {
		t0 := time.Now()
		n, err := do(q)
		lat[i] = time.Since(t0)
		if err != nil {
			p.stop()
			return nil, fmt.Errorf("query %q: %w", q, err)
		}
		results += n
		if n == 0 {
			zero++
		}
		p.add(1)
	}
	runtime.ReadMemStats(&after)
	p.stop()
	if err := o.stopProfile(); err != nil {
		return nil, err
	}
	l := summarize(lat)
	n := float64(len(qs))

	var r report
	r.add("channel", "channel", channel)
	r.add("docs", "documents", docs)
	r.add("messages", "messages", len(ids))
	r.add("queries", "queries", len(qs))
	r.add("k", "k", k)
	r.add("p50_us", "p50 (µs)", l.P50)
	r.add("p95_us", "p95 (µs)", l.P95)
	r.add("p99_us", "p99 (µs)", l.P99)
	r.add("max_us", "max (µs)", l.Max)
	r.add("mean_us", "mean (µs)", l.Mean)
	r.add("qps", "queries/s (one goroutine)", n/(l.Mean*n/1e6))
	r.add("allocs_per_op", "allocations per query", float64(after.Mallocs-before.Mallocs)/n)
	r.add("bytes_per_op", "bytes allocated per query", float64(after.TotalAlloc-before.TotalAlloc)/n)
	r.add("mean_results", "results per query (mean)", float64(results)/n)
	r.add("zero_result_queries", "queries with no result", zero)
	r.add("readonly", "read-only (no observations)", readonly)
	r.add("scopes", "scopes", scopes)
	r.add("sample_queries", "sample queries", qs[:min(5, len(qs))])
	return r, nil
}

// sampleQueries builds nq deterministic queries of 1–5 words from a
// sample of the messages ids: common words, rare words, a common and a
// rare word together, people's names, time phrases, and short phrases
// copied from a message.
func sampleQueries(ctx context.Context, m *stratagate.Memory, ids []uint64, nq int, seed uint64) ([]string, error) {
	rng := rand.New(rand.NewPCG(seed, 0x7175657279))
	sample := slices.Clone(ids)
	ns := min(len(sample), max(2000, 2*nq))
	for i := range ns { // partial Fisher–Yates
		j := i + rng.IntN(len(sample)-i)
		sample[i], sample[j] = sample[j], sample[i]
	}
	sample = sample[:ns]
	var texts []string
	for len(sample) > 0 {
		chunk := sample[:min(512, len(sample))]
		sample = sample[len(chunk):]
		msgs, err := m.Messages(ctx, chunk...)
		if err != nil {
			return nil, err
		}
		for _, msg := range msgs {
			texts = append(texts, msg.Content)
		}
	}

	isFirst := setOf(firstNames)
	isLast := setOf(lastNames)
	counts := map[string]int{}
	nameSet := map[string]bool{}
	var phrases [][]string // word runs of the messages, for phrase queries
	var terms []string
	for _, text := range texts {
		words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' })
		if len(words) >= 2 {
			phrases = append(phrases, words)
		}
		for i, w := range words {
			if terms = bm25.AppendTerms(terms[:0], w); len(terms) == 1 {
				counts[strings.ToLower(w)]++
			}
			if isFirst[w] {
				if i+1 < len(words) && isLast[words[i+1]] {
					nameSet[w+" "+words[i+1]] = true
				} else {
					nameSet[w] = true
				}
			}
		}
	}
	byCount := make([]string, 0, len(counts))
	for w := range counts {
		byCount = append(byCount, w)
	}
	slices.SortFunc(byCount, func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b))
	})
	common := byCount[:min(200, len(byCount))]
	var rare []string
	for _, w := range byCount {
		if counts[w] == 1 {
			rare = append(rare, w)
		}
	}
	if len(rare) == 0 {
		rare = byCount[len(byCount)-min(200, len(byCount)):]
	}
	names := make([]string, 0, len(nameSet))
	for n := range nameSet {
		names = append(names, n)
	}
	slices.Sort(names)
	if len(names) == 0 {
		names = common
	}
	if len(common) == 0 {
		return nil, fmt.Errorf("the sampled messages hold no searchable word")
	}

	pick := func(l []string) string { return l[rng.IntN(len(l))] }
	qs := make([]string, 0, nq)
	for len(qs) < nq {
		var parts []string
		switch n := rng.IntN(100); {
		case n < 30: // common words
			for range 1 + rng.IntN(3) {
				parts = append(parts, pick(common))
			}
		case n < 50: // rare words
			for range 1 + rng.IntN(2) {
				parts = append(parts, pick(rare))
			}
		case n < 65: // common and rare
			for range 1 + rng.IntN(2) {
				parts = append(parts, pick(common))
			}
			for range 1 + rng.IntN(2) {
				parts = append(parts, pick(rare))
			}
		case n < 80: // a person
			parts = append(parts, pick(names))
			if rng.IntN(2) == 0 {
				parts = append(parts, pick(common))
			}
		case n < 90: // a time phrase
			if rng.IntN(2) == 0 {
				parts = append(parts, pick(names))
			}
			parts = append(parts, pick(timePhrases))
		default: // a phrase from a message
			if len(phrases) == 0 {
				parts = append(parts, pick(common))
				break
			}
			ws := phrases[rng.IntN(len(phrases))]
			l := min(len(ws), 2+rng.IntN(4))
			i := rng.IntN(len(ws) - l + 1)
			parts = append(parts, ws[i:i+l]...)
		}
		words := strings.Fields(strings.Join(parts, " "))
		qs = append(qs, strings.Join(words[:min(5, len(words))], " "))
	}
	return qs, nil
}

func setOf(l []string) map[string]bool {
	s := make(map[string]bool, len(l))
	for _, x := range l {
		s[x] = true
	}
	return s
}
