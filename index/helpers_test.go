package index_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

// words splits a space-separated string into terms.
func words(s string) []string { return strings.Fields(s) }

// addAll adds docs to ix in one write transaction.
func addAll(t testing.TB, db *kv.DB, ix *index.Index, docs ...index.Doc) {
	t.Helper()
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for _, d := range docs {
			if _, err := ix.Add(tx, d); err != nil {
				return err
			}
		}
		return nil
	}))
}

// search runs q in a fresh read transaction.
func search(t testing.TB, db *kv.DB, ix *index.Index, q index.Query) []index.Result {
	t.Helper()
	var out []index.Result
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var err error
		out, err = ix.Search(tx, q)
		return err
	}))
	return out
}

// searchBoth runs Search and SearchExhaustive in one read transaction and
// requires them to agree.
func searchBoth(t testing.TB, db *kv.DB, ix *index.Index, q index.Query) []index.Result {
	t.Helper()
	var got []index.Result
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var err error
		if got, err = ix.Search(tx, q); err != nil {
			return err
		}
		want, err := ix.SearchExhaustive(tx, q)
		if err != nil {
			return err
		}
		require.Equal(t, want, got, "query %+v", q)
		return nil
	}))
	return got
}

func ids(rs []index.Result) []uint64 {
	out := make([]uint64, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

// kvPair is one key/value of a bucket tree; Path names the nested bucket.
type kvPair struct {
	Path, Key, Value string
}

// dumpBucket walks bucket name (top level) recursively and returns every
// key/value pair, sub-buckets included (as pairs with a "<bucket>" value),
// in bbolt order. A missing bucket dumps as nil.
func dumpBucket(t testing.TB, db *kv.DB, name string) []kvPair {
	t.Helper()
	var out []kvPair
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(name))
		if b == nil {
			return nil
		}
		return walkBucket(b, "", &out)
	}))
	return out
}

func walkBucket(b *bolt.Bucket, path string, out *[]kvPair) error {
	return b.ForEach(func(k, v []byte) error {
		if v == nil {
			*out = append(*out, kvPair{Path: path, Key: string(k), Value: "<bucket>"})
			return walkBucket(b.Bucket(k), path+"/"+string(k), out)
		}
		*out = append(*out, kvPair{Path: path, Key: string(k), Value: string(bytes.Clone(v))})
		return nil
	})
}

// requireSameTree asserts two dumps are byte-identical and, if not, names
// the first difference (the full dumps are large).
func requireSameTree(t testing.TB, want, got []kvPair) {
	t.Helper()
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			require.Failf(t, "bucket trees differ", "entry %d:\n want %s\n got  %s", i, fmtPair(want[i]), fmtPair(got[i]))
		}
	}
	require.Equal(t, len(want), len(got), "bucket trees have different sizes")
}

func fmtPair(p kvPair) string { return fmt.Sprintf("%s %x = %x", p.Path, p.Key, p.Value) }
