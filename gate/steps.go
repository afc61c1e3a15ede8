package gate

// The next step of a partial assessment: which channel, target and query.

import (
	"strings"

	"github.com/stratagate/stratagate/bm25"
)

// dateStep is the next step for content found without a date: expand the
// first undated event not yet expanded, else search the raw source with
// the event's (or best item's) own words and the question's entities, to
// read the source message and its timestamp.
func dateStep(q *Question, b *Batch, rel []scored, st *State) (Strategy, string, string) {
	var best *Item
	for _, s := range rel {
		it := s.item
		if _, kind := refKind(it.Ref); kind != KindEvent {
			continue
		}
		if best == nil {
			best = it
		}
		expanded := st.WasExpanded(it.Ref) || (b.Strategy == ExpandEvent && b.Target == it.Ref)
		if !expanded {
			return ExpandEvent, it.Ref, ""
		}
	}
	if best == nil && len(rel) > 0 {
		best = rel[0].item
	}
	query := q.Query
	if best != nil {
		text := best.Quote
		if text == "" {
			text = best.Title
		}
		if text == "" {
			text = best.Text
		}
		terms := bm25.AppendTerms(nil, strings.Join(q.Entities, " "))
		terms = appendUnique(terms, bm25.AppendTerms(nil, text)...)
		if len(terms) > 0 {
			query = strings.Join(terms, " ")
		}
	}
	return SearchRawMemory, "", query
}

// reportQuery is the raw search that looks for a report when only a plan
// was found: the entities and the words of the best dated report among
// the relevant items (one lacking some question word, as it ranks below
// the plan), whose source message may say the rest; the question's Query
// without one.
func reportQuery(q *Question, rel []scored) string {
	for _, s := range rel {
		it := s.item
		if !it.Dated() || !isReport(it) {
			continue
		}
		text := it.Quote
		if text == "" {
			text = it.Title
		}
		if text == "" {
			text = it.Text
		}
		terms := bm25.AppendTerms(nil, strings.Join(q.Entities, " "))
		terms = appendUnique(terms, bm25.AppendTerms(nil, text)...)
		if len(terms) > 0 {
			return strings.Join(terms, " ")
		}
	}
	return q.Query
}

// nextChannel is the next channel after the batch's: events → raw source →
// block expansion of the best message (cited first) → graph → events.
func nextChannel(b *Batch, refs []string, st *State) (Strategy, string) {
	switch channelOf(b.Strategy) {
	case chEvents:
		return SearchRawMemory, ""
	case chRaw:
		for _, r := range refs {
			if targetFits(ExpandBlock, r) && !st.WasExpanded(r) {
				return ExpandBlock, r
			}
		}
		for i := range b.Items {
			if r := b.Items[i].Ref; targetFits(ExpandBlock, r) && !st.WasExpanded(r) {
				return ExpandBlock, r
			}
		}
		return SearchGraph, ""
	case chBlock:
		return SearchGraph, ""
	}
	return SearchEvents, ""
}

// sources counts the items with distinct sources: an item linked to one
// counted already (an event and its source message, two events of one
// message) is the same finding.
func sources(rel []scored) int {
	var counted []*Item
	for _, s := range rel {
		dup := false
		for _, c := range counted {
			if linked(s.item, c) {
				dup = true
				break
			}
		}
		if !dup {
			counted = append(counted, s.item)
		}
	}
	return len(counted)
}

// usedChannel reports whether a step of channel ch was executed in the
// session (the latest batch's included).
func usedChannel(st *State, ch channel) bool {
	if st == nil {
		return false
	}
	for _, s := range st.Steps {
		if channelOf(s.Strategy) == ch {
			return true
		}
	}
	return false
}
