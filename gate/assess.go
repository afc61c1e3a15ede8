package gate

import (
	"context"
	"errors"
	"maps"
	"sort"
	"strings"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events/temporal"
)

// HeuristicAssessor is the deterministic offline Assessor: lexical
// coverage of the question by the batch, with the rules documented in the
// package documentation (section "Heuristic assessor").
type HeuristicAssessor struct{}

// Coverage thresholds of HeuristicAssessor.
const (
	// SufficientCoverage is the bar of a time question: its date, checked
	// on its own, carries the answer.
	SufficientCoverage = 0.6
	// SufficientContentCoverage is the bar of every other question, whose
	// answer is the content itself: most of the question must be there.
	SufficientContentCoverage = 0.8
	WrongCoverage             = 0.3
)

// itemTermSet is the set of canonical terms of an item's title, text,
// quote, speaker and facts.
func itemTermSet(it *Item) map[string]bool {
	set := map[string]bool{}
	add := func(s string) {
		for _, t := range bm25.AppendTerms(nil, s) {
			set[canon(t)] = true
		}
	}
	add(it.Title)
	// A name that only addresses the listener ("Thanks, Sam!") says
	// nothing about them.
	add(stripVocatives(it.Text))
	add(stripVocatives(it.Quote))
	add(it.Speaker)
	for _, f := range it.Facts {
		add(f)
	}
	return set
}

// linked reports whether it is the source, or another sighting, of the
// anchor item — a shared message id, event id or node id — or they are
// one context window (one accompanies the other).
func linked(it, anchor *Item) bool {
	if it.Ref == anchor.Ref {
		return false
	}
	if it.Of != "" && it.Of == anchor.Ref || anchor.Of != "" && anchor.Of == it.Ref {
		return true // one context window: one finding
	}
	if it.EventID != 0 && it.EventID == anchor.EventID {
		return true
	}
	if it.NodeID != 0 && it.NodeID == anchor.NodeID {
		return true
	}
	for _, a := range it.MessageIDs {
		for _, b := range anchor.MessageIDs {
			if a == b {
				return true
			}
		}
	}
	return false
}

// scored is one item with what it covers.
type scored struct {
	idx      int
	item     *Item
	terms    []bool // covered content terms
	ents     []bool // covered entities
	nTerms   int
	nEnts    int
	dated    bool
	conflict bool // dated outside the question's time
	nTopic   int  // covered Topic terms
	nHead    int  // covered Head terms
	asks     bool // a question without its reply: not evidence
	offTime  bool // neither dated nor said within the question's time
	said     bool // dated only by the day it was said ("just opened")
	about    bool // a window member is about the subject (aboutSubject)
	typed    bool // the window holds an answer of the asked type (answerTyped)
}

// askText is the text of an item that questionOnly judges: a message's
// content, an event's quote.
func askText(it *Item) string {
	if isMessageLike(it) {
		return it.Text
	}
	return it.Quote
}

