package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func TestCorpusDeterministic(t *testing.T) {
	a, b := newCorpus(200, 5), newCorpus(200, 5)
	for i := range a.docs {
		if a.docs[i] != b.docs[i] {
			t.Fatalf("doc %d differs: %+v vs %+v", i, a.docs[i], b.docs[i])
		}
	}
	qa, qb := a.queries(50, 5), b.queries(50, 5)
	for i := range qa {
		if qa[i] != qb[i] {
			t.Fatalf("query %d differs: %q vs %q", i, qa[i], qb[i])
		}
	}
	if c := newCorpus(200, 6); c.docs[0].text == a.docs[0].text {
		t.Fatalf("seeds 5 and 6 gave the same first message")
	}
}

// TestPeersSmall runs every engine on a small corpus (SQLite FTS5 only
// when built with -tags sqlite_fts5) and checks the JSON contract.
func TestPeersSmall(t *testing.T) {
	engines := "stratagate,bleve,stratagate-memory"
	if haveFTS5 {
		engines += ",sqlite-fts5"
	}
	var out, errb bytes.Buffer
	args := []string{"-n", "600", "-queries", "60", "-json", "-progress", "0", "-engines", engines, "-dir", t.TempDir()}
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var res struct {
		Docs    int `json:"docs"`
		Engines []struct {
			Name          string   `json:"name"`
			Queries       int      `json:"queries"`
			BuildMsgsPerS float64  `json:"build_msgs_per_s"`
			BytesPerMsg   float64  `json:"bytes_per_msg"`
			P50           float64  `json:"p50_us"`
			P95           float64  `json:"p95_us"`
			P99           float64  `json:"p99_us"`
			Max           float64  `json:"max_us"`
			MeanResults   float64  `json:"mean_results"`
			Overlap       *float64 `json:"overlap_at_k"`
			Uncompacted   float64  `json:"uncompacted_bytes_per_msg"`
			Compacted     float64  `json:"compacted_bytes_per_msg"`
		} `json:"engines"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if res.Docs != 600 {
		t.Errorf("docs = %d, want 600", res.Docs)
	}
	want := 3
	if haveFTS5 {
		want = 4
	}
	if len(res.Engines) != want {
		t.Fatalf("%d engines, want %d: %s", len(res.Engines), want, out.String())
	}
	for _, e := range res.Engines {
		if e.BuildMsgsPerS <= 0 || e.BytesPerMsg <= 0 || e.P50 <= 0 || e.P50 > e.P95 || e.P95 > e.P99 || e.P99 > e.Max {
			t.Errorf("%s: implausible %+v", e.Name, e)
		}
		if e.Queries != 60 {
			t.Errorf("%s: %d measured queries, want 60", e.Name, e.Queries)
		}
		// Every engine ORs the same terms over the same corpus, so each
		// finds min(k, matches) documents for every query.
		if e.MeanResults != res.Engines[0].MeanResults {
			t.Errorf("%s: %.3f results per query, stratagate %.3f", e.Name, e.MeanResults, res.Engines[0].MeanResults)
		}
		if e.Overlap == nil || *e.Overlap < 0.5 {
			t.Errorf("%s: overlap with StrataGate %v", e.Name, e.Overlap)
		}
		switch e.Name {
		case "stratagate":
			// Compaction is part of its build: the measured file is smaller.
			if e.Uncompacted < e.BytesPerMsg {
				t.Errorf("stratagate: %.0f bytes/msg before compaction, %.0f after", e.Uncompacted, e.BytesPerMsg)
			}
		case "stratagate-memory":
			if e.Compacted <= 0 || e.Compacted > e.BytesPerMsg {
				t.Errorf("stratagate-memory: %.0f bytes/msg compacted, %.0f live", e.Compacted, e.BytesPerMsg)
			}
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"-bogus"}, "flag provided but not defined"},
		{[]string{"-n", "1"}, "-n must be at least 2"},
		{[]string{"-engines", "lucene"}, `unknown engine "lucene"`},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-peer-queries", "-1"}, "-peer-queries must not be negative (0: as many as -queries), got -1"},
		{[]string{"-peer-queries", "-200", "-queries", "100"}, "-peer-queries must not be negative"},
		{[]string{"-peer-queries", "ten"}, `invalid value "ten" for flag -peer-queries`},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), tc.args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		if !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: stderr %q, want it to contain %q", tc.args, errb.String(), tc.want)
		}
		if out.Len() > 0 {
			t.Errorf("%v: stdout %q, want nothing", tc.args, out.String())
		}
	}
}

// TestPeerQueries checks that -peer-queries bounds the measured queries of
// every engine but stratagate, as the JSON reports them, and that each
// engine's latencies are ordered: max ≥ p99 ≥ p95 ≥ p50 > 0.
func TestPeerQueries(t *testing.T) {
	engines := "stratagate,bleve"
	if haveFTS5 {
		engines += ",sqlite-fts5"
	}
	const queries = 40
	for _, tc := range []struct {
		name      string
		flag      []string // -peer-queries, if any
		wantPeers int      // measured queries of each peer
	}{
		{"default", nil, queries},
		{"budget", []string{"-peer-queries", "15"}, 15},
		{"clamped", []string{"-peer-queries", "500"}, queries},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append([]string{"-n", "2000", "-queries", strconv.Itoa(queries), "-json", "-progress", "0",
				"-engines", engines, "-dir", t.TempDir()}, tc.flag...)
			if code := run(context.Background(), args, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			var res struct {
				Queries     int `json:"queries"`
				PeerQueries int `json:"peer_queries"`
				Engines     []struct {
					Name     string   `json:"name"`
					Queries  int      `json:"queries"`
					P50      float64  `json:"p50_us"`
					P95      float64  `json:"p95_us"`
					P99      float64  `json:"p99_us"`
					Max      float64  `json:"max_us"`
					RatioMax *float64 `json:"ratio_max"`
					Overlap  float64  `json:"overlap_at_k"`
				} `json:"engines"`
			}
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				t.Fatalf("%v: %s", err, out.String())
			}
			if res.Queries != queries || res.PeerQueries != tc.wantPeers {
				t.Errorf("queries %d, peer_queries %d; want %d, %d", res.Queries, res.PeerQueries, queries, tc.wantPeers)
			}
			if n := strings.Count(engines, ",") + 1; len(res.Engines) != n {
				t.Fatalf("%d engines, want %d: %s", len(res.Engines), n, out.String())
			}
			for _, e := range res.Engines {
				want := tc.wantPeers
				if e.Name == "stratagate" {
					want = queries
				}
				if e.Queries != want {
					t.Errorf("%s: %d measured queries, want %d", e.Name, e.Queries, want)
				}
				if e.P50 <= 0 || e.P50 > e.P95 || e.P95 > e.P99 || e.P99 > e.Max {
					t.Errorf("%s: latencies not ordered: p50 %v, p95 %v, p99 %v, max %v", e.Name, e.P50, e.P95, e.P99, e.Max)
				}
				if e.RatioMax == nil || *e.RatioMax <= 0 {
					t.Errorf("%s: ratio_max %v", e.Name, e.RatioMax)
				} else if e.Name == "stratagate" && *e.RatioMax != 1 {
					t.Errorf("stratagate: ratio_max %v, want 1", *e.RatioMax)
				}
				// Over the queries the engine ran, against stratagate's
				// results for the same queries.
				if e.Overlap < 0.5 || e.Overlap > 1 {
					t.Errorf("%s: overlap with StrataGate %v", e.Name, e.Overlap)
				}
			}
		})
	}
}

func TestOverlap(t *testing.T) {
	ref := [][]int{{1, 2}, {3, 4}, {}, {5, 6}}
	for _, tc := range []struct {
		name string
		got  [][]int
		want float64
	}{
		{"same queries", [][]int{{1, 2}, {3, 9}, {}, {7, 8}}, 0.5},
		// A peer that ran only the first two queries is compared on those.
		{"prefix", [][]int{{1, 2}, {3, 9}}, 0.75},
		{"prefix of empties", [][]int{{1, 2}, {3, 4}, {7}}, 1},
		{"none", nil, 0},
	} {
		if got := overlap(ref, tc.got); got != tc.want {
			t.Errorf("%s: overlap %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPrintTable(t *testing.T) {
	res := &result{Docs: 10, Queries: 100, PeerQ: 20, K: 10, Seed: 1, Engines: []engineResult{
		{Name: "stratagate", Queries: 100, P50us: 10, P95us: 20, P99us: 30, MaxUs: 40, RatioMax: 1},
		{Name: "bleve", Queries: 20, P50us: 50, P95us: 60, P99us: 70, MaxUs: 123, RatioMax: 3.075},
	}}
	var b bytes.Buffer
	printTable(&b, res)
	s := b.String()
	for _, want := range []string{
		"queries 100, peer queries 20",
		"queries  p50 µs  p95 µs  p99 µs  max µs",
		"   100      10      20      30      40",
		"    20      50      60      70     123",
		"p99   max",
		"3.08",
		"different query counts",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("table lacks %q:\n%s", want, s)
		}
	}
}
