package index_test

// Regression tests of defects found in the index (all fixed): each
// asserts the correct behaviour.

import (
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

var errRollback = errors.New("roll back")

// A transaction that is rolled back can leave cache entries keyed by a
// generation that a later, different commit reuses (stats.Gen rolls back
// with the transaction), so the later state is answered from the stale
// entry.
func TestBugCacheRolledBackGeneration(t *testing.T) {
	t.Run("tombstones", func(t *testing.T) {
		db := openDB(t)
		ix := index.New("a", oneField, index.Options{})
		for id := uint64(1); id <= 3; id++ {
			addAll(t, db, ix, index.Doc{ID: id, Scope: "s", Fields: [][]string{words("x")}})
		}
		err := db.Update(func(tx *bolt.Tx) error {
			require.NoError(t, ix.Delete(tx, 1))
			// Any read of the tombstones now caches {doc 1} at gen 4: a
			// second Delete does, so does a Search.
			_, err := ix.Search(tx, index.Query{Terms: words("x"), Scopes: []string{"s"}})
			require.NoError(t, err)
			return errRollback
		})
		require.ErrorIs(t, err, errRollback)
		require.NoError(t, db.Update(func(tx *bolt.Tx) error { return ix.Delete(tx, 2) })) // tombstones {doc 2} at gen 4
		got := ids(search(t, db, ix, index.Query{Terms: words("x"), Scopes: []string{"s"}}))
		assert.ElementsMatch(t, []uint64{1, 3}, got, "record 2 is deleted, record 1 is live")
	})
	t.Run("postings", func(t *testing.T) {
		db := openDB(t)
		ix := index.New("a", oneField, index.Options{})
		addAll(t, db, ix, index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("x")}})
		err := db.Update(func(tx *bolt.Tx) error {
			for _, d := range []index.Doc{
				{ID: 2, Scope: "s", Fields: [][]string{words("x")}},
				{ID: 3, Scope: "s", Fields: [][]string{words("x")}},
			} {
				_, err := ix.Add(tx, d)
				require.NoError(t, err)
			}
			_, err := ix.Search(tx, index.Query{Terms: words("x"), Scopes: []string{"s"}}) // caches x@gen3 = docs 1,2,3
			require.NoError(t, err)
			return errRollback
		})
		require.ErrorIs(t, err, errRollback)
		addAll(t, db, ix,
			index.Doc{ID: 20, Scope: "s", Fields: [][]string{words("y")}}, // doc 2, no x
			index.Doc{ID: 30, Scope: "s", Fields: [][]string{words("x")}}, // doc 3: x@gen3 = docs 1,3
		)
		got := ids(search(t, db, ix, index.Query{Terms: words("x"), Scopes: []string{"s"}}))
		assert.ElementsMatch(t, []uint64{1, 30}, got, "record 20 does not contain x")
	})
}

// Drop resets the cache, but a reader still open on the pre-Drop snapshot
// refills it; generations restart at 1 in the rebuilt index, so its
// entries collide with the new index's.
func TestBugCacheAcrossDrop(t *testing.T) {
	db := openDB(t)
	growFile(t, db)
	ix := index.New("a", oneField, index.Options{})
	addAll(t, db, ix,
		index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("x")}},
		index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("x")}},
	) // x@gen2 = docs 1,2
	old, err := db.Bolt().Begin(false)
	require.NoError(t, err)
	defer func() { _ = old.Rollback() }()

	done := make(chan error, 1)
	go func() { done <- db.Update(ix.Drop) }()
	require.NoError(t, <-done)
	q := index.Query{Terms: words("x"), Scopes: []string{"s"}}
	_, err = ix.Search(old, q) // refills the cache from the old snapshot
	require.NoError(t, err)
	go func() {
		done <- db.Update(func(tx *bolt.Tx) error {
			for _, d := range []index.Doc{
				{ID: 10, Scope: "s", Fields: [][]string{words("y")}},
				{ID: 20, Scope: "s", Fields: [][]string{words("x")}},
			} { // x@gen2 = doc 2
				if _, err := ix.Add(tx, d); err != nil {
					return err
				}
			}
			return nil
		})
	}()
	require.NoError(t, <-done)
	require.NoError(t, old.Rollback())
	assert.Equal(t, []uint64{20}, ids(search(t, db, ix, q)))
}

