package index

import (
	"fmt"
	"math"
	"slices"
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
	idf float64
	ub  float64
	ord int // position in the canonical (sorted-term) order
	n   int // its postings (single field) or docs (multi-field)
	// single field: post is the field's posting; multi-field: per-field
	// decoded postings and cursors, and union the docs of any field.
	post   *posting
	fposts []*chunk
	fpos   []int
	union  chunk
	// multi-field: the merged lists (um), each field's best header point
	// (best, by field: tf then length) and the bound of a doc by the
	// fields that hold it (maskUB, by mask; -1: not computed yet).
	um     *unionMemo
	best   []float64
	maskUB []float64
	// fmemo holds BM25F field parts (bm25.FieldPart) by the union's field
	// index k, tf ≤ 4 and a length under 1<<memoLenBits, at
	// (k*4+tf-1)<<memoLenBits | length (0: not yet computed), for the
	// same reason as memo.
	fmemo []float64
	// pub is the union's table bounding its docs' pseudo-frequencies
	// under this query's averages (unionMemo.pseudoFor), nil until
	// scanUnion needs it.
	pub []float32
	// scanTo's length limits per tf for its last rest and threshold
	// (scanUnion's: the least pseudo-frequency that passes, scanPseudo).
	scanRest, scanThreshold float64
	scanPseudo              float64
	scanLen                 [5]int64
	scanReady               bool
	// scratch holds the cursor's block, or what it read of it with rd
	// (lazy set), when the cache has no room to keep it decoded.
	scratch chunk
	rd      postingReader
	lazy    bool
	// The cursor (cursor.go) and the per-block bound memo (-1: not yet
	// computed).
	bi, ci, sb int
	c          *chunk
	doc        uint32
	bounds     []float64
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
	cb      []float64 // by ord: the bound the candidate's bound counted for the term
	exact   []bool    // by ord: cb holds the term's score on the candidate
	req     []*qterm  // the terms a winning doc must hold (maxScore)
	bounds  []float64 // the terms' per-block bound memos
	err     error     // a corrupt block met by a cursor
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
		s.start()
		s.prepareFilter(st)
		if exhaustive {
			s.exhaustive()
		} else {
			s.maxScore()
		}
	}
	if s.err != nil {
		return nil, fmt.Errorf("index %s: %w", ix.name, s.err)
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

func (s *search) release() {
	for i := range s.terms {
		sc := s.terms[i].scratch
		old := &s.terms[i]
		clear(old.fposts[:cap(old.fposts)])
		s.terms[i] = qterm{
			fposts: old.fposts[:0], fpos: old.fpos[:0], best: old.best[:0], maskUB: old.maskUB[:0], fmemo: old.fmemo[:0],
			scratch: chunk{docs: sc.docs[:0], tfs: sc.tfs[:0], lens: sc.lens[:0]},
		}
	}
	s.terms = s.terms[:0]
	clear(s.order)
	s.order = s.order[:0]
	clear(s.req[:cap(s.req)])
	s.prefix = s.prefix[:0]
	clear(s.must)
	s.must = s.must[:0]
	clear(s.scopes)
	s.scopes = s.scopes[:0]
	s.tomb = nil
	clear(s.seen)
	s.pterms = s.pterms[:0]
	s.outOfOrder = false
	s.err = nil
	// Drop every reference into the transaction (buckets, cursors).
	s.b = buckets{rkey: s.b.rkey[:0], ckey: s.b.ckey[:0]}
	searchPool.Put(s)
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
			qt.fposts, qt.fpos, qt.scratch = slot.fposts[:0], slot.fpos[:0], slot.scratch
			qt.best, qt.maskUB, qt.fmemo = slot.best[:0], slot.maskUB[:0], slot.fmemo[:0]
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
			if p == nil || p.df == 0 {
				if dfPending > 0 {
					s.pterms = append(s.pterms, pterm{t, bm25.IDF(int(st.Docs), dfPending)})
				}
				continue
			}
			qt.idf = bm25.IDF(int(st.Docs), int(p.df)+dfPending)
			if dfPending > 0 {
				s.pterms = append(s.pterms, pterm{t, qt.idf})
			}
			if !persisted {
				continue
			}
			qt.post, qt.n = p, int(p.df)
			for _, pt := range p.front {
				qt.ub = max(qt.ub, s.p1.UpperBound(qt.idf, float64(pt.tf), float64(pt.len), s.avgs[0]))
			}
			qt.ub *= ubSlack
		} else {
			var host *posting // the first field's list that has the term
			for f := range nf {
				p, err := ix.term(b, uint8(f), t)
				if err != nil {
					return err
				}
				var c *chunk
				if p != nil && p.df > 0 {
					if c, err = p.all(); err != nil {
						return fmt.Errorf("index %s: %w", ix.name, err)
					}
					if host == nil {
						host = p
					}
					s.tfs[f], s.lens[f] = s.bestPoint(f, p.front)
				} else {
					s.tfs[f], s.lens[f] = 0, 1
				}
				qt.best = append(qt.best, s.tfs[f], s.lens[f])
				qt.fposts = append(qt.fposts, c)
				qt.fpos = append(qt.fpos, 0)
			}
			if host == nil {
				if dfPending > 0 {
					s.pterms = append(s.pterms, pterm{t, bm25.IDF(int(st.Docs), dfPending)})
				}
				qt.fposts, qt.fpos = qt.fposts[:0], qt.fpos[:0]
				continue
			}
			qt.um = host.unionOf(qt.fposts)
			qt.union.docs = qt.um.docs
			if qt.um.mask != nil {
				qt.maskUB = slices.Grow(qt.maskUB[:0], 1<<len(qt.um.fields))[:1<<len(qt.um.fields)]
				for i := range qt.maskUB {
					qt.maskUB[i] = -1
				}
				n := len(qt.um.fields) * 4 << memoLenBits
				qt.fmemo = slices.Grow(qt.fmemo[:0], n)[:n]
				clear(qt.fmemo)
			}
			qt.n = len(qt.union.docs)
			qt.idf = bm25.IDF(int(st.Docs), qt.n+dfPending)
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

// maskBound bounds the multi-field term qt's score on the doc its cursor
// is on by the best header points of the fields holding it there (the
// term's ub when the memo has no masks). Fields that do not hold the doc
// add nothing to its BM25F, and BM25F grows with each field's pseudo-
// frequency, so this bounds the score; it is exact as a float for the same
// reason qt.ub is, and carries the same slack.
func (s *search) maskBound(qt *qterm) float64 {
	if qt.um.mask == nil {
		return qt.ub
	}
	m := qt.um.mask[qt.ci]
	if v := qt.maskUB[m]; v >= 0 {
		return v
	}
	for f := range s.tfs {
		s.tfs[f], s.lens[f] = 0, 1
	}
	for k, f := range qt.um.fields {
		if m&(1<<k) != 0 {
			s.tfs[f], s.lens[f] = qt.best[2*int(f)], qt.best[2*int(f)+1]
		}
	}
	v := bm25.BM25F(params, s.bfields, s.tfs, s.lens, s.avgs, qt.idf) * ubSlack
	qt.maskUB[m] = v
	return v
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

// start sets up the terms' cursors and bound memos for the persisted pass.
func (s *search) start() {
	total := 0
	for i := range s.terms {
		if p := s.terms[i].post; p != nil {
			total += len(p.blocks)
		}
	}
	if cap(s.bounds) < total {
		s.bounds = make([]float64, total)
	}
	s.bounds = s.bounds[:total]
	for i := range s.bounds {
		s.bounds[i] = -1
	}
	off := 0
	for i := range s.terms {
		qt := &s.terms[i]
		if p := qt.post; p != nil {
			qt.bounds = s.bounds[off : off+len(p.blocks) : off+len(p.blocks)]
			off += len(p.blocks)
		}
		s.reset(qt)
	}
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
			if err != nil || p == nil || p.df == 0 {
				continue
			}
			if ok, err := p.has(d); err == nil && ok {
				if field != f {
					return false
				}
				inF = true
			}
		}
	}
	return inF
}
