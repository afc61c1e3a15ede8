package extmem

// The offline decider: deterministic rules over term overlap (bm25 terms)
// and a few structural signals (kind/type, participants, happened times,
// change and negation markers). Each rule and threshold below is pinned
// by a test on invented sentences in heuristic_test.go.

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Thresholds of the heuristic decider, on the match score (0–1) unless
// said otherwise.
const (
	// weakMatch: below it the best match is unrelated (a shared common
	// word at most) and the candidate is added with high confidence.
	weakMatch = 0.2
	// strongMatch: at or above it the match is about the same subject;
	// between weakMatch and it a candidate is still added, but a person
	// confirms, because the texts share a topic.
	strongMatch = 0.5
	// minShared: a strong match shares at least two terms; one shared
	// word makes no subject, however short the texts.
	minShared = 2
	// duplicateContainment: the share of the candidate's terms an
	// existing card must hold for the candidate to add nothing.
	duplicateContainment = 0.85
	// maxTargets bounds the cards one merge, supersede or conflict names:
	// more than three near-identical cards means the matches are not
	// specific enough to act on them all.
	maxTargets = 3
)

// Weights of the match score: the mean of the two containments carries
// the overlap (one text may be a short title, the other a paragraph), the
// Jaccard index rewards texts of similar size; structure nudges it.
const (
	wContain    = 0.4 // each direction
	wJaccard    = 0.2
	wTypeAgree  = 0.1
	wTypeClash  = 0.15
	wPeople     = 0.1
	wPeopleMiss = 0.05 // small: an exporter writes "the user" where the store has a name
	wTimeAgree  = 0.05
)

// Confidence levels: add of an unrelated candidate, the ceiling of an add
// next to a weak match, and the base of each action's confidence, to
// which the margin over its threshold is added.
const (
	confUnrelated   = 0.95
	confWeakAdd     = 0.8
	confIgnoreBase  = 0.85
	confMergeBase   = 0.6
	confReplaceBase = 0.7
	confConflict    = 0.55
	confConflictMax = 0.8 // a heuristic never auto-applies a contradiction
)

// heuristic is the offline Decider.
type heuristic struct{}

// NewHeuristic returns the offline, deterministic decider: the same
// candidate and matches always give the same decision. It is safe for
// concurrent use.
func NewHeuristic() Decider { return heuristic{} }

// HeuristicName is the heuristic decider's name, recorded in
// Decision.Decider.
const HeuristicName = "heuristic"

// Name returns HeuristicName.
func (heuristic) Name() string { return HeuristicName }

// match is one existing event compared with the candidate.
type match struct {
	id                 uint64
	cIn, eIn, jaccard  float64 // containment of the candidate in it, of it in the candidate
	shared             int
	score              float64
	people, types, hap int // agreement of participants, types, happened intervals
	polarity           bool
	change             bool // the candidate has a change marker the event lacks
	ending             bool // that marker ends the old value by itself ("no longer")
	newer              bool // the candidate is the later word
	newValue           bool // each side holds content the other lacks
	recurring          bool // both are occurrences of a repeating kind
}

// Decide implements Decider.
func (h heuristic) Decide(ctx context.Context, c *Candidate, existing []Existing) (Decision, error) {
	if c == nil {
		return Decision{}, ErrNoCandidate
	}
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	existing = offered(existing)
	if len(existing) == 0 {
		return h.decision(ActionAdd, nil, confUnrelated, "no existing event to compare with"), nil
	}
	ms := compare(c, existing)
	best := ms[0]
	for _, m := range ms[1:] {
		if m.score > best.score {
			best = m // ties keep the caller's order (its rank)
		}
	}
	if best.score < weakMatch || best.shared < minShared && best.score < strongMatch {
		return h.decision(ActionAdd, nil, confUnrelated, "unrelated to every existing event"), nil
	}
	if best.score < strongMatch || best.shared < minShared {
		conf := confWeakAdd - (confWeakAdd-0.6)*(best.score-weakMatch)/(strongMatch-weakMatch)
		return h.decision(ActionAdd, nil, min(conf, confWeakAdd),
			fmt.Sprintf("only a weak match (event %d, score %.2f)", best.id, best.score)), nil
	}
	margin := (best.score - strongMatch) / (1 - strongMatch) // 0–1
	strong := func(keep func(match) bool) []uint64 {
		var ids []uint64
		for _, m := range ms {
			if m.score >= strongMatch && m.shared >= minShared && keep(m) && !slices.Contains(ids, m.id) {
				ids = append(ids, m.id)
			}
		}
		ids = orderBest(ids, ms)
		return ids[:min(len(ids), maxTargets)]
	}
	switch {
	case best.change && (best.newValue || best.polarity || best.ending):
		conf := confReplaceBase + 0.1*margin
		if best.newer {
			conf += 0.1
		}
		return h.decision(ActionSupersede, strong(func(m match) bool { return m.change && (m.newValue || m.polarity || m.ending) }), conf,
			fmt.Sprintf("states a change of what event %d says", best.id)), nil
	case best.polarity:
		return h.decision(ActionConflict, strong(func(m match) bool { return m.polarity && !m.change }),
			min(confConflict+0.25*margin, confConflictMax), fmt.Sprintf("negates what event %d says", best.id)), nil
	case best.hap == disagree && best.recurring:
		return h.decision(ActionAdd, nil, confWeakAdd-0.1*margin,
			fmt.Sprintf("another occurrence of what event %d records, on other dates", best.id)), nil
	case best.hap == disagree && best.newer:
		return h.decision(ActionSupersede, strong(func(m match) bool { return m.hap == disagree && m.newer && !m.recurring }),
			confReplaceBase+0.1*margin, fmt.Sprintf("a later date for what event %d records", best.id)), nil
	case best.hap == disagree:
		return h.decision(ActionConflict, strong(func(m match) bool { return m.hap == disagree && !m.newer && !m.recurring }),
			min(confConflict+0.25*margin, confConflictMax), fmt.Sprintf("dates disagree with event %d", best.id)), nil
	case best.cIn >= duplicateContainment:
		conf := confIgnoreBase + (0.99-confIgnoreBase)*(best.cIn-duplicateContainment)/(1-duplicateContainment)
		return h.decision(ActionIgnore, []uint64{best.id}, conf, fmt.Sprintf("event %d already says this", best.id)), nil
	case best.newer && best.newValue:
		return h.decision(ActionSupersede, strong(func(m match) bool { return m.newer && m.newValue && m.hap != disagree && !m.polarity }),
			confReplaceBase+0.1*margin, fmt.Sprintf("a later, different value than event %d", best.id)), nil
	}
	return h.decision(ActionMerge, strong(func(m match) bool { return !m.polarity && m.hap != disagree }),
		confMergeBase+0.35*margin, fmt.Sprintf("adds detail to event %d", best.id)), nil
}

