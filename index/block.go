package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/stratagate/stratagate/kv"
)

// chunk is a decoded posting list (or part of one): sorted doc numbers
// with their term frequencies and field lengths.
type chunk struct {
	docs []uint32
	tfs  []uint16
	lens []uint32
}

// A posting block holds consecutive postings of one term in one field,
// keyed by its first doc number. On disk (posting version 3):
//
//	+---------+-------------+-----------+--------------------------------+-----------+
//	| version | n uvarint   | nf 1 byte | nf × (tf uvarint ‖ len uvarint) | posting*  |
//	+---------+-------------+-----------+--------------------------------+-----------+
//	posting = doc delta uvarint ‖ length<<2|min(tf-1, 3) uvarint ‖ (tf-4 uvarint, only when tf ≥ 4)
//
// The header is the block's bound: n postings, and nf (1..maxBlockFront)
// (tf, length) points, by strictly decreasing tf and strictly decreasing
// length, such that every posting of the block has a tf ≤ and a length ≥
// some point's. It is the block's Pareto frontier of (tf, length) while
// that has at most maxBlockFront points; past that, neighbouring points
// are merged into the point that dominates both (the higher tf with the
// shorter length), which stays a bound. BM25 grows with tf and falls with
// length, so the best score any posting of the block can have is at one of
// those points: a query bounds a block from its header without decoding
// it (block-max pruning, see search.go).
//
// The first posting's delta is 0 (its doc is the key's); every later
// delta is > 0 (the gap to the previous doc). tf is 1..65535 (capped by
// Add: BM25 saturates long before), length is the field length; a posting
// of a field shorter than 32 terms with tf ≤ 3 takes two bytes plus its
// gap. Doc numbers only grow, so a new posting is appended to the term's
// last block (its header rewritten, the postings' bytes copied, no
// decoding) until the block reaches blockBytes; the next posting starts a
// new block.
const blockBytes = 512

// maxBlockFront is the most (tf, length) points a block header keeps.
const maxBlockFront = 4

// blockHead is a decoded block header.
type blockHead struct {
	n     uint32
	nf    uint8
	front [maxBlockFront]tfLen
}

// add accounts for one more posting (tf, l) in the header.
func (h *blockHead) add(tf uint16, l uint32) {
	h.n++
	pts := h.front[:h.nf]
	for _, q := range pts {
		if q.tf >= tf && q.len <= l {
			return // dominated: the bound already covers it
		}
	}
	// Drop the points the new one dominates, insert it in tf order.
	var out [maxBlockFront + 1]tfLen
	n, placed := 0, false
	for _, q := range pts {
		if q.tf <= tf && q.len >= l {
			continue
		}
		if !placed && q.tf < tf {
			out[n], n, placed = tfLen{tf, l}, n+1, true
		}
		out[n], n = q, n+1
	}
	if !placed {
		out[n], n = tfLen{tf, l}, n+1
	}
	if n > maxBlockFront {
		// Merge the neighbours closest to each other (smallest product of
		// their tf and length ratios) into the point dominating both.
		// Floating point is deterministic here, and any choice is a bound:
		// the choice only decides how tight.
		best, bestR := 0, 0.0
		for i := range n - 1 {
			r := float64(out[i].tf) / float64(out[i+1].tf) * (float64(out[i].len) + 1) / (float64(out[i+1].len) + 1)
			if i == 0 || r < bestR {
				best, bestR = i, r
			}
		}
		out[best] = tfLen{out[best].tf, out[best+1].len}
		copy(out[best+1:], out[best+2:n])
		n--
	}
	h.nf = uint8(n)
	h.front = [maxBlockFront]tfLen{}
	copy(h.front[:], out[:n])
}

// covers reports whether some point of the header bounds (tf, l).
func (h *blockHead) covers(tf uint16, l uint32) bool {
	for _, q := range h.front[:h.nf] {
		if q.tf >= tf && q.len <= l {
			return true
		}
	}
	return false
}

// size is the encoded header's length.
func (h *blockHead) size() int {
	n := 1 + uvarintLen(uint64(h.n)) + 1
	for _, q := range h.front[:h.nf] {
		n += uvarintLen(uint64(q.tf)) + uvarintLen(uint64(q.len))
	}
	return n
}

