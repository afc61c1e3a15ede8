package index

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
)

// Query asks an Index for the best K documents.
type Query struct {
	// Terms are normalised query terms (bm25.AppendTerms output, synonyms
	// included). Duplicates are ignored.
	Terms []string
	// Scopes lists the scopes a result may belong to; a document of any
	// other scope is never a candidate. Empty = no document.
	Scopes []string
	// Keywords must all be carried by a result (exact match).
	Keywords []string
	// From and To keep only documents whose time interval overlaps
	// [From, To]; zero values are unbounded. Documents without a time are
	// excluded when either bound is set.
	From, To time.Time
	// K is the number of results; ≤ 0 means 10.
	K int
	// Pending, when set, adds the buffered documents numbered after the
	// transaction's persisted ones up to PendingEnd: they are ranked as if
	// they had been added to the index. A Buffer that does not hold all of
	// them makes the query fail with ErrBufferGap.
	Pending    *Buffer
	PendingEnd uint32
}

// Result is one hit: the record id, its doc number and its score.
type Result struct {
	ID    uint64
	Doc   uint32
	Score float64
}

// params are the BM25 constants every index uses.
var params = bm25.DefaultParams

// ubSlack inflates score upper bounds so that float rounding can never
// make a bound smaller than a score it bounds.
const ubSlack = 1 + 1e-9

// qterm is one query term during evaluation.
type qterm struct {
	idf  float64
	ub   float64
	ord  int // position in the canonical (sorted-term) order
	docs []uint32
	pos  int
	// single field: post is the field's posting; multi-field: per-field
	// postings and cursors.
	post   *posting
	fposts []*posting
	fpos   []int
	// memo holds single-field scores by (tf-1)<<memoLenBits | length for
	// tf ≤ 4 and short lengths, computed on first use (0: not yet): most
	// postings fall there, and a lookup replaces the BM25 arithmetic
	// with the very same value.
	memo [4 << memoLenBits]float64
}

const memoLenBits = 6

// search holds the per-query scratch state, pooled to keep queries
// allocation-light.
type search struct {
	b       buckets
	terms   []qterm
	order   []*qterm // by ascending upper bound
	prefix  []float64
	scores  []float64 // by ord: the term's score on the current candidate
	hit     []bool    // by ord: whether the term occurs in the candidate
	must    []*roaring.Bitmap
	scopes  []*roaring.Bitmap
	tomb    *roaring.Bitmap
	anyDoc  bool     // some scope holds every document: scopes filter nothing
	dense   []uint64 // the whole filter as a bitset over doc numbers
	tmp     []uint64
	useBits bool // filter with dense rather than the bitmaps
	topk    *bm25.TopK
	k       int
	ranked  []bm25.Ranked
	tfs     []float64
	lens    []float64
	avgs    []float64
	bfields []bm25.Field
	p1      bm25.Params // single-field scoring: k1 and the field's own b
	seen    map[string]struct{}
	// Buffered documents (see Buffer): the distinct query terms in query
	// order with their idf, per-window-document sums and hits, per-field
	// term frequencies of one term, and the documents it touched.
	pterms     []pterm
	psum       []float64
	phit       []bool
	ptf        []uint16
	ptouched   []int
	outOfOrder bool // documents were pushed out of doc order before the main pass
}

var searchPool = sync.Pool{New: func() any { return &search{seen: make(map[string]struct{})} }}

// Search returns the top K documents for q, exactly as an exhaustive BM25
// (BM25F for multi-field indexes) scorer would rank them — ties by doc
// number — but skipping documents that cannot enter the top K (MaxScore
// dynamic pruning). Only documents that contain at least one query term
// and pass every filter are candidates: a query without lexical matches
// returns no results.
func (ix *Index) Search(tx *bolt.Tx, q Query) ([]Result, error) {
	return ix.search(tx, q, false)
}

