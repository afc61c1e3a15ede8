package gate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events/temporal"
)

// HeuristicAnswerer is the deterministic offline Answerer: an extractive
// answer built only from the evidence it is given. See the package
// documentation (section "Heuristic answerer").
type HeuristicAnswerer struct{}

// maxSnippet is the most runes of a title or quote in an answer.
const maxSnippet = 120

// Answer implements Answerer. It returns "" and no refs when the evidence
// cannot answer (no items; a time question without a dated item).
func (HeuristicAnswerer) Answer(_ context.Context, q *Question, evidence []Item) (string, []string, error) {
	if q == nil {
		return "", nil, errors.New("gate: HeuristicAnswerer needs a question")
	}
	if len(evidence) == 0 {
		return "", nil, nil
	}
	switch {
	case len(q.Between[0]) > 0:
		text, used := answerBetween(q, evidence)
		return text, used, nil
	case q.Ago:
		text, used := answerAgo(q, evidence)
		return text, used, nil
	case q.WantsTime:
		return answerTime(q, evidence)
	case q.WantsList:
		return answerList(q, evidence)
	case stateQuestion(q) || q.WH == WhWhere:
		return answerState(q, evidence)
	}
	best := bestItem(q, evidence)
	return focus(q, best, true, ""), []string{best.Ref}, nil
}

// answerState answers a current-state, either-or or where question from
// the item rankState puts first. A graph node answers with its facts
// covering the question; either-or answers name the supported
// alternative first; current-state answers add when the pick was said and
// the former state (earlierState) with its day.
func answerState(q *Question, evidence []Item) (string, []string, error) {
	items := make([]*Item, len(evidence))
	cover := make([]int, len(evidence))
	for i := range evidence {
		items[i] = &evidence[i]
		cover[i] = itemCover(q, items[i]) + entityCover(q, items[i])
	}
	order, _, former := rankState(q, items, cover)
	pick := items[order[0]]
	used := []string{pick.Ref}
	alt := ""
	if len(q.Alternatives) >= 2 {
		alt = altSupport(q, pick)
	}
	if isNode(pick) {
		text := nodeFacts(q, pick)
		if a := altText(q, alt); alt != "" && !strings.HasPrefix(strings.ToLower(text), strings.ToLower(a)) {
			text = a + " (" + text + ")"
		}
		return text, used, nil
	}
	quote := focus(q, pick, true, "")
	var paren []string
	if !pick.MentionedAt.IsZero() && (q.Current || alt != "") {
		paren = append(paren, "said on "+pick.MentionedAt.Format(dayLayout))
	}
	if e := earlierState(q, items, order, former); e >= 0 {
		old := items[e]
		paren = append(paren, "earlier: "+strconv.Quote(focus(q, old, true, ""))+" on "+stateTime(old).Format(dayLayout))
		used = append(used, old.Ref)
	}
	var text string
	switch {
	case alt != "":
		inner := append([]string{strconv.Quote(quote)}, paren...)
		text = altText(q, alt) + " (" + strings.Join(inner, "; ") + ")"
	case len(paren) > 0:
		text = quote + " (" + strings.Join(paren, "; ") + ")"
	default:
		text = quote
	}
	return text, used, nil
}

// nodeFacts renders a graph node for an answer: its facts covering a
// Topic term or alternative (all facts when none does; with term weights,
// only those naming the key term when some do), then its name; a single
// "key: value" fact puts its value first.
func nodeFacts(q *Question, it *Item) string {
	var facts []string
	terms := append(append([]string(nil), q.Topic...), q.Alternatives...)
	for _, f := range it.Facts {
		if coversAny(&Item{Text: f}, terms) {
			facts = append(facts, f)
		}
	}
	// With term weights, the facts naming the question's key term are the
	// answer ("database: Postgres", not also "uses_package_manager: pnpm"
	// for "Which database does Atlas use?").
	if k := q.keyTerm(); k >= 0 {
		var keyed []string
		for _, f := range facts {
			if coversAny(&Item{Text: f}, q.Terms[k:k+1]) {
				keyed = append(keyed, f)
			}
		}
		if len(keyed) > 0 {
			facts = keyed
		}
	}
	name := strings.TrimSpace(it.Title)
	if len(facts) == 1 {
		// One fact answers: its value first ("Seattle (Leo — lives_in: Seattle)").
		if k := strings.Index(facts[0], ": "); k > 0 && strings.TrimSpace(facts[0][k+2:]) != "" {
			ctx := facts[0]
			if name != "" {
				ctx = name + " — " + ctx
			}
			return strings.TrimSpace(facts[0][k+2:]) + " (" + ctx + ")"
		}
	}
	if len(facts) == 0 {
		facts = it.Facts
	}
	text := strings.Join(facts, "; ")
	if name != "" {
		if text == "" {
			return name
		}
		text += " — " + name
	}
	if text == "" {
		return snippet(it, true)
	}
	return text
}

