package index_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
)

// Queries right after writes, on an index whose cache holds the unions of
// the terms written (extended from them, see extendUnion), rank exactly as
// an index with an empty cache over the same transaction.
func TestSearchAfterWritesEqualsFresh(t *testing.T) {
	db := openDB(t)
	fields := []index.Field{{Name: "title", Weight: 3}, {Name: "body"}, {Name: "tags", Weight: 2}}
	ix := index.New("w", fields, index.Options{})
	r := rand.New(rand.NewPCG(6, 1))
	word := func() string {
		if r.IntN(3) == 0 {
			return fmt.Sprint("common", r.IntN(5))
		}
		return fmt.Sprint("w", r.IntN(400))
	}
	doc := func(id uint64) index.Doc {
		d := index.Doc{ID: id, Scope: []string{"global", "project:a"}[r.IntN(2)], Fields: make([][]string, len(fields))}
		for f := range fields {
			for range r.IntN(1 + 8*f) {
				d.Fields[f] = append(d.Fields[f], word())
			}
		}
		return d
	}
	id := uint64(0)
	var first []index.Doc
	for range 2000 {
		id++
		first = append(first, doc(id))
	}
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		_, err := ix.AddBatch(tx, first)
		return err
	}))
	queries := make([]index.Query, 40)
	for i := range queries {
		q := index.Query{Scopes: []string{"global", "project:a"}, K: 10}
		for range 1 + r.IntN(3) {
			q.Terms = append(q.Terms, word())
		}
		queries[i] = q
	}
	for round := range 30 {
		for _, q := range queries { // warm: unions cached
			search(t, db, ix, q)
		}
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			var ds []index.Doc
			for range 1 + r.IntN(6) {
				id++
				ds = append(ds, doc(id))
			}
			if round%2 == 0 {
				_, err := ix.AddBatch(tx, ds)
				return err
			}
			for _, d := range ds {
				if _, err := ix.Add(tx, d); err != nil {
					return err
				}
			}
			return nil
		}))
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			fresh := index.New("w", fields, index.Options{})
			for _, q := range queries {
				got, err := ix.Search(tx, q)
				require.NoError(t, err)
				want, err := fresh.Search(tx, q)
				require.NoError(t, err)
				require.Equal(t, want, got, "round %d query %v", round, q.Terms)
			}
			return nil
		}))
	}
}
