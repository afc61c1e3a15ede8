package index

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// A keyword's bitmap is stored in chunks of 2^chunkShift doc numbers, and
// a write rewrites the chunk of each doc it adds or removes: the last one,
// usually. A query after that write used to decode and OR every chunk
// again (a scope keyword holds every doc of its scope: 25 chunks at 100k
// cards, a fifth of a SearchEvents right after a write). The cached
// bitmap keeps a hash of each chunk it was built from, so the next build
// hashes the stored chunks (a few µs), copies the cached bitmap and
// replaces only the chunks whose bytes changed. The result is the bitmap
// a full build gives (TestKeywordIncrementalEqualsFull); a chunk holding a
// doc outside its range is ErrCorrupt on either path.

// kwChunk is one stored chunk of a keyword bitmap: its number and a hash
// of its bytes.
type kwChunk struct {
	ch  uint32
	sum uint64
}

// chunkSeed keys the chunk hashes; they are only ever compared within
// this process.
var chunkSeed = maphash.MakeSeed()

// buildKeyword returns keyword kw's bitmap from its chunks in kwb and the
// chunks it was built from, reusing stale (the entry cached for the
// keyword, of any generation; nil for none) where most chunks are
// unchanged.
func buildKeyword(kwb *bolt.Bucket, kw []byte, stale *entry) (*roaring.Bitmap, []kwChunk, error) {
	type stored struct {
		ch uint32
		v  []byte
	}
	var chunks []stored
	var sums []kwChunk
	prefix := append(slices.Clone(kw), 0)
	cur := kwb.Cursor()
	for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
		if len(k) != len(prefix)+4 {
			continue // another keyword that extends this one with 0x00 bytes
		}
		ch := binary.BigEndian.Uint32(k[len(prefix):])
		chunks = append(chunks, stored{ch, v})
		sums = append(sums, kwChunk{ch, maphash.Bytes(chunkSeed, v)})
	}
	var bm *roaring.Bitmap
	var redo []int // the chunks to decode, by index in chunks
	if stale != nil && stale.bm != nil && stale.chunks != nil {
		changed, removed := diffChunks(stale.chunks, sums)
		if len(changed)+len(removed) <= len(sums)/4 {
			bm = stale.bm.Clone() // the cached one is shared with readers
			for _, ch := range removed {
				bm.RemoveRange(uint64(ch)<<chunkShift, uint64(ch+1)<<chunkShift)
			}
			for _, i := range changed {
				ch := uint64(chunks[i].ch)
				bm.RemoveRange(ch<<chunkShift, (ch+1)<<chunkShift)
			}
			redo = changed
		}
	}
	if bm == nil {
		bm = roaring.New()
		redo = make([]int, len(chunks))
		for i := range redo {
			redo[i] = i
		}
	}
	for _, i := range redo {
		part, err := decodeBitmap(chunks[i].v)
		if err != nil {
			return nil, nil, err
		}
		if lo, hi := chunks[i].ch<<chunkShift, (chunks[i].ch+1)<<chunkShift-1; !part.IsEmpty() && (part.Minimum() < lo || part.Maximum() > hi) {
			return nil, nil, fmt.Errorf("index: %w: keyword chunk %d holds doc %d–%d, outside %d–%d", kv.ErrCorrupt, chunks[i].ch, part.Minimum(), part.Maximum(), lo, hi)
		}
		bm.Or(part)
	}
	return bm, sums, nil
}

// diffChunks returns the indexes in cur of the chunks that old lacks or
// holds with other bytes, and the chunk numbers old holds and cur lacks;
// both lists are sorted by chunk number.
func diffChunks(old, cur []kwChunk) (changed []int, removed []uint32) {
	i, j := 0, 0
	for i < len(old) || j < len(cur) {
		switch {
		case j == len(cur) || (i < len(old) && old[i].ch < cur[j].ch):
			removed = append(removed, old[i].ch)
			i++
		case i == len(old) || cur[j].ch < old[i].ch:
			changed = append(changed, j)
			j++
		default:
			if old[i].sum != cur[j].sum {
				changed = append(changed, j)
			}
			i++
			j++
		}
	}
	return changed, removed
}
