package events

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model/heuristic"
	"github.com/stratagate/stratagate/wal"
)

// A synthetic corpus of 100k cards built directly through insert and the
// index (extraction is benchmarked separately), shared by the search
// benchmarks.
var (
	cardsOnce sync.Once
	cardsDB   *kv.DB
	cardsIx   *Index
	cardsErr  error
	cardWords []string
	cardNames []string
)

// Index is a local alias to keep the benchmark readable.
type Index = index.Index

const benchCards = 100_000

func syllableWord(rng *rand.Rand) string {
	const cons, vows = "bcdfghjklmnprstvz", "aeiou"
	n := 2 + rng.IntN(3)
	b := make([]byte, 0, 2*n)
	for range n {
		b = append(b, cons[rng.IntN(len(cons))], vows[rng.IntN(len(vows))])
	}
	return string(b)
}

func buildCards(b *testing.B) {
	cardsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sg-events-bench-")
		if err != nil {
			cardsErr = err
			return
		}
		cardsDB, cardsErr = kv.Open(filepath.Join(dir, "cards.sg"), kv.Options{NoSync: true})
		if cardsErr != nil {
			return
		}
		cardsIx = NewIndex()
		rng := rand.New(rand.NewPCG(1, 2))
		seen := map[string]bool{}
		for len(cardWords) < 30000 {
			w := syllableWord(rng)
			if !seen[w] && !bm25.IsStopword(w) {
				seen[w] = true
				cardWords = append(cardWords, w)
			}
		}
		for i := range 200 {
			cardNames = append(cardNames, fmt.Sprintf("Person%d Name%d", i, i%17))
		}
		z := rand.NewZipf(rng, 1.1, 1, uint64(len(cardWords)-1))
		text := func(n int) string {
			s := make([]byte, 0, 8*n)
			for i := range n {
				if i > 0 {
					s = append(s, ' ')
				}
				s = append(s, cardWords[z.Uint64()]...)
			}
			return string(s)
		}
		base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
		for start := 0; start < benchCards && cardsErr == nil; start += 1000 {
			cardsErr = cardsDB.Update(func(tx *bolt.Tx) error {
				if err := cardsIx.Create(tx); err != nil {
					return err
				}
				for range 1000 {
					day := base.AddDate(0, 0, rng.IntN(1500))
					c := Card{
						Scope: []string{"global", "project:a", "session:x"}[rng.IntN(3)], Thread: fmt.Sprintf("t%d", rng.IntN(20)),
						SourceBlockID: uint64(1 + rng.IntN(10000)), SourceMessageIDs: []uint64{uint64(1 + rng.IntN(1e6))},
						Title: text(6), Summary: text(20), Quotes: []string{text(12)}, Tags: []string{cardWords[z.Uint64()]},
						EventType: Types[rng.IntN(len(Types))], Status: StatusCompleted,
						Participants: []string{cardNames[rng.IntN(len(cardNames))]}, Criticality: CriticalityRoutine,
						Temporal: Temporal{MentionedAt: day.Add(48 * time.Hour), HappenedStart: day, HappenedEnd: day.AddDate(0, 0, 1),
							OriginalText: "two days ago", Precision: "day", Basis: "relative"},
						Lifecycle: LifecycleActive, CreatedAt: day,
					}
					if err := insert(tx, &c); err != nil {
						return err
					}
					if _, err := cardsIx.Add(tx, Doc(&c)); err != nil {
						return err
					}
				}
				return nil
			})
		}
	})
	if cardsErr != nil {
		b.Fatal(cardsErr)
	}
}

// BenchmarkSearchEvents runs the full SearchEvents ranking (BM25F over 8
// fields + structured lists + RRF) over 100k cards. Card weights read the
// card's thread, which this synthetic corpus lacks; Weight then treats the
// thread as having zero turns.
func BenchmarkSearchEvents(b *testing.B) {
	benchSearch(b, func(tx *bolt.Tx, q Query) error {
		_, err := Search(tx, cardsIx, q)
		return err
	})
}

// BenchmarkSearchEventsLexical runs only the lexical list of
// BenchmarkSearchEvents' queries (the index's BM25F top 100), to show
// what of a search's time the structured lists and fusion add.
func BenchmarkSearchEventsLexical(b *testing.B) {
	benchSearch(b, func(tx *bolt.Tx, q Query) error {
		_, err := cardsIx.Search(tx, index.Query{Terms: q.Terms, Scopes: q.Scopes, K: lexicalCandidates})
		return err
	})
}

// BenchmarkSearchEventsAfterWrite is BenchmarkSearchEvents with a card
// committed before each query (untimed): every write moves the index's
// average field lengths, so it shows what a query pays for memos keyed on
// them (the unions' pseudo-frequency tables) when writes and searches
// interleave, as they do for a live agent. It grows the shared corpus by
// one card per iteration, so it runs after the other search benchmarks.
func BenchmarkSearchEventsAfterWrite(b *testing.B) {
	benchSearch(b, func(tx *bolt.Tx, q Query) error {
		_, err := Search(tx, cardsIx, q)
		return err
	}, true)
}

