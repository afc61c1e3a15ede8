package index_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

var oneField = []index.Field{{Name: "text"}}

func counts(t testing.TB, db *kv.DB, ix *index.Index) (live, count int) {
	t.Helper()
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var err error
		if live, err = ix.Len(tx); err != nil {
			return err
		}
		count, err = ix.Count(tx)
		return err
	}))
	return live, count
}

func TestDelete(t *testing.T) {
	newIndex := func(t *testing.T) (*kv.DB, *index.Index) {
		db := openDB(t)
		ix := index.New("a", oneField, index.Options{})
		addAll(t, db, ix,
			index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("red apple")}},
			index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("green apple")}},
			index.Doc{ID: 3, Scope: "s", Fields: [][]string{words("red cherry")}},
		)
		return db, ix
	}
	t.Run("deleted never returned", func(t *testing.T) {
		db, ix := newIndex(t)
		require.NoError(t, db.Update(func(tx *bolt.Tx) error { return ix.Delete(tx, 1) }))
		assert.Equal(t, []uint64{2}, ids(searchBoth(t, db, ix, index.Query{Terms: words("apple"), Scopes: []string{"s"}})))
		assert.Equal(t, []uint64{3}, ids(searchBoth(t, db, ix, index.Query{Terms: words("red"), Scopes: []string{"s"}})))
		live, count := counts(t, db, ix)
		assert.Equal(t, 2, live)
		assert.Equal(t, 3, count)
	})
	t.Run("unknown id", func(t *testing.T) {
		db, ix := newIndex(t)
		err := db.Update(func(tx *bolt.Tx) error { return ix.Delete(tx, 99) })
		require.ErrorIs(t, err, kv.ErrNotFound)
		live, count := counts(t, db, ix)
		assert.Equal(t, 3, live)
		assert.Equal(t, 3, count)
	})
	t.Run("unknown id on missing index", func(t *testing.T) {
		db := openDB(t)
		ix := index.New("never", oneField, index.Options{})
		err := db.Update(func(tx *bolt.Tx) error { return ix.Delete(tx, 1) })
		require.ErrorIs(t, err, kv.ErrNotFound)
	})
	t.Run("double delete same tx", func(t *testing.T) {
		db, ix := newIndex(t)
		before := dumpBucket(t, db, "idx.a")
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			require.NoError(t, ix.Delete(tx, 2))
			return ix.Delete(tx, 2)
		}))
		live, count := counts(t, db, ix)
		assert.Equal(t, 2, live)
		assert.Equal(t, 3, count)
		assert.NotEqual(t, before, dumpBucket(t, db, "idx.a"))
	})
	t.Run("double delete separate tx is a no-op", func(t *testing.T) {
		db, ix := newIndex(t)
		require.NoError(t, db.Update(func(tx *bolt.Tx) error { return ix.Delete(tx, 2) }))
		after1 := dumpBucket(t, db, "idx.a")
		require.NoError(t, db.Update(func(tx *bolt.Tx) error { return ix.Delete(tx, 2) }))
		requireSameTree(t, after1, dumpBucket(t, db, "idx.a"))
		live, count := counts(t, db, ix)
		assert.Equal(t, 2, live)
		assert.Equal(t, 3, count)
		assert.Equal(t, []uint64{1}, ids(searchBoth(t, db, ix, index.Query{Terms: words("apple"), Scopes: []string{"s"}})))
	})
	t.Run("delete all", func(t *testing.T) {
		db, ix := newIndex(t)
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			for id := uint64(1); id <= 3; id++ {
				if err := ix.Delete(tx, id); err != nil {
					return err
				}
			}
			return nil
		}))
		assert.Empty(t, searchBoth(t, db, ix, index.Query{Terms: words("red green apple cherry"), Scopes: []string{"s"}}))
		live, count := counts(t, db, ix)
		assert.Equal(t, 0, live)
		assert.Equal(t, 3, count)
	})
}

func lookup(t testing.TB, db *kv.DB, ix *index.Index, id uint64) (d uint32, ok bool) {
	t.Helper()
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		d, ok = ix.Lookup(tx, id)
		return nil
	}))
	return d, ok
}

