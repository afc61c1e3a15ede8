package gate

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stratagate/stratagate/bm25"
)

// This file holds the rules shared by HeuristicAssessor and
// HeuristicAnswerer for current-state, either-or and where-questions, and
// the focus (sentence/clause) extraction of answers. See doc.go ("Current
// state, lists and relations").

// stateQuestion reports whether a question gets a single current-state
// answer: Current or either-or, and neither a time nor a list question.
func stateQuestion(q *Question) bool {
	return (q.Current || len(q.Alternatives) >= 2) && !q.WantsTime && !q.WantsList
}

// itemWords are the words of the texts of an item that state something:
// quote, title and text (each once), then the facts.
func itemTexts(it *Item) []string {
	var out []string
	for _, s := range []string{it.Quote, it.Title, it.Text} {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		dup := false
		for _, o := range out {
			if o == s || strings.Contains(o, s) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, s)
		}
	}
	out = append(out, it.Facts...)
	return out
}

// isNode reports whether the item is a graph node.
func isNode(it *Item) bool {
	if it.Kind != "" {
		return it.Kind == KindNode
	}
	return isKind(it.Ref, KindNode)
}

// isMessageLike reports whether the item is a raw message or block.
func isMessageLike(it *Item) bool {
	k := it.Kind
	if k == "" {
		k, _, _ = ParseRef(it.Ref)
	}
	return k == KindMessage || k == KindBlock
}

// hasPhrase reports whether one of phrases occurs in the word keys.
func hasPhrase(words []word, phrases [][]string) bool {
	for i := range words {
		for _, ph := range phrases {
			if keysAt(words, i, ph) {
				return true
			}
		}
	}
	return false
}

// hasChangeCue reports whether an item says its state changed or is the
// present one ("switched to", "instead of", "now", "no longer", "moved
// to", "replaces"…).
func hasChangeCue(it *Item) bool {
	for _, s := range itemTexts(it) {
		if hasPhrase(scanWords(s), changeCues) {
			return true
		}
	}
	return false
}

// isPlan reports whether an item states a plan rather than a fact: dated
// after the day it was said, or worded in the future or as a wish ("will",
// "'ll", "going to", "soon", "next month", "planning to", "I'm moving
// to", "maybe", "thinking about").
func isPlan(it *Item) bool {
	if it.Dated() && !it.MentionedAt.IsZero() && it.HappenedStart.After(it.MentionedAt) && !sameDay(it.MentionedAt, it.HappenedStart) {
		return true
	}
	for _, s := range itemTexts(it) {
		words := scanWords(s)
		for i, w := range words {
			next := ""
			if i+1 < len(words) {
				next = words[i+1].key
			}
			switch {
			case planWords[w.key], strings.HasSuffix(lowWord(w), "'ll"),
				// "I'm going to", not "started going to the gym".
				w.key == "going" && next == "to" && i > 0 && beWords[words[i-1].key],
				w.key == "next" && (periodWords[next] || calendarWords[next]),
				planVerbs[w.key] && (next == "to" || next == "on"),
				changeVerbs[w.key] && i > 0 && beWords[words[i-1].key]:
				return true
			}
		}
	}
	return isWish(it)
}

// isWish reports whether an item states a wish or hypothesis ("maybe",
// "might", "considering", "thinking about", "hoping to", "want to").
func isWish(it *Item) bool {
	for _, s := range itemTexts(it) {
		if hasPhrase(scanWords(s), wishPhrases) {
			return true
		}
	}
	return false
}

// isReport reports whether a dated item reports an occurrence at or before
// the time it was said (not a plan).
func isReport(it *Item) bool {
	return it.Dated() && !isPlan(it)
}

// lowWord is a word in lower case with typographic apostrophes made plain.
func lowWord(w word) string {
	return strings.Map(func(r rune) rune {
		if isApostrophe(r) {
			return '\''
		}
		return unicode.ToLower(r)
	}, w.text)
}

// Attribution of a relation cue to the question's entities.
const (
	attrOther   = -1 // the cue's subject is someone else
	attrNone    = 0  // no cue
	attrUnknown = 1  // the cue's subject is unknown (a pronoun, another word)
	attrConfirm = 2  // the cue's subject is an entity of the question
)

