package index

import (
	"math"
	"sort"

	"github.com/stratagate/stratagate/bm25"
)

// endDoc is a cursor's doc once it is past its last posting. It is never a
// doc number (decodePostings refuses it).
const endDoc = math.MaxUint32

// A query term's cursor walks its postings in doc order. A single-field
// term walks its posting's blocks and decodes a block only when it needs
// more than the block's first doc (its key, known without decoding): a
// tf or length to score, or the next doc. Reading a block's bound needs
// only its header. A multi-field term walks the union of its fields' docs
// (qt.union), as one block bounded by the term's upper bound.
//
// Cursor state: doc is the current doc (endDoc at the end); bi the block
// it is in; c that block decoded (nil while undecoded, and then doc is the
// block's first) and ci the position in it. sb is the block the last
// bound lookup (shallow) found, which only moves forward. A block the
// cache has no room to keep decoded is decoded into qt.scratch; but a
// seek into one reads it with qt.rd (lazy) and decodes only the posting
// it finds (c is then qt.scratch holding that one), and the cursor moving
// on past it decodes the rest of the block (readRest).

// reset puts qt's cursor on its first doc.
func (s *search) reset(qt *qterm) {
	qt.ci, qt.sb = 0, 0
	if qt.post == nil {
		qt.c, qt.bi, qt.doc = &qt.union, 0, endDoc
		if len(qt.union.docs) > 0 {
			qt.doc = qt.union.docs[0]
		}
		return
	}
	s.enter(qt, 0)
}

// enter puts qt's cursor on the first doc of block i, undecoded.
func (s *search) enter(qt *qterm, i int) {
	qt.ci, qt.lazy = 0, false
	if qt.post == nil || i >= len(qt.post.blocks) {
		qt.bi, qt.c, qt.doc = i, nil, endDoc
		return
	}
	qt.bi, qt.c, qt.doc = i, nil, qt.post.blocks[i].first
}

// decode decodes qt's current block: kept in the cache if it has room,
// else into qt.scratch. On a corrupt block it records the error (the query
// fails with it) and ends the cursor.
func (s *search) decode(qt *qterm) bool {
	c, err := qt.post.blockIfRoom(qt.bi)
	if err == nil && c == nil {
		w := &qt.scratch
		w.docs, w.tfs, w.lens = w.docs[:0], w.tfs[:0], w.lens[:0]
		c, err = w, qt.post.decodeInto(qt.bi, w)
	}
	if err != nil {
		return s.fail(qt, err)
	}
	qt.c = c
	return true
}

// fail records err for the query and ends qt's cursor. It returns false.
func (s *search) fail(qt *qterm, err error) bool {
	if s.err == nil {
		s.err = err
	}
	qt.c, qt.doc, qt.lazy = nil, endDoc, false
	return false
}

// readRest makes the rest of the block qt.rd reads the window, the cursor
// on its first posting: a cursor stepping doc by doc needs them all.
func (s *search) readRest(qt *qterm) bool {
	if err := qt.rd.rest(&qt.scratch); err != nil {
		return s.fail(qt, err)
	}
	qt.lazy = false
	qt.c, qt.ci, qt.doc = &qt.scratch, 0, qt.scratch.docs[0]
	return true
}

// next moves qt's cursor past its current doc.
func (s *search) next(qt *qterm) {
	if qt.doc == endDoc {
		return
	}
	if qt.c == nil && !s.decode(qt) {
		return
	}
	qt.ci++
	if qt.ci < len(qt.c.docs) {
		qt.doc = qt.c.docs[qt.ci]
		return
	}
	if qt.lazy && qt.rd.more() {
		s.readRest(qt)
		return
	}
	s.enter(qt, qt.bi+1)
}