// Assess implements Assessor.
func (HeuristicAssessor) Assess(_ context.Context, q *Question, b *Batch, st *State) (Assessment, error) {
	if q == nil || b == nil {
		return Assessment{}, errors.New("gate: HeuristicAssessor needs a question and a batch")
	}
	a := Assessment{BatchID: b.ID}

	// Terms of the question and of its entities, as expansion sets.
	expand := make([]map[string]bool, len(q.Terms))
	for i, t := range q.Terms {
		expand[i] = expansionSet(t)
	}
	entTerms := make([][]string, len(q.Entities))
	for i, e := range q.Entities {
		for _, t := range bm25.AppendTerms(nil, e) {
			entTerms[i] = append(entTerms[i], canon(t))
		}
	}
	isTopic := termIndex(q.Topic)
	isHead := termIndex(q.Head)
	// Anchors: earlier cited items; an item linked to one inherits its
	// terms (a source message covers what its event says).
	anchors := st.Cited()

	var entFlat []string
	for _, ets := range entTerms {
		entFlat = append(entFlat, ets...)
	}
	ctxOf := contextOf(b)
	mention := mentionSet(q)
	subject := subjectTerms(q)
	var topicExp []map[string]bool
	for _, t := range q.Topic {
		topicExp = append(topicExp, expansionSet(t))
	}
	contrib := map[int][]int{} // item index → context items cited with it
	var all []scored
	for i := range b.Items {
		it := &b.Items[i]
		if it.Of != "" {
			continue // judged within its item's window
		}
		set := itemTermSet(it)
		nickname(set, it.Speaker, entFlat)
		for k := range anchors {
			if linked(it, &anchors[k]) {
				for t := range itemTermSet(&anchors[k]) {
					set[t] = true
				}
			}
		}
		// The window: a neighbour that adds a question term or entity is
		// part of the evidence, and so is the reply to a message that
		// only asks.
		asks := questionOnly(it.Text)
		asksHere := asks
		for _, c := range ctxOf[i] {
			cs := itemTermSet(&b.Items[c])
			nickname(cs, b.Items[c].Speaker, entFlat)
			adds := false
			for t := range cs {
				if !set[t] && mention[t] {
					adds = true
					break
				}
			}
			if asks && after(&b.Items[c], it) && !questionOnly(b.Items[c].Text) {
				adds = true
			}
			if adds {
				contrib[i] = append(contrib[i], c)
			}
		}
		sets := []map[string]bool{maps.Clone(set)}
		for _, c := range contrib[i] {
			cs := itemTermSet(&b.Items[c])
			nickname(cs, b.Items[c].Speaker, entFlat)
			sets = append(sets, cs)
			for t := range cs {
				set[t] = true
			}
		}
		s := scored{idx: i, item: it, terms: make([]bool, len(q.Terms)), ents: make([]bool, len(q.Entities))}
		for j := range q.Terms {
			for t := range expand[j] {
				if set[t] {
					s.terms[j] = true
					s.nTerms++
					if isTopic[q.Terms[j]] {
						s.nTopic++
					}
					if isHead[q.Terms[j]] {
						s.nHead++
					}
					break
				}
			}
		}
		for j, ets := range entTerms {
			ok := len(ets) > 0
			for _, t := range ets {
				if !set[t] {
					ok = false
					break
				}
			}
			if ok {
				s.ents[j] = true
				s.nEnts++
			}
		}
		start, end, _, _, ok := dateOf(q, it)
		for _, c := range contrib[i] {
			if ok {
				break
			}
			// A neighbour cited with the item may date it ("I got a puppy
			// two weeks ago!" before "Coco looks so happy!").
			start, end, _, _, ok = dateOf(q, &b.Items[c])
		}
		s.dated = ok
		if ok && isMessageLike(it) && len(it.Times) > 0 {
			tm, _ := sentenceTime(q, it.Text, it.Times)
			s.said = tm.Basis == "said"
		}
		if q.Time != nil && q.Time.Known() {
			// The question's time is when it happened or when it was said
			// ("What did Sam share on 16 June?"); an item neither dated
			// nor said within it is about another time.
			m := it.MentionedAt
			said := !m.IsZero() && q.Time.Overlaps(m, m.Add(1))
			if s.dated {
				if end.IsZero() || !end.After(start) {
					end = start.Add(1)
				}
				s.offTime = !q.Time.Overlaps(start, end) && !said
			} else {
				s.offTime = !said
			}
			// A relative time ("last weekend", "4 years ago") is the
			// asker's, and the evidence may use its speaker's frame: it
			// ranks the items in time first instead of excluding the rest.
			s.conflict = s.offTime && q.Time.Basis != temporal.BasisRelative
		}
		// A message that only asks is not evidence of its answer; with
		// the reply in its window it is.
		s.asks = questionOnly(askText(it)) && len(contrib[i]) == 0
		// The members that may answer: a message that only asks says
		// nothing about its subject and fills no slot.
		var members []*Item
		var msets []map[string]bool
		for k, m := range append([]*Item{it}, contribItems(b, contrib[i])...) {
			if questionOnly(askText(m)) {
				continue
			}
			ms := sets[k]
			if k > 0 && asksHere && after(m, it) {
				// The reply to a question answers it in its words: it is
				// about what the question was about.
				ms = maps.Clone(ms)
				speaker := termSetOf(it.Speaker)
				for t := range sets[0] {
					if !speaker[t] {
						ms[t] = true
					}
				}
			}
			members = append(members, m)
			msets = append(msets, ms)
		}
		s.about = aboutSubject(subject, topicExp, msets)
		s.typed = answerTyped(q, members) && answersQuestion(q, members)
		all = append(all, s)
	}
	// A date source covers every entity (itself or through a linked item
	// of the batch) when some item does: "on May 20" in a message that
	// lacks the question's place or person dates something else.
	if len(q.Entities) > 0 {
		full := func(s *scored) bool { return s.nEnts == len(q.Entities) }
		some := false
		for i := range all {
			some = some || full(&all[i])
		}
		if some {
			for i := range all {
				if !all[i].dated || full(&all[i]) {
					continue
				}
				inherited := false
				for k := range all {
					if full(&all[k]) && linked(all[i].item, all[k].item) {
						inherited = true
					}
				}
				all[i].dated = inherited
			}
		}
	}

	// Relevant items: not conflicting, covering a content term (any item
	// when the question has none), a Topic term when the question has
	// some (the entity alone is not the question), the wh-noun for a list
	// question with one, and, when the question names entities, at least
	// one of them.
	var rel []scored
	for _, s := range all {
		if s.conflict || s.asks {
			continue
		}
		if len(q.Terms) > 0 && s.nTerms == 0 {
			continue
		}
		if len(q.Topic) > 0 && s.nTopic == 0 {
			continue
		}
		if q.WantsList && len(q.Head) > 0 && s.nHead == 0 {
			continue
		}
		if len(q.Entities) > 0 && s.nEnts == 0 {
			continue
		}
		rel = append(rel, s)
	}
	sort.SliceStable(rel, func(i, j int) bool {
		x, y := rel[i], rel[j]
		if x.offTime != y.offTime {
			return y.offTime
		}
		if x.nTerms+x.nEnts != y.nTerms+y.nEnts {
			// For a time question, with weights, the rarer words covered
			// first: "hiking with church friends" dates the hike, "went
			// camping with church friends" another outing.
			if cx, cy := q.coverage(x.terms), q.coverage(y.terms); q.WantsTime && len(q.Weights) == len(q.Terms) && cx != cy && x.nEnts == y.nEnts {
				return cx > cy
			}
			return x.nTerms+x.nEnts > y.nTerms+y.nEnts
		}
		if cx, cy := q.coverage(x.terms), q.coverage(y.terms); q.WantsTime && len(q.Weights) == len(q.Terms) && cx != cy {
			return cx > cy
		}
		if q.WantsTime && x.dated != y.dated {
			return x.dated
		}
		if q.WantsTime && x.dated && y.dated && x.said != y.said {
			// A date the text states before the day it was said on.
			return y.said
		}
		if q.WantsTime && q.Past && x.dated && y.dated {
			// A report of the occurrence before a plan for it.
			if rx, ry := isReport(x.item), isReport(y.item); rx != ry {
				return rx
			}
		}
		if x.item.Score != y.item.Score {
			return x.item.Score > y.item.Score
		}
		return x.idx < y.idx
	})
	// Single current-state, either-or and where answers: the pick first
	// (see rankState).
	stateQ := stateQuestion(q)
	settled := true
	if (stateQ || q.WH == WhWhere && !q.WantsTime && !q.WantsList) && len(rel) > 0 {
		items := make([]*Item, len(rel))
		cover := make([]int, len(rel))
		for i := range rel {
			items[i], cover[i] = rel[i].item, rel[i].nTerms+rel[i].nEnts
		}
		order, tier, _ := rankState(q, items, cover)
		if stateQ {
			settled = settledState(q, items, order, tier)
		}
		ranked := make([]scored, len(rel))
		for i, k := range order {
			ranked[i] = rel[k]
		}
		rel = ranked
	}
	if len(rel) > MaxRefs {
		rel = rel[:MaxRefs]
	}
	if q.WantsTime {
		// Dated items first: the answer reads the date from them.
		sort.SliceStable(rel, func(i, j int) bool { return rel[i].dated && !rel[j].dated })
	}

	covered := make([]bool, len(q.Terms))
	entsOK := make([]bool, len(q.Entities))
	var dated *Item
	for _, s := range rel {
		if len(a.EvidenceRefs) >= MaxRefs {
			break
		}
		a.EvidenceRefs = append(a.EvidenceRefs, s.item.Ref)
		for _, c := range contrib[s.idx] {
			if len(a.EvidenceRefs) < MaxRefs {
				a.EvidenceRefs = append(a.EvidenceRefs, b.Items[c].Ref)
			}
		}
		for j, c := range s.terms {
			covered[j] = covered[j] || c
		}
		for j, c := range s.ents {
			entsOK[j] = entsOK[j] || c
		}
		if s.dated && dated == nil {
			dated = s.item
		}
	}
	// Either-or alternatives that are names count as one entity.
	altOK := false
	for j := range entsOK {
		altOK = altOK || q.altEntity[j] && entsOK[j]
	}
	for j := range entsOK {
		if altOK && q.altEntity[j] {
			entsOK[j] = true
		}
	}
	nCovered := count(covered)
	coverage := 0.0
	switch {
	case len(q.Terms) > 0:
		coverage = q.coverage(covered)
	case len(rel) > 0:
		coverage = 1
	}
	// With corpus weights, the question's most informative topic term
	// must be covered: evidence that covers everything but "onsite" in
	// "When was Leo's onsite interview?" is about another interview.
	keyOK := true
	if k := q.keyTerm(); k >= 0 {
		keyOK = covered[k]
	}
	// A single answer comes from one item (with its window): the words
	// of the question spread over several items are several findings,
	// none of which answers ("camping trip" in one message, "see" in
	// another). The best item alone must reach the coverage and hold
	// the key term.
	// The item must also be about the subject and hold an answer of the
	// asked type.
	answerable := true
	inTime := false // some relevant item lies in the question's time
	for _, s := range rel {
		inTime = inTime || !s.offTime
	}
	if !q.WantsList && len(rel) > 0 {
		answerable = false
		for _, s := range rel {
			answerable = answerable || s.about && s.typed
		}
	}
	if !q.WantsList && len(q.Terms) > 0 && len(rel) > 0 {
		// The best item holding the key term and enough of the topic;
		// without one, the best item's coverage, and the key is missing.
		best, bestAny := -1.0, 0.0
		keyFound := false
		for _, s := range rel {
			if answerable && !(s.about && s.typed) || inTime && s.offTime {
				continue
			}
			c := q.coverage(s.terms)
			bestAny = max(bestAny, c)
			k := q.keyTerm()
			// A dated item covering half the topic answers a time question
			// without its rarest word: its date is the answer, and the
			// words of an event vary more than its time ("grandma passed"
			// for "grandmother").
			timeKey := q.WantsTime && s.dated && halfTopic(q, s.terms)
			if (k < 0 || s.terms[k] || allButOneTopic(q, s.terms) || timeKey) && (q.WantsTime || topicCovered(q, s.terms)) {
				best = max(best, c)
				keyFound = true
			}
		}
		if best >= 0 {
			coverage = min(coverage, best)
			keyOK = keyOK || keyFound
		} else {
			coverage = min(coverage, bestAny)
			keyOK = false
		}
	}
	var missingEnts []string
	for j, ok := range entsOK {
		if !ok {
			missingEnts = append(missingEnts, q.Entities[j])
		}
	}
	allEnts := len(missingEnts) == 0

	a.Fit = fitText(q, nCovered, allEnts, missingEnts, a.EvidenceRefs, dated)
	next, target := nextChannel(b, a.EvidenceRefs, st)
	if stateQ && channelOf(b.Strategy) == chGraph && !usedChannel(st, chRaw) {
		// A dry or unsettling graph for a current-state question: the
		// raw source holds the latest statements.
		next, target = SearchRawMemory, ""
	}
	firstRound := st == nil || st.Round <= 1
	lastRound := st != nil && st.RoundsLeft <= 0
	// A short list is accepted once the raw source and a block expansion
	// were searched too (or in the last round).
	listSearched := usedChannel(st, chRaw) && usedChannel(st, chBlock)
	// A past-tense time question whose best date is only a plan looks for
	// a report of the occurrence once more.
	planOnly := q.WantsTime && q.Past && dated != nil && !isReport(dated) && firstRound && !lastRound
	// An unsettled current state asks the graph, then the raw source.
	var stateNext Strategy
	if stateQ && !settled && !lastRound {
		switch {
		case !usedChannel(st, chGraph):
			stateNext = SearchGraph
		case !usedChannel(st, chRaw):
			stateNext = SearchRawMemory
		}
	}

	// Cards summarise: a content answer quotes a message (or the graph),
	// or waits until the raw source was searched.
	quotesSource := false
	for _, s := range rel {
		quotesSource = quotesSource || isMessageLike(s.item) || isNode(s.item)
	}
	bar := SufficientContentCoverage
	if q.WantsTime {
		bar = SufficientCoverage
	}
	// A between-question cites the dated item of each side first.
	bothSides := false
	if len(q.Between[0]) > 0 {
		items := make([]*Item, len(all))
		for i := range all {
			items[i] = all[i].item
		}
		if x, y := betweenItems(q, items); x >= 0 && y >= 0 {
			bothSides = true
			refs := []string{items[x].Ref, items[y].Ref}
			for _, r := range a.EvidenceRefs {
				if len(refs) < MaxRefs && r != refs[0] && r != refs[1] {
					refs = append(refs, r)
				}
			}
			a.EvidenceRefs = refs
			coverage = max(coverage, bar)
			keyOK, allEnts, answerable = true, true, true
			if dated == nil {
				dated = items[x]
			}
		}
	}
	switch {
	case len(rel) == 0 || coverage < WrongCoverage:
		a.Verdict = Wrong
		a.EvidenceRefs = nil
		a.Missing = "events about " + soughtText(q)
		a.NextStrategy, a.NextTarget = next, target
		a.NextQuery = q.Query
	case len(q.Between[0]) > 0 && !bothSides:
		// A length between two events needs both dates.
		a.Verdict = Partial
		a.NextStrategy, a.NextTarget = next, target
		a.NextQuery = q.Query
		a.Missing = "the dates of both events"
		if len(rel) > 0 {
			a.NextStrategy, a.NextTarget, a.NextQuery = dateStep(q, b, rel, st)
		}
	case coverage >= bar && allEnts && keyOK && answerable && (!q.WantsTime || dated != nil) &&
		(!q.WantsList || (sources(rel) >= 2 && usedChannel(st, chRaw)) || lastRound || listSearched) && !planOnly && stateNext == "" &&
		(q.WantsTime || q.WantsList || stateQ || quotesSource || usedChannel(st, chRaw) || usedChannel(st, chGraph) || lastRound):
		a.Verdict = Sufficient
		a.NextStrategy = Answer
	default:
		a.Verdict = Partial
		a.NextStrategy, a.NextTarget = next, target
		a.NextQuery = q.Query
		switch {
		case !allEnts:
			a.Missing = "evidence mentioning " + strings.Join(missingEnts, ", ")
		case coverage < bar || !keyOK:
			if u := uncoveredText(q, covered); u != "" {
				a.Missing = "evidence about " + u
			} else {
				// Every word is somewhere, in no one item.
				a.Missing = "one item covering " + soughtText(q)
			}
		case !answerable:
			a.Missing = "evidence" + subjectText(q) + answerTypeText(q)
		case q.WantsTime && dated == nil:
			a.Missing = "occurrence date"
			a.NextStrategy, a.NextTarget, a.NextQuery = dateStep(q, b, rel, st)
		case q.WantsList && (sources(rel) < 2 || !usedChannel(st, chRaw)) && !lastRound && !listSearched:
			// A list is complete only once the messages themselves were
			// searched: cards may hold some of its items.
			a.Missing = "other items of the list"
		case planOnly:
			a.Missing = "a report of the occurrence (only a plan found)"
			a.NextQuery = reportQuery(q, rel)
		case stateNext == "":
			// Cards summarise; the answer's wording is checked against
			// the messages themselves before it is given.
			a.Missing = "the source messages (only event cards found)"
			a.NextStrategy, a.NextTarget = SearchRawMemory, ""
		default: // an unsettled current state
			a.Missing = "the current state (latest evidence)"
			a.NextStrategy, a.NextTarget = stateNext, ""
		}
	}
	return a, nil
}
