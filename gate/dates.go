package gate

import "strings"

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
