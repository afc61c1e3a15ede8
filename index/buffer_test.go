package index_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

// addDocs returns the Add docs of a random history (deletes dropped), with
// record ids in doc order.
func addDocs(rng *rand.Rand, n int) []index.Doc {
	var out []index.Doc
	for _, o := range randomHistory(rng, n) {
		if !o.del {
			out = append(out, o.doc)
		}
	}
	return out
}

var twoFields = []index.Field{{Name: "a", Weight: 2}, {Name: "b"}}

// TestAddBatchEqualsAdd: AddBatch in batches of varied sizes (1, 7, 300, and
// one batch of a whole run of a frequent term that spans posting blocks)
// leaves the index that one Add per document leaves, key for key.
func TestAddBatchEqualsAdd(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	docs := addDocs(rand.New(rand.NewPCG(seed, 2)), 1200)
	for i := range 300 { // one term in 300 consecutive docs: several posting blocks
		docs = append(docs, index.Doc{ID: uint64(100000 + i), Scope: "global", Fields: [][]string{words("often"), words("often again")}})
	}
	one, many := openDB(t), openDB(t)
	ixOne, ixMany := index.New("t", twoFields, index.Options{}), index.New("t", twoFields, index.Options{})
	addAll(t, one, ixOne, docs...)
	sizes := []int{1, 7, 300, 1, 900}
	for i := 0; i < len(docs); {
		n := min(sizes[i%len(sizes)], len(docs)-i)
		require.NoError(t, many.Update(func(tx *bolt.Tx) error {
			first, err := ixMany.AddBatch(tx, docs[i:i+n])
			require.Equal(t, uint32(i+1), first)
			return err
		}))
		i += n
	}
	require.NoError(t, many.View(func(tx *bolt.Tx) error {
		return one.View(func(otx *bolt.Tx) error { return index.Compare(ixMany, tx, ixOne, otx) })
	}))
}

func TestAddBatchErrors(t *testing.T) {
	db := openDB(t)
	ix := index.New("t", twoFields, index.Options{})
	good := index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("x"), nil}}
	for name, batch := range map[string][]index.Doc{
		"fields":        {{ID: 2, Scope: "s", Fields: [][]string{words("x")}}},
		"keyword":       {good, {ID: 2, Scope: "s", Fields: [][]string{nil, nil}, Keywords: []string{"a\x00b"}}},
		"twice":         {good, good},
		"already added": {{ID: 9, Scope: "s", Fields: [][]string{nil, nil}}},
	} {
		t.Run(name, func(t *testing.T) {
			if name == "already added" {
				require.NoError(t, db.Update(func(tx *bolt.Tx) error { _, err := ix.Add(tx, batch[0]); return err }))
			}
			err := db.Update(func(tx *bolt.Tx) error { _, err := ix.AddBatch(tx, batch); return err })
			require.Error(t, err)
			require.True(t, errorIsAny(err, index.ErrSchema, index.ErrDuplicate), "%v", err)
		})
	}
}

func errorIsAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

// TestBufferSearchEqualsMerged: a query over a persisted index plus a
// Buffer returns exactly (ids, doc numbers, scores) what it returns once the
// buffer is merged, for random queries with scope, keyword and time
// filters, a window that stops before the buffer's end, and after a
// Truncate. Pruned and exhaustive evaluation agree throughout.
func TestBufferSearchEqualsMerged(t *testing.T) {
	for _, fields := range [][]index.Field{{{Name: "a"}}, twoFields} {
		t.Run(fmt.Sprintf("%d fields", len(fields)), func(t *testing.T) {
			seed := rand.Uint64()
			t.Logf("seed %d", seed)
			rng := rand.New(rand.NewPCG(seed, 3))
			docs := addDocs(rng, 1600)
			for i := range docs {
				docs[i].Fields = docs[i].Fields[:len(fields)]
			}
			persisted, buffered := docs[:1000], docs[1000:]

			split, merged := openDB(t), openDB(t)
			ixSplit := index.New("t", fields, index.Options{})
			ixMerged := index.New("t", fields, index.Options{})
			addAll(t, split, ixSplit, persisted...)
			buf := ixSplit.NewBuffer(uint32(len(persisted) + 1))
			for _, d := range buffered {
				_, err := buf.Add(d)
				require.NoError(t, err)
			}
			// A document added then truncated leaves no trace.
			_, err := buf.Add(index.Doc{ID: 1 << 40, Scope: "global", Fields: make([][]string, len(fields))})
			require.NoError(t, err)
			buf.Truncate(len(buffered))
			require.Equal(t, len(buffered), buf.Len())

			end := len(docs) - 50 // the query sees the buffer up to here
			addAll(t, merged, ixMerged, docs[:end]...)

			scopes := []string{"global", "project:a", "session:x"}
			t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
			fromBuffer, fromIndex := 0, 0
			for i := range 400 {
				q := index.Query{K: 1 + rng.IntN(15), Scopes: scopes[:1+rng.IntN(3)]}
				for range 1 + rng.IntN(4) {
					terms := docs[rng.IntN(len(docs))].Fields[rng.IntN(len(fields))]
					if len(terms) > 0 {
						q.Terms = append(q.Terms, terms[rng.IntN(len(terms))])
					}
				}
				if i%4 == 1 {
					q.Keywords = []string{fmt.Sprint("kw", rng.IntN(6))}
				}
				if i%5 == 2 {
					q.From = t0.Add(time.Duration(rng.IntN(1e6)) * time.Second)
					q.To = q.From.Add(time.Duration(rng.IntN(3e5)) * time.Second)
				}
				want := searchBoth(t, merged, ixMerged, q)
				bq := q
				bq.Pending, bq.PendingEnd = buf, uint32(end)
				got := searchBoth(t, split, ixSplit, bq)
				require.Equal(t, want, got, "query %d: %+v", i, q)
				for _, r := range got {
					if r.Doc > uint32(len(persisted)) {
						fromBuffer++
					} else {
						fromIndex++
					}
				}
			}
			// Both parts answer: the test compares something.
			require.Greater(t, fromBuffer, 100)
			require.Greater(t, fromIndex, 100)
		})
	}
}