// Keyword (and term) chunks are read by a cursor loop that stops at the
// first key of another length under the same prefix. Keywords may contain
// NUL after their first byte, so keyword "k\x00\x00\x00\x00\x00" sorts
// between chunk 0 and chunk 1 of keyword "k" and hides every chunk of "k"
// after the first.
func TestBugKeywordPrefixCollision(t *testing.T) {
	db := openDB(t)
	ix := index.New("a", oneField, index.Options{})
	var docs []index.Doc
	for id := uint64(1); id <= 4200; id++ { // doc numbers 1..4200: keyword chunks 0 and 1
		docs = append(docs, index.Doc{ID: id, Scope: "s", Fields: [][]string{words("x")}, Keywords: []string{"k"}})
	}
	addAll(t, db, ix, docs...)
	// A keyword that extends another with 0x00 bytes would sort between its
	// chunks: such keywords are refused.
	err := db.Update(func(tx *bolt.Tx) error {
		_, err := ix.Add(tx, index.Doc{ID: 1000, Scope: "s", Fields: [][]string{words("y")}, Keywords: []string{"k\x00\x00\x00\x00\x00"}})
		return err
	})
	assert.ErrorIs(t, err, index.ErrSchema)
	got := search(t, db, ix, index.Query{Terms: words("x"), Scopes: []string{"s"}, Keywords: []string{"k"}, K: 5000})
	assert.Equal(t, 4200, len(got), "both keyword chunks are read")
}

// For a single-field index Search scores with bm25.DefaultParams and
// ignores the field's B (and Weight); the multi-field path honours both.
func TestBugSingleFieldIgnoresB(t *testing.T) {
	db := openDB(t)
	ix := index.New("a", []index.Field{{Name: "text", B: -1}}, index.Options{}) // no length normalisation
	addAll(t, db, ix,
		index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("x")}},
		index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("x a b c d e f g")}},
	)
	got := search(t, db, ix, index.Query{Terms: words("x"), Scopes: []string{"s"}})
	require.Len(t, got, 2)
	assert.Equal(t, got[0].Score, got[1].Score, "with B=0 document length must not matter")
}

// A corrupt doc record makes Search fail with an error that does not wrap
// kv.ErrCorrupt (docID discards the decode error). Doc 1 is the first
// entry of docs chunk 0.
func TestBugCorruptDocRecordNotErrCorrupt(t *testing.T) {
	db := openDB(t)
	ix := index.New("a", oneField, index.Options{})
	addAll(t, db, ix, index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("x")}})
	putRaw(t, db, "a", "docs", binary.BigEndian.AppendUint32(nil, 0), []byte{2, 0xc1})
	err := db.View(func(tx *bolt.Tx) error {
		_, err := ix.Search(tx, index.Query{Terms: words("x"), Scopes: []string{"s"}})
		return err
	})
	require.Error(t, err)
	assert.ErrorIs(t, err, kv.ErrCorrupt)
}

// A term record with a huge document frequency makes term() allocate
// DF-sized slices before reading a single block: a 23-byte corruption with
// DF = 2^32-1 asks for ~40 GB and kills the process (fatal OOM, not
// recoverable) instead of returning kv.ErrCorrupt. Reproduced safely with
// DF = 50M: a one-posting term then allocates ~500 MB.
func TestBugCorruptDFAllocation(t *testing.T) {
	db := openDB(t)
	ix := index.New("a", oneField, index.Options{CacheEntries: -1})
	addAll(t, db, ix, index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("x")}})
	rec := make([]byte, 23)
	rec[0] = 2
	binary.BigEndian.PutUint32(rec[1:], 50_000_000) // DF
	binary.BigEndian.PutUint16(rec[5:], 1)          // maxTF
	binary.BigEndian.PutUint32(rec[7:], 1)          // last doc
	binary.BigEndian.PutUint32(rec[11:], 1)         // last block
	binary.BigEndian.PutUint64(rec[15:], 1)         // gen
	putRaw(t, db, "a", "terms", append([]byte{0}, 'x'), rec)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := db.View(func(tx *bolt.Tx) error {
		_, err := ix.Search(tx, index.Query{Terms: words("x"), Scopes: []string{"s"}})
		return err
	})
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, alloc, uint64(10<<20), "allocated %d MB for a one-posting term (err %v)", alloc>>20, err)
}