// relationCue returns the best attribution of a relation cue of the
// question's kind (location/employer) in the item: attrConfirm when the
// cue's subject is a question entity (a name before the cue, or a
// first-person subject said by the entity), attrUnknown when the subject
// is unknown, attrOther when it is someone else; attrNone without a cue
// followed by a name.
func relationCue(q *Question, it *Item) (int, bool) {
	if q.relation == 0 {
		return attrNone, false
	}
	var verbs [][]string
	if q.relation&relLocation != 0 {
		verbs = append(verbs, locationCues...)
	}
	if q.relation&relEmployer != 0 {
		verbs = append(verbs, employerCues...)
	}
	best, found := attrOther, false
	note := func(a int) {
		found = true
		if a > best {
			best = a
		}
	}
	for _, s := range itemTexts(it) {
		words := scanWords(s)
		for i := range words {
			for _, ph := range verbs {
				if keysAt(words, i, ph) && nameFollows(words, i+len(ph)) {
					note(subjectAttr(q, it, words, i))
				}
			}
			if q.relation&relLocation == 0 {
				continue
			}
			for _, ph := range dwellingCues {
				if keysAt(words, i, ph) && nameFollows(words, i+len(ph)) {
					// "Small apartment in Capitol Hill": the speaker's.
					note(speakerAttr(q, it))
				}
			}
		}
	}
	if !found {
		return attrNone, false
	}
	return best, true
}

// nameFollows reports whether a capitalised word follows at i, after an
// optional determiner.
func nameFollows(words []word, i int) bool {
	for i < len(words) && nameSkip[words[i].key] && words[i].joined {
		i++
	}
	if i >= len(words) || !words[i].joined {
		return false
	}
	r, _ := utf8.DecodeRuneInString(words[i].text)
	return unicode.IsUpper(r) && !calendarWords[words[i].key]
}

// subjectAttr attributes the cue at words[i] through its subject: the
// word before it, skipping auxiliaries and adverbs.
func subjectAttr(q *Question, it *Item, words []word, i int) int {
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		w := words[j]
		if subjectSkip[w.key] {
			continue
		}
		if firstPerson[lowWord(w)] {
			return speakerAttr(q, it)
		}
		if bm25.IsStopword(w.key) {
			return attrUnknown // a pronoun: unknown
		}
		if isCapitalised(w) {
			// The whole name: "Leo Park is moving to…".
			name := w.text
			for k := j; k > 0 && words[k].joined && isCapitalised(words[k-1]); k-- {
				name = words[k-1].text + " " + name
			}
			if nameIsEntity(q, name) {
				return attrConfirm
			}
			return attrOther
		}
		return attrUnknown
	}
	return attrUnknown
}

func isCapitalised(w word) bool {
	r, _ := utf8.DecodeRuneInString(w.text)
	return unicode.IsUpper(r)
}

// speakerAttr attributes a first-person statement through its speaker.
func speakerAttr(q *Question, it *Item) int {
	if strings.TrimSpace(it.Speaker) == "" {
		return attrUnknown
	}
	if nameIsEntity(q, it.Speaker) {
		return attrConfirm
	}
	return attrOther
}

// nameIsEntity reports whether a name and a question entity share a term
// ("Leo" and "Leo Park").
func nameIsEntity(q *Question, name string) bool {
	nt := bm25.AppendTerms(nil, name)
	for _, e := range q.Entities {
		for _, et := range bm25.AppendTerms(nil, e) {
			for _, t := range nt {
				if t == et {
					return true
				}
			}
		}
	}
	return false
}

// stateTime is when an item's statement was made: its mention time, else
// its occurrence start; zero for graph nodes (which hold the current
// state).
func stateTime(it *Item) time.Time {
	if !it.MentionedAt.IsZero() {
		return it.MentionedAt
	}
	return it.HappenedStart
}

// coversAny reports whether the item covers one of the terms (each through
// its expansions).
func coversAny(it *Item, terms []string) bool {
	if len(terms) == 0 {
		return false
	}
	set := itemTermSet(it)
	for _, t := range terms {
		for x := range expansionSet(t) {
			if set[x] {
				return true
			}
		}
	}
	return false
}