// TestDeleteProperty deletes random records over many transactions,
// querying in between (so cached tombstone bitmaps are exercised), and
// checks that no deleted record is ever returned, that results are exactly
// a brute-force BM25 over the live docs and that Len/Count follow.
func TestDeleteProperty(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	z := rand.NewZipf(rng, 1.1, 1, 300)
	db := openDB(t)
	ix := index.New("a", oneField, index.Options{})
	docs := make([]modelDoc, 800)
	for i := range docs {
		docs[i] = modelDoc{id: uint64(i + 1), scope: "s", terms: zipfDoc(z, 1+rng.IntN(20))}
	}
	addModel(t, db, ix, docs)
	live := len(docs)
	for round := range 20 {
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			for range rng.IntN(30) {
				i := rng.IntN(len(docs))
				if err := ix.Delete(tx, docs[i].id); err != nil {
					return err
				}
				if !docs[i].dead {
					docs[i].dead = true
					live--
				}
			}
			return nil
		}))
		l, c := counts(t, db, ix)
		require.Equal(t, live, l)
		require.Equal(t, len(docs), c)
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			for qi := range 25 {
				q := index.Query{Scopes: []string{"s"}, K: 1 + rng.IntN(20)}
				for range 1 + rng.IntN(3) {
					q.Terms = append(q.Terms, fmt.Sprintf("w%d", z.Uint64()))
				}
				got, err := ix.Search(tx, q)
				require.NoError(t, err)
				for _, r := range got {
					require.False(t, docs[r.Doc-1].dead, "round %d query %d: deleted record %d returned", round, qi, r.ID)
				}
				exh, err := ix.SearchExhaustive(tx, q)
				require.NoError(t, err)
				require.Equal(t, exh, got)
				requireResults(t, modelSearch(docs, q.Terms, q.K, nil), got, "round %d query %d", round, qi)
			}
			return nil
		}))
	}
}

func TestAddErrors(t *testing.T) {
	twoFields := []index.Field{{Name: "title"}, {Name: "body"}}
	good := index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("a"), words("b")}}
	tests := []struct {
		name string
		doc  index.Doc
		want error
	}{
		{"duplicate id", index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("c"), words("d")}}, index.ErrDuplicate},
		{"too few fields", index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("c")}}, index.ErrSchema},
		{"too many fields", index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("c"), words("d"), words("e")}}, index.ErrSchema},
		{"no fields", index.Doc{ID: 2, Scope: "s"}, index.ErrSchema},
		{"keyword starting with NUL", index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("c"), words("d")}, Keywords: []string{"ok", "\x00tomb"}}, index.ErrSchema},
		{"empty keyword", index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("c"), words("d")}, Keywords: []string{""}}, index.ErrSchema},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			ix := index.New("a", twoFields, index.Options{})
			addAll(t, db, ix, good)
			before := dumpBucket(t, db, "idx.a")

			// Alone in its own transaction.
			err := db.Update(func(tx *bolt.Tx) error {
				_, err := ix.Add(tx, tc.doc)
				return err
			})
			require.ErrorIs(t, err, tc.want)

			// After a successful Add in the same transaction, which the
			// caller then rolls back: nothing changes.
			err = db.Update(func(tx *bolt.Tx) error {
				if _, err := ix.Add(tx, index.Doc{ID: 50, Scope: "s", Fields: [][]string{words("c"), words("zzz")}, Keywords: []string{"kw"}, Start: time.Unix(5, 0)}); err != nil {
					return err
				}
				if err := ix.Delete(tx, 1); err != nil {
					return err
				}
				// Searching inside the doomed transaction warms the cache
				// with its uncommitted state.
				if _, err := ix.Search(tx, index.Query{Terms: words("c zzz"), Scopes: []string{"s"}}); err != nil {
					return err
				}
				_, err := ix.Add(tx, tc.doc)
				return err
			})
			require.ErrorIs(t, err, tc.want)
			requireSameTree(t, before, dumpBucket(t, db, "idx.a"))
			live, count := counts(t, db, ix)
			assert.Equal(t, 1, live)
			assert.Equal(t, 1, count)
			_, ok := lookup(t, db, ix, 50)
			assert.False(t, ok)
			assert.Empty(t, searchBoth(t, db, ix, index.Query{Terms: words("zzz"), Scopes: []string{"s"}}))
			assert.Equal(t, []uint64{1}, ids(searchBoth(t, db, ix, index.Query{Terms: words("a b"), Scopes: []string{"s"}})))
		})
	}
	t.Run("duplicate within one tx", func(t *testing.T) {
		db := openDB(t)
		ix := index.New("a", twoFields, index.Options{})
		err := db.Update(func(tx *bolt.Tx) error {
			if _, err := ix.Add(tx, good); err != nil {
				return err
			}
			_, err := ix.Add(tx, good)
			return err
		})
		require.ErrorIs(t, err, index.ErrDuplicate)
		assert.Empty(t, dumpBucket(t, db, "idx.a"), "rolled back: the index bucket was never committed")
	})
	t.Run("index reopened with other fields", func(t *testing.T) {
		db := openDB(t)
		addAll(t, db, index.New("a", oneField, index.Options{}), index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("x")}})
		ix2 := index.New("a", twoFields, index.Options{})
		err := db.Update(func(tx *bolt.Tx) error {
			_, err := ix2.Add(tx, index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("x"), words("y")}})
			return err
		})
		require.ErrorIs(t, err, index.ErrSchema)
		err = db.View(func(tx *bolt.Tx) error {
			_, err := ix2.Search(tx, index.Query{Terms: words("x"), Scopes: []string{"s"}})
			return err
		})
		require.ErrorIs(t, err, index.ErrSchema)
	})
	t.Run("doc numbers dense from 1", func(t *testing.T) {
		db := openDB(t)
		ix := index.New("a", oneField, index.Options{})
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			for i := range 5 {
				d, err := ix.Add(tx, index.Doc{ID: uint64(100 - i), Scope: "s", Fields: [][]string{words("x")}})
				require.NoError(t, err)
				require.Equal(t, uint32(i+1), d)
			}
			return nil
		}))
	})
}

