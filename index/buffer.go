package index

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/stratagate/stratagate/bm25"
)

// ErrBufferGap is returned by a query whose Buffer does not hold every
// document between the transaction's persisted ones and Query.PendingEnd
// (the caller took a Buffer from before a merge, or too early): the caller
// supplies a Buffer that does (StrataGate rebuilds one from its source
// records).
var ErrBufferGap = errors.New("sg: index buffer does not cover the documents the query must see")

// Buffer holds documents that follow an index's persisted ones — doc
// numbers First(), First()+1, … — in memory, until they are written into
// the index in one larger group (Docs, then AddBatch). A query that names
// a Buffer (Query.Pending) ranks the buffered documents together with the
// persisted ones exactly as if they had been added: the corpus statistics,
// document frequencies and scores are those of the union, so the results
// equal those of the index after the merge.
//
// A Buffer is safe for concurrent use by one writer (Add, Truncate) and
// any number of queries. Buffered documents cannot be deleted: merge them
// before a Delete, Replace or Undelete.
type Buffer struct {
	nf int // fields of the index

	mu       sync.RWMutex
	first    uint32
	docs     []bufDoc
	post     map[string]*bufTerm // termKey → postings in doc order
	totalLen []uint64
	// Scratch of Add, under mu: a message's terms sorted and counted.
	sorted []string
	counts []termTF
}

// bufTerm is one term's postings in a Buffer: a pointer in the map, so
// that adding a posting to a term seen before allocates no key.
type bufTerm struct {
	ps []bufPosting
}

type bufDoc struct {
	doc     Doc
	kws     []string // sorted, the scope keyword included
	lens    []uint32 // per field
	hasTime bool
	start   int64
	end     int64
}

type bufPosting struct {
	d  uint32
	tf uint16
}

// NewBuffer returns an empty Buffer whose first document will be doc
// number first (the index's persisted document count + 1).
func (ix *Index) NewBuffer(first uint32) *Buffer {
	return &Buffer{nf: len(ix.fields), first: first, post: map[string]*bufTerm{}, totalLen: make([]uint64, len(ix.fields))}
}

// First returns the doc number of the Buffer's first document.
func (bf *Buffer) First() uint32 {
	bf.mu.RLock()
	defer bf.mu.RUnlock()
	return bf.first
}

// Len returns the number of buffered documents.
func (bf *Buffer) Len() int {
	bf.mu.RLock()
	defer bf.mu.RUnlock()
	return len(bf.docs)
}

// Add appends doc and returns its doc number. doc is validated as Add
// validates it; its slices must not be modified afterwards.
func (bf *Buffer) Add(doc Doc) (uint32, error) {
	if len(doc.Fields) != bf.nf {
		return 0, fmt.Errorf("index buffer: %w: %d fields, want %d", ErrSchema, len(doc.Fields), bf.nf)
	}
	for _, k := range doc.Keywords {
		if k == "" || slices.Contains([]byte(k), 0) {
			return 0, fmt.Errorf("index buffer: %w: keyword %q", ErrSchema, k)
		}
	}
	bd := bufDoc{doc: doc, kws: docKeywords(nil, &doc), lens: make([]uint32, bf.nf)}
	if !doc.Start.IsZero() {
		end := doc.End
		if end.IsZero() || end.Before(doc.Start) {
			end = doc.Start
		}
		bd.hasTime, bd.start, bd.end = true, doc.Start.UnixNano(), end.UnixNano()
	}
	bf.mu.Lock()
	defer bf.mu.Unlock()
	if uint64(bf.first)+uint64(len(bf.docs)) >= uint64(^uint32(0)) {
		return 0, fmt.Errorf("index buffer: %w", ErrFull)
	}
	d := bf.first + uint32(len(bf.docs))
	var kb [64]byte
	for f, terms := range doc.Fields {
		bd.lens[f] = uint32(len(terms))
		bf.totalLen[f] += uint64(len(terms))
		bf.sorted = append(bf.sorted[:0], terms...)
		bf.counts = appendCounts(bf.counts[:0], bf.sorted)
		for _, tt := range bf.counts {
			k := termKey(kb[:0], uint8(f), tt.term)
			t := bf.post[string(k)]
			if t == nil {
				t = &bufTerm{}
				bf.post[string(k)] = t
			}
			t.ps = append(t.ps, bufPosting{d, tt.tf})
		}
	}
	clear(bf.sorted) // drop the message's strings
	bf.docs = append(bf.docs, bd)
	return d, nil
}

