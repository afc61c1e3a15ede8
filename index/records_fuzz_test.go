package index

import (
	"encoding/binary"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

// FuzzDecodeIndexMeta feeds arbitrary bytes to the decoders of the term
// and keyword records, keyword bitmap chunks and the stats record: none may
// panic, and a bitmap that decodes must be usable in set operations.
func FuzzDecodeIndexMeta(f *testing.F) {
	f.Add(termRecord{DF: 3, MaxTF: 2, Last: 9, Block: 1, Gen: 4}.encode())
	f.Add(kwRecord{Count: 5, Gen: 7}.encode())
	bm := roaring.BitmapOf(1, 2, 3, 70000, 1<<20)
	bm.RunOptimize()
	raw, err := bm.ToBytes()
	require.NoError(f, err)
	f.Add(append([]byte{kwVersion}, raw...))
	f.Add(append([]byte{kwVersion}, raw[:len(raw)/2]...))
	st, err := kv.Encode(statsVersion, &stats{Layout: layout, Docs: 3, TotalLen: []uint64{10}})
	require.NoError(f, err)
	f.Add(st)
	f.Add([]byte{})
	ix := New("fuzz", []Field{{Name: "text"}}, Options{})
	f.Fuzz(func(t *testing.T, v []byte) {
		if r, err := decodeTermRecord(v); err == nil {
			require.Equal(t, v, r.encode())
		}
		if r, err := decodeKWRecord(v); err == nil {
			require.Equal(t, v, r.encode())
		}
		if b, err := decodeBitmap(v); err == nil {
			other := roaring.BitmapOf(1, 3, 5, 1<<17)
			_ = roaring.And(b, other).GetCardinality()
			_ = roaring.Or(b, other).GetCardinality()
			b.AndNot(other)
			it := b.Iterator()
			for i := 0; i < 100 && it.HasNext(); i++ {
				_ = it.Next()
			}
		}
		_, _ = ix.decodeStats(v)
	})
}

// TestDecodeBlockRejectsWrappingDelta: a doc gap of 2^64−1 wraps the doc
// number around to below the previous one; the block must be refused, not
// decoded out of order.
func TestDecodeBlockRejectsWrappingDelta(t *testing.T) {
	var h blockHead
	h.add(1, 7)
	h.add(1, 7)
	blk := appendPosting(h.appendTo(nil), 0, 1, 7)
	blk = binary.AppendUvarint(blk, 1<<64-1) // the gap
	blk = binary.AppendUvarint(blk, 7<<2)    // length 7, tf 1
	var c chunk
	err := decodeBlock(5, blk, &c)
	require.ErrorIs(t, err, kv.ErrCorrupt)
}