// op is one step of an index history: an Add or (if del) a Delete.
type op struct {
	doc index.Doc
	del bool
}

func randomHistory(rng *rand.Rand, n int) []op {
	z := rand.NewZipf(rng, 1.1, 1, 500)
	scopes := []string{"global", "project:a", "session:x"}
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var ops []op
	var added []uint64
	for i := range n {
		id := uint64(i*3 + 1)
		doc := index.Doc{
			ID:     id,
			Scope:  scopes[rng.IntN(len(scopes))],
			Fields: [][]string{zipfDoc(z, 1+rng.IntN(8)), zipfDoc(z, 1+rng.IntN(30))},
		}
		for range rng.IntN(3) {
			doc.Keywords = append(doc.Keywords, fmt.Sprint("kw", rng.IntN(6)))
		}
		if rng.IntN(2) == 0 {
			doc.Start = t0.Add(time.Duration(rng.IntN(1e6)) * time.Second)
			if rng.IntN(2) == 0 {
				doc.End = doc.Start.Add(time.Duration(rng.IntN(1e5)) * time.Second)
			}
		}
		ops = append(ops, op{doc: doc})
		added = append(added, id)
		if rng.IntN(15) == 0 {
			ops = append(ops, op{doc: index.Doc{ID: added[rng.IntN(len(added))]}, del: true})
		}
	}
	return ops
}

// someTerms returns field f of a random added doc of ops.
func someTerms(rng *rand.Rand, ops []op, f int) []string {
	for {
		if o := ops[rng.IntN(len(ops))]; !o.del {
			return o.doc.Fields[f]
		}
	}
}

func apply(tx *bolt.Tx, ix *index.Index, o op) error {
	if o.del {
		return ix.Delete(tx, o.doc.ID)
	}
	_, err := ix.Add(tx, o.doc)
	return err
}

