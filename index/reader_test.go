package index

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

// randomPosting builds a cached posting list of nb blocks. With wide,
// its postings mix every width the format has: one- and multi-byte gaps,
// lengths either side of 32 and past 8191 terms, tfs below 4, from 4 to
// 131 (one more byte) and above (two). Otherwise they look like a
// frequent term's: small gaps, lengths either side of 32, tfs mostly 1
// and a few of 4 or more.
func randomPosting(t testing.TB, r *rand.Rand, nb int, wide bool) (*posting, chunk) {
	t.Helper()
	p := &posting{}
	var all chunk
	doc := uint32(1 + r.IntN(1000))
	for range nb {
		var w blockWriter
		first := doc
		for i := 0; w.size() < blockBytes; i++ {
			var delta uint32
			if i > 0 {
				delta = uint32(1 + r.IntN(3))
				if wide && r.IntN(8) == 0 {
					delta = uint32(1 + r.IntN(100000))
				}
			}
			tf := uint16(1)
			switch x := r.IntN(20); {
			case x < 4:
				tf = uint16(2 + r.IntN(2))
			case x < 5 || wide && x < 8:
				tf = uint16(4 + r.IntN(6))
			case wide && x < 9:
				tf = uint16(132 + r.IntN(2000))
			}
			l := uint32(1 + r.IntN(60))
			if wide && r.IntN(30) == 0 {
				l = uint32(8000 + r.IntN(100000))
			}
			doc += delta
			w.add(delta, tf, l)
			all.docs, all.tfs, all.lens = append(all.docs, doc), append(all.tfs, tf), append(all.lens, l)
		}
		enc := w.encode()
		h, off, err := parseBlockHead(enc)
		require.NoError(t, err)
		start := uint32(len(p.raw))
		p.raw = append(p.raw, enc[off:]...)
		p.blocks = append(p.blocks, pblock{first: first, off: start, end: uint32(len(p.raw)), head: h})
		doc += 1 + uint32(r.IntN(5))
	}
	p.last = all.docs[len(all.docs)-1]
	return p, all
}

// referenceDecode decodes a block body with plain uvarints: what the
// format says, without decodeRange's fast path.
func referenceDecode(t testing.TB, first uint32, b []byte) chunk {
	var c chunk
	d := uint64(first)
	for len(b) > 0 {
		delta, k := binary.Uvarint(b)
		require.Positive(t, k)
		b = b[k:]
		x, k := binary.Uvarint(b)
		require.Positive(t, k)
		b = b[k:]
		tf := x&3 + 1
		if tf == 4 {
			more, k := binary.Uvarint(b)
			require.Positive(t, k)
			b = b[k:]
			tf += more
		}
		d += delta
		c.docs, c.tfs, c.lens = append(c.docs, uint32(d)), append(c.tfs, uint16(tf)), append(c.lens, uint32(x>>2))
	}
	return c
}

// Decoding (fast path and general varints) reads what the plain format
// holds, block by block.
func TestDecodeRangeMatchesFormat(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	p, all := randomPosting(t, r, 200, true)
	var got chunk
	for i, b := range p.blocks {
		require.Equal(t, referenceDecode(t, b.first, p.raw[b.off:b.end]).docs[0], b.first)
		var one chunk
		require.NoError(t, p.decodeInto(i, &one))
		require.Equal(t, referenceDecode(t, b.first, p.raw[b.off:b.end]), one, "block %d", i)
		require.NoError(t, p.decodeInto(i, &got))
	}
	require.Equal(t, all, got)
}

// skipTo finds what seeking the decoded block finds, for increasing
// targets, and rest decodes what is left after it.
func TestPostingReaderSkipTo(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	p, _ := randomPosting(t, r, 40, true)
	for bi := range p.blocks {
		var full chunk
		require.NoError(t, p.decodeInto(bi, &full))
		for trial := range 20 {
			var rd postingReader
			rd.start(p, bi)
			var w chunk
			pos := 0 // the first posting not yet passed
			d := full.docs[0]
			for {
				d += uint32(r.IntN(40))
				if trial%5 == 0 {
					d = full.docs[len(full.docs)-1] + uint32(r.IntN(2)) // the last, or past it
				}
				found, err := rd.skipTo(d, &w)
				require.NoError(t, err)
				j := seek(full.docs, pos, d)
				if j == len(full.docs) {
					require.False(t, found, "block %d, doc %d", bi, d)
					break
				}
				require.True(t, found, "block %d, doc %d", bi, d)
				require.Equal(t, chunk{docs: full.docs[j : j+1], tfs: full.tfs[j : j+1], lens: full.lens[j : j+1]}, w)
				pos, d = j+1, full.docs[j]+1
				if r.IntN(6) == 0 { // a cursor stepping on from here
					if j+1 == len(full.docs) {
						require.False(t, rd.more())
						break
					}
					require.NoError(t, rd.rest(&w))
					require.Equal(t, chunk{docs: full.docs[j+1:], tfs: full.tfs[j+1:], lens: full.lens[j+1:]}, w)
					require.False(t, rd.more())
					break
				}
				if !rd.more() {
					break
				}
			}
		}
	}
}

// A damaged block read by skipTo fails with ErrCorrupt or, where the
// damage lies in a posting it skipped (a tf or length it never reads),
// reads the docs the block's gaps give; it never panics.
func TestPostingReaderDamaged(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for i := range 2000 {
		p, _ := randomPosting(t, r, 2, true)
		b := &p.blocks[0]
		raw := p.raw[b.off:b.end]
		switch i % 3 {
		case 0:
			raw[r.IntN(len(raw))] ^= byte(1 + r.IntN(255))
		case 1:
			raw[r.IntN(len(raw))] = 0x80 | byte(r.IntN(128)) // a varint that runs on
		case 2:
			p.blocks[0].head.n += uint32(1 + r.IntN(3)) // fewer postings than counted
		}
		var rd postingReader
		rd.start(p, 0)
		var w chunk
		for d := b.first; rd.more(); d += uint32(1 + r.IntN(30)) {
			found, err := rd.skipTo(d, &w)
			if err != nil {
				require.ErrorIs(t, err, kv.ErrCorrupt, "case %d", i)
				break
			}
			if !found {
				break
			}
			require.GreaterOrEqual(t, w.docs[0], d, "case %d", i)
			require.Less(t, w.docs[0], p.blocks[1].first, "case %d", i)
			d = w.docs[0]
		}
	}
}
