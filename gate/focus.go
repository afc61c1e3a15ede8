package gate

// Focus: the sentence or clause of an item that an answer quotes.

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// focus is the part of an item's text an answer quotes: the whole text
// when it fits in maxSnippet runes; otherwise the sentence, then the
// clause, covering the most question terms and entities (the one holding
// the time expression first for time answers), cut to maxSnippet.
// Messages are read in full (their Quote is a clipped copy), other items
// through their quote, else title, else text.
func focus(q *Question, it *Item, preferQuote bool, timeText string) string {
	text := ""
	if isMessageLike(it) && strings.TrimSpace(it.Text) != "" {
		text = strings.TrimSpace(it.Text)
	} else {
		cands := []string{it.Title, it.Quote}
		if preferQuote {
			cands = []string{it.Quote, it.Title}
		}
		cands = append(cands, it.Text)
		for _, c := range cands {
			if c = strings.TrimSpace(c); c != "" {
				text = c
				break
			}
		}
	}
	if text == "" {
		return snippet(it, preferQuote)
	}
	if utf8.RuneCountInString(text) <= maxSnippet || q == nil {
		return clipSnippet(text)
	}
	best := bestUnit(q, splitUnits(text, isSentenceEnd), timeText)
	if utf8.RuneCountInString(best) > maxSnippet {
		best = bestUnit(q, splitUnits(best, isClauseEnd), timeText)
	}
	return clipSnippet(best)
}

func clipSnippet(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimLeft(s, "-–—•* ")
	s = strings.TrimRight(s, ",;:—– ")
	if utf8.RuneCountInString(s) > maxSnippet {
		return clip(s, maxSnippet-1) + "…"
	}
	return s
}

func isSentenceEnd(r rune) bool {
	return r == '.' || r == '!' || r == '?' || r == '。' || r == '！' || r == '？' || r == '\n'
}

// isDateUnitEnd ends the unit whose time expression dates a message: a
// sentence, or a label before a colon ("Summary for tonight: …").
func isDateUnitEnd(r rune) bool {
	return r == ':' || r == '：' || isSentenceEnd(r)
}

func isClauseEnd(r rune) bool {
	return r == ',' || r == ';' || r == '—' || r == '–' || r == ':' || r == '，' || r == '；' || isSentenceEnd(r)
}

// splitUnits cuts text after each end rune that is followed by white space
// or the end (so "Fly.io" and "3.5" stay whole).
func splitUnits(text string, end func(rune) bool) []string {
	var out []string
	start := 0
	for i, r := range text {
		if !end(r) {
			continue
		}
		next := i + utf8.RuneLen(r)
		if r != '\n' && r < 0x3000 && next < len(text) {
			n, _ := utf8.DecodeRuneInString(text[next:])
			if !unicode.IsSpace(n) {
				continue
			}
		}
		if u := strings.TrimSpace(text[start:next]); u != "" {
			out = append(out, u)
		}
		start = next
	}
	if u := strings.TrimSpace(text[start:]); u != "" {
		out = append(out, u)
	}
	return out
}

// bestUnit is the unit covering the most question terms (Topic terms
// count twice) and entities; the unit holding timeText wins; ties go to
// the first.
func bestUnit(q *Question, units []string, timeText string) string {
	best, bestN, bestTopic := "", -1, -1
	for _, u := range units {
		it := Item{Text: u}
		// Topic terms weigh double: the entity alone is not the answer.
		topic := topicCover(q, &it)
		n := itemCover(q, &it) + topic
		for _, e := range q.Entities {
			if strings.Contains(strings.ToLower(u), strings.ToLower(e)) {
				n++
			}
		}
		if timeText != "" && strings.Contains(u, timeText) {
			n += 100
		}
		// On a tie the unit covering more of the topic wins ("I work at
		// Northwind…" over "I'm Mia…" for "Where does Mia work?").
		if n > bestN || (n == bestN && topic > bestTopic) {
			best, bestN, bestTopic = u, n, topic
		}
	}
	return best
}

// topicCover counts the Topic terms an item covers.
func topicCover(q *Question, it *Item) int {
	set := itemTermSet(it)
	n := 0
	for _, t := range q.Topic {
		for x := range expansionSet(t) {
			if set[x] {
				n++
				break
			}
		}
	}
	return n
}
