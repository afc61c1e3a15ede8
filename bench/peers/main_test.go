package main

import (
	"bytes"
	"context"
	"encoding/json"
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
			BuildMsgsPerS float64  `json:"build_msgs_per_s"`
			BytesPerMsg   float64  `json:"bytes_per_msg"`
			P50           float64  `json:"p50_us"`
			P95           float64  `json:"p95_us"`
			P99           float64  `json:"p99_us"`
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
		if e.BuildMsgsPerS <= 0 || e.BytesPerMsg <= 0 || e.P50 <= 0 || e.P50 > e.P95 || e.P95 > e.P99 {
			t.Errorf("%s: implausible %+v", e.Name, e)
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
	for _, args := range [][]string{{"-bogus"}, {"-n", "1"}, {"-engines", "lucene"}, {"extra"}} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