// TestRebuildIdentity: an index built incrementally over many transactions
// (queried in between, so its cache is warm) is byte-identical, bucket by
// bucket, to the same history applied in one transaction.
func TestRebuildIdentity(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 4))
	ops := randomHistory(rng, 700) // > 2 chunks of 256 doc numbers
	fields := []index.Field{{Name: "title", Weight: 3}, {Name: "body"}}
	db := openDB(t)
	inc := index.New("a", fields, index.Options{})
	for i := 0; i < len(ops); {
		n := min(1+rng.IntN(25), len(ops)-i)
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			for _, o := range ops[i : i+n] {
				if err := apply(tx, inc, o); err != nil {
					return err
				}
			}
			return nil
		}))
		i += n
		q := index.Query{Scopes: []string{"global", "project:a", "session:x"}, Terms: someTerms(rng, ops[:i], 0)}
		if rng.IntN(3) == 0 {
			q.Keywords = []string{fmt.Sprint("kw", rng.IntN(6))}
		}
		_ = search(t, db, inc, q)
	}
	cp := index.New("copy", fields, index.Options{})
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for _, o := range ops {
			if err := apply(tx, cp, o); err != nil {
				return err
			}
		}
		return nil
	}))
	a, c := dumpBucket(t, db, "idx.a"), dumpBucket(t, db, "idx.copy")
	require.NotEmpty(t, a)
	requireSameTree(t, a, c)

	// Both answer identically.
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for range 100 {
			q := index.Query{Scopes: []string{"global", "project:a"}, Terms: someTerms(rng, ops, 1), K: 5}
			r1, err := inc.Search(tx, q)
			require.NoError(t, err)
			r2, err := cp.Search(tx, q)
			require.NoError(t, err)
			require.Equal(t, r1, r2)
		}
		return nil
	}))
}

// growFile makes the file (and so bbolt's mmap) large enough that small
// commits while a read transaction is open never need to remap, which
// would block on that reader.
func growFile(t testing.TB, db *kv.DB) {
	t.Helper()
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("filler"))
		if err != nil {
			return err
		}
		v := make([]byte, 4096)
		for i := range 2048 {
			if err := b.Put(kv.Key(uint64(i)), v); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, db.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket([]byte("filler")) }))
}

// TestCacheMVCC: a read transaction that warmed the cache keeps seeing its
// snapshot while a later one sees a newer commit; and results never depend
// on the cache.
func TestCacheMVCC(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cache int
	}{{"default cache", 0}, {"tiny cache", 8}, {"cache disabled", -1}} {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			growFile(t, db)
			ix := index.New("a", oneField, index.Options{CacheEntries: tc.cache})
			nocache := index.New("a", oneField, index.Options{CacheEntries: -1})
			addAll(t, db, ix,
				index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("x y")}, Keywords: []string{"k"}},
				index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("y z")}, Keywords: []string{"k"}},
			)
			q := index.Query{Terms: words("x"), Scopes: []string{"s"}, Keywords: []string{"k"}}

			old, err := db.Bolt().Begin(false)
			require.NoError(t, err)
			defer func() { _ = old.Rollback() }()
			r0, err := ix.Search(old, q)
			require.NoError(t, err)
			require.Equal(t, []uint64{1}, ids(r0))

			done := make(chan error, 1)
			go func() {
				done <- db.Update(func(tx *bolt.Tx) error {
					for _, d := range []index.Doc{
						{ID: 3, Scope: "s", Fields: [][]string{words("x x x")}, Keywords: []string{"k"}},
						{ID: 4, Scope: "s", Fields: [][]string{words("x")}, Keywords: []string{"k"}},
					} {
						if _, err := ix.Add(tx, d); err != nil {
							return err
						}
					}
					return ix.Delete(tx, 1)
				})
			}()
			select {
			case err := <-done:
				require.NoError(t, err)
			case <-time.After(10 * time.Second):
				t.Fatal("write blocked by the open read transaction (mmap growth)")
			}

			var r1 []index.Result
			require.NoError(t, db.View(func(tx *bolt.Tx) error {
				var err error
				r1, err = ix.Search(tx, q)
				require.NoError(t, err)
				want, err := nocache.Search(tx, q)
				require.NoError(t, err)
				require.Equal(t, want, r1)
				return nil
			}))
			assert.Equal(t, []uint64{3, 4}, ids(r1))

			// The old snapshot, now with a cache holding newer entries.
			again, err := ix.Search(old, q)
			require.NoError(t, err)
			assert.Equal(t, r0, again)
			want, err := nocache.Search(old, q)
			require.NoError(t, err)
			assert.Equal(t, want, again)
			n, err := ix.Len(old)
			require.NoError(t, err)
			assert.Equal(t, 2, n)
			require.NoError(t, old.Rollback())

			// And the new state again, after the old reader re-loaded.
			assert.Equal(t, r1, search(t, db, ix, q))
		})
	}
}

