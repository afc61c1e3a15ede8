package bm25

import (
	"cmp"
	"slices"
)

// TopK keeps the k best (id, score) pairs pushed into it: higher score is
// better, and on equal scores the smaller id is better, so the kept set is
// a deterministic function of the pushed multiset. It is a bounded
// min-heap whose root is the worst kept entry; Push costs O(log k) and
// does not allocate once the heap has reached its capacity. The zero
// value keeps nothing; use NewTopK.
type TopK struct {
	k    int
	heap []Ranked
}

// maxPrealloc caps the up-front allocation of NewTopK, so a huge k from a
// request cannot reserve memory it will never use.
const maxPrealloc = 1 << 14

// NewTopK returns a TopK that keeps the k best entries; k ≤ 0 keeps none.
// Storage for min(k, 16384) entries is allocated up front.
func NewTopK(k int) *TopK {
	k = max(k, 0)
	return &TopK{k: k, heap: make([]Ranked, 0, min(k, maxPrealloc))}
}

// worse reports whether a ranks below b.
func worse(a, b Ranked) bool {
	return a.Score < b.Score || (a.Score == b.Score && a.ID > b.ID)
}

// Push offers (id, score). It is kept if fewer than k entries are held or
// if it beats the worst one, which it then replaces. NaN scores are
// ignored: they compare as neither better nor worse and would corrupt the
// heap order.
func (t *TopK) Push(id uint64, score float64) {
	if score != score || t.k == 0 {
		return
	}
	e := Ranked{ID: id, Score: score}
	h := t.heap
	if len(h) < t.k {
		h = append(h, e)
		t.heap = h
		t.up(len(h) - 1)
		return
	}
	if !worse(h[0], e) {
		return
	}
	h[0] = e
	t.down(0)
}

// Threshold returns the score an entry must reach to be kept: the k-th
// best score once k entries are held, 0 before (so pruning with it is
// valid for the non-negative BM25 scores). An entry scoring exactly
// Threshold is kept only if its id beats the worst kept id, so a pruner
// must skip only documents whose bound is strictly below it.
func (t *TopK) Threshold() float64 {
	if t.k == 0 || len(t.heap) < t.k {
		return 0
	}
	return t.heap[0].Score
}

// Min returns the entry Threshold is the score of: the worst kept entry
// (lowest score, then highest id). ok is false until k entries are kept.
func (t *TopK) Min() (r Ranked, ok bool) {
	if t.k == 0 || len(t.heap) < t.k {
		return Ranked{}, false
	}
	return t.heap[0], true
}

// Len returns the number of entries held (at most k).
func (t *TopK) Len() int { return len(t.heap) }

// Reset empties t, keeping its storage, so one TopK can serve many queries.
func (t *TopK) Reset() { t.heap = t.heap[:0] }

// Results appends the kept entries to dst best-first (score descending,
// then id ascending) and returns the extended slice. t is unchanged.
func (t *TopK) Results(dst []Ranked) []Ranked {
	n := len(dst)
	dst = append(dst, t.heap...)
	slices.SortFunc(dst[n:], func(a, b Ranked) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return dst
}

func (t *TopK) up(i int) {
	h := t.heap
	for i > 0 {
		p := (i - 1) / 2
		if !worse(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (t *TopK) down(i int) {
	h := t.heap
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && worse(h[r], h[l]) {
			m = r
		}
		if !worse(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