// seekTo moves qt's cursor to its first doc ≥ d.
func (s *search) seekTo(qt *qterm, d uint32) {
	if qt.doc >= d {
		return
	}
	if d == endDoc {
		s.enter(qt, math.MaxInt) // past every block, none decoded
		return
	}
	if p := qt.post; p != nil {
		bl := p.blocks
		if i := qt.bi + 1; i < len(bl) && bl[i].first <= d {
			// d is past this block: find the last block starting at or
			// before it, galloping from here.
			lo, step := i, 1
			hi := lo + step
			for hi < len(bl) && bl[hi].first <= d {
				lo, step = hi, step*2
				hi = lo + step
			}
			hi = min(hi, len(bl))
			// bl[lo].first ≤ d; the answer is in [lo, hi).
			j := lo + sort.Search(hi-lo-1, func(k int) bool { return bl[lo+1+k].first > d })
			s.enter(qt, j)
			if qt.doc >= d {
				return
			}
		}
		if qt.c == nil {
			if c, err := p.blockIfRoom(qt.bi); err != nil {
				s.fail(qt, err)
				return
			} else if c != nil {
				qt.c = c
			} else {
				// No room to keep it decoded: read it up to d.
				qt.rd.start(p, qt.bi)
				qt.lazy = true
			}
		}
	}
	if qt.lazy && (qt.c == nil || qt.c.docs[len(qt.c.docs)-1] < d) {
		// Read on to d, decoding only the posting found.
		found, err := qt.rd.skipTo(d, &qt.scratch)
		switch {
		case err != nil:
			s.fail(qt, err)
		case found:
			qt.c, qt.ci, qt.doc = &qt.scratch, 0, qt.scratch.docs[0]
		default:
			s.enter(qt, qt.bi+1) // the next block starts after d
		}
		return
	}
	docs := qt.c.docs
	if i := seek(docs, qt.ci, d); i < len(docs) {
		qt.ci, qt.doc = i, docs[i]
		return
	}
	s.enter(qt, qt.bi+1) // the next block starts after d
}

// blockBound is the upper bound of qt's score on any doc of block i: the
// best score at a point of its header, exact as a float (bm25.Score is
// monotone in tf and length under rounding), so no slack. A multi-field
// term is bounded by its ub.
func (s *search) blockBound(qt *qterm, i int) float64 {
	if qt.post == nil {
		return qt.ub
	}
	if v := qt.bounds[i]; v >= 0 {
		return v
	}
	h := &qt.post.blocks[i].head
	var ub float64
	for _, pt := range h.front[:h.nf] {
		ub = max(ub, s.p1.UpperBound(qt.idf, float64(pt.tf), float64(pt.len), s.avgs[0]))
	}
	qt.bounds[i] = ub
	return ub
}

// shallow returns a bound of qt's score on every doc of the block that
// holds max(d, qt.doc) (qt has no doc in [d, qt.doc)). It moves no cursor
// and decodes nothing. A multi-field term is bounded by its ub.
func (s *search) shallow(qt *qterm, d uint32) float64 {
	if qt.doc == endDoc {
		return 0
	}
	if qt.post == nil {
		return qt.ub
	}
	t := max(d, qt.doc)
	bl := qt.post.blocks
	i := max(qt.sb, qt.bi)
	for i+1 < len(bl) && bl[i+1].first <= t {
		i++
	}
	qt.sb = i
	return s.blockBound(qt, i)
}

// termScore scores qt on doc d, which its cursor must be on.
func (s *search) termScore(qt *qterm, d uint32) float64 {
	if qt.post != nil {
		if qt.c == nil && !s.decode(qt) {
			return 0
		}
		return s.scoreAt(qt, qt.c, qt.ci)
	}
	if m := qt.um.mask; m != nil {
		// Only the fields the union says hold d, their parts added in
		// field order as bm25.BM25F adds them: the same float.
		return params.Saturate(s.pseudo(qt, m[qt.ci], d), qt.idf)
	}
	for f, c := range qt.fposts {
		s.tfs[f], s.lens[f] = 0, 0
		if c == nil {
			continue
		}
		i := seek(c.docs, qt.fpos[f], d)
		qt.fpos[f] = i
		if i < len(c.docs) && c.docs[i] == d {
			s.tfs[f], s.lens[f] = float64(c.tfs[i]), float64(c.lens[i])
		}
	}
	return bm25.BM25F(params, s.bfields, s.tfs, s.lens, s.avgs, qt.idf)
}