// TestCacheDisabledIdentical runs the same random queries through indexes
// with default, tiny and disabled caches over a changing index.
func TestCacheDisabledIdentical(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	ops := randomHistory(rng, 600)
	fields := []index.Field{{Name: "title", Weight: 2}, {Name: "body"}}
	variants := []*index.Index{
		index.New("a", fields, index.Options{}),
		index.New("a", fields, index.Options{CacheEntries: 50}),
		index.New("a", fields, index.Options{CacheEntries: -1}),
	}
	db := openDB(t)
	for i := 0; i < len(ops); i += 50 {
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			for _, o := range ops[i:min(i+50, len(ops))] {
				if err := apply(tx, variants[rng.IntN(len(variants))], o); err != nil {
					return err
				}
			}
			return nil
		}))
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			for range 20 {
				o := ops[rng.IntN(min(i+50, len(ops)))]
				if o.del {
					continue
				}
				q := index.Query{Scopes: []string{"global", "session:x"}, Terms: o.doc.Fields[1], K: 7}
				if rng.IntN(2) == 0 {
					q.Keywords = []string{fmt.Sprint("kw", rng.IntN(6))}
				}
				var first []index.Result
				for vi, ix := range variants {
					got, err := ix.Search(tx, q)
					require.NoError(t, err)
					if vi == 0 {
						first = got
					} else {
						require.Equal(t, first, got, "variant %d", vi)
					}
				}
			}
			return nil
		}))
	}
}

// putRaw overwrites key in idx.NAME/sub.
func putRaw(t testing.TB, db *kv.DB, name, sub string, key, val []byte) {
	t.Helper()
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("idx."+name)).Bucket([]byte(sub)).Put(key, val)
	}))
}

func getRaw(t testing.TB, db *kv.DB, name, sub string, key []byte) []byte {
	t.Helper()
	var v []byte
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		v = slices.Clone(tx.Bucket([]byte("idx." + name)).Bucket([]byte(sub)).Get(key))
		return nil
	}))
	require.NotNil(t, v)
	return v
}

func firstKey(t testing.TB, db *kv.DB, name, sub string, prefix []byte) []byte {
	t.Helper()
	var k []byte
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte("idx." + name)).Bucket([]byte(sub)).Cursor()
		got, _ := c.Seek(prefix)
		require.NotNil(t, got)
		k = slices.Clone(got)
		return nil
	}))
	return k
}