// altSupport returns the either-or alternative an item supports, "" when
// it supports none or is ambiguous. An alternative mentioned after an old
// marker within four words, with no other alternative in between ("used
// to be a tea person", "instead of tea", "from npm"), is the former state;
// one mentioned otherwise is current. A
// single current alternative is supported; with none current and exactly
// one former of two alternatives, the other one is.
func altSupport(q *Question, it *Item) string {
	if len(q.Alternatives) < 2 {
		return ""
	}
	current := map[string]bool{}
	old := map[string]bool{}
	for _, s := range itemTexts(it) {
		words := scanWords(s)
		for i, w := range words {
			for _, t := range bm25.AppendTerms(nil, w.text) {
				for _, a := range q.Alternatives {
					if canon(t) != canon(a) {
						continue
					}
					isOld := false
					for j := i - 1; j >= 0 && j >= i-4; j-- {
						if isAlternative(q, words[j]) {
							break // "from tea to coffee": the marker is tea's
						}
						if oldMarkers[words[j].key] || strings.HasSuffix(words[j].key, "nt") && auxWords[words[j].key] {
							isOld = true
							break
						}
					}
					if isOld {
						old[a] = true
					} else {
						current[a] = true
					}
				}
			}
		}
	}
	var cur []string
	for _, a := range q.Alternatives {
		if current[a] && !old[a] {
			cur = append(cur, a)
		}
	}
	if len(cur) == 1 {
		return cur[0]
	}
	if len(cur) == 0 && len(q.Alternatives) == 2 && len(old) == 1 {
		for _, a := range q.Alternatives {
			if !old[a] {
				return a
			}
		}
	}
	return ""
}

// stateCand is an item ranked for a current-state, either-or or where
// answer.
type stateCand struct {
	idx     int
	item    *Item
	node    bool
	head    bool
	alt     string // alternative supported ("" none)
	mention bool   // mentions an alternative
	attr    int    // relation-cue attribution
	cue     bool   // has a relation cue
	when    time.Time
	cover   int // terms plus entities covered
}

// rankState orders items for a single current-state, either-or or where
// answer. Candidates are narrowed tier by tier, each tier applied only
// when some item passes it: graph nodes covering a Topic term (the graph
// holds the current state) for current-state questions; items covering
// the wh-noun (Head); for either-or, items naming an alternative; for
// where-questions, items with a location/employer relation cue followed by
// a name, not attributed to someone else. Within the tier: cue
// attribution (where), then, for current-state and either-or questions,
// the latest statement (mention time; nodes first), then coverage, then
// Score, then input order. It returns the order of the tier's items and
// the rest (by coverage, then Score), the tier's size, and the items on
// the topic (before the either-or and relation tiers, not attributed to
// someone else, not nodes) that may state the former state.
func rankState(q *Question, items []*Item, cover []int) (order []int, tier int, former []bool) {
	cands := make([]stateCand, len(items))
	for i, it := range items {
		c := stateCand{idx: i, item: it, node: isNode(it), when: stateTime(it), cover: cover[i]}
		c.head = coversAny(it, q.Head)
		if len(q.Alternatives) >= 2 {
			c.alt = altSupport(q, it)
			c.mention = coversAny(it, q.Alternatives)
		}
		c.attr, c.cue = relationCue(q, it)
		cands[i] = c
	}
	in := make([]bool, len(items))
	for i := range in {
		in[i] = true
	}
	narrow := func(keep func(c *stateCand) bool) {
		any := false
		for i := range cands {
			if in[i] && keep(&cands[i]) {
				any = true
				break
			}
		}
		if !any {
			return
		}
		for i := range cands {
			if in[i] && !keep(&cands[i]) {
				in[i] = false
			}
		}
	}
	recency := q.Current || len(q.Alternatives) >= 2
	if q.Current {
		narrow(func(c *stateCand) bool { return c.node && coversAny(c.item, q.Topic) })
	}
	narrow(func(c *stateCand) bool { return c.head })
	if len(q.Alternatives) >= 2 {
		narrow(func(c *stateCand) bool { return c.mention || c.node })
	}
	// Items on the topic may state the former state (earlierState).
	former = make([]bool, len(items))
	for i := range cands {
		former[i] = in[i] && !cands[i].node && !(cands[i].cue && cands[i].attr == attrOther)
	}
	if len(q.Alternatives) >= 2 {
		narrow(func(c *stateCand) bool { return c.alt != "" })
	}
	if q.WH == WhWhere {
		narrow(func(c *stateCand) bool { return (c.cue && c.attr > attrOther) || c.node })
	}
	var top, rest []int
	for i := range cands {
		if in[i] {
			top = append(top, i)
		} else {
			rest = append(rest, i)
		}
	}
	less := func(x, y *stateCand) bool {
		if q.WH == WhWhere && x.attr != y.attr {
			return x.attr > y.attr
		}
		if recency {
			if x.node != y.node {
				return x.node
			}
			if !x.when.Equal(y.when) {
				if x.when.IsZero() || y.when.IsZero() {
					return y.when.IsZero()
				}
				return x.when.After(y.when)
			}
		}
		if x.cover != y.cover {
			return x.cover > y.cover
		}
		if x.item.Score != y.item.Score {
			return x.item.Score > y.item.Score
		}
		return x.idx < y.idx
	}
	sortIdx(top, func(a, b int) bool { return less(&cands[a], &cands[b]) })
	sortIdx(rest, func(a, b int) bool {
		x, y := &cands[a], &cands[b]
		if x.cover != y.cover {
			return x.cover > y.cover
		}
		if x.item.Score != y.item.Score {
			return x.item.Score > y.item.Score
		}
		return x.idx < y.idx
	})
	return append(top, rest...), len(top), former
}