func (h *blockHead) appendTo(dst []byte) []byte {
	dst = append(dst, postingVersion)
	dst = binary.AppendUvarint(dst, uint64(h.n))
	dst = append(dst, h.nf)
	for _, q := range h.front[:h.nf] {
		dst = binary.AppendUvarint(dst, uint64(q.tf))
		dst = binary.AppendUvarint(dst, uint64(q.len))
	}
	return dst
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// parseBlockHead decodes the header of block b and returns it with the
// offset of the block's first posting. It checks the header's own
// consistency and that the postings' bytes can hold n postings (two bytes
// at least each), so n can size an allocation.
func parseBlockHead(b []byte) (blockHead, int, error) {
	var h blockHead
	bad := func(why string) (blockHead, int, error) {
		return blockHead{}, 0, fmt.Errorf("index: %w: posting block header: %s", kv.ErrCorrupt, why)
	}
	if len(b) < 1 || b[0] != postingVersion {
		return bad(fmt.Sprintf("version %v", first(b)))
	}
	p := 1
	n, k := binary.Uvarint(b[p:])
	if k <= 0 || n == 0 || n > 1<<31 {
		return bad("posting count")
	}
	p += k
	if p >= len(b) || b[p] == 0 || b[p] > maxBlockFront {
		return bad("bound points")
	}
	h.n, h.nf = uint32(n), b[p]
	p++
	for i := range int(h.nf) {
		tf, k := binary.Uvarint(b[p:])
		if k <= 0 || tf == 0 || tf > 65535 {
			return bad("bound tf")
		}
		p += k
		l, k := binary.Uvarint(b[p:])
		if k <= 0 || l > 1<<32-1 {
			return bad("bound length")
		}
		p += k
		q := tfLen{uint16(tf), uint32(l)}
		if i > 0 && (q.tf >= h.front[i-1].tf || q.len >= h.front[i-1].len) {
			return bad("bound points out of order")
		}
		h.front[i] = q
	}
	if uint64(len(b)-p) < 2*n {
		return bad("fewer bytes than postings")
	}
	return h, p, nil
}

// appendPosting appends one posting to a block's postings.
func appendPosting(v []byte, delta uint32, tf uint16, l uint32) []byte {
	v = binary.AppendUvarint(v, uint64(delta))
	t := uint64(tf - 1)
	v = binary.AppendUvarint(v, uint64(l)<<2|min(t, 3))
	if t >= 3 {
		v = binary.AppendUvarint(v, t-3)
	}
	return v
}

// blockWriter builds a posting block: its header and its postings.
type blockWriter struct {
	h    blockHead
	body []byte
}

// reset starts an empty block.
func (w *blockWriter) reset() {
	w.h = blockHead{}
	w.body = w.body[:0]
}

// load continues the stored block v.
func (w *blockWriter) load(v []byte) error {
	h, off, err := parseBlockHead(v)
	if err != nil {
		return err
	}
	w.h = h
	w.body = append(w.body[:0], v[off:]...)
	return nil
}

// add appends a posting delta after the previous one (0 for a block's
// first).
func (w *blockWriter) add(delta uint32, tf uint16, l uint32) {
	w.h.add(tf, l)
	w.body = appendPosting(w.body, delta, tf, l)
}

// size is the encoded block's length.
func (w *blockWriter) size() int { return w.h.size() + len(w.body) }

// encode returns the block's bytes (a fresh slice).
func (w *blockWriter) encode() []byte {
	return append(w.h.appendTo(make([]byte, 0, w.size())), w.body...)
}

// extendBlock returns the stored block old with one more posting.
func extendBlock(old []byte, delta uint32, tf uint16, l uint32) ([]byte, error) {
	h, off, err := parseBlockHead(old)
	if err != nil {
		return nil, err
	}
	h.add(tf, l)
	out := h.appendTo(make([]byte, 0, h.size()+len(old)-off+12))
	out = append(out, old[off:]...)
	return appendPosting(out, delta, tf, l), nil
}

// newBlock returns a block holding one posting.
func newBlock(tf uint16, l uint32) []byte {
	var h blockHead
	h.add(tf, l)
	return appendPosting(h.appendTo(make([]byte, 0, 16)), 0, tf, l)
}

// decodeBlock appends the postings of the block keyed by first doc to dst,
// checking that they continue dst (first > after when dst is not empty).
// It copies: nothing it returns aliases b (which may be bbolt memory).
func decodeBlock(first uint32, b []byte, dst *chunk) error {
	h, off, err := parseBlockHead(b)
	if err != nil {
		return fmt.Errorf("posting block %d: %w", first, err)
	}
	return decodePostings(first, &h, b[off:], dst)
}

// decodePostings appends the postings of a block (body: its bytes after
// the header h) to dst. Every posting must be within h's bound, and there
// must be exactly h.n of them. On error dst is left as it was.
func decodePostings(first uint32, h *blockHead, b []byte, dst *chunk) error {
	if n := len(dst.docs); n > 0 && first <= dst.docs[n-1] {
		return fmt.Errorf("index: %w: posting block %d: out of order", kv.ErrCorrupt, first)
	}
	st := readState{d: uint64(first)}
	return decodeRange(first, h, b, &st, int(h.n), dst)
}

// readPosting reads the posting at b[p:] with general varints: its gap,
// its (length<<2 | tf code) pair and its tf, and the offset after it.
func readPosting(b []byte, p int) (delta, x, tf uint64, next int, err error) {
	v, k := binary.Uvarint(b[min(p, len(b)):])
	if k <= 0 {
		return 0, 0, 0, 0, errors.New("doc delta")
	}
	delta, p = v, p+k
	v, k = binary.Uvarint(b[min(p, len(b)):])
	if k <= 0 || v>>2 > 1<<32-1 {
		return 0, 0, 0, 0, errors.New("length")
	}
	x, p = v, p+k
	tf = x&3 + 1
	if tf == 4 {
		more, k := binary.Uvarint(b[min(p, len(b)):])
		if k <= 0 || more > 65535-4 {
			return 0, 0, 0, 0, errors.New("tf")
		}
		tf, p = tf+more, p+k
	}
	return delta, x, tf, p, nil
}

// readState is how far a reading of a block's postings got: the offset
// of the next posting, the postings read, the last doc read (the block's
// first before any).
type readState struct {
	p, i int
	d    uint64
}

// decodeRange appends the next count postings of a block (at most those
// left) to dst, from st on, and advances st; decodePostings decodes a
// block as one range. Every posting must be within h's bound; after the
// block's h.n-th posting no byte may be left. On error dst and st are left
// as they were.
func decodeRange(first uint32, h *blockHead, b []byte, st *readState, count int, dst *chunk) (err error) {
	n, start := min(count, int(h.n)-st.i), len(dst.docs)
	// parseBlockHead bounded h.n by the block's bytes: it can size these.
	dst.docs, dst.tfs, dst.lens = slices.Grow(dst.docs, n)[:start+n], slices.Grow(dst.tfs, n)[:start+n], slices.Grow(dst.lens, n)[:start+n]
	docs := dst.docs[start:]
	tfs, lens := dst.tfs[start:][:len(docs)], dst.lens[start:][:len(docs)] // lengths the compiler can see

	defer func() {
		if err != nil {
			dst.docs, dst.tfs, dst.lens = dst.docs[:start], dst.tfs[:start], dst.lens[:start]
			err = fmt.Errorf("index: %w: posting block %d: %v", kv.ErrCorrupt, first, err)
		}
	}()
	// minLen[tf] is the shortest length the header's bound allows a
	// posting of that tf (≤ minLenTF), or noLen if none: a table lookup
	// instead of a walk over the points, whose outcome varies from posting
	// to posting.
	const minLenTF, noLen = 8, 1 << 40
	// For a single posting (a cursor's seek, postingReader) covers is
	// cheaper than the table.
	var minLen [minLenTF + 1]uint64
	table := n > 1
	if table {
		for t := range minLen {
			minLen[t] = noLen
			for _, q := range h.front[:h.nf] {
				if uint64(q.tf) >= uint64(t) {
					minLen[t] = min(minLen[t], uint64(q.len))
				}
			}
		}
	}
	d, p, i0 := st.d, st.p, st.i
	for i := range docs {
		var delta, x, tf uint64
		fast := false
		if p+3 < len(b) {
			// Most postings have a one-byte gap, a one- or two-byte
			// (length, tf) pair and, with a tf of 4 or more, one byte
			// more: read them without branching on which (lengths either
			// side of 32 terms and tfs either side of 4 alternate
			// unpredictably: branches on them cost more than the rest).
			g, b1, b2 := b[p], b[p+1], b[p+2]
			c := b1 >> 7         // the pair takes two bytes
			m := (b1&3 + 1) >> 2 // a tf byte follows (tf code 3)
			q := p + 2 + int(c)  // that byte's offset
			e := b[q] & (0 - m)  // that byte, or 0
			x = uint64(b1&0x7f) | uint64(b2&(0-c))<<7
			// Every byte read must end its varint: the gap's, the pair's
			// second if it has one, the tf's if there is one.
			if (g|b2&(0-c)|e)>>7 == 0 {
				delta, tf, p = uint64(g), x&3+1+uint64(e), q+int(m)
				fast = true
			}
		}
		if !fast {
			// Anything longer: the general varints.
			var err error
			if delta, x, tf, p, err = readPosting(b, p); err != nil {
				return err
			}
		}
		l := x >> 2
		// The first delta is 0, every other one is a gap > 0 and < 2^32
		// (d, a uint64, cannot wrap; its last value is checked below).
		if (i0+i == 0) != (delta == 0) || delta >= 1<<32 {
			return errors.New("doc delta")
		}
		if table && tf <= minLenTF {
			if l < minLen[tf] {
				return errors.New("posting outside the header's bound")
			}
		} else if !h.covers(uint16(tf), uint32(l)) {
			return errors.New("posting outside the header's bound")
		}
		d += delta
		docs[i], tfs[i], lens[i] = uint32(d), uint16(tf), uint32(l)
	}
	if i0+n == int(h.n) && p != len(b) {
		return fmt.Errorf("more bytes than the header's %d postings", h.n)
	}
	// Docs strictly increase, so the last bounds them all; 2^32-1 is
	// never a doc number (cursors use it as their end).
	if d >= 1<<32-1 {
		return errors.New("doc number")
	}
	st.p, st.i, st.d = p, i0+n, d
	return nil
}