// Truncate keeps the first n buffered documents and forgets the others
// (the transaction that added them rolled back).
func (bf *Buffer) Truncate(n int) {
	bf.mu.Lock()
	defer bf.mu.Unlock()
	if n < 0 || n >= len(bf.docs) {
		return
	}
	last := bf.first + uint32(n) // first doc number dropped
	// A rollback is rare: every term is looked at rather than each
	// document keeping its own.
	for k, t := range bf.post {
		ps := t.ps
		for len(ps) > 0 && ps[len(ps)-1].d >= last {
			ps = ps[:len(ps)-1]
		}
		if len(ps) == 0 {
			delete(bf.post, k)
		} else {
			t.ps = ps
		}
	}
	for i := len(bf.docs) - 1; i >= n; i-- {
		bd := &bf.docs[i]
		for f, l := range bd.lens {
			bf.totalLen[f] -= uint64(l)
		}
		bf.docs[i] = bufDoc{}
	}
	bf.docs = bf.docs[:n]
}

// Docs returns the first n buffered documents (all if n is beyond Len),
// in doc order, for AddBatch.
func (bf *Buffer) Docs(n int) []Doc {
	bf.mu.RLock()
	defer bf.mu.RUnlock()
	n = min(max(n, 0), len(bf.docs))
	out := make([]Doc, n)
	for i := range out {
		out[i] = bf.docs[i].doc
	}
	return out
}

// Covers reports whether the Buffer holds every document numbered after
// persisted up to end (nothing to hold when end ≤ persisted).
func (bf *Buffer) Covers(persisted, end uint32) bool {
	if end <= persisted {
		return true
	}
	bf.mu.RLock()
	defer bf.mu.RUnlock()
	return bf.first <= persisted+1 && uint64(bf.first)+uint64(len(bf.docs)) > uint64(end)
}

// DocFreq returns how many buffered documents numbered after persisted up
// to end hold term in field f, and how many such documents there are.
func (bf *Buffer) DocFreq(f int, term string, persisted, end uint32) (df, docs int) {
	bf.mu.RLock()
	defer bf.mu.RUnlock()
	w := bf.window(persisted, end)
	if w.n == 0 || f < 0 || f >= bf.nf {
		return 0, w.n
	}
	return len(w.postings(uint8(f), term)), w.n
}

// window is the part of a Buffer one query sees: doc numbers lo..hi. The
// caller holds bf.mu for reading while it uses the window.
type window struct {
	bf     *Buffer
	lo, hi uint32 // inclusive; empty when n == 0
	n      int
	off    int // index in bf.docs of doc lo
}

func (bf *Buffer) window(persisted, end uint32) window {
	w := window{bf: bf}
	if bf == nil || end <= persisted || len(bf.docs) == 0 {
		return w
	}
	last := bf.first + uint32(len(bf.docs)) - 1
	w.lo, w.hi = max(bf.first, persisted+1), min(last, end)
	if w.lo > w.hi {
		return window{bf: bf}
	}
	w.n, w.off = int(w.hi-w.lo)+1, int(w.lo-bf.first)
	return w
}

func (w *window) doc(d uint32) *bufDoc { return &w.bf.docs[w.off+int(d-w.lo)] }

// postings returns the window's postings of term in field f.
func (w *window) postings(f uint8, term string) []bufPosting {
	var kb [64]byte
	t := w.bf.post[string(append(append(kb[:0], f), term...))]
	if t == nil {
		return nil
	}
	ps := t.ps
	i, _ := slices.BinarySearchFunc(ps, w.lo, func(p bufPosting, d uint32) int { return int(int64(p.d) - int64(d)) })
	j, _ := slices.BinarySearchFunc(ps, w.hi+1, func(p bufPosting, d uint32) int { return int(int64(p.d) - int64(d)) })
	return ps[i:j]
}