// fieldPart is bm25.FieldPart of field f (the union's field k) at (tf,
// l), memoised for small ones in qt.fmemo.
func (s *search) fieldPart(qt *qterm, k, f int, tf uint16, l uint32) float64 {
	if tf > 4 || l >= 1<<memoLenBits {
		return bm25.FieldPart(s.bfields[f], float64(tf), float64(l), s.avgs[f])
	}
	i := (k*4+int(tf)-1)<<memoLenBits | int(l)
	if v := qt.fmemo[i]; v != 0 {
		return v
	}
	v := bm25.FieldPart(s.bfields[f], float64(tf), float64(l), s.avgs[f])
	qt.fmemo[i] = v
	return v
}

// scoreAt is the single-field term qt's score on posting i of c.
func (s *search) scoreAt(qt *qterm, c *chunk, i int) float64 {
	tf, l := c.tfs[i], c.lens[i]
	if tf > 4 || l >= 1<<memoLenBits {
		return s.p1.Score(float64(tf), float64(l), s.avgs[0], qt.idf)
	}
	m := int(tf-1)<<memoLenBits | int(l)
	if v := qt.memo[m]; v != 0 {
		return v
	}
	v := s.p1.Score(float64(tf), float64(l), s.avgs[0], qt.idf)
	qt.memo[m] = v
	return v
}