func TestCorruptPostings(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	garbage := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	// block builds a posting block of (delta, tf, length) triples as
	// index/block.go describes: version 3, the posting count, one bound
	// point (the highest tf, the shortest length), the postings.
	header := func(n, maxTF, minLen uint64) []byte {
		b := []byte{3}
		b = binary.AppendUvarint(b, n)
		b = append(b, 1)
		b = binary.AppendUvarint(b, maxTF)
		return binary.AppendUvarint(b, minLen)
	}
	postings := func(triples ...uint64) []byte {
		var b []byte
		for i := 0; i+2 < len(triples); i += 3 {
			delta, tf, l := triples[i], triples[i+1], triples[i+2]
			b = binary.AppendUvarint(b, delta)
			b = binary.AppendUvarint(b, l<<2|min(tf-1, 3))
			if tf >= 4 {
				b = binary.AppendUvarint(b, tf-4)
			}
		}
		return b
	}
	block := func(triples ...uint64) []byte {
		maxTF, minLen := uint64(1), uint64(1<<32-1)
		for i := 0; i+2 < len(triples); i += 3 {
			maxTF, minLen = max(maxTF, min(triples[i+1], 65535)), min(minLen, triples[i+2])
		}
		return append(header(uint64(len(triples)/3), maxTF, minLen), postings(triples...)...)
	}
	type tcase struct {
		name   string
		val    []byte
		mutate func(orig []byte) []byte
	}
	tests := []tcase{
		{"empty", []byte{}, nil},
		{"one byte", []byte{3}, nil},
		{"wrong version", append([]byte{9}, garbage(40)...), nil},
		{"old version", append([]byte{2}, postings(0, 1, 2, 1, 1, 2)...), nil},
		{"count above the postings", append(header(3, 1, 2), postings(0, 1, 2, 1, 1, 2)...), nil},
		{"count beyond the bytes", append(header(1000, 1, 2), postings(0, 1, 2, 1, 1, 2)...), nil},
		{"count zero", append(header(0, 1, 2), postings(0, 1, 2, 1, 1, 2)...), nil},
		{"no bound points", append([]byte{3, 2, 0}, postings(0, 1, 2, 1, 1, 2)...), nil},
		{"five bound points", append([]byte{3, 2, 5, 5, 1, 4, 2, 3, 3, 2, 4, 1, 5}, postings(0, 1, 2, 1, 1, 2)...), nil},
		{"bound points out of order", append([]byte{3, 2, 2, 1, 1, 2, 2}, postings(0, 1, 2, 1, 1, 2)...), nil},
		{"tf above the bound", append(header(2, 1, 2), postings(0, 1, 2, 1, 2, 2)...), nil},
		{"length below the bound", append(header(2, 1, 2), postings(0, 1, 2, 1, 1, 1)...), nil},
		{"random bytes", garbage(64), nil},
		{"first delta not 0", block(1, 1, 2, 1, 1, 2), nil},
		{"zero later delta", block(0, 1, 2, 0, 1, 2), nil},
		{"tf over 65535", block(0, 70000, 2, 1, 1, 2), nil},
		{"length over 2^32", block(0, 1, 1<<33, 1, 1, 2), nil},
		{"doc past 2^32", block(0, 1, 2, 1<<33, 1, 2), nil},
		{"truncated varint", append(header(1, 1, 1), 0, 0x80), nil},
		{"too few postings", block(0, 1, 2, 1, 1, 2), nil},
		{"truncated real block", nil, func(b []byte) []byte { return b[:len(b)-1] }},
		{"real block, a posting dropped", nil, func(b []byte) []byte { return b[:len(b)-2] }},
		{"real block, a posting added", nil, func(b []byte) []byte { return append(slices.Clone(b), 1, 2<<2) }},
	}
	for i := range 40 {
		tests = append(tests, tcase{name: fmt.Sprint("garbage block ", i), val: append([]byte{3}, garbage(1+rng.IntN(40))...)})
		tests = append(tests, tcase{name: fmt.Sprint("garbage postings ", i), val: append(header(uint64(1+rng.IntN(8)), 3, 1), garbage(16+rng.IntN(40))...)})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			ix := index.New("a", oneField, index.Options{})
			docs := make([]index.Doc, 300)
			for i := range docs {
				docs[i] = index.Doc{ID: uint64(i + 1), Scope: "s", Fields: [][]string{words("x y")}}
			}
			addAll(t, db, ix, docs...)
			q := index.Query{Terms: words("x"), Scopes: []string{"s"}}
			require.Len(t, search(t, db, ix, q), 10) // warm
			k := firstKey(t, db, "a", "post", append([]byte{0}, 'x', 0))
			val := tc.val
			if tc.mutate != nil {
				val = tc.mutate(getRaw(t, db, "a", "post", k))
			}
			putRaw(t, db, "a", "post", k, val)

			cold := index.New("a", oneField, index.Options{CacheEntries: -1})
			require.NotPanics(t, func() {
				err := db.View(func(tx *bolt.Tx) error {
					_, err := cold.Search(tx, q)
					return err
				})
				require.ErrorIs(t, err, kv.ErrCorrupt)
			})
			require.NotPanics(t, func() {
				// The raw write bumped no generation: the warm index may
				// still answer from its cache, but must not panic.
				_ = db.View(func(tx *bolt.Tx) error { _, err := ix.Search(tx, q); return err })
			})
		})
	}
}

