package index_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

func openDB(t testing.TB) *kv.DB {
	t.Helper()
	db, err := kv.Open(filepath.Join(t.TempDir(), "ix.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// zipfDoc draws a document of n terms from a Zipf vocabulary.
func zipfDoc(z *rand.Zipf, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("w%d", z.Uint64())
	}
	return out
}

// TestPrunedEqualsExhaustive checks that MaxScore returns exactly the ids
// and scores of an exhaustive scorer, with and without filters, for single-
// and multi-field indexes.
func TestPrunedEqualsExhaustive(t *testing.T) {
	for _, nf := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d fields", nf), func(t *testing.T) {
			seed := rand.Uint64()
			t.Logf("seed %d", seed)
			rng := rand.New(rand.NewPCG(seed, 1))
			z := rand.NewZipf(rng, 1.1, 1, 2000)
			fields := make([]index.Field, nf)
			for f := range fields {
				fields[f] = index.Field{Name: fmt.Sprint(f), Weight: float64(f + 1)}
			}
			ix := index.New("t", fields, index.Options{})
			db := openDB(t)
			scopes := []string{"global", "project:a", "project:b"}
			require.NoError(t, db.Update(func(tx *bolt.Tx) error {
				for id := uint64(1); id <= 1500; id++ {
					doc := index.Doc{ID: id * 10, Scope: scopes[rng.IntN(3)], Keywords: []string{fmt.Sprintf("kw%d", rng.IntN(4))}}
					for range nf {
						doc.Fields = append(doc.Fields, zipfDoc(z, 1+rng.IntN(30)))
					}
					if _, err := ix.Add(tx, doc); err != nil {
						return err
					}
				}
				for id := uint64(1); id <= 1500; id += 97 {
					if err := ix.Delete(tx, id*10); err != nil {
						return err
					}
				}
				return nil
			}))
			require.NoError(t, db.View(func(tx *bolt.Tx) error {
				for i := range 1000 {
					q := index.Query{K: 1 + rng.IntN(20), Scopes: scopes[:1+rng.IntN(3)]}
					for range 1 + rng.IntN(5) {
						q.Terms = append(q.Terms, fmt.Sprintf("w%d", z.Uint64()))
					}
					if i%3 == 0 {
						q.Keywords = []string{fmt.Sprintf("kw%d", rng.IntN(4))}
					}
					got, err := ix.Search(tx, q)
					require.NoError(t, err)
					want, err := ix.SearchExhaustive(tx, q)
					require.NoError(t, err)
					require.Equal(t, want, got, "query %d: %+v", i, q)
				}
				return nil
			}))
		})
	}
}

// A search's result does not depend on the searches before it: pooled
// scratch state (per-term field slices and score memos reused across
// queries) never leaks. Queries mix terms present in one field, in both,
// and in none, and are answered in two orders.
func TestSearchIndependentOfPreviousQueries(t *testing.T) {
	for _, fields := range [][]index.Field{
		{{Name: "text", B: 0.3}},
		// A text field and a sparse, unnormalised, light second field:
		// the shape of StrataGate's raw index (text, speaker).
		{{Name: "text", B: 0.3}, {Name: "who", Weight: 0.5, B: -1}},
	} {
		t.Run(fmt.Sprintf("%d fields", len(fields)), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			z := rand.NewZipf(rng, 1.1, 1, 300)
			ix := index.New("t", fields, index.Options{})
			db := openDB(t)
			require.NoError(t, db.Update(func(tx *bolt.Tx) error {
				for id := uint64(1); id <= 400; id++ {
					doc := index.Doc{ID: id, Scope: "global", Fields: [][]string{zipfDoc(z, 1+rng.IntN(20))}}
					if len(fields) == 2 {
						doc.Fields = append(doc.Fields, []string{fmt.Sprintf("w%d", rng.IntN(6))})
					}
					if _, err := ix.Add(tx, doc); err != nil {
						return err
					}
				}
				return nil
			}))
			var qs []index.Query
			for i := range 60 {
				q := index.Query{K: 5, Scopes: []string{"global"}}
				for range 1 + rng.IntN(6) {
					q.Terms = append(q.Terms, fmt.Sprintf("w%d", z.Uint64()))
				}
				if i%4 == 0 {
					q.Terms = append(q.Terms, "absent")
				}
				qs = append(qs, q)
			}
			run := func(backward bool) [][]index.Result {
				out := make([][]index.Result, len(qs))
				require.NoError(t, db.View(func(tx *bolt.Tx) error {
					for j := range qs {
						i := j
						if backward {
							i = len(qs) - 1 - j
						}
						r, err := ix.Search(tx, qs[i])
						if err != nil {
							return err
						}
						out[i] = r
					}
					return nil
				}))
				return out
			}
			got := run(false)
			require.Equal(t, got, run(true))
			nonEmpty := 0
			for _, r := range got {
				if len(r) > 0 {
					nonEmpty++
				}
			}
			require.Greater(t, nonEmpty, len(qs)/2, "the queries match")
		})
	}
}