// earlierState is, among the items on the topic other than the pick, the
// oldest statement made on another day than the pick and not linked to
// it (for either-or, preferably one supporting another alternative): the
// former state a current-state answer mentions. -1 when none.
func earlierState(q *Question, items []*Item, order []int, former []bool) int {
	if len(order) < 2 || !q.Current && len(q.Alternatives) < 2 {
		return -1
	}
	pick := items[order[0]]
	pt := stateTime(pick)
	if pt.IsZero() {
		return -1
	}
	pickAlt := altSupport(q, pick)
	best, bestOther := -1, false
	for _, i := range order[1:] {
		it := items[i]
		t := stateTime(it)
		if !former[i] || t.IsZero() || !t.Before(pt) || sameDay(t, pt) || linked(it, pick) {
			continue
		}
		alt := altSupport(q, it)
		other := pickAlt != "" && alt != "" && alt != pickAlt
		if best < 0 || (other && !bestOther) || (other == bestOther && t.Before(stateTime(items[best]))) {
			best, bestOther = i, other
		}
	}
	return best
}

// settledState reports whether the pick of a current-state question needs
// no further search: a graph node; otherwise not a plan, and either an
// either-or decision, a statement of change, or no rival — the pick is the
// only item of its tier, or all of them were said on the same day.
func settledState(q *Question, items []*Item, order []int, tier int) bool {
	if len(order) == 0 {
		return false
	}
	pick := items[order[0]]
	if isNode(pick) {
		return true
	}
	if isPlan(pick) {
		return false
	}
	if len(q.Alternatives) >= 2 && altSupport(q, pick) != "" {
		return true
	}
	if hasChangeCue(pick) || tier <= 1 {
		return true
	}
	pt := stateTime(pick)
	for _, i := range order[1:tier] {
		if t := stateTime(items[i]); !t.IsZero() && !pt.IsZero() && !sameDay(t, pt) {
			return false
		}
	}
	return true
}

func sortIdx(idx []int, less func(a, b int) bool) {
	// insertion sort: stable, small inputs
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && less(idx[j], idx[j-1]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}

// isAlternative reports whether a word is one of the question's
// alternatives.
func isAlternative(q *Question, w word) bool {
	for _, t := range bm25.AppendTerms(nil, w.text) {
		for _, a := range q.Alternatives {
			if canon(t) == canon(a) {
				return true
			}
		}
	}
	return false
}
