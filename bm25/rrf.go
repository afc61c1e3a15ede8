package bm25

import (
	"cmp"
	"slices"
)

// RRFK is the customary Reciprocal Rank Fusion constant (Cormack et al.):
// large enough that the first few ranks of a list do not dominate.
const RRFK = 60

// Ranked is a document id with its score, as returned by RRF and TopK.
type Ranked struct {
	ID    uint64
	Score float64
}

// RRF fuses ranked lists by Reciprocal Rank Fusion. Each list holds ids
// best-first; an id's fused score is
//
//	Σ_lists 1 / (k + rank),  rank = 1 for the first element
//
// over the lists that contain it. The result is sorted by score
// descending, then by the best (lowest) rank the id has in any list, then
// by id ascending. A negative k means RRFK. An id repeated within one list
// counts once, at its best rank. See RRFWeighted for determinism.
func RRF(k int, lists ...[]uint64) []Ranked {
	return RRFWeighted(k, nil, lists...)
}

// RRFWeighted is RRF with a weight per list: list i contributes
// weights[i] / (k + rank). Missing weights (weights shorter than lists, or
// nil) are 1; negative or NaN weights are 0 (the list then only affects
// the best-rank tie-break).
//
// The output depends only on the input, never on map order: every id's
// terms are summed largest first, so two ids with the same multiset of
// terms get bit-identical scores whatever lists they come from, and the
// tie-breaks then order them.
func RRFWeighted(k int, weights []float64, lists ...[]uint64) []Ranked {
	if k < 0 {
		k = RRFK
	}
	total := 0
	for _, l := range lists {
		total += len(l)
	}
	if total == 0 {
		return nil
	}

	type fused struct {
		id    uint64
		score float64
		best  int // lowest rank in any list
		last  int // index of the last list that counted this id
	}
	type term struct {
		slot int
		v    float64
	}
	slots := make(map[uint64]int, total)
	ids := make([]fused, 0, total)
	terms := make([]term, 0, total)
	for li, list := range lists {
		w := 1.0
		if li < len(weights) {
			w = weights[li]
			if !(w >= 0) {
				w = 0
			}
		}
		for r, id := range list {
			rank := r + 1
			s, ok := slots[id]
			if !ok {
				s = len(ids)
				slots[id] = s
				ids = append(ids, fused{id: id, best: rank, last: -1})
			}
			f := &ids[s]
			if f.last == li {
				continue // repeated within this list: the first is best
			}
			f.last = li
			f.best = min(f.best, rank)
			// float64 sum avoids int overflow for a huge k.
			terms = append(terms, term{slot: s, v: w / (float64(k) + float64(rank))})
		}
	}

	slices.SortFunc(terms, func(a, b term) int {
		if c := cmp.Compare(a.slot, b.slot); c != 0 {
			return c
		}
		return cmp.Compare(b.v, a.v)
	})
	for _, t := range terms {
		ids[t.slot].score += t.v
	}

	slices.SortFunc(ids, func(a, b fused) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.best, b.best); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	out := make([]Ranked, len(ids))
	for i, f := range ids {
		out[i] = Ranked{ID: f.id, Score: f.score}
	}
	return out
}
