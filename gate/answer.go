package gate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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
	case q.WantsTime:
		return answerTime(evidence)
	case q.WantsList:
		return answerList(q, evidence)
	}
	best := bestItem(q, evidence)
	return snippet(best, true), []string{best.Ref}, nil
}

// answerTime renders the first dated item's interval with its quote; the
// events whose source messages it shares are reported as used too (the
// message dates them).
func answerTime(evidence []Item) (string, []string, error) {
	for i := range evidence {
		it := &evidence[i]
		if !it.Dated() {
			continue
		}
		text := RenderInterval(it.HappenedStart, it.HappenedEnd, it.Precision)
		var paren []string
		if s := snippet(it, true); s != "" {
			paren = append(paren, strconv.Quote(s))
		}
		if m := it.MentionedAt; !m.IsZero() && (m.Before(it.HappenedStart) || (!it.HappenedEnd.IsZero() && !m.Before(it.HappenedEnd)) || (it.HappenedEnd.IsZero() && !sameDay(m, it.HappenedStart))) {
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

// answerList joins the short titles/quotes of the items covering the
// question (all items when none does), deduplicated; a how_many question
// is prefixed with the count.
func answerList(q *Question, evidence []Item) (string, []string, error) {
	idx := coveringItems(q, evidence)
	var parts, used []string
	for _, i := range idx {
		s := snippet(&evidence[i], false)
		if s == "" {
			continue
		}
		dup := false
		for _, p := range parts {
			if strings.EqualFold(p, s) {
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

// coveringItems returns the indexes of the items covering at least one
// question term, in order; all indexes when none does.
func coveringItems(q *Question, evidence []Item) []int {
	var out, all []int
	for i := range evidence {
		all = append(all, i)
		if itemCover(q, &evidence[i]) > 0 {
			out = append(out, i)
		}
	}
	if len(out) == 0 {
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
	return &evidence[best]
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