// SearchExhaustive scores every matching document; it exists to check
// Search (the two must agree exactly) and for debugging.
func (ix *Index) SearchExhaustive(tx *bolt.Tx, q Query) ([]Result, error) {
	return ix.search(tx, q, true)
}

func (ix *Index) search(tx *bolt.Tx, q Query, exhaustive bool) ([]Result, error) {
	k := q.K
	if k <= 0 {
		k = 10
	}
	if len(q.Terms) == 0 || len(q.Scopes) == 0 {
		return nil, nil
	}
	s := searchPool.Get().(*search)
	defer s.release()
	b := &s.b
	if !ix.open(tx, b) {
		return nil, nil
	}
	st, err := ix.readStats(b)
	if err != nil {
		return nil, err
	}
	// Buffered documents (Query.Pending) follow the persisted ones: they
	// join the corpus statistics the scores use (gst), while the filters
	// and doc tables below are the persisted index's (st).
	gst := st
	var w window
	if q.Pending != nil {
		if !q.Pending.Covers(st.Docs, q.PendingEnd) {
			return nil, fmt.Errorf("index %s: %w (persisted %d, query sees up to %d)", ix.name, ErrBufferGap, st.Docs, q.PendingEnd)
		}
		q.Pending.mu.RLock()
		defer q.Pending.mu.RUnlock()
		if w = q.Pending.window(st.Docs, q.PendingEnd); w.n > 0 {
			g := *st
			g.Docs += uint32(w.n)
			g.TotalLen = slices.Clone(st.TotalLen)
			for i := range w.n {
				for f, l := range w.bf.docs[w.off+i].lens {
					g.TotalLen[f] += uint64(l)
				}
			}
			gst = &g
		}
	}
	from, to := int64(math.MinInt64), int64(math.MaxInt64)
	if !q.From.IsZero() {
		from = q.From.UnixNano()
	}
	if !q.To.IsZero() {
		to = q.To.UnixNano()
	}

	persisted, err := ix.filters(b, s, st, &q, from, to)
	if err != nil {
		return nil, err
	}
	if err := ix.plan(b, s, gst, q.Terms, persisted, &w); err != nil {
		return nil, err
	}
	if len(s.terms) == 0 && len(s.pterms) == 0 {
		return nil, nil
	}
	if s.topk == nil || s.k != k {
		s.topk, s.k = bm25.NewTopK(k), k
	} else {
		s.topk.Reset()
	}
	// Buffered documents are scored first; they come after every
	// persisted one in doc order, so the persisted pass treats them like
	// seeded documents (see maxScore).
	s.outOfOrder = s.scorePending(&w, &q, from, to)
	if len(s.terms) > 0 {
		s.prepareFilter(st)
		if exhaustive {
			s.exhaustive()
		} else {
			s.maxScore()
		}
	}
	s.ranked = s.topk.Results(s.ranked[:0])
	out := make([]Result, len(s.ranked))
	for i, r := range s.ranked {
		out[i] = Result{Doc: uint32(r.ID), Score: r.Score}
	}
	if w.n > 0 {
		// Persisted docs first (recordIDs resolves them), buffered ones
		// from the window.
		var stored []Result
		for i := range out {
			if out[i].Doc > st.Docs {
				out[i].ID = w.doc(out[i].Doc).doc.ID
			} else {
				stored = append(stored, out[i])
			}
		}
		if err := ix.recordIDs(b, st, stored); err != nil {
			return nil, err
		}
		j := 0
		for i := range out {
			if out[i].Doc <= st.Docs {
				out[i].ID = stored[j].ID
				j++
			}
		}
		return out, nil
	}
	if err := ix.recordIDs(b, st, out); err != nil {
		return nil, err
	}
	return out, nil
}

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

