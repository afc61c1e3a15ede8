package heuristic

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// ---- dedupe, cap, links --------------------------------------------------

// dedupe drops a candidate whose text, folded, equals an earlier one's,
// and an assistant restatement that shares at least minSupersedeShared
// match keys with an earlier kept user candidate of the block.
func (x *extractor) dedupe(cands []candidate) []candidate {
	seen := make(map[string]bool, len(cands))
	out := cands[:0]
	for _, c := range cands {
		if seen[c.fold] {
			continue
		}
		if c.restate {
			dup := false
			for i := range out {
				if !out[i].restate && shared(out[i].keys, c.keys) >= minSupersedeShared {
					dup = true
					break
				}
			}
			if dup {
				continue
			}
		}
		seen[c.fold] = true
		out = append(out, c)
	}
	return out
}

// capCandidates keeps the maxEvents best candidates, in their original
// order: first the best of each message (so that every message that
// states something keeps a card before any message gets a second one),
// then the others; each group by score, then order.
func capCandidates(cands []candidate) []candidate {
	if len(cands) <= maxEvents {
		return cands
	}
	best := make(map[int]int, len(cands)) // message → order of its best candidate
	for i := range cands {
		c := &cands[i]
		if o, ok := best[c.msg]; !ok || c.score > cands[o].score {
			best[c.msg] = i
		}
	}
	for i := range cands {
		cands[i].order = i
	}
	slices.SortStableFunc(cands, func(a, b candidate) int {
		if fa, fb := best[a.msg] == a.order, best[b.msg] == b.order; fa != fb {
			if fa {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.order, b.order)
	})
	cands = cands[:maxEvents]
	slices.SortFunc(cands, func(a, b candidate) int { return cmp.Compare(a.order, b.order) })
	return cands
}

// links returns the existing events c supersedes or conflicts with.
func (x *extractor) links(c *candidate) (supersedes, conflicts []uint64) {
	if len(x.in.Existing) == 0 {
		return nil, nil
	}
	if c.an.flags&flagCorrection != 0 {
		bestID, bestN, found := uint64(0), 0, false
		for i, e := range x.in.Existing {
			n := shared(c.keys, x.existingKeys(i))
			if n < minSupersedeShared {
				continue
			}
			if !found || n > bestN || (n == bestN && e.ID > bestID) {
				bestID, bestN, found = e.ID, n, true
			}
		}
		if found {
			return []uint64{bestID}, nil
		}
		return nil, nil
	}
	if c.an.typ != typePreference || c.an.lemma == "" || c.an.object == "" || c.subject == "" {
		return nil, nil
	}
	for _, e := range x.in.Existing {
		if !strings.EqualFold(strings.TrimSpace(e.EventType), typePreference) {
			continue
		}
		if !slices.ContainsFunc(e.Participants, func(p string) bool { return samePerson(p, c.subject) }) {
			continue
		}
		texts := append(append([]string(nil), e.Quotes...), e.Title)
		for _, t := range texts {
			if !utf8.ValidString(t) {
				continue
			}
			x.cueTokens(t)
			a := x.match(t, nil)
			if a.lemma != c.an.lemma || a.object == "" {
				continue
			}
			if a.object != c.an.object && len(conflicts) < maxLinks && !slices.Contains(conflicts, e.ID) {
				conflicts = append(conflicts, e.ID)
			}
			break
		}
	}
	slices.Sort(conflicts)
	return nil, conflicts
}

// existingKeys returns the sorted distinct match keys of the title,
// summary and quotes of existing event i, computed once.
func (x *extractor) existingKeys(i int) []string {
	if x.exKeys == nil {
		x.exKeys = make([][]string, len(x.in.Existing))
	}
	if x.exKeys[i] == nil {
		e := &x.in.Existing[i]
		var keys []string
		for _, t := range append([]string{e.Title, e.Summary}, e.Quotes...) {
			if utf8.ValidString(t) {
				keys = x.withoutPersonWords(keys, cachedCandidateKeys(t))
			}
		}
		slices.Sort(keys)
		x.exKeys[i] = append(slices.Compact(keys), []string{}...)
		if x.exKeys[i] == nil {
			x.exKeys[i] = []string{}
		}
	}
	return x.exKeys[i]
}