// answerTime renders the first dated item's interval (see dateOf; when
// some item covers every entity, only such items or items linked to one
// date the answer) with its quote; the events whose source messages it
// shares are reported as used too (the message dates them).
func answerTime(q *Question, evidence []Item) (string, []string, error) {
	full := make([]bool, len(evidence))
	some := false
	for i := range evidence {
		full[i] = coversEntities(q, &evidence[i])
		some = some || full[i]
	}
	for i := range evidence {
		it := &evidence[i]
		start, end, precision, former, ok := dateOf(q, it)
		if !ok {
			continue
		}
		if some && !full[i] {
			inherited := false
			for k := range evidence {
				if full[k] && linked(it, &evidence[k]) {
					inherited = true
				}
			}
			if !inherited {
				continue
			}
		}
		text := RenderInterval(start, end, precision)
		var paren []string
		if !former.IsZero() {
			paren = append(paren, "moved from "+former.Format(dayLayout))
		}
		if s := focus(q, it, true, it.TimeText); s != "" {
			paren = append(paren, strconv.Quote(s))
		}
		if m := it.MentionedAt; !m.IsZero() && (m.Before(start) || (!end.IsZero() && !m.Before(end)) || (end.IsZero() && !sameDay(m, start))) {
			paren = append(paren, "said on "+m.Format(dayLayout))
		}
		if len(paren) > 0 {
			text += " (" + strings.Join(paren, ", ") + ")"
		}
		used := []string{it.Ref}
		for j := range evidence {
			if j != i && isKind(evidence[j].Ref, KindEvent) && linked(&evidence[j], it) {
				used = append(used, evidence[j].Ref)
			}
		}
		return text, used, nil
	}
	return "", nil, nil
}

// answerList joins the short titles/quotes of the list items (see
// listItems; for a Current question without its wishes when others
// remain), deduplicated; a how_many question is prefixed with the count.
func answerList(q *Question, evidence []Item) (string, []string, error) {
	idx := listItems(q, evidence)
	if q.Current {
		// What is the case now: wishes are no items, unless nothing else
		// is.
		var facts []int
		for _, i := range idx {
			if !isWish(&evidence[i]) {
				facts = append(facts, i)
			}
		}
		if len(facts) > 0 {
			idx = facts
		}
	}
	var parts, used []string
	for _, i := range idx {
		s := focus(q, &evidence[i], false, "")
		if s == "" {
			continue
		}
		dup := false
		for _, p := range parts {
			// The same words, whatever the closing punctuation: a card's
			// title and the message it quotes.
			if strings.EqualFold(strings.TrimRight(p, ".!?… "), strings.TrimRight(s, ".!?… ")) {
				dup = true
			}
		}
		if !dup {
			parts = append(parts, s)
		}
		used = append(used, evidence[i].Ref)
	}
	text := strings.Join(parts, "; ")
	if q.WH == WhHowMany && len(parts) > 0 {
		text = fmt.Sprintf("%d: %s", len(parts), text)
	}
	return text, used, nil
}

// listItems returns the indexes of the list items among the evidence, in
// order: the items covering the wh-noun (Head) when the question has one,
// else a Topic term when it has some — an item naming only the entity is
// not an item of the list —, else any question term; all indexes when the
// question has no terms at all.
func listItems(q *Question, evidence []Item) []int {
	var out, all []int
	for i := range evidence {
		all = append(all, i)
		it := &evidence[i]
		switch {
		case len(q.Head) > 0:
			if coversAny(it, q.Head) {
				out = append(out, i)
			}
		case len(q.Topic) > 0:
			if coversAny(it, q.Topic) {
				out = append(out, i)
			}
		case itemCover(q, it) > 0:
			out = append(out, i)
		}
	}
	if len(out) == 0 && len(q.Terms) == 0 {
		return all
	}
	return out
}

// itemCover counts the question terms an item covers.
func itemCover(q *Question, it *Item) int {
	set := itemTermSet(it)
	n := 0
	for _, t := range q.Terms {
		for x := range expansionSet(t) {
			if set[x] {
				n++
				break
			}
		}
	}
	return n
}

