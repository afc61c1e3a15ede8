package index

import (
	"fmt"

	"github.com/stratagate/stratagate/kv"
)

// postingReader reads one block of a cached posting list in steps. A
// cursor seeking into a block the cache has no room to keep decoded reads
// it this way: the postings before the one sought are skipped (their gaps
// added up, nothing stored) and only the one found is decoded. Decoding
// such blocks whole was most of the time of a query of two terms in most
// documents at a million messages (the cache full of encoded lists): the
// non-essential term's blocks were decoded whole for a few lookups each.
// A cursor that then steps doc by doc decodes the rest (rest).
type postingReader struct {
	p  *posting
	bi int
	st readState
}

// start positions r before the first posting of block i of p.
func (r *postingReader) start(p *posting, i int) {
	*r = postingReader{p: p, bi: i, st: readState{d: uint64(p.blocks[i].first)}}
}

// more reports whether a posting is left to read.
func (r *postingReader) more() bool { return r.st.i < int(r.p.blocks[r.bi].head.n) }

// skipTo reads on to the first posting whose doc is ≥ d and decodes it
// into dst (replacing dst's postings); found is false when the block ends
// first. Skipped postings' gaps are checked as decoding checks them, and
// the last posting of the block is always decoded, so the checks of the
// block's end hold; a skipped posting's (tf, length) is not checked
// against the header: it is never used.
func (r *postingReader) skipTo(d uint32, dst *chunk) (found bool, err error) {
	blk := &r.p.blocks[r.bi]
	b := r.p.raw[blk.off:blk.end]
	n := int(blk.head.n)
	st := r.st
	for st.i < n {
		// Fast path: a posting that is not the block's first or last,
		// with a one-byte gap, before d: add the gap, skip its bytes
		// (read as decodeRange's fast path reads them).
		if p := st.p; st.i > 0 && st.i+1 < n && p+3 < len(b) {
			bb := b[p : p+4 : p+4]
			g, b1, b2 := bb[0], bb[1], bb[2]
			c := b1 >> 7
			m := (b1&3 + 1) >> 2
			e := bb[(2+c)&3] & (0 - m)
			if nd := st.d + uint64(g); (g|b2&(0-c)|e)>>7 == 0 && g != 0 && nd < uint64(d) {
				st.d, st.p, st.i = nd, p+2+int(c)+int(m), st.i+1
				continue
			}
		}
		dst.docs, dst.tfs, dst.lens = dst.docs[:0], dst.tfs[:0], dst.lens[:0]
		if err := decodeRange(blk.first, &blk.head, b, &st, 1, dst); err != nil {
			return false, err
		}
		if err := r.checkDoc(st); err != nil {
			return false, err
		}
		if dst.docs[0] >= d {
			r.st = st
			return true, nil
		}
	}
	r.st = st
	return false, nil
}

// rest decodes the postings left into dst (replacing its postings).
func (r *postingReader) rest(dst *chunk) error {
	blk := &r.p.blocks[r.bi]
	dst.docs, dst.tfs, dst.lens = dst.docs[:0], dst.tfs[:0], dst.lens[:0]
	st := r.st
	if err := decodeRange(blk.first, &blk.head, r.p.raw[blk.off:blk.end], &st, int(blk.head.n), dst); err != nil {
		return err
	}
	if err := r.checkDoc(st); err != nil {
		return err
	}
	r.st = st
	return nil
}

// checkDoc checks the last doc read against the block's end: below the
// next block's first doc, and, the block read to its end, the term's
// newest doc if it is its last block (decodeInto's checks).
func (r *postingReader) checkDoc(st readState) error {
	p := r.p
	last := r.bi+1 == len(p.blocks)
	end := st.i == int(p.blocks[r.bi].head.n)
	if !last && st.d >= uint64(p.blocks[r.bi+1].first) || last && (st.d > uint64(p.last) || end && st.d != uint64(p.last)) {
		return fmt.Errorf("index: %w: posting block %d: doc %d past the next block or the term's last doc", kv.ErrCorrupt, p.blocks[r.bi].first, st.d)
	}
	return nil
}