// benchSearch times search over BenchmarkSearchEvents' queries, with a
// card written before each one if write is set.
func benchSearch(b *testing.B, search func(tx *bolt.Tx, q Query) error, write ...bool) {
	buildCards(b)
	rng := rand.New(rand.NewPCG(7, 7))
	var queries []Query
	for range 500 {
		var words []string
		for range 1 + rng.IntN(4) {
			if rng.IntN(2) == 0 {
				words = append(words, cardWords[rng.IntN(100)])
			} else {
				words = append(words, cardWords[1000+rng.IntN(20000)])
			}
		}
		if rng.IntN(3) == 0 {
			words = append(words, cardNames[rng.IntN(len(cardNames))])
		}
		text := fmt.Sprint(words)
		text = text[1 : len(text)-1]
		queries = append(queries, Query{Text: text, Terms: bm25.AppendTerms(nil, text), Scopes: []string{"global", "project:a", "session:x"}, Limit: 10, Now: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)})
	}
	run := func(q Query) {
		if err := cardsDB.View(func(tx *bolt.Tx) error { return search(tx, q) }); err != nil {
			b.Fatal(err)
		}
	}
	for _, q := range queries { // warm the postings cache
		run(q)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if len(write) > 0 && write[0] {
			b.StopTimer()
			c := Card{Scope: "global", Thread: "t1", SourceBlockID: 1, SourceMessageIDs: []uint64{1},
				Title: cardWords[i%100] + " " + cardWords[1000+i%20000], Summary: cardWords[i%50], EventType: Types[0], Status: StatusCompleted,
				Criticality: CriticalityRoutine, Lifecycle: LifecycleActive, CreatedAt: time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC),
				Temporal: Temporal{MentionedAt: time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC), Precision: "day", Basis: "explicit"}}
			if err := cardsDB.Update(func(tx *bolt.Tx) error {
				if err := insert(tx, &c); err != nil {
					return err
				}
				_, err := cardsIx.Add(tx, Doc(&c))
				return err
			}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		t0 := time.Now()
		run(queries[i%len(queries)])
		lat = append(lat, time.Since(t0))
		i++
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
	b.ReportMetric(float64(benchCards), "cards")
}

// BenchmarkExtractBlock measures extraction of one 12-turn block with the
// heuristic model: the model call, validation and the storing transaction
// (rolled back each time so the block stays unextracted).
func BenchmarkExtractBlock(b *testing.B) {
	db, err := kv.Open(filepath.Join(b.TempDir(), "x.sg"), kv.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ix := NewIndex()
	var blockID uint64
	at := time.Date(2024, 5, 8, 18, 0, 0, 0, time.FixedZone("", -7*3600))
	lines := []string{
		"I moved to Seattle last Saturday and start at Cascadia Labs next Monday.",
		"We decided to use Postgres instead of SQLite for Atlas.",
		"Actually, the launch is not on May 20, it moved to June 3rd.",
		"I adopted a parrot called Kiwi yesterday.",
		"I switched to coffee two weeks ago, I used to be a tea person.",
		"Let's deploy on Fly.io next month.",
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if err := ix.Create(tx); err != nil {
			return err
		}
		for i := range 12 {
			msgs := []layers.Message{
				{Role: "user", Speaker: "Leo Park", Content: lines[i%len(lines)], At: at.Add(time.Duration(i) * time.Minute)},
				{Role: "assistant", Speaker: "assistant", Content: "Noted: " + lines[(i+1)%len(lines)], At: at.Add(time.Duration(i)*time.Minute + time.Second)},
			}
			res, err := layers.AppendTurn(tx, "t", "global", "", msgs, 12, at)
			if err != nil {
				return err
			}
			if res.SealedBlockID != 0 {
				blockID = res.SealedBlockID
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	m := heuristic.New()
	now := func() time.Time { return at }
	derive := layers.DeriveHandler(db, m, now)
	apply, err := derive.Run(context.Background(), wal.Job{Target: blockID})
	if err != nil {
		b.Fatal(err)
	}
	if err := db.Update(apply); err != nil {
		b.Fatal(err)
	}
	h := ExtractHandler(db, m, ix, discardLogger(), now)
	errRollback := fmt.Errorf("rollback")
	b.ReportAllocs()
	for b.Loop() {
		apply, err := h.Run(context.Background(), wal.Job{Target: blockID})
		if err != nil {
			b.Fatal(err)
		}
		if err := db.Update(func(tx *bolt.Tx) error {
			if err := apply(tx); err != nil {
				return err
			}
			return errRollback
		}); err != errRollback {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "blocks/s")
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