// df returns how many window documents hold term in any field.
func (w *window) df(term string) int {
	if w.n == 0 {
		return 0
	}
	if w.bf.nf == 1 {
		return len(w.postings(0, term))
	}
	var lists [][]bufPosting
	for f := range w.bf.nf {
		if ps := w.postings(uint8(f), term); len(ps) > 0 {
			lists = append(lists, ps)
		}
	}
	switch len(lists) {
	case 0:
		return 0
	case 1:
		return len(lists[0])
	}
	seen := map[uint32]struct{}{}
	for _, ps := range lists {
		for _, p := range ps {
			seen[p.d] = struct{}{}
		}
	}
	return len(seen)
}

// allowed reports whether window document bd passes q's filters.
func (bd *bufDoc) allowed(q *Query, from, to int64) bool {
	if !slices.Contains(q.Scopes, bd.doc.Scope) {
		return false
	}
	for _, kw := range q.Keywords {
		if _, ok := slices.BinarySearch(bd.kws, kw); !ok {
			return false
		}
	}
	if from != math.MinInt64 || to != math.MaxInt64 {
		if !bd.hasTime || bd.start > to || bd.end < from {
			return false
		}
	}
	return true
}

// pterm is one distinct query term as the window is scored with it.
type pterm struct {
	term string
	idf  float64
}

// scorePending pushes into s.topk every window document that holds a
// query term and passes the filters, with its exact score: term scores
// summed in query order, as the persisted evaluation sums them. It reports
// whether it pushed anything.
func (s *search) scorePending(w *window, q *Query, from, to int64) bool {
	if w.n == 0 || len(s.pterms) == 0 {
		return false
	}
	nf := w.bf.nf
	s.psum = resizeF(s.psum, w.n)
	s.phit = resizeB(s.phit, w.n)
	clear(s.psum)
	clear(s.phit)
	if nf > 1 {
		s.ptf = resizeU16(s.ptf, w.n*nf)
		clear(s.ptf)
	}
	for _, pt := range s.pterms {
		if nf == 1 {
			for _, p := range w.postings(0, pt.term) {
				i := int(p.d - w.lo)
				sc := s.p1.Score(float64(p.tf), float64(w.doc(p.d).lens[0]), s.avgs[0], pt.idf)
				s.psum[i] += sc
				s.phit[i] = true
			}
			continue
		}
		s.ptouched = s.ptouched[:0]
		for f := range nf {
			for _, p := range w.postings(uint8(f), pt.term) {
				i := int(p.d - w.lo)
				if !slices.ContainsFunc(s.ptf[i*nf:(i+1)*nf], func(v uint16) bool { return v != 0 }) {
					s.ptouched = append(s.ptouched, i)
				}
				s.ptf[i*nf+f] = p.tf
			}
		}
		for _, i := range s.ptouched {
			bd := &w.bf.docs[w.off+i]
			for f := range nf {
				s.tfs[f], s.lens[f] = 0, 0
				if tf := s.ptf[i*nf+f]; tf != 0 {
					s.tfs[f], s.lens[f] = float64(tf), float64(bd.lens[f])
				}
				s.ptf[i*nf+f] = 0
			}
			s.psum[i] += bm25.BM25F(params, s.bfields, s.tfs, s.lens, s.avgs, pt.idf)
			s.phit[i] = true
		}
	}
	pushed := false
	for i, hit := range s.phit {
		if !hit {
			continue
		}
		d := w.lo + uint32(i)
		if w.doc(d).allowed(q, from, to) {
			s.topk.Push(uint64(d), s.psum[i])
			pushed = true
		}
	}
	return pushed
}

func resizeF(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}

func resizeB(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n)
	}
	return b[:n]
}

func resizeU16(b []uint16, n int) []uint16 {
	if cap(b) < n {
		return make([]uint16, n)
	}
	return b[:n]
}
