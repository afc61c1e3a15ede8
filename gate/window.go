package gate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Context windows: a retrieved message travels with its neighbours (items
// whose Of names it). Conversations are question → reply, so the message
// that shares the question's words is often the partner's question and
// the fact is in the reply after it; the window is judged as one unit and
// the neighbours that add something are cited with it.

// contextOf maps each retrieved item's index to the indexes of its
// context items in b.
func contextOf(b *Batch) map[int][]int {
	pos := map[string]int{}
	for i := range b.Items {
		if b.Items[i].Of == "" {
			pos[b.Items[i].Ref] = i
		}
	}
	out := map[int][]int{}
	for i := range b.Items {
		if of := b.Items[i].Of; of != "" {
			if p, ok := pos[of]; ok {
				out[p] = append(out[p], i)
			}
		}
	}
	return out
}

// after reports whether context item c comes after item it (a later
// message id), i.e. it is the reply rather than the prompt.
func after(c, it *Item) bool {
	if len(c.MessageIDs) == 0 || len(it.MessageIDs) == 0 {
		return false
	}
	return c.MessageIDs[0] > it.MessageIDs[len(it.MessageIDs)-1]
}

// questionOnly reports whether every sentence of text is a question: such
// a message asks for the answer and is not evidence of it.
func questionOnly(text string) bool {
	text = strings.TrimSpace(text)
	if text == "" {
		return false
	}
	any := false
	for _, s := range splitSentences(text) {
		s = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), "\"'”’)]"))
		if s == "" || !hasLetter(s) {
			continue
		}
		any = true
		if !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "？") {
			return false
		}
	}
	return any
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// splitSentences cuts text after each sentence-ending mark (. ! ? and
// their full-width forms, and line breaks), keeping the marks.
func splitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch r {
		case '.', '!', '?', '。', '！', '？', '\n':
			for i < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[i:])
				if r2 != '.' && r2 != '!' && r2 != '?' && r2 != '"' && r2 != '\'' && r2 != '”' && r2 != '’' && r2 != ')' {
					break
				}
				i += s2
			}
			out = append(out, text[start:i])
			start = i
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// vocativeLead are the words that may stand before a name addressed at
// the start of a sentence ("Hey Sam,", "Thanks, Sam!"): the name then
// addresses the listener and says nothing about them.
var vocativeLead = map[string]bool{
	"hey": true, "hi": true, "hello": true, "thanks": true, "thank": true, "you": true, "wow": true,
	"oh": true, "yeah": true, "yes": true, "no": true, "sure": true, "congrats": true,
	"congratulations": true, "aw": true, "aww": true, "awww": true, "omg": true, "dear": true,
	"great": true, "good": true, "morning": true, "evening": true, "night": true, "bye": true,
	"hiya": true, "yo": true, "ok": true, "okay": true, "well": true, "so": true, "haha": true,
	"lol": true, "ah": true, "ooh": true, "whoa": true, "nice": true, "cool": true, "love": true,
	"sorry": true, "miss": true, "glad": true, "again": true, "to": true, "see": true,
}

// stripVocatives blanks the names a message addresses its listener with:
// a capitalised word (or two) at the start of a sentence after only
// greeting/interjection words and followed by , ! ? or the sentence end,
// or after a comma at the end of a sentence ("…, Sam!"). "Sam, did you
// go?" is about the listener only through what follows, which stays.
func stripVocatives(text string) string {
	if !strings.ContainsAny(text, ",!?.") {
		return text
	}
	var b strings.Builder
	for _, s := range splitSentences(text) {
		b.WriteString(stripSentenceVocative(s))
	}
	return b.String()
}

func stripSentenceVocative(s string) string {
	type tok struct {
		start, end int
		word       string
	}
	var toks []tok
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) {
			i += size
			continue
		}
		j := i
		for j < len(s) {
			r2, s2 := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsLetter(r2) && r2 != '\'' && r2 != '’' {
				break
			}
			j += s2
		}
		toks = append(toks, tok{i, j, s[i:j]})
		i = j
	}
	capital := func(w string) bool {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsUpper(r) && !vocativeLead[strings.ToLower(w)] && w != "I"
	}
	// punctuation right after token k (skipping spaces)
	punctAfter := func(k int) rune {
		rest := strings.TrimLeft(s[toks[k].end:], " ")
		if rest == "" {
			return '.'
		}
		r, _ := utf8.DecodeRuneInString(rest)
		return r
	}
	blank := func(out []byte, from, to int) {
		for i := from; i < to; i++ {
			out[i] = ' '
		}
	}
	out := []byte(s)
	changed := false
	// Leading vocative: lead words, then one or two capitalised words,
	// then , ! ? or the end.
	k := 0
	for k < len(toks) && vocativeLead[strings.ToLower(toks[k].word)] {
		k++
	}
	for n := 1; n <= 2 && k+n <= len(toks); n++ {
		ok := true
		for x := k; x < k+n; x++ {
			ok = ok && capital(toks[x].word)
		}
		if !ok {
			break
		}
		if p := punctAfter(k + n - 1); p == ',' || p == '!' || p == '?' || (p == '.' && k+n == len(toks)) {
			blank(out, toks[k].start, toks[k+n-1].end)
			changed = true
			break
		}
	}
	// Trailing vocative: ", Name" (one or two words) ending the sentence.
	for n := 1; n <= 2 && n <= len(toks); n++ {
		first := len(toks) - n
		ok := true
		for x := first; x < len(toks); x++ {
			ok = ok && capital(toks[x].word)
		}
		if !ok {
			break
		}
		before := strings.TrimRight(s[:toks[first].start], " ")
		if first > 0 && strings.HasSuffix(before, ",") {
			if p := punctAfter(len(toks) - 1); p == '!' || p == '?' || p == '.' {
				blank(out, toks[first].start, toks[len(toks)-1].end)
				changed = true
				break
			}
		}
	}
	if !changed {
		return s
	}
	return string(out)
}
