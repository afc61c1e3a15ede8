package gate

import (
	"strings"
	"time"
)

// sentenceTime picks the time expression that dates a message for a
// question. A message often holds several sentences and several times
// ("I'm expanding the studio's social media. I'm also hosting a
// competition next month."): the date is that of the sentence most
// about the question — the one covering the most Topic terms (question
// terms without Topic). Among that sentence's expressions an explicit one
// wins over the message's own day ("just joined … last Tuesday" is
// Tuesday). When the best sentence names no time, a sentence right
// before it that covers nothing but names a time — a question or a short
// exclamation — sets the scene ("Guess what I did this week? I applied to
// two agencies!", "Last weekend was wild! We…"); else the time of
// the sentence next most about the question, unless it speaks of another
// event ("I'm also hosting…"). A message none of whose
// timed sentences covers the question is undated for it.
func sentenceTime(q *Question, text string, times []TimeMention) (TimeMention, bool) {
	units := splitUnits(text, isDateUnitEnd)
	if len(units) == 0 {
		return TimeMention{}, false
	}
	cover := make([]int, len(units))
	best := -1
	for i, u := range units {
		it := Item{Text: u}
		if len(q.Topic) > 0 {
			cover[i] = topicCover(q, &it)
		} else {
			cover[i] = itemCover(q, &it)
		}
		if cover[i] > 0 && (best < 0 || cover[i] > cover[best]) {
			best = i
		}
	}
	if best < 0 && len(q.Terms) > 0 {
		return TimeMention{}, false
	}
	if best < 0 {
		best = 0
	}
	in := func(u int) (TimeMention, bool) {
		var said *TimeMention
		for k := range times {
			if !strings.Contains(units[u], times[k].Text) {
				continue
			}
			if times[k].Basis != "said" {
				return times[k], true
			}
			if said == nil {
				said = &times[k]
			}
		}
		if said != nil {
			return *said, true
		}
		return TimeMention{}, false
	}
	// Every sentence as good as the best, in order.
	for u := range units {
		if cover[u] == cover[best] {
			if tm, ok := in(u); ok {
				return tm, true
			}
		}
	}
	if best > 0 && cover[best-1] == 0 && sceneSetter(units[best-1]) {
		if tm, ok := in(best - 1); ok {
			return tm, true
		}
	}
	// Else the sentence next most about the question that names a time
	// ("My friends are my rocks. Here's a pic from when we met up last
	// week!").
	for c := cover[best] - 1; c > 0; c-- {
		for u := range units {
			if cover[u] == c && !anotherEvent(units[u]) {
				if tm, ok := in(u); ok {
					return tm, true
				}
			}
		}
	}
	return TimeMention{}, false
}

// sceneSetter reports whether a sentence can set the time of the next
// one: a question ("Guess what I did this week?") or a short sentence of
// at most five words ("Last weekend was wild!"); a longer statement tells
// its own story.
func sceneSetter(u string) bool {
	u = strings.TrimSpace(u)
	return strings.HasSuffix(u, "?") || len(strings.Fields(u)) <= 5
}

// otherEventWords open a sentence about another event than the one
// before it ("I'm also hosting a competition next month", "Another
// thing: …"): its time is not the other sentence's.
var otherEventWords = wordSet("also", "another", "additionally", "plus", "besides", "meanwhile", "separately")

func anotherEvent(u string) bool {
	for _, w := range scanWords(u) {
		if otherEventWords[w.key] {
			return true
		}
	}
	return false
}

// dateOf is the occurrence interval an item gives a time question, and
// whether it gives one. A message's date comes from the first time
// expression in it, which may belong to another sentence than the
// question's subject: it counts only when the sentence (or the label
// before a colon) holding the expression covers a Topic term (any question term when the question has
// no Topic). A range introduced by a change verb ("moves from 20 May to 3
// June") is a change of date, not an interval: the date is its last day,
// and former is the first.
func dateOf(q *Question, it *Item) (start, end time.Time, precision string, former time.Time, ok bool) {
	if q != nil && q.MentionTime && !it.MentionedAt.IsZero() {
		// "When did Sam mention X?" asks when it was said.
		m := it.MentionedAt
		start = time.Date(m.Year(), m.Month(), m.Day(), 0, 0, 0, 0, m.Location())
		return start, start.AddDate(0, 0, 1), "day", time.Time{}, true
	}
	if !it.Dated() {
		return
	}
	start, end, precision = it.HappenedStart, it.HappenedEnd, it.Precision
	text := it.Text
	if text == "" {
		text = it.Quote
	}
	timeText := it.TimeText
	if isMessageLike(it) && len(it.Times) > 0 && q != nil {
		tm, found := sentenceTime(q, text, it.Times)
		if !found {
			return time.Time{}, time.Time{}, "", time.Time{}, false
		}
		start, end, precision, timeText = tm.Start, tm.End, tm.Precision, tm.Text
	} else if isMessageLike(it) && it.TimeText != "" && q != nil {
		unit := ""
		for _, u := range splitUnits(text, isDateUnitEnd) {
			if strings.Contains(u, it.TimeText) {
				unit = u
				break
			}
		}
		if unit != "" {
			u := Item{Text: unit}
			if len(q.Topic) > 0 && topicCover(q, &u) == 0 || len(q.Topic) == 0 && len(q.Terms) > 0 && itemCover(q, &u) == 0 {
				return time.Time{}, time.Time{}, "", time.Time{}, false
			}
		}
	}
	if precision == "range" && !end.IsZero() && end.After(start) && changedRange(text, timeText) {
		former = start
		last := end.Add(-time.Nanosecond).In(start.Location())
		start = time.Date(last.Year(), last.Month(), last.Day(), 0, 0, 0, 0, start.Location())
		end = start.AddDate(0, 0, 1)
		precision = "day"
	}
	return start, end, precision, former, true
}

// changeDateVerbs introduce a change of date ("moves from A to B").
var changeDateVerbs = wordSet("move", "moves", "moved", "moving", "postpone", "postpones", "postponed",
	"push", "pushes", "pushed", "shift", "shifts", "shifted", "change", "changes", "changed",
	"reschedule", "reschedules", "rescheduled", "delay", "delays", "delayed", "slip", "slips", "slipped")

// changedRange reports whether the time expression timeText is "from A to
// B" right after a change verb in text.
func changedRange(text, timeText string) bool {
	if timeText == "" || !strings.HasPrefix(strings.ToLower(timeText), "from ") {
		return false
	}
	at := strings.Index(text, timeText)
	if at <= 0 {
		return false
	}
	words := scanWords(text[:at])
	return len(words) > 0 && changeDateVerbs[words[len(words)-1].key]
}
