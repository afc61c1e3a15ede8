package index

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// A multi-field term's union of docs is merged once per set of lists and
// reused; a write to any of its fields' lists makes the next query merge
// again, so a new doc is never missed.
func TestUnionMemo(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "u.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	ix := New("u", []Field{{Name: "title"}, {Name: "body"}}, Options{})
	add := func(id uint64, title, body string) {
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			_, err := ix.Add(tx, Doc{ID: id, Scope: "s", Fields: [][]string{{title}, {body}}})
			return err
		}))
	}
	search := func() []uint64 {
		var ids []uint64
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			rs, err := ix.Search(tx, Query{Terms: []string{"x"}, Scopes: []string{"s"}, K: 10})
			for _, r := range rs {
				ids = append(ids, r.ID)
			}
			return err
		}))
		return ids
	}
	memo := func() *unionMemo {
		var m *unionMemo
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			b, err := ix.buckets(tx)
			require.NoError(t, err)
			p, err := ix.term(b, 0, "x")
			require.NoError(t, err)
			m = p.union.Load()
			return nil
		}))
		return m
	}
	add(1, "x", "y")
	add(2, "y", "x")
	require.ElementsMatch(t, []uint64{1, 2}, search())
	first := memo()
	require.NotNil(t, first)
	require.Equal(t, []uint32{1, 2}, first.docs)
	require.ElementsMatch(t, []uint64{1, 2}, search())
	require.Same(t, first, memo(), "the second query reuses the merge")

	add(3, "y", "x") // only the body field's list changes
	require.ElementsMatch(t, []uint64{1, 2, 3}, search())
	require.NotSame(t, first, memo())
	require.Equal(t, []uint32{1, 2, 3}, memo().docs)
}