// scanTo moves the single-field term qt's cursor to its next posting
// whose score plus rest may reach threshold (score·ubSlack + rest ≥
// threshold), skipping undecoded blocks whose bound cannot. It is the
// inner loop of MaxScore when qt is the only essential term: a posting
// then costs one score lookup instead of a candidate's bookkeeping. The
// slack covers the rounding of any order of summation; ties pass.
func (s *search) scanTo(qt *qterm, rest, threshold float64) {
	passes := func(sc float64) bool { return sc*ubSlack+rest >= threshold }
	if qt.scanRest != rest || qt.scanThreshold != threshold || !qt.scanReady {
		qt.scanRest, qt.scanThreshold, qt.scanReady = rest, threshold, true
		qt.scanLen = [5]int64{-2, -2, -2, -2, -2} // not computed yet
	}
	// Score falls with length, so for each tf ≤ 4 (most postings) the
	// postings that pass are those up to a longest length: found (once
	// per tf and threshold) by bisection, then compared in the loop.
	limit := func(tf uint16) int64 {
		lo, hi := int64(-1), int64(1<<32-1) // passes at lo (or lo = -1), not past hi
		for lo < hi {
			mid := lo + (hi-lo+1)/2
			if passes(s.p1.Score(float64(tf), float64(mid), s.avgs[0], qt.idf)) {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		qt.scanLen[tf] = lo
		return lo
	}
	for qt.doc != endDoc {
		if qt.c == nil {
			if s.blockBound(qt, qt.bi)*ubSlack+rest < threshold {
				s.enter(qt, qt.bi+1)
				continue
			}
			if !s.decode(qt) {
				return
			}
		}
		c := qt.c
		tfs, lens := c.tfs[:len(c.docs)], c.lens[:len(c.docs)]
		for i := qt.ci; i < len(tfs); i++ {
			if tf := tfs[i]; tf <= 4 {
				lim := qt.scanLen[tf]
				if lim == -2 {
					lim = limit(tf)
				}
				if int64(lens[i]) <= lim {
					qt.ci, qt.doc = i, c.docs[i]
					return
				}
			} else if passes(s.scoreAt(qt, c, i)) {
				qt.ci, qt.doc = i, c.docs[i]
				return
			}
		}
		if qt.lazy && qt.rd.more() {
			if !s.readRest(qt) {
				return
			}
			continue
		}
		s.enter(qt, qt.bi+1)
	}
}

// scanUnion is scanTo for a multi-field term with field masks: it moves
// qt's cursor to the next doc of its union whose BM25F, with rest added,
// can reach threshold (ties pass). The saturation is monotone in the
// pseudo-frequency tf~, so the test is tf~ against the least one that
// passes, found by bisection once per rest and threshold; a doc whose
// bound in the union's table passes has its tf~ summed exactly as
// termScore sums it, so the docs that pass are those whose score would.
func (s *search) scanUnion(qt *qterm, rest, threshold float64) {
	if qt.doc == endDoc {
		return
	}
	if qt.scanRest != rest || qt.scanThreshold != threshold || !qt.scanReady {
		qt.scanRest, qt.scanThreshold, qt.scanReady = rest, threshold, true
		qt.scanPseudo = leastPassing(func(p float64) bool { return params.Saturate(p, qt.idf)*ubSlack+rest >= threshold })
	}
	if qt.pub == nil {
		// A scan passes over most of the union: the table's bound costs
		// a compare per doc, and only the docs it passes are summed.
		qt.pub = qt.um.pseudoFor(s.bfields, s.avgs)
	}
	least := qt.scanPseudo
	docs, mask, pub := qt.union.docs, qt.um.mask, qt.pub[:len(qt.union.docs)]
	for i := qt.ci; i < len(pub); i++ {
		if float64(pub[i]) >= least && s.pseudo(qt, mask[i], docs[i]) >= least {
			qt.ci, qt.doc = i, docs[i]
			return
		}
	}
	s.enter(qt, qt.bi+1) // past the union
}

// pseudo is the BM25F pseudo-frequency of the multi-field term qt on doc d
// of its union, from the fields bits names, in field order (termScore).
func (s *search) pseudo(qt *qterm, bits uint8, d uint32) float64 {
	var pseudo float64
	for k, f := range qt.um.fields {
		if bits&(1<<k) == 0 {
			continue
		}
		c := qt.fposts[f]
		i := seek(c.docs, qt.fpos[f], d)
		qt.fpos[f] = i
		if i < len(c.docs) && c.docs[i] == d {
			if tf := c.tfs[i]; tf > 0 && s.bfields[f].Weight > 0 {
				pseudo += s.fieldPart(qt, k, int(f), tf, c.lens[i])
			}
		}
	}
	return pseudo
}

// leastPassing returns the least non-negative float64 p for which passes
// (monotone: false then true) holds, +Inf when none does. Non-negative
// floats order as their bit patterns, so it bisects those.
func leastPassing(passes func(float64) bool) float64 {
	if !passes(math.MaxFloat64) {
		return math.Inf(1)
	}
	lo, hi := uint64(0), math.Float64bits(math.MaxFloat64) // answer in [lo, hi]
	for lo < hi {
		mid := lo + (hi-lo)/2
		if passes(math.Float64frombits(mid)) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return math.Float64frombits(lo)
}

// fullScore sums every term's score on d in canonical order. Cursors not
// on d are advanced to it (or past it) first.
func (s *search) fullScore(d uint32) float64 {
	var sum float64
	for i := range s.terms {
		qt := &s.terms[i]
		s.seekTo(qt, d)
		if qt.doc == d {
			sum += s.termScore(qt, d)
		}
	}
	return sum
}

// seek returns the first index ≥ from with docs[i] ≥ d (galloping search).
func seek(docs []uint32, from int, d uint32) int {
	if from >= len(docs) || docs[from] >= d {
		return from
	}
	step := 1
	lo, hi := from, from+1
	for hi < len(docs) && docs[hi] < d {
		lo = hi
		step *= 2
		hi = lo + step
	}
	hi = min(hi, len(docs))
	// docs[lo] < d; find first ≥ d in (lo, hi].
	return lo + 1 + sort.Search(hi-lo-1, func(i int) bool { return docs[lo+1+i] >= d })
}