// bestItem is the item covering the most question terms, then the higher
// Score, then the first.
func bestItem(q *Question, evidence []Item) *Item {
	best, bestN := 0, -1
	for i := range evidence {
		n := itemCover(q, &evidence[i])
		if n > bestN || (n == bestN && evidence[i].Score > evidence[best].Score) {
			best, bestN = i, n
		}
	}
	return replyOf(&evidence[best], evidence)
}

// replyOf is the reply cited with it when it only asks (a context item of
// it, said after it, that does not only ask), else it: the question a
// message asks is not the answer.
func replyOf(it *Item, evidence []Item) *Item {
	if !questionOnly(askText(it)) {
		return it
	}
	for i := range evidence {
		c := &evidence[i]
		if c.Of == it.Ref && after(c, it) && !questionOnly(c.Text) {
			return c
		}
	}
	return it
}

// snippet is an item's quote (preferQuote) or title, falling back to the
// other, then the text, then the facts; cut to maxSnippet runes.
func snippet(it *Item, preferQuote bool) string {
	cands := []string{it.Title, it.Quote}
	if preferQuote {
		cands = []string{it.Quote, it.Title}
	}
	cands = append(cands, it.Text, strings.Join(it.Facts, "; "))
	for _, c := range cands {
		if c = strings.TrimSpace(c); c != "" {
			if utf8.RuneCountInString(c) > maxSnippet {
				return clip(c, maxSnippet-1) + "…"
			}
			return c
		}
	}
	return ""
}

const dayLayout = "2 January 2006"

func sameDay(a, b time.Time) bool {
	b = b.In(a.Location())
	return a.Year() == b.Year() && a.YearDay() == b.YearDay()
}

// RenderInterval writes an occurrence interval [start, end) by its
// precision: day "7 May 2023", week "the week of 5 June 2023" (its
// Monday), month "May 2023", season "summer 2023", year "2022", instant
// "7 May 2023 at 15:30", range "1–10 June 2023" / "29 May – 4 June 2023".
// An unknown precision with a known start renders the day.
func RenderInterval(start, end time.Time, precision string) string {
	switch temporal.Precision(precision) {
	case temporal.PrecisionInstant:
		return start.Format(dayLayout + " at 15:04")
	case temporal.PrecisionWeek:
		return "the week of " + start.Format(dayLayout)
	case temporal.PrecisionMonth:
		return start.Format("January 2006")
	case temporal.PrecisionYear:
		return start.Format("2006")
	case temporal.PrecisionSeason:
		return season(start.Month()) + " " + strconv.Itoa(start.Year())
	case temporal.PrecisionRange:
		if end.IsZero() || !end.After(start) {
			return start.Format(dayLayout)
		}
		last := end.Add(-time.Nanosecond).In(start.Location())
		switch {
		case sameDay(start, last):
			return start.Format(dayLayout)
		case start.Year() == last.Year() && start.Month() == last.Month():
			return fmt.Sprintf("%d–%s", start.Day(), last.Format(dayLayout))
		case start.Year() == last.Year():
			return start.Format("2 January") + " – " + last.Format(dayLayout)
		}
		return start.Format(dayLayout) + " – " + last.Format(dayLayout)
	}
	return start.Format(dayLayout)
}

func season(m time.Month) string {
	switch m {
	case time.March, time.April, time.May:
		return "spring"
	case time.June, time.July, time.August:
		return "summer"
	case time.September, time.October, time.November:
		return "autumn"
	}
	return "winter"
}

func isKind(ref, kind string) bool {
	k, _, ok := ParseRef(ref)
	return ok && k == kind
}

// entityCover counts the entities whose terms the item all holds.
func entityCover(q *Question, it *Item) int {
	set := itemTermSet(it)
	n := 0
	for _, e := range q.Entities {
		ts := bm25.AppendTerms(nil, e)
		ok := len(ts) > 0
		for _, t := range ts {
			if !set[canon(t)] {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

// coversEntities reports whether the item holds the terms of every entity
// of the question.
func coversEntities(q *Question, it *Item) bool {
	set := itemTermSet(it)
	for _, e := range q.Entities {
		for _, t := range bm25.AppendTerms(nil, e) {
			if !set[canon(t)] {
				return false
			}
		}
	}
	return true
}

// altText is an either-or alternative as the question wrote it.
func altText(q *Question, alt string) string {
	if w, ok := q.altWord[alt]; ok {
		return w
	}
	return surfaceOf(q, alt)
}
