package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/stratagate/stratagate/bm25"
)

// Duration questions ask for a length of time computed from dates:
//
//   - "How many days ago did Sam move?", "How long ago did Sam move?": the
//     time from the event's date to the question's reference time
//     (Question.Now: AskOptions.Now, else the store clock);
//   - "How long was it between Sam's move and the party?", "How many
//     weeks passed between X and Y?": the time between the dates of two
//     events, both cited.
//
// Both are time questions (WantsTime): the evidence must be dated. The
// answer renders the length in the question's unit, else in days below
// two weeks, weeks below two months, months below two years, else years,
// followed by the dates it was computed from.

// durationUnits are the units a question may ask a length in.
var durationUnits = map[string]string{
	"day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month", "months": "month",
	"year": "year", "years": "year",
}

// analyseDuration sets the duration fields of q from its words: the unit
// after "how many", "ago", and the two sides of "between … and …".
func analyseDuration(q *Question, words []word) {
	howMany, howLong := -1, -1
	for i := 0; i+1 < len(words); i++ {
		if words[i].key == "how" && words[i+1].key == "many" {
			howMany = i
		}
		if words[i].key == "how" && words[i+1].key == "long" {
			howLong = i
		}
	}
	unit := ""
	if howMany >= 0 && howMany+2 < len(words) {
		unit = durationUnits[words[howMany+2].key]
	}
	if howMany >= 0 && unit == "" || howMany < 0 && howLong < 0 {
		return
	}
	ago, between := false, -1
	for i, w := range words {
		ago = ago || w.key == "ago"
		if w.key == "between" && between < 0 {
			between = i
		}
	}
	if between >= 0 {
		and := -1
		for i := between + 1; i < len(words); i++ {
			if words[i].key == "and" {
				and = i
				break
			}
		}
		if and > between+1 && and+1 < len(words) {
			side := func(ws []word) []string {
				var out []string
				for _, w := range ws {
					for _, t := range bm25.AppendTerms(nil, w.text) {
						out = appendUnique(out, t)
					}
				}
				return out
			}
			q.Between = [2][]string{side(words[between+1 : and]), side(words[and+1:])}
			if len(q.Between[0]) > 0 && len(q.Between[1]) > 0 {
				q.DurationUnit, q.WantsTime, q.WantsList = unit, true, false
				return
			}
			q.Between = [2][]string{}
		}
	}
	if ago {
		q.Ago, q.DurationUnit, q.WantsTime, q.WantsList = true, unit, true, false
	}
}

// betweenItems returns the indexes in items of the dated item that best
// dates each side of a between-question (most side terms, at least half
// of them), distinct and not linked; -1 for a side without one.
func betweenItems(q *Question, items []*Item) (a, b int) {
	pick := func(side []string, not int) int {
		best, bestN := -1, 0
		for i, it := range items {
			if i == not || not >= 0 && linked(it, items[not]) {
				continue
			}
			if _, _, _, _, ok := dateOf(q, it); !ok {
				continue
			}
			n := 0
			set := itemTermSet(it)
			for _, t := range side {
				for x := range expansionSet(t) {
					if set[x] {
						n++
						break
					}
				}
			}
			if 2*n >= len(side) && n > bestN {
				best, bestN = i, n
			}
		}
		return best
	}
	a = pick(q.Between[0], -1)
	b = pick(q.Between[1], a)
	if b < 0 {
		return a, -1
	}
	return a, b
}

// answerBetween renders the time between the two sides' dates.
func answerBetween(q *Question, evidence []Item) (string, []string) {
	items := make([]*Item, len(evidence))
	for i := range evidence {
		items[i] = &evidence[i]
	}
	a, b := betweenItems(q, items)
	if a < 0 || b < 0 {
		return "", nil
	}
	sa, _, pa, _, _ := dateOf(q, items[a])
	sb, _, pb, _, _ := dateOf(q, items[b])
	d := sb.Sub(sa)
	if d < 0 {
		d = -d
	}
	text := fmt.Sprintf("%s (between %s and %s)", renderLength(d, q.DurationUnit),
		RenderInterval(sa, time.Time{}, pa), RenderInterval(sb, time.Time{}, pb))
	return text, []string{items[a].Ref, items[b].Ref}
}

// answerAgo renders the time from the first dated item to q.Now.
func answerAgo(q *Question, evidence []Item) (string, []string) {
	text, used, _ := answerTime(q, evidence)
	if text == "" || len(used) == 0 || q.Now.IsZero() {
		return "", nil
	}
	for i := range evidence {
		if evidence[i].Ref != used[0] {
			continue
		}
		start, _, _, _, ok := dateOf(q, &evidence[i])
		if !ok || start.After(q.Now) {
			return "", nil
		}
		// Calendar days: from the event's day to the question's day.
		n := q.Now.In(start.Location())
		today := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, start.Location())
		return renderLength(today.Sub(start), q.DurationUnit) + " ago (" + text + ")", used
	}
	return "", nil
}

// renderLength writes a length of time in unit ("" picks one: days below
// two weeks, weeks below two months, months below two years, else years).
func renderLength(d time.Duration, unit string) string {
	days := d.Hours() / 24
	if unit == "" {
		switch {
		case days < 14:
			unit = "day"
		case days < 61:
			unit = "week"
		case days < 730:
			unit = "month"
		default:
			unit = "year"
		}
	}
	per := map[string]float64{"day": 1, "week": 7, "month": 30.44, "year": 365.25}[unit]
	n := math.Round(days / per)
	s := strconv.FormatFloat(n, 'f', 0, 64) + " " + unit
	if n != 1 {
		s += "s"
	}
	return strings.TrimSpace(s)
}
