package index

import (
	"math"
	"slices"
)

// exhaustive scores every allowed document containing any query term.
func (s *search) exhaustive() {
	for s.err == nil {
		d := uint32(endDoc)
		for i := range s.terms {
			d = min(d, s.terms[i].doc)
		}
		if d == endDoc {
			return
		}
		if s.allowed(d) {
			s.topk.Push(uint64(d), s.fullScore(d))
		}
		for i := range s.terms {
			if qt := &s.terms[i]; qt.doc == d {
				s.next(qt)
			}
		}
	}
}

// maxScore is block-max MaxScore. Terms are sorted by upper bound; the
// prefix of terms whose summed bounds cannot beat the current threshold is
// "non-essential" — a document matching only those cannot enter the top
// K, so candidates come only from the essential terms (Turtle & Flood's
// MaxScore). A candidate is then bounded again with each essential term's
// score (or, its block undecoded, its block's bound) and each
// non-essential term's bound on the block that may hold it (the block
// headers' bounds, no decoding), and abandoned as soon as its partial
// score plus the remaining bounds cannot beat the threshold. With one
// essential term, its postings are scanned for the next one that can win
// with every other term's bound added (scanTo), skipping blocks whose
// bound cannot, undecoded. A term every winner must hold is leapfrogged
// to. Because documents are visited in increasing doc number and ties go
// to the smaller number, a candidate that can at best tie the threshold
// can be skipped too.
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
		s.scores, s.hit, s.cb, s.exact = make([]float64, n), make([]bool, n), make([]float64, n), make([]bool, n)
	}
	s.scores, s.hit, s.cb, s.exact = s.scores[:n], s.hit[:n], s.cb[:n], s.exact[:n]
	scores, hit, cb, exact := s.scores, s.hit, s.cb, s.exact
	clear(cb)
	threshold := math.Inf(-1)
	full := false
	firstEssential := 0
	// Seeding: the documents of the terms with the highest bounds (usually
	// the rarest: the first, and the next ones while those seeded hold
	// fewer than k docs, as long as they have at most seedLimit postings
	// together) are scored first, out of doc order, so that the threshold
	// starts high and the frequent terms become non-essential at once
	// instead of after a long run of mediocre early documents. The seeding
	// pass is the main loop below with every other term held non-essential
	// (floor). Every doc holding a seeded term is then scored, so the main
	// pass leaves those terms out (m = floor: they add nothing to the docs
	// left) and skips the docs they hold. Because the kept documents are
	// then no longer all smaller than the candidate, ties are decided
	// explicitly: a candidate that can at best equal the threshold can
	// still enter if its doc number is smaller than the threshold
	// document's.
	var minDoc uint32 // doc number of the threshold entry
	// Buffered documents pushed before this pass (s.outOfOrder) are kept
	// out of doc order as seeded ones are.
	outOfOrder := s.outOfOrder
	floor, m := 0, n // m: the terms in play, s.order[:m]
	seeds := s.order[n:]
	for j, total, limit := 1, 0, seedLimit(s); j < n && total < s.k; j++ {
		if total += s.order[n-j].n; total > limit {
			break
		}
		floor, seeds = n-j, s.order[n-j:]
	}
	// canWin reports whether a candidate d whose score is at most bound
	// may enter the top k.
	canWin := func(bound float64, d uint32) bool {
		return !full || bound > threshold || (outOfOrder && bound == threshold && d < minDoc)
	}
	// req holds the terms in play that every doc must hold to win: the
	// others' bounds together fall short of the threshold.
	req := s.req[:0]
	findRequired := func() {
		req = req[:0]
		for i, qt := range s.order[:m] {
			others := 0.0
			for j, o := range s.order[:m] {
				if j != i {
					others += o.ub
				}
			}
			if others < threshold {
				req = append(req, qt)
			}
		}
	}
	update := func() {
		min, ok := s.topk.Min()
		if !ok {
			return
		}
		changed := !full || min.Score != threshold
		full, threshold, minDoc = true, min.Score, uint32(min.ID)
		if changed {
			findRequired()
		}
		// A document matching only the terms before firstEssential scores
		// at most prefix[firstEssential-1]; with seeding (during the
		// seeding pass too: the main pass after it is out of order) it
		// could still tie its way in, so only a strictly smaller sum makes
		// them non-essential.
		inOrder := !outOfOrder && len(seeds) == 0
		for firstEssential < m && (s.prefix[firstEssential] < threshold || (inOrder && s.prefix[firstEssential] == threshold)) {
			firstEssential++
		}
	}
	update()
	defer func() { s.req = req[:0] }()
	for firstEssential < m && s.err == nil {
		fe := max(firstEssential, floor)
		if e := s.order[fe]; fe == m-1 && full && (e.post != nil || e.um.mask != nil) {
			// One essential term: only its postings that can win with
			// every other term's bound added are candidates.
			rest := 0.0
			if fe > 0 {
				rest = s.prefix[fe-1]
			}
			if e.post != nil {
				s.scanTo(e, rest, threshold)
			} else {
				s.scanUnion(e, rest, threshold)
			}
		}
		// Next candidate: the smallest current doc among essential terms.
		d := uint32(endDoc)
		for _, qt := range s.order[fe:m] {
			d = min(d, qt.doc)
		}
		if d == endDoc {
			if floor == 0 {
				return
			}
			// Seeding is over: the main pass starts from the first doc,
			// without the seeded terms.
			floor, m, outOfOrder = 0, floor, true
			for i := range s.terms {
				s.reset(&s.terms[i])
				clear(s.terms[i].fpos)
			}
			for _, qt := range seeds {
				hit[qt.ord], cb[qt.ord], exact[qt.ord] = false, 0, false
			}
			if full {
				findRequired() // of the terms still in play
			}
			continue
		}
		if len(req) > 0 {
			// No doc before the first one every required term holds can
			// win: jump there (leapfrogging, as an intersection does).
			to := d
			for _, r := range req {
				if s.seekTo(r, to); r.doc > to {
					to = r.doc
				}
			}
			if to != d {
				for _, qt := range s.order[fe:m] {
					s.seekTo(qt, to)
				}
				continue
			}
		}
		// Bound: every essential term on d contributes at most its ub,
		// non-essential ones at most prefix[fe-1].
		bound := 0.0
		if fe > 0 {
			bound = s.prefix[fe-1]
		}
		for _, qt := range s.order[fe:m] {
			switch {
			case qt.doc != d:
			case qt.post == nil: // multi-field: by the fields that hold d
				bound += s.maskBound(qt)
			default:
				bound += qt.ub
			}
		}
		if !canWin(bound, d) || !s.allowed(d) { // the filters after the cheaper bound
			s.advance(fe, m, d)
			continue
		}
		// The same with every term's bound on its block that may hold d,
		// or its score: an essential term on d is scored when its block
		// is decoded (a lookup, and tighter than any bound), else bounded
		// by its block (header only); a non-essential term is bounded by
		// its block around d unless its cursor is already past d.
		bound = 0
		for i, qt := range s.order[:m] {
			c, ex := 0.0, false
			switch {
			case i >= fe && qt.doc == d && qt.c != nil: // multi-field: c is the union, always there
				c, ex = s.termScore(qt, d), true
				scores[qt.ord], hit[qt.ord] = c, true
			case i >= fe && qt.doc == d:
				c = s.blockBound(qt, qt.bi)
			case i < fe && qt.doc <= d:
				c = s.shallow(qt, d)
			}
			cb[qt.ord], exact[qt.ord] = c, ex
			bound += c
		}
		if bound *= ubSlack; !canWin(bound, d) { // the slack: summed in another order than scores
			s.advance(fe, m, d)
			continue
		}
		// A doc a seeded term holds was scored while seeding (checked
		// after the bounds, which cost less).
		if floor == 0 && len(seeds) > 0 && s.seeded(seeds, d) {
			s.advance(fe, m, d)
			continue
		}
		// Refine: replace bounds by real scores from the highest bound
		// down, stopping once the candidate cannot win. Every essential
		// cursor is at d or beyond; non-essential ones are advanced to d.
		// The running bound is updated in place, so it carries ubSlack
		// against the rounding of those updates; the exact sum decides at
		// the end.
		for i := m - 1; i >= 0 && canWin(bound, d); i-- {
			qt := s.order[i]
			if exact[qt.ord] {
				continue // scored above
			}
			if i < fe {
				s.seekTo(qt, d)
			}
			if qt.doc == d {
				sc := s.termScore(qt, d)
				scores[qt.ord], hit[qt.ord] = sc, true
				bound += sc*ubSlack - cb[qt.ord]
			} else {
				hit[qt.ord] = false
				bound -= cb[qt.ord]
			}
		}
		if canWin(bound, d) {
			// The loop ran to the end: every term's score on d is known.
			// Sum them in canonical order, as fullScore does.
			var sum float64
			for o := range n {
				if hit[o] {
					sum += scores[o]
				}
			}
			s.topk.Push(uint64(d), sum)
			update()
		}
		s.advance(fe, m, d)
	}
}

// seeded reports whether one of the seeded terms holds d (their cursors
// move to d).
func (s *search) seeded(seeds []*qterm, d uint32) bool {
	for _, qt := range seeds {
		if s.seekTo(qt, d); qt.doc == d {
			return true
		}
	}
	return false
}

// advance moves the essential cursors that are on d past it.
func (s *search) advance(fe, m int, d uint32) {
	for _, qt := range s.order[fe:m] {
		if qt.doc != d {
			continue
		}
		if c := qt.c; c != nil && qt.ci+1 < len(c.docs) { // next in the block
			qt.ci++
			qt.doc = c.docs[qt.ci]
			continue
		}
		s.next(qt)
	}
}

// seedLimit is the most documents a seeding term may have: seeding pays
// off when the best-bounded term is much rarer than the query's postings
// as a whole.
func seedLimit(s *search) int {
	total := 0
	for i := range s.terms {
		total += s.terms[i].n
	}
	return max(64, total/8)
}
