package index

import (
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// filters loads the persisted index's filters for q into s: the union of
// scopes, the keywords and time range every result must match, and the
// tombstones. It reports false when no persisted document can pass them.
func (ix *Index) filters(b *buckets, s *search, st *stats, q *Query, from, to int64) (bool, error) {
	for _, sc := range q.Scopes {
		bm, err := ix.scope(b, sc)
		if err != nil {
			return false, err
		}
		if bm != nil {
			s.scopes = append(s.scopes, bm)
		}
	}
	if len(s.scopes) == 0 {
		return false, nil
	}
	for _, kw := range q.Keywords {
		bm, err := ix.keyword(b, kw)
		if err != nil {
			return false, err
		}
		if bm == nil {
			return false, nil
		}
		s.must = append(s.must, bm)
	}
	if from != math.MinInt64 || to != math.MaxInt64 {
		bm, err := timeRange(b, st, from, to)
		if err != nil {
			return false, err
		}
		s.must = append(s.must, bm)
	}
	var err error
	if s.tomb, err = ix.keyword(b, tombKeyword); err != nil {
		return false, err
	}
	return true, nil
}

// prepareFilter decides how allowed checks candidates. Scopes holding
// together exactly the doc numbers 1..Docs filter nothing. When the candidates
// (postings of the query terms) outnumber the words of a bitset over all
// doc numbers, the filter is evaluated once into that bitset, so that a
// candidate costs one bit test instead of a Contains per bitmap.
func (s *search) prepareFilter(st *stats) {
	s.anyDoc, s.useBits = false, false
	// A doc has one scope, so scope bitmaps are disjoint: scopes whose
	// cardinalities add up to Docs, all within 1..Docs, hold every doc.
	var card uint64
	for i, bm := range s.scopes {
		if slices.Contains(s.scopes[:i], bm) {
			continue // a scope named twice (bitmaps are cached: one pointer)
		}
		if bm.IsEmpty() || bm.Minimum() < 1 || bm.Maximum() > st.Docs {
			card = 0
			break
		}
		card += bm.GetCardinality()
	}
	s.anyDoc = st.Docs > 0 && card == uint64(st.Docs)
	nbm := len(s.must)
	if !s.anyDoc {
		nbm += len(s.scopes)
	}
	if s.tomb != nil {
		nbm++
	}
	if nbm == 0 {
		return
	}
	words := int(st.Docs)/64 + 1
	cands := 0
	for i := range s.terms {
		cands += s.terms[i].n
	}
	if cands < words*denseFactor {
		return
	}
	fits := func(bm *roaring.Bitmap) bool { return bm.IsEmpty() || bm.Maximum() < uint32(64*words) }
	for _, bm := range s.must {
		if !fits(bm) {
			return
		}
	}
	if s.tomb != nil && !fits(s.tomb) {
		return
	}
	if !s.anyDoc {
		for _, bm := range s.scopes {
			if !fits(bm) {
				return
			}
		}
	}
	s.dense = resize(s.dense, words)
	if s.anyDoc {
		// Exactly 1..Docs.
		for i := range s.dense {
			s.dense[i] = ^uint64(0)
		}
		s.dense[0] &^= 1
		s.dense[words-1] &= ^uint64(0) >> (63 - st.Docs%64)
	} else {
		clear(s.dense)
		s.scopes[0].WriteDenseTo(s.dense)
		for _, bm := range s.scopes[1:] {
			for i, w := range s.denseOf(bm, words) {
				s.dense[i] |= w
			}
		}
	}
	for _, bm := range s.must {
		for i, w := range s.denseOf(bm, words) {
			s.dense[i] &= w
		}
	}
	if s.tomb != nil {
		for i, w := range s.denseOf(s.tomb, words) {
			s.dense[i] &^= w
		}
	}
	s.useBits = true
}

// denseFactor: the bitset is built when the candidates number at least
// this many times its words.
const denseFactor = 1

// denseOf returns bm as a bitset of words words in s.tmp.
func (s *search) denseOf(bm *roaring.Bitmap, words int) []uint64 {
	s.tmp = resize(s.tmp, words)
	clear(s.tmp)
	bm.WriteDenseTo(s.tmp)
	return s.tmp
}

func resize(b []uint64, n int) []uint64 {
	if cap(b) < n {
		return make([]uint64, n)
	}
	return b[:n]
}

// allowed reports whether doc d passes the query's filters.
func (s *search) allowed(d uint32) bool {
	if s.useBits {
		w := int(d >> 6)
		return w < len(s.dense) && s.dense[w]&(1<<(d&63)) != 0
	}
	if !s.anyDoc {
		ok := false
		for _, bm := range s.scopes {
			if bm.Contains(d) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, bm := range s.must {
		if !bm.Contains(d) {
			return false
		}
	}
	return s.tomb == nil || !s.tomb.Contains(d)
}
