package index

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// putChunks stores bm as keyword kw's chunks in b, replacing all of them.
func putChunks(t *testing.T, b *bolt.Bucket, kw string, bm *roaring.Bitmap) {
	t.Helper()
	prefix := append([]byte(kw), 0)
	var old [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) == len(prefix)+4 { // not a keyword that extends kw
			old = append(old, append([]byte(nil), k...))
		}
	}
	for _, k := range old {
		require.NoError(t, b.Delete(k))
	}
	parts := map[uint32]*roaring.Bitmap{}
	it := bm.Iterator()
	for it.HasNext() {
		d := it.Next()
		if parts[d>>chunkShift] == nil {
			parts[d>>chunkShift] = roaring.New()
		}
		parts[d>>chunkShift].Add(d)
	}
	for ch, p := range parts {
		v, err := encodeBitmap(p)
		require.NoError(t, err)
		require.NoError(t, b.Put(kwKey(nil, kw, ch), v))
	}
}

// Building a keyword bitmap from a cached build of any generation (older
// after writes, or newer: a reader on an older snapshot) gives what a
// full build gives: appends to the last chunk, docs removed anywhere,
// chunks gone or new, and a keyword that extends this one.
func TestKeywordIncrementalEqualsFull(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "k.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	r := rand.New(rand.NewPCG(8, 9))
	incremental := 0
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("kw"))
		require.NoError(t, err)
		putChunks(t, b, "scope:g\x00", roaring.BitmapOf(1, 2, 3, 9000)) // extends "scope:g" with a 0x00
		for round := range 100 {
			cur := roaring.New()
			n := uint32(1 + r.IntN(120_000))
			for d := uint32(1); d <= n; d++ {
				if r.IntN(3) > 0 {
					cur.Add(d)
				}
			}
			var states []*roaring.Bitmap
			for range 6 {
				next := cur.Clone()
				switch r.IntN(4) {
				case 0: // appends
					for range 1 + r.IntN(30) {
						next.Add(n + 1 + uint32(r.IntN(5000)))
					}
				case 1: // removals
					for range 1 + r.IntN(3) {
						next.Remove(1 + uint32(r.IntN(int(n))))
					}
				case 2: // a whole chunk gone
					ch := uint64(r.IntN(int(n>>chunkShift) + 1))
					next.RemoveRange(ch<<chunkShift, (ch+1)<<chunkShift)
				default: // unchanged
				}
				states = append(states, next)
				cur = next
			}
			var builds []*entry
			for _, st := range states {
				putChunks(t, b, "scope:g", st)
				full, sums, err := buildKeyword(b, []byte("scope:g"), nil)
				require.NoError(t, err)
				require.True(t, full.Equals(st), "round %d: a full build", round)
				for _, old := range builds { // every earlier build as the stale one
					got, gotSums, err := buildKeyword(b, []byte("scope:g"), old)
					require.NoError(t, err)
					require.True(t, got.Equals(st), "round %d", round)
					require.Equal(t, sums, gotSums)
				}
				if len(builds) > 0 {
					if changed, removed := diffChunks(builds[len(builds)-1].chunks, sums); len(changed)+len(removed) <= len(sums)/4 {
						incremental++
					}
				}
				builds = append(builds, &entry{bm: full, chunks: sums})
			}
			// A build from the last state used as stale for an earlier one
			// (an older snapshot's reader).
			putChunks(t, b, "scope:g", states[0])
			got, _, err := buildKeyword(b, []byte("scope:g"), builds[len(builds)-1])
			require.NoError(t, err)
			require.True(t, got.Equals(states[0]), "round %d: older snapshot", round)
		}
		return nil
	}))
	assert.Greater(t, incremental, 200, "most builds after a write were incremental")
}

// A chunk holding a doc outside its range is ErrCorrupt, built fully or
// from a cached build.
func TestKeywordChunkOutOfRange(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "k.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("kw"))
		require.NoError(t, err)
		good := roaring.New()
		good.AddRange(1, 5*1<<chunkShift)
		putChunks(t, b, "k", good)
		full, sums, err := buildKeyword(b, []byte("k"), nil)
		require.NoError(t, err)
		stale := &entry{bm: full, chunks: sums}
		v, err := encodeBitmap(roaring.BitmapOf(3<<chunkShift + 5)) // chunk 3's doc under chunk 4's key
		require.NoError(t, err)
		require.NoError(t, b.Put(kwKey(nil, "k", 4), v))
		for _, s := range []*entry{nil, stale} {
			_, _, err := buildKeyword(b, []byte("k"), s)
			assert.ErrorIs(t, err, kv.ErrCorrupt)
		}
		return nil
	}))
}
