package index_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

// The benchmark corpus: 100,000 single-field messages over a vocabulary of
// 30,000 pseudo-words, Zipf-distributed (s = 1.1), in three scopes. It is
// fully deterministic and built once per test binary, only by benchmarks.
const (
	corpusDocs  = 100_000
	corpusVocab = 30_000
	corpusSeed  = 0x5747_a7e_2025
	corpusBatch = 1000
)

var (
	allScopes = []string{"global", "project:a", "session:x"}

	corpusOnce sync.Once
	corpusDir  string
	corpusDB   *kv.DB
	corpusIx   *index.Index
	corpusErr  error
	vocabOnce  sync.Once
	vocab      []string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if corpusDB != nil {
		_ = corpusDB.Close()
	}
	if corpusDir != "" {
		_ = os.RemoveAll(corpusDir)
	}
	os.Exit(code)
}

// vocabulary returns the 30,000 pseudo-words, index = Zipf rank - 1.
// Words are 2–4 consonant-vowel syllables, unique, and never a stopword.
func vocabulary() []string {
	vocabOnce.Do(func() {
		rng := rand.New(rand.NewPCG(corpusSeed, 1))
		const cons, vows = "bcdfghjklmnprstvwz", "aeiou"
		seen := make(map[string]bool, corpusVocab)
		var sb strings.Builder
		for len(vocab) < corpusVocab {
			sb.Reset()
			for range 2 + rng.IntN(3) {
				sb.WriteByte(cons[rng.IntN(len(cons))])
				sb.WriteByte(vows[rng.IntN(len(vows))])
			}
			w := sb.String()
			if seen[w] || bm25.IsStopword(w) {
				continue
			}
			seen[w] = true
			vocab = append(vocab, w)
		}
	})
	return vocab
}

// corpusDocsGen yields the corpus documents in order (id = position + 1).
func corpusDocsGen(n int, yield func(index.Doc)) {
	v := vocabulary()
	rng := rand.New(rand.NewPCG(corpusSeed, 2))
	z := rand.NewZipf(rng, 1.1, 1, corpusVocab-1)
	for i := range n {
		terms := make([]string, 5+rng.IntN(36))
		for j := range terms {
			terms[j] = v[z.Uint64()]
		}
		var scope string
		switch r := rng.IntN(10); {
		case r < 6:
			scope = "global"
		case r < 9:
			scope = "project:a"
		default:
			scope = "session:x"
		}
		yield(index.Doc{ID: uint64(i + 1), Scope: scope, Fields: [][]string{terms}})
	}
}