func (s *search) release() {
	for i := range s.terms {
		s.terms[i] = qterm{fposts: s.terms[i].fposts[:0], fpos: s.terms[i].fpos[:0]}
	}
	s.terms = s.terms[:0]
	clear(s.order)
	s.order = s.order[:0]
	s.prefix = s.prefix[:0]
	clear(s.must)
	s.must = s.must[:0]
	clear(s.scopes)
	s.scopes = s.scopes[:0]
	s.tomb = nil
	clear(s.seen)
	s.pterms = s.pterms[:0]
	s.outOfOrder = false
	// Drop every reference into the transaction (buckets, cursors).
	s.b = buckets{rkey: s.b.rkey[:0], ckey: s.b.ckey[:0]}
	searchPool.Put(s)
}

// prepareFilter decides how allowed checks candidates. A scope holding
// exactly the doc numbers 1..Docs filters nothing. When the candidates
// (postings of the query terms) outnumber the words of a bitset over all
// doc numbers, the filter is evaluated once into that bitset, so that a
// candidate costs one bit test instead of a Contains per bitmap.
func (s *search) prepareFilter(st *stats) {
	s.anyDoc, s.useBits = false, false
	for _, bm := range s.scopes {
		if st.Docs > 0 && bm.GetCardinality() == uint64(st.Docs) && bm.Minimum() >= 1 && bm.Maximum() <= st.Docs {
			s.anyDoc = true
			break
		}
	}
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
		cands += len(s.terms[i].docs)
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

// plan loads the postings of each distinct query term and computes its
// idf and score upper bound.
//
// st holds the statistics scores use (persisted plus buffered documents).
// With persisted false no persisted document can pass the filters: the
// postings are then only read for the document frequencies of terms that
// buffered documents hold. Every distinct term with a document frequency
// goes to s.pterms (for the buffered documents), every term with
// persisted postings to s.terms.
func (ix *Index) plan(b *buckets, s *search, st *stats, terms []string, persisted bool, w *window) error {
	nf := len(ix.fields)
	s.p1 = bm25.Params{K1: params.K1, B: ix.fields[0].B}
	if cap(s.avgs) < nf {
		s.avgs, s.tfs, s.lens, s.bfields = make([]float64, nf), make([]float64, nf), make([]float64, nf), make([]bm25.Field, nf)
	}
	s.avgs, s.tfs, s.lens, s.bfields = s.avgs[:nf], s.tfs[:nf], s.lens[:nf], s.bfields[:nf]
	for f := range nf {
		s.avgs[f] = 0
		if st.Docs > 0 {
			s.avgs[f] = float64(st.TotalLen[f]) / float64(st.Docs)
		}
		s.bfields[f] = bm25.Field{Weight: ix.fields[f].Weight, B: ix.fields[f].B}
	}
	for _, t := range terms {
		if _, dup := s.seen[t]; dup || t == "" {
			continue
		}
		s.seen[t] = struct{}{}
		qt := qterm{}
		if n := len(s.terms); n < cap(s.terms) {
			// Reuse the per-field slices a pooled search left in this
			// slot (release keeps them), so that a multi-field query
			// allocates none per term once warm.
			slot := &s.terms[:n+1][n]
			qt.fposts, qt.fpos = slot.fposts[:0], slot.fpos[:0]
		}
		dfPending := w.df(t)
		if !persisted && dfPending == 0 {
			continue
		}
		if nf == 1 {
			p, err := ix.term(b, 0, t)
			if err != nil {
				return err
			}
			if p == nil || len(p.docs) == 0 {
				if dfPending > 0 {
					s.pterms = append(s.pterms, pterm{t, bm25.IDF(int(st.Docs), dfPending)})
				}
				continue
			}
			qt.idf = bm25.IDF(int(st.Docs), len(p.docs)+dfPending)
			if dfPending > 0 {
				s.pterms = append(s.pterms, pterm{t, qt.idf})
			}
			if !persisted {
				continue
			}
			qt.post, qt.docs = p, p.docs
			for _, pt := range p.front {
				qt.ub = max(qt.ub, s.p1.UpperBound(qt.idf, float64(pt.tf), float64(pt.len), s.avgs[0]))
			}
			qt.ub *= ubSlack
		} else {
			any := false
			for f := range nf {
				p, err := ix.term(b, uint8(f), t)
				if err != nil {
					return err
				}
				qt.fposts = append(qt.fposts, p)
				qt.fpos = append(qt.fpos, 0)
				if p != nil && len(p.docs) > 0 {
					any = true
					s.tfs[f], s.lens[f] = s.bestPoint(f, p.front)
				} else {
					s.tfs[f], s.lens[f] = 0, 1
				}
			}
			if !any {
				if dfPending > 0 {
					s.pterms = append(s.pterms, pterm{t, bm25.IDF(int(st.Docs), dfPending)})
				}
				qt.fposts, qt.fpos = qt.fposts[:0], qt.fpos[:0]
				continue
			}
			qt.docs = unionDocs(qt.fposts)
			qt.idf = bm25.IDF(int(st.Docs), len(qt.docs)+dfPending)
			if dfPending > 0 {
				s.pterms = append(s.pterms, pterm{t, qt.idf})
			}
			if !persisted {
				qt.fposts, qt.fpos = qt.fposts[:0], qt.fpos[:0]
				continue
			}
			qt.ub = bm25.BM25F(params, s.bfields, s.tfs, s.lens, s.avgs, qt.idf) * ubSlack
		}
		s.terms = append(s.terms, qt)
	}
	// s.terms stays in query order: every evaluation strategy sums term
	// scores in that order (floating point addition is not associative).
	for i := range s.terms {
		s.terms[i].ord = i
		s.order = append(s.order, &s.terms[i])
	}
	return nil
}

// bestPoint returns the frontier point of field f with the largest BM25F
// contribution (the weighted tf over the length norm, which the BM25F
// saturation is monotone in), as the (tf, length) to bound the field with.
func (s *search) bestPoint(f int, front []tfLen) (tf, l float64) {
	best := -1.0
	for _, pt := range front {
		x := [1]float64{float64(pt.tf)}
		y := [1]float64{float64(pt.len)}
		if sc := bm25.BM25F(params, s.bfields[f:f+1], x[:], y[:], s.avgs[f:f+1], 1); sc > best {
			best, tf, l = sc, x[0], y[0]
		}
	}
	return tf, l
}

// unionDocs merges the sorted doc lists of a term's fields (linear
// merges; a term usually occurs in one or two fields).
func unionDocs(ps []*posting) []uint32 {
	var out []uint32
	for _, p := range ps {
		if p == nil || len(p.docs) == 0 {
			continue
		}
		if out == nil {
			out = p.docs // shared, never modified
			continue
		}
		merged := make([]uint32, 0, len(out)+len(p.docs))
		i, j := 0, 0
		for i < len(out) && j < len(p.docs) {
			switch a, b := out[i], p.docs[j]; {
			case a < b:
				merged = append(merged, a)
				i++
			case a > b:
				merged = append(merged, b)
				j++
			default:
				merged = append(merged, a)
				i++
				j++
			}
		}
		merged = append(merged, out[i:]...)
		out = append(merged, p.docs[j:]...)
	}
	return out
}

// termScore scores qt on doc d, which qt.docs[qt.pos] must equal.
func (s *search) termScore(qt *qterm, d uint32) float64 {
	if qt.post != nil {
		p := qt.post
		tf, l := p.tfs[qt.pos], p.lens[qt.pos]
		if tf > 4 || l >= 1<<memoLenBits {
			return s.p1.Score(float64(tf), float64(l), s.avgs[0], qt.idf)
		}
		i := int(tf-1)<<memoLenBits | int(l)
		if v := qt.memo[i]; v != 0 {
			return v
		}
		v := s.p1.Score(float64(tf), float64(l), s.avgs[0], qt.idf)
		qt.memo[i] = v
		return v
	}
	for f, p := range qt.fposts {
		s.tfs[f], s.lens[f] = 0, 0
		if p == nil {
			continue
		}
		i := seek(p.docs, qt.fpos[f], d)
		qt.fpos[f] = i
		if i < len(p.docs) && p.docs[i] == d {
			s.tfs[f], s.lens[f] = float64(p.tfs[i]), float64(p.lens[i])
		}
	}
	return bm25.BM25F(params, s.bfields, s.tfs, s.lens, s.avgs, qt.idf)
}

// fullScore sums every term's score on d in canonical order. Terms whose
// cursor is not on d are advanced (seek) first.
func (s *search) fullScore(d uint32) float64 {
	var sum float64
	for i := range s.terms {
		qt := &s.terms[i]
		qt.pos = seek(qt.docs, qt.pos, d)
		if qt.pos < len(qt.docs) && qt.docs[qt.pos] == d {
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

// exhaustive scores every allowed document containing any query term.
func (s *search) exhaustive() {
	for {
		d, ok := uint32(math.MaxUint32), false
		for i := range s.terms {
			qt := &s.terms[i]
			if qt.pos < len(qt.docs) && qt.docs[qt.pos] <= d {
				d, ok = qt.docs[qt.pos], true
			}
		}
		if !ok {
			return
		}
		if s.allowed(d) {
			s.topk.Push(uint64(d), s.fullScore(d))
		}
		for i := range s.terms {
			qt := &s.terms[i]
			if qt.pos < len(qt.docs) && qt.docs[qt.pos] == d {
				qt.pos++
			}
		}
	}
}

// maxScore is the MaxScore algorithm (Turtle & Flood): terms sorted by
// upper bound; the prefix of terms whose summed bounds cannot beat the
// current threshold is "non-essential" — a document matching only those
// cannot enter the top K, so candidates come only from the essential
// terms, and a candidate is abandoned as soon as its partial score plus the
// remaining bounds cannot beat the threshold. Because documents are visited
// in increasing doc number and ties go to the smaller number, a candidate
// that can at best tie the threshold can be skipped too.
func (s *search) maxScore() {
	slices.SortFunc(s.order, func(a, b *qterm) int {
		switch {
		case a.ub < b.ub:
			return -1
		case a.ub > b.ub:
			return 1
		}
		return a.ord - b.ord
	})
	n := len(s.order)
	s.prefix = s.prefix[:0]
	var acc float64
	for _, qt := range s.order {
		acc += qt.ub
		s.prefix = append(s.prefix, acc)
	}
	if cap(s.scores) < n {
		s.scores, s.hit = make([]float64, n), make([]bool, n)
	}
	scores, hit := s.scores[:n], s.hit[:n]
	threshold := math.Inf(-1)
	full := false
	firstEssential := 0
	// Seeding: the documents of the term with the highest bound (usually
	// the rarest) are scored first, out of doc order, so that the
	// threshold starts high and the frequent terms become non-essential
	// at once instead of after a long run of mediocre early documents.
	// Those documents are skipped in the main pass. Because the kept
	// documents are then no longer all smaller than the candidate, ties
	// are decided explicitly: a candidate that can at best equal the
	// threshold can still enter if its doc number is smaller than the
	// threshold document's.
	var seeded *qterm
	var minDoc uint32 // doc number of the threshold entry
	// Buffered documents pushed before this pass (s.outOfOrder) are kept
	// out of doc order as seeded ones are.
	outOfOrder := s.outOfOrder
	if top := s.order[n-1]; n >= 2 && len(top.docs) <= seedLimit(s) {
		seeded, outOfOrder = top, true
		for _, d := range top.docs {
			if s.allowed(d) {
				s.topk.Push(uint64(d), s.fullScore(d))
			}
		}
		for i := range s.terms {
			s.terms[i].pos = 0
			clear(s.terms[i].fpos)
		}
	}
	// canWin reports whether a candidate d whose score is at most bound
	// may enter the top k.
	canWin := func(bound float64, d uint32) bool {
		return !full || bound > threshold || (outOfOrder && bound == threshold && d < minDoc)
	}
	update := func() {
		min, ok := s.topk.Min()
		if !ok {
			return
		}
		full, threshold, minDoc = true, min.Score, uint32(min.ID)
		// A document matching only the terms before firstEssential scores
		// at most prefix[firstEssential-1]; with seeding it could still
		// tie its way in, so only a strictly smaller sum makes them
		// non-essential.
		for firstEssential < n && (s.prefix[firstEssential] < threshold || (!outOfOrder && s.prefix[firstEssential] == threshold)) {
			firstEssential++
		}
	}
	update()
	for firstEssential < n {
		// Next candidate: the smallest current doc among essential terms.
		d, ok := uint32(math.MaxUint32), false
		for _, qt := range s.order[firstEssential:] {
			if qt.pos < len(qt.docs) && qt.docs[qt.pos] <= d {
				d, ok = qt.docs[qt.pos], true
			}
		}
		if !ok {
			return
		}
		if seeded != nil && seeded.pos < len(seeded.docs) && seeded.docs[seeded.pos] == d {
			s.advance(firstEssential, d) // scored while seeding
			continue
		}
		nonEssential := 0.0
		if firstEssential > 0 {
			nonEssential = s.prefix[firstEssential-1]
		}
		// Bound: every essential term on d contributes at most its ub,
		// non-essential ones at most prefix[firstEssential-1]. Checked
		// before the filters, which cost more.
		bound := nonEssential
		for _, qt := range s.order[firstEssential:] {
			if qt.pos < len(qt.docs) && qt.docs[qt.pos] == d {
				bound += qt.ub
			}
		}
		if canWin(bound, d) && s.allowed(d) {
			// Refine: replace bounds by real scores from the highest
			// bound down, stopping once the candidate cannot win. Every
			// essential cursor is at d or beyond; non-essential ones are
			// advanced to d.
			for i := n - 1; i >= 0 && canWin(bound, d); i-- {
				qt := s.order[i]
				if i < firstEssential {
					qt.pos = seek(qt.docs, qt.pos, d)
				}
				if qt.pos < len(qt.docs) && qt.docs[qt.pos] == d {
					sc := s.termScore(qt, d)
					scores[qt.ord], hit[qt.ord] = sc, true
					bound += sc*ubSlack - qt.ub
				} else {
					hit[qt.ord] = false
					if i < firstEssential {
						bound -= qt.ub // its ub was counted in the prefix
					}
				}
			}
			if canWin(bound, d) {
				// The loop ran to the end: every term's score on d is
				// known. Sum them in canonical order, as fullScore does.
				var sum float64
				for o := range n {
					if hit[o] {
						sum += scores[o]
					}
				}
				s.topk.Push(uint64(d), sum)
				update()
			}
		}
		s.advance(firstEssential, d)
	}
}

// advance moves the essential cursors that are on d past it.
func (s *search) advance(firstEssential int, d uint32) {
	for _, qt := range s.order[firstEssential:] {
		if qt.pos < len(qt.docs) && qt.docs[qt.pos] == d {
			qt.pos++
		}
	}
}

// seedLimit is the most documents a seeding term may have: seeding pays
// off when the best-bounded term is much rarer than the query's postings
// as a whole.
func seedLimit(s *search) int {
	total := 0
	for i := range s.terms {
		total += len(s.terms[i].docs)
	}
	return max(64, total/8)
}

// MatchesOnly reports whether doc d contains the query terms only in field
// f (and in no other field). SearchGraphNodes uses it to drop nodes that
// match through relation text alone.
func (ix *Index) MatchesOnly(tx *bolt.Tx, d uint32, terms []string, f int) bool {
	var b buckets
	if !ix.open(tx, &b) {
		return false
	}
	inF := false
	for _, t := range terms {
		for field := range ix.fields {
			p, err := ix.term(&b, uint8(field), t)
			if err != nil || p == nil {
				continue
			}
			i := seek(p.docs, 0, d)
			if i < len(p.docs) && p.docs[i] == d {
				if field != f {
					return false
				}
				inF = true
			}
		}
	}
	return inF
}