func TestCorruptRecords(t *testing.T) {
	tests := []struct {
		name, sub string
		key       []byte
		val       []byte
	}{
		{"stats", "meta", []byte("stats"), []byte{1, 0xc1}},
		{"stats version", "meta", []byte("stats"), []byte{7, 0x80}},
		{"term record length", "terms", append([]byte{0}, 'x'), []byte{1, 2, 3}},
		{"term record version", "terms", append([]byte{0}, 'x'), make([]byte, 15)},
		{"scope keyword record", "kwmeta", []byte("\x00s:s"), []byte{1}},
		{"scope bitmap chunk", "kw", append([]byte("\x00s:s\x00"), 0, 0, 0, 0), []byte{1, 0xff, 0xff, 0, 0, 9}},
		{"keyword bitmap version", "kw", append([]byte("k\x00"), 0, 0, 0, 0), []byte{2, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			ix := index.New("a", oneField, index.Options{CacheEntries: -1})
			addAll(t, db, ix, index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("x")}, Keywords: []string{"k"}})
			putRaw(t, db, "a", tc.sub, tc.key, tc.val)
			require.NotPanics(t, func() {
				err := db.View(func(tx *bolt.Tx) error {
					_, err := ix.Search(tx, index.Query{Terms: words("x"), Scopes: []string{"s"}, Keywords: []string{"k"}})
					return err
				})
				require.Error(t, err)
				assert.True(t, errors.Is(err, kv.ErrCorrupt) || errors.Is(err, kv.ErrVersionMismatch), "%v", err)
			})
		})
	}
}

// TestConcurrentSearch: readers searching (sharing one Index, its cache
// and its pooled scratch state) while a writer adds and deletes always get
// exactly what an uncached index answers in the same transaction. Run
// with -race.
func TestConcurrentSearch(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	ops := randomHistory(rand.New(rand.NewPCG(seed, 8)), 400)
	fields := []index.Field{{Name: "title", Weight: 2}, {Name: "body"}}
	ix := index.New("a", fields, index.Options{CacheEntries: 2000})
	nocache := index.New("a", fields, index.Options{CacheEntries: -1})
	db := openDB(t)
	addAll(t, db, ix, ops[0].doc)

	stop := make(chan struct{})
	errs := make(chan error, 4)
	for r := range 3 {
		go func() {
			rng := rand.New(rand.NewPCG(seed, uint64(100+r)))
			for {
				select {
				case <-stop:
					errs <- nil
					return
				default:
				}
				err := db.View(func(tx *bolt.Tx) error {
					q := index.Query{Scopes: []string{"global", "project:a", "session:x"}, Terms: someTerms(rng, ops[:50], 1), K: 1 + rng.IntN(10)}
					if rng.IntN(3) == 0 {
						q.Keywords = []string{fmt.Sprint("kw", rng.IntN(6))}
					}
					got, err := ix.Search(tx, q)
					if err != nil {
						return err
					}
					want, err := nocache.Search(tx, q)
					if err != nil {
						return err
					}
					if !slices.Equal(got, want) {
						return fmt.Errorf("query %+v: cached %v, uncached %v", q, got, want)
					}
					return nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var werr error
	for i := 1; i < len(ops) && werr == nil; i += 20 {
		werr = db.Update(func(tx *bolt.Tx) error {
			for _, o := range ops[i:min(i+20, len(ops))] {
				if err := apply(tx, ix, o); err != nil {
					return err
				}
			}
			return nil
		})
	}
	close(stop)
	for range 3 {
		require.NoError(t, <-errs)
	}
	require.NoError(t, werr)
}

func TestDocFreq(t *testing.T) {
	db := openDB(t)
	ix := index.New("a", oneField, index.Options{})
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		df, n, err := ix.DocFreq(tx, 0, "x")
		assert.Zero(t, df)
		assert.Zero(t, n, "no index yet")
		return err
	}))
	addAll(t, db, ix,
		index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("x y")}},
		index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("x x z")}},
		index.Doc{ID: 3, Scope: "t", Fields: [][]string{words("y")}},
	)
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for _, tc := range []struct {
			term string
			df   int
		}{{"x", 2}, {"y", 2}, {"z", 1}, {"w", 0}} {
			df, n, err := ix.DocFreq(tx, 0, tc.term)
			require.NoError(t, err)
			assert.Equal(t, tc.df, df, tc.term)
			assert.Equal(t, 3, n)
		}
		df, n, err := ix.DocFreq(tx, 1, "x")
		assert.Zero(t, df+n, "no such field")
		return err
	}))
}