func (heuristic) decision(a Action, targets []uint64, conf float64, reason string) Decision {
	if targets == nil {
		targets = []uint64{}
	}
	return Decision{Action: a, Targets: targets, Confidence: min(max(conf, 0), 1), Reason: reasonLine(reason), Decider: HeuristicName}
}

// orderBest sorts ids by their match score, best first (stable: ties keep
// the caller's order).
func orderBest(ids []uint64, ms []match) []uint64 {
	score := func(id uint64) float64 {
		for _, m := range ms {
			if m.id == id {
				return m.score
			}
		}
		return 0
	}
	slices.SortStableFunc(ids, func(a, b uint64) int {
		switch sa, sb := score(a), score(b); {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return 0
	})
	return ids
}

// compare computes the match of the candidate with each existing event,
// in the caller's order.
func compare(c *Candidate, existing []Existing) []match {
	core := append([]string{c.Title, c.Summary}, c.Quotes...)
	candCore := termSet(core...)
	full := append(slices.Clone(core), c.OriginalText)
	cand := termSet(full...)
	cChange, cEnding, cNeg := markers(words(strings.Join(full, "\n")))
	ci, cok := happenedInterval(c.Temporal.HappenedStart, c.Temporal.HappenedEnd)
	ms := make([]match, len(existing))
	for i := range existing {
		e := &existing[i]
		etexts := append([]string{e.Title, e.Summary}, e.Quotes...)
		ex := termSet(etexts...)
		eChange, _, eNeg := markers(words(strings.Join(etexts, "\n")))
		ei, eok := happenedInterval(e.HappenedStart, e.HappenedEnd)
		n := shared(cand, ex)
		m := match{
			id: e.ID, shared: n,
			// The candidate's original text is often a longer passage than
			// a card keeps: a card holding its title, summary and quotes
			// holds the candidate.
			cIn:       max(ratio(n, len(cand)), ratio(shared(candCore, ex), len(candCore))),
			eIn:       ratio(n, len(ex)),
			jaccard:   ratio(n, len(cand)+len(ex)-n),
			people:    peopleAgreement(c.Temporal.Participants, e.Participants),
			types:     typeAgreement(c, e),
			hap:       timeAgreement(ci, ei, cok, eok),
			polarity:  cNeg != eNeg,
			change:    cChange && !eChange,
			ending:    cEnding && !eChange,
			newer:     newer(c, e, ci, ei, cok, eok),
			newValue:  private(candCore, ex) > 0 && private(ex, cand) > 0,
			recurring: recurring(c, e),
		}
		m.score = wContain*(m.cIn+m.eIn) + wJaccard*m.jaccard
		switch m.types {
		case agree:
			m.score += wTypeAgree
		case disagree:
			m.score -= wTypeClash
		}
		switch m.people {
		case agree:
			m.score += wPeople
		case disagree:
			m.score -= wPeopleMiss
		}
		if m.hap == agree {
			m.score += wTimeAgree
		}
		m.score = min(max(m.score, 0), 1)
		ms[i] = m
	}
	return ms
}

// recurring reports whether both sides are occurrences of a repeating
// kind of event (a candidate event without a type counts as the
// existing one's type).
func recurring(c *Candidate, e *Existing) bool {
	et := strings.ToLower(e.EventType)
	ct := strings.ToLower(c.Temporal.EventType)
	if ct == "" && c.Kind == KindEvent {
		ct = et
	}
	return recurringTypes[ct] && recurringTypes[et]
}