// A Buffer that does not reach back to the persisted documents (taken
// from before a merge) is refused rather than answering with a hole.
func TestBufferGap(t *testing.T) {
	db := openDB(t)
	ix := index.New("t", twoFields, index.Options{})
	addAll(t, db, ix, index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("x"), nil}})
	buf := ix.NewBuffer(3) // doc 2 is missing
	_, err := buf.Add(index.Doc{ID: 3, Scope: "s", Fields: [][]string{words("x"), nil}})
	require.NoError(t, err)
	require.False(t, buf.Covers(1, 3))
	require.True(t, buf.Covers(3, 3))
	err = db.View(func(tx *bolt.Tx) error {
		_, err := ix.Search(tx, index.Query{Terms: words("x"), Scopes: []string{"s"}, Pending: buf, PendingEnd: 3})
		return err
	})
	require.ErrorIs(t, err, index.ErrBufferGap)

	// A buffer whose first documents were merged meanwhile is fine: they
	// are read from the index.
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		_, err := ix.Add(tx, index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("x y"), nil}})
		return err
	}))
	buf2 := ix.NewBuffer(2)
	for _, id := range []uint64{2, 3} {
		_, err := buf2.Add(index.Doc{ID: id, Scope: "s", Fields: [][]string{words("x y"), nil}})
		require.NoError(t, err)
	}
	got := search(t, db, ix, index.Query{Terms: words("y"), Scopes: []string{"s"}, Pending: buf2, PendingEnd: 3})
	require.Equal(t, []uint64{2, 3}, ids(got))
	df, n := buf2.DocFreq(0, "y", 2, 3)
	require.Equal(t, 1, df)
	require.Equal(t, 1, n)
}

// TestMergeBufferEqualsAddBatch: merging a Buffer (documents added, some
// truncated away, over an index that already holds documents) leaves the
// index AddBatch of the same documents leaves, key for key, twice in a
// row; a Buffer that does not start at the index's next document is
// refused and writes nothing.
func TestMergeBufferEqualsAddBatch(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	docs := addDocs(rand.New(rand.NewPCG(seed, 4)), 1500)
	for i := range 200 { // a term in 200 consecutive docs: several posting blocks
		docs = append(docs, index.Doc{ID: uint64(200000 + i), Scope: "global", Fields: [][]string{words("often"), words("often again")}})
	}
	merged, batched := openDB(t), openDB(t)
	ixM, ixB := index.New("t", twoFields, index.Options{}), index.New("t", twoFields, index.Options{})
	require.NoError(t, merged.Update(func(tx *bolt.Tx) error { _, err := ixM.AddBatch(tx, docs[:400]); return err }))
	require.NoError(t, batched.Update(func(tx *bolt.Tx) error { _, err := ixB.AddBatch(tx, docs[:400]); return err }))
	for _, part := range [][]index.Doc{docs[400:1100], docs[1100:]} {
		n := countOf(t, merged, ixM)
		buf := ixM.NewBuffer(n + 1)
		for _, d := range part {
			_, err := buf.Add(d)
			require.NoError(t, err)
		}
		_, err := buf.Add(index.Doc{ID: 1 << 41, Scope: "global", Fields: [][]string{words("gone"), nil}})
		require.NoError(t, err)
		buf.Truncate(len(part))
		require.NoError(t, merged.Update(func(tx *bolt.Tx) error {
			first, err := ixM.MergeBuffer(tx, buf)
			require.Equal(t, n+1, first)
			return err
		}))
		require.NoError(t, batched.Update(func(tx *bolt.Tx) error { _, err := ixB.AddBatch(tx, part); return err }))
		require.NoError(t, merged.View(func(tx *bolt.Tx) error {
			return batched.View(func(btx *bolt.Tx) error { return index.Compare(ixM, tx, ixB, btx) })
		}))
	}

	n := countOf(t, merged, ixM)
	stale := ixM.NewBuffer(n) // one behind
	_, err := stale.Add(index.Doc{ID: 1 << 42, Scope: "global", Fields: [][]string{words("late"), nil}})
	require.NoError(t, err)
	err = merged.Update(func(tx *bolt.Tx) error { _, err := ixM.MergeBuffer(tx, stale); return err })
	require.Error(t, err)
	require.Equal(t, n, countOf(t, merged, ixM))
}

func countOf(t *testing.T, db *kv.DB, ix *index.Index) uint32 {
	t.Helper()
	var n int
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = ix.Count(tx)
		return err
	}))
	return uint32(n)
}