func addBatches(db *kv.DB, ix *index.Index, docs []index.Doc) error {
	for i := 0; i < len(docs); i += corpusBatch {
		err := db.Update(func(tx *bolt.Tx) error {
			for _, d := range docs[i:min(i+corpusBatch, len(docs))] {
				if _, err := ix.Add(tx, d); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// corpus returns the persisted 100k index, building it on first use.
func corpus(b *testing.B) (*kv.DB, *index.Index) {
	b.Helper()
	corpusOnce.Do(func() {
		start := time.Now()
		if corpusDir, corpusErr = os.MkdirTemp("", "sg-index-bench-"); corpusErr != nil {
			return
		}
		if corpusDB, corpusErr = kv.Open(filepath.Join(corpusDir, "bench.sg"), kv.Options{NoSync: true}); corpusErr != nil {
			return
		}
		corpusIx = index.New("bench", []index.Field{{Name: "text"}}, index.Options{})
		docs := make([]index.Doc, 0, corpusBatch)
		corpusDocsGen(corpusDocs, func(d index.Doc) {
			if corpusErr != nil {
				return
			}
			docs = append(docs, d)
			if len(docs) == corpusBatch {
				corpusErr = addBatches(corpusDB, corpusIx, docs)
				docs = docs[:0]
			}
		})
		if corpusErr == nil {
			corpusErr = addBatches(corpusDB, corpusIx, docs)
		}
		fi, _ := os.Stat(filepath.Join(corpusDir, "bench.sg"))
		var size int64
		if fi != nil {
			size = fi.Size()
		}
		fmt.Fprintf(os.Stderr, "bench corpus: %d docs built in %v, file %d MB\n", corpusDocs, time.Since(start).Round(time.Millisecond), size>>20)
	})
	if corpusErr != nil {
		b.Fatal(corpusErr)
	}
	return corpusDB, corpusIx
}

// benchQueries returns n deterministic queries of nt terms mixing frequent
// words (Zipf ranks 1–100) and rare ones (ranks 1000–29999): a one-term
// query alternates between the two, longer ones have at least one of each.
func benchQueries(seed uint64, n, nt int, scopes []string) []index.Query {
	v := vocabulary()
	rng := rand.New(rand.NewPCG(corpusSeed, seed))
	frequent := func() string { return v[rng.IntN(100)] }
	rare := func() string { return v[999+rng.IntN(corpusVocab-999)] }
	qs := make([]index.Query, n)
	for i := range qs {
		terms := make([]string, nt)
		for j := range terms {
			switch {
			case nt == 1 && i%2 == 0, nt > 1 && j == 0:
				terms[j] = frequent()
			case nt == 1, j == 1:
				terms[j] = rare()
			case rng.IntN(2) == 0:
				terms[j] = frequent()
			default:
				terms[j] = rare()
			}
		}
		rng.Shuffle(len(terms), func(a, b int) { terms[a], terms[b] = terms[b], terms[a] })
		qs[i] = index.Query{Terms: terms, Scopes: scopes, K: 10}
	}
	return qs
}

// reportLatency reports p50/p95/p99 of the recorded per-query latencies.
func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(p int) float64 {
		i := min(len(lat)*p/100, len(lat)-1)
		return float64(lat[i].Nanoseconds()) / 1e3
	}
	b.ReportMetric(at(50), "p50-µs")
	b.ReportMetric(at(95), "p95-µs")
	b.ReportMetric(at(99), "p99-µs")
}

type searchFn func(*index.Index, *bolt.Tx, index.Query) ([]index.Result, error)

var (
	pruned     searchFn = (*index.Index).Search
	exhaustive searchFn = (*index.Index).SearchExhaustive
)

// benchSearch runs qs cyclically inside one long-lived read transaction
// (or, if perView, one db.View per query), after one warming pass.
func benchSearch(b *testing.B, db *kv.DB, ix *index.Index, qs []index.Query, fn searchFn, perView bool) {
	tx, err := db.Bolt().Begin(false)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	var hits int
	for _, q := range qs {
		rs, err := fn(ix, tx, q)
		if err != nil {
			b.Fatal(err)
		}
		hits += len(rs)
	}
	if hits == 0 {
		b.Fatal("queries match nothing")
	}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		q := qs[i%len(qs)]
		t0 := time.Now()
		if perView {
			err = db.View(func(vtx *bolt.Tx) error {
				_, err := fn(ix, vtx, q)
				return err
			})
		} else {
			_, err = fn(ix, tx, q)
		}
		lat = append(lat, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportLatency(b, lat)
}

var benchScopes = []struct {
	name   string
	scopes []string
}{{"all", allScopes}, {"one", []string{"project:a"}}}

func BenchmarkSearch(b *testing.B) {
	db, ix := corpus(b)
	for _, nt := range []int{1, 3, 5} {
		for si, sc := range benchScopes {
			qs := benchQueries(uint64(100+10*nt+si), 1000, nt, sc.scopes)
			b.Run(fmt.Sprintf("terms=%d/scope=%s/mix", nt, sc.name), func(b *testing.B) {
				benchSearch(b, db, ix, qs, pruned, false)
			})
		}
	}
	qs := benchQueries(130, 1000, 3, allScopes)
	b.Run("view-per-query/terms=3/scope=all/mix", func(b *testing.B) {
		benchSearch(b, db, ix, qs, pruned, true)
	})
}

// BenchmarkSearchExhaustive scores every match: compare with BenchmarkSearch
// (same queries) to see what MaxScore pruning saves.
func BenchmarkSearchExhaustive(b *testing.B) {
	db, ix := corpus(b)
	for si, sc := range benchScopes {
		qs := benchQueries(uint64(100+10*3+si), 1000, 3, sc.scopes)
		b.Run(fmt.Sprintf("terms=3/scope=%s/mix", sc.name), func(b *testing.B) {
			benchSearch(b, db, ix, qs, exhaustive, false)
		})
	}
}

// BenchmarkIndexBuild adds 10,000 corpus messages to a fresh index in
// 1,000-document transactions, one Add per message.
func BenchmarkIndexBuild(b *testing.B) { benchBuild(b, addBatches) }

// BenchmarkIndexAddBatch adds the same messages in 1,000-document
// AddBatch calls, one transaction each: the path of a raw index merge and
// of an inline chain's event cards.
func BenchmarkIndexAddBatch(b *testing.B) {
	benchBuild(b, func(db *kv.DB, ix *index.Index, docs []index.Doc) error {
		for j := 0; j < len(docs); j += corpusBatch {
			if err := db.Update(func(tx *bolt.Tx) error {
				_, err := ix.AddBatch(tx, docs[j:min(j+corpusBatch, len(docs))])
				return err
			}); err != nil {
				return err
			}
		}
		return nil
	})
}

// benchBuild times add filling a fresh index with 10,000 corpus messages.
func benchBuild(b *testing.B, add func(*kv.DB, *index.Index, []index.Doc) error) {
	const n = 10_000
	docs := make([]index.Doc, 0, n)
	corpusDocsGen(n, func(d index.Doc) { docs = append(docs, d) })
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		db, err := kv.Open(filepath.Join(b.TempDir(), fmt.Sprint("build", i, ".sg")), kv.Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		ix := index.New("build", []index.Field{{Name: "text"}}, index.Options{})
		b.StartTimer()
		if err := add(db, ix, docs); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "docs/s")
}
