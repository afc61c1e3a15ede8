package gate

// What a session yields: its Result, the cited set and its bounds.

import (
	"slices"
	"time"
)

// Result is the outcome of a session.
type Result struct {
	Question               string
	Text                   string
	Verdict                Verdict // sufficient, or partial when the gate never passed
	Missing                string
	Evidence               []Item
	Trace                  []TraceStep
	SufficientAssessmentID string
	// SufficientRefs are the refs the sufficient assessment cited: what a
	// use may adopt (Evidence may hold more: earlier rounds' citations).
	SufficientRefs []string
	Rounds         int
	// TimeStart, TimeEnd and TimePrecision are the interval a time
	// answer states: the date the answerer read from the first item it
	// used (for "When did Sam mention X?", when it was said). Zero for
	// other answers.
	TimeStart, TimeEnd time.Time
	TimePrecision      string
}

// Result returns the session's outcome so far. With an accepted sufficient
// assessment: Verdict sufficient, Evidence the cited items of that
// assessment followed by the items earlier assessments of the session
// cited as supporting (at most MaxRefs in all), and an empty Text (the
// answer is the Answerer's; Run fills it in). Otherwise: Verdict partial,
// Missing from the latest assessment, Text "not enough evidence: missing
// <missing>", and Evidence the items the assessments cited as relevant
// (latest first, at most MaxRefs): what was found, which did not pass the
// gate — no answer is composed from it and no use is recorded.
func (s *Session) Result() Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := Result{
		Question: s.q.Text,
		Rounds:   len(s.batches),
		Trace:    append([]TraceStep(nil), s.trace...),
	}
	if s.final != nil {
		r.Verdict = Sufficient
		r.SufficientAssessmentID = s.final.ID
		r.SufficientRefs = append([]string(nil), s.final.EvidenceRefs...)
		b := s.batches[len(s.batches)-1]
		for _, ref := range s.final.EvidenceRefs {
			if it, ok := b.Item(ref); ok {
				r.Evidence = append(r.Evidence, copyItem(it))
			}
		}
		r.Evidence = s.appendCited(r.Evidence, len(s.assessed)-2)
		return r
	}
	// What is missing: from the latest partial assessment (it found
	// something), else the latest one.
	missing := ""
	for pass := 0; pass < 2 && missing == ""; pass++ {
		for i := len(s.assessed) - 1; i >= 0 && missing == ""; i-- {
			if a := s.assessed[i]; a != nil && (pass == 1 || a.Verdict == Partial) {
				missing = a.Missing
			}
		}
	}
	r = notEnough(r, missing)
	r.Evidence = s.appendCited(nil, len(s.assessed)-1)
	return r
}

// appendCited appends to ev the items cited by the assessments of batches
// from..0 that ev lacks, up to MaxRefs items in all: their findings in
// turn (the first finding of each assessment, latest first, then the
// second…), a finding being a cited item with the context items cited
// right after it. The caller holds the lock.
func (s *Session) appendCited(ev []Item, from int) []Item {
	var groups [][][]string // per assessment, its findings' refs
	for i := from; i >= 0; i-- {
		a := s.assessed[i]
		if a == nil || len(a.EvidenceRefs) == 0 {
			continue
		}
		var gs [][]string
		for _, ref := range a.EvidenceRefs {
			k, ok := s.seen[ref]
			if !ok {
				continue
			}
			if of := s.seenList[k].Of; of != "" && len(gs) > 0 && slices.Contains(gs[len(gs)-1], of) {
				gs[len(gs)-1] = append(gs[len(gs)-1], ref)
				continue
			}
			gs = append(gs, []string{ref})
		}
		groups = append(groups, gs)
	}
	for n := 0; len(ev) < MaxRefs; n++ {
		added := false
		for _, gs := range groups {
			if n >= len(gs) {
				continue
			}
			added = true
			for _, ref := range gs[n] {
				if len(ev) >= MaxRefs {
					return ev
				}
				if !hasRef(ev, ref) {
					ev = append(ev, copyItem(s.seenList[s.seen[ref]]))
				}
			}
		}
		if !added {
			break
		}
	}
	return ev
}

func hasRef(items []Item, ref string) bool {
	for i := range items {
		if items[i].Ref == ref {
			return true
		}
	}
	return false
}

func containsID(ids []uint64, id uint64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// notEnough turns r into the refusal for missing evidence; the evidence
// found stays (see Result).
func notEnough(r Result, missing string) Result {
	if missing == "" {
		missing = "evidence for the question"
	}
	r.Verdict = Partial
	r.Missing = missing
	r.Text = "not enough evidence: missing " + missing
	r.SufficientAssessmentID = ""
	r.SufficientRefs = nil
	return r
}

// window returns the items seen with it as one context window: those
// accompanying it, or, for a context item, the item it accompanies and
// that item's other context. The caller must not hold the lock.
func (s *Session) window(it Item) []Item {
	s.mu.Lock()
	defer s.mu.Unlock()
	anchor := it.Ref
	if it.Of != "" {
		anchor = it.Of
	}
	var out []Item
	if k, ok := s.seen[anchor]; ok && anchor != it.Ref {
		out = append(out, copyItem(s.seenList[k]))
	}
	for _, x := range s.seenList {
		if x.Of == anchor && x.Ref != it.Ref {
			out = append(out, copyItem(x))
		}
	}
	return out
}

// MaxEvidenceMessages bounds the source messages of a sufficient answer's
// evidence: items past the bound are dropped, except the first keep
// (those the answer used).
const MaxEvidenceMessages = 8

// boundEvidence keeps at most MaxRefs items and, beyond the first keep,
// only items whose messages fit in MaxEvidenceMessages.
func boundEvidence(ev []Item, keep int) []Item {
	var msgs []uint64
	var out []Item
	for i, it := range ev {
		if len(out) >= MaxRefs {
			break
		}
		var add []uint64
		for _, id := range it.MessageIDs {
			if !containsID(msgs, id) && !containsID(add, id) {
				add = append(add, id)
			}
		}
		if i >= keep && len(msgs)+len(add) > MaxEvidenceMessages {
			continue
		}
		msgs = append(msgs, add...)
		out = append(out, it)
	}
	return out
}
