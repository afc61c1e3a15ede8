package index

import (
	"fmt"
	"math"
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
}

// search holds the per-query scratch state, pooled to keep queries
// allocation-light.
type search struct {
	terms   []qterm
	order   []*qterm // by ascending upper bound
	prefix  []float64
	must    []*roaring.Bitmap
	scopes  []*roaring.Bitmap
	topk    *bm25.TopK
	k       int
	ranked  []bm25.Ranked
	keyBuf  []byte
	tfs     []float64
	lens    []float64
	avgs    []float64
	bfields []bm25.Field
	p1      bm25.Params // single-field scoring: k1 and the field's own b
	seen    map[string]struct{}
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
	b, err := ix.buckets(tx)
	if err != nil || b == nil {
		return nil, err
	}
	st, err := ix.loadStats(b)
	if err != nil {
		return nil, err
	}
	s := searchPool.Get().(*search)
	defer s.release()

	// Filters: union of scopes, intersection with keywords and time, minus
	// tombstones. Checked per candidate with Contains, so no bitmap is
	// materialised unless there are several scopes.
	for _, sc := range q.Scopes {
		bm, err := ix.keyword(b, scopePrefix+sc)
		if err != nil {
			return nil, err
		}
		if bm != nil {
			s.scopes = append(s.scopes, bm)
		}
	}
	if len(s.scopes) == 0 {
		return nil, nil
	}
	for _, kw := range q.Keywords {
		bm, err := ix.keyword(b, kw)
		if err != nil {
			return nil, err
		}
		if bm == nil {
			return nil, nil
		}
		s.must = append(s.must, bm)
	}
	if !q.From.IsZero() || !q.To.IsZero() {
		from, to := int64(math.MinInt64), int64(math.MaxInt64)
		if !q.From.IsZero() {
			from = q.From.UnixNano()
		}
		if !q.To.IsZero() {
			to = q.To.UnixNano()
		}
		s.must = append(s.must, timeRange(b, &st, from, to))
	}
	tomb, err := ix.keyword(b, tombKeyword)
	if err != nil {
		return nil, err
	}

	if err := ix.plan(b, s, &st, q.Terms); err != nil {
		return nil, err
	}
	if len(s.terms) == 0 {
		return nil, nil
	}
	allowed := func(d uint32) bool {
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
		for _, bm := range s.must {
			if !bm.Contains(d) {
				return false
			}
		}
		return tomb == nil || !tomb.Contains(d)
	}
	if s.topk == nil || s.k != k {
		s.topk, s.k = bm25.NewTopK(k), k
	} else {
		s.topk.Reset()
	}
	if exhaustive {
		s.exhaustive(ix, allowed)
	} else {
		s.maxScore(ix, allowed)
	}
	s.ranked = s.topk.Results(s.ranked[:0])
	out := make([]Result, len(s.ranked))
	for i, r := range s.ranked {
		d := uint32(r.ID)
		id, _, err := docID(b, d)
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", ix.name, err)
		}
		out[i] = Result{ID: id, Doc: d, Score: r.Score}
	}
	return out, nil
}

func (s *search) release() {
	for i := range s.terms {
		s.terms[i] = qterm{fposts: s.terms[i].fposts[:0], fpos: s.terms[i].fpos[:0]}
	}
	s.terms = s.terms[:0]
	s.order = s.order[:0]
	s.prefix = s.prefix[:0]
	clear(s.must)
	s.must = s.must[:0]
	clear(s.scopes)
	s.scopes = s.scopes[:0]
	clear(s.seen)
	searchPool.Put(s)
}

// plan loads the postings of each distinct query term and computes its
// idf and score upper bound.
func (ix *Index) plan(b *buckets, s *search, st *stats, terms []string) error {
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
		if nf == 1 {
			p, err := ix.term(b, 0, t, &s.keyBuf)
			if err != nil {
				return err
			}
			if p == nil || len(p.docs) == 0 {
				continue
			}
			qt.post, qt.docs = p, p.docs
			qt.idf = bm25.IDF(int(st.Docs), len(p.docs))
			qt.ub = s.p1.UpperBound(qt.idf, float64(p.maxTF), 1, s.avgs[0]) * ubSlack
		} else {
			any := false
			for f := range nf {
				p, err := ix.term(b, uint8(f), t, &s.keyBuf)
				if err != nil {
					return err
				}
				qt.fposts = append(qt.fposts, p)
				qt.fpos = append(qt.fpos, 0)
				if p != nil && len(p.docs) > 0 {
					any = true
					s.tfs[f], s.lens[f] = float64(p.maxTF), 1
				} else {
					s.tfs[f], s.lens[f] = 0, 1
				}
			}
			if !any {
				continue
			}
			qt.docs = unionDocs(qt.fposts)
			qt.idf = bm25.IDF(int(st.Docs), len(qt.docs))
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
		return s.p1.Score(float64(p.tfs[qt.pos]), float64(p.lens[qt.pos]), s.avgs[0], qt.idf)
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
func (s *search) exhaustive(_ *Index, allowed func(uint32) bool) {
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
		if allowed(d) {
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
func (s *search) maxScore(_ *Index, allowed func(uint32) bool) {
	sort.Slice(s.order, func(i, j int) bool {
		if s.order[i].ub != s.order[j].ub {
			return s.order[i].ub < s.order[j].ub
		}
		return s.order[i].ord < s.order[j].ord
	})
	n := len(s.order)
	s.prefix = s.prefix[:0]
	var acc float64
	for _, qt := range s.order {
		acc += qt.ub
		s.prefix = append(s.prefix, acc)
	}
	threshold := math.Inf(-1)
	full := false
	firstEssential := 0
	for {
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
		if allowed(d) {
			// Bound: every essential term on d contributes at most its ub,
			// non-essential ones at most prefix[firstEssential-1].
			bound := 0.0
			if firstEssential > 0 {
				bound = s.prefix[firstEssential-1]
			}
			for _, qt := range s.order[firstEssential:] {
				if qt.pos < len(qt.docs) && qt.docs[qt.pos] == d {
					bound += qt.ub
				}
			}
			if !full || bound > threshold {
				// Refine: replace bounds by real scores from the highest
				// bound down, stopping once the candidate cannot win.
				for i := n - 1; i >= 0 && (!full || bound > threshold); i-- {
					qt := s.order[i]
					if i < firstEssential {
						qt.pos = seek(qt.docs, qt.pos, d)
						if qt.pos < len(qt.docs) && qt.docs[qt.pos] == d {
							bound += s.termScore(qt, d)*ubSlack - qt.ub
						} else {
							bound -= qt.ub
						}
						// prefix bookkeeping: i's ub was counted in prefix.
						continue
					}
					if qt.pos < len(qt.docs) && qt.docs[qt.pos] == d {
						bound += s.termScore(qt, d)*ubSlack - qt.ub
					}
				}
				if !full || bound > threshold {
					s.topk.Push(uint64(d), s.fullScore(d))
					if s.topk.Len() == s.k {
						full = true
						threshold = s.topk.Threshold()
						for firstEssential < n && s.prefix[firstEssential] <= threshold {
							firstEssential++
						}
					}
				}
			}
		}
		for _, qt := range s.order[firstEssential:] {
			if qt.pos < len(qt.docs) && qt.docs[qt.pos] == d {
				qt.pos++
			}
		}
		if firstEssential >= n {
			return
		}
	}
}

// MatchesOnly reports whether doc d contains the query terms only in field
// f (and in no other field). SearchGraphNodes uses it to drop nodes that
// match through relation text alone.
func (ix *Index) MatchesOnly(tx *bolt.Tx, d uint32, terms []string, f int) bool {
	b, err := ix.buckets(tx)
	if err != nil || b == nil {
		return false
	}
	var key []byte
	inF := false
	for _, t := range terms {
		for field := range ix.fields {
			p, err := ix.term(b, uint8(field), t, &key)
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
