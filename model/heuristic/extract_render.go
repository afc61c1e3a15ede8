package heuristic

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stratagate/stratagate/model"
)

// ---- rendering -----------------------------------------------------------

// event renders candidate c as a card.
func (x *extractor) event(c *candidate) model.ExtractedEvent {
	m := &x.in.Messages[c.msg]
	sup, con := x.links(c)
	label := speakerLabel(m)
	if strings.EqualFold(label, "assistant") {
		label = "Assistant"
	}
	ev := model.ExtractedEvent{
		Title:         x.title(c, personSpeaker(m)),
		Summary:       truncate(label+": "+cleanText(c.quote), maxEventSummaryRunes),
		Tags:          eventTags(c.quote[c.head:]),
		Quotes:        []string{strings.TrimSpace(c.quote)},
		MessageIDs:    []uint64{m.ID},
		EventType:     c.an.typ,
		Status:        c.status,
		Participants:  c.people,
		Entities:      c.entities,
		Criticality:   criticality(c),
		TimeText:      c.timeText,
		Supersedes:    sup,
		ConflictsWith: con,
	}
	return ev
}

// criticality: safety for a safety cue, preference for preference events,
// identity for life events or an identity cue, else routine.
func criticality(c *candidate) string {
	switch {
	case c.an.flags&flagSafety != 0:
		return "safety"
	case c.an.typ == typePreference:
		return "preference"
	case c.an.typ == typeLifeEvent || c.an.flags&flagIdentity != 0:
		return "identity"
	}
	return "routine"
}

// eventTags returns up to maxEventTags distinct keywords of s in order of
// appearance.
func eventTags(s string) []string {
	var tags []string
	t := tokenizer{s: s}
	for len(tags) < maxEventTags {
		tok, han, ok := t.next()
		if !ok {
			break
		}
		if han {
			continue
		}
		lw := strings.ToLower(tok)
		n := utf8.RuneCountInString(lw)
		if n < minWordRunes || n > maxTagRunes || !hasLetter(lw) || stopword(lw) || slices.Contains(tags, lw) {
			continue
		}
		tags = append(tags, lw)
	}
	return tags
}

// title renders the compact title of c: the sentence without its
// restating head, leading list markers, fillers and short "Topic:" heads,
// with a leading first-person word replaced by the speaker's name, without
// a final "." or "!", first letter upper-cased, cut on a word boundary.
func (x *extractor) title(c *candidate, speaker string) string {
	t := cleanText(c.quote[c.head:])
	t = stripMarker(t)
	for changed := true; changed; {
		changed = false
		if w, rest, ok := leadingWord(t); ok && fillerWord(strings.ToLower(w)) && rest != "" {
			t, changed = rest, true
			continue
		}
		if rest, ok := cutFillerPhrase(t); ok {
			t, changed = rest, true
			continue
		}
		if colon := strings.IndexByte(t, ':'); colon > 0 && colon+1 < len(t) && t[colon+1] == ' ' && len(strings.Fields(t[:colon])) <= 3 {
			if rest := strings.TrimSpace(t[colon+1:]); tokenCount(rest) >= 2 {
				t, changed = rest, true
			}
		}
	}
	if speaker != "" && !c.restate {
		t = replaceFirstPerson(t, speaker)
	}
	t = strings.TrimRight(t, ".! ")
	t = upperFirst(strings.TrimSpace(t))
	t = truncateWords(t, maxEventTitleRunes)
	if t == "" {
		t = truncateWords(cleanText(c.quote), maxEventTitleRunes)
	}
	if t == "" {
		t = defaultEventTitle
	}
	return t
}

// cutFillerPhrase removes a leading filler phrase ("I know, I know, …",
// "I think …") when text follows it.
func cutFillerPhrase(t string) (string, bool) {
	for _, p := range fillerPhrases {
		if len(t) <= len(p)+1 || !strings.EqualFold(t[:len(p)], p) {
			continue
		}
		if c := t[len(p)]; c != ',' && c != ' ' {
			continue
		}
		rest := strings.TrimLeft(t[len(p)+1:], " ")
		if tokenCount(rest) >= 2 {
			return rest, true
		}
	}
	return t, false
}

// leadingWord splits off the first word of s together with a following
// comma and spaces.
func leadingWord(s string) (word, rest string, ok bool) {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) {
			break
		}
		i += n
	}
	if i == 0 {
		return "", s, false
	}
	j := i
	if j < len(s) && (s[j] == ',' || s[j] == ' ') {
		if s[j] == ',' {
			j++
		}
		return s[:i], strings.TrimLeft(s[j:], " "), true
	}
	return "", s, false
}

// replaceFirstPerson replaces a leading I, I'm, I've, I'll, I'd or My
// (straight or curly apostrophe) with the speaker's name. After a bare
// "I" the next verb is put in the third person (see thirdPerson), after
// any adverbs; past tenses and modal verbs stay as they are.
func replaceFirstPerson(t, speaker string) string {
	forms := [...]struct{ from, to string }{
		{"I'm ", " is "}, {"I’m ", " is "}, {"I've ", " has "}, {"I’ve ", " has "},
		{"I'll ", " will "}, {"I’ll ", " will "}, {"I'd ", " would "}, {"I’d ", " would "},
		{"My ", "'s "},
	}
	for _, f := range forms {
		if rest, ok := strings.CutPrefix(t, f.from); ok {
			return speaker + f.to + rest
		}
	}
	rest, ok := strings.CutPrefix(t, "I ")
	if !ok {
		return t
	}
	var b strings.Builder
	b.WriteString(speaker)
	for rest != "" {
		w, after, _ := strings.Cut(rest, " ")
		lw := strings.ToLower(w)
		b.WriteByte(' ')
		if adverbWord(lw) && after != "" && w == lw {
			b.WriteString(w) // an adverb: conjugate the word after it
			rest = after
			continue
		}
		b.WriteString(thirdPerson(w))
		if after != "" {
			b.WriteByte(' ')
			b.WriteString(after)
		}
		break
	}
	return b.String()
}

// thirdPerson returns the third-person singular present form of the
// lower-case verb w ("live" → "lives", "go" → "goes", "try" → "tries",
// "have" → "has", "don't" → "doesn't"); past tenses (ending in "ed" or
// irregular), modal verbs and words that are not plain lower-case
// letters are returned unchanged.
func thirdPerson(w string) string {
	switch w {
	case "am":
		return "is"
	case "have":
		return "has"
	case "do":
		return "does"
	case "don't", "don’t":
		return "doesn't"
	case "haven't", "haven’t":
		return "hasn't"
	}
	if w == "" || keepVerb(w) || pastVerb(w) || strings.HasSuffix(w, "ed") {
		return w
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return w
		}
	}
	switch {
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "sh"), strings.HasSuffix(w, "ch"),
		strings.HasSuffix(w, "x"), strings.HasSuffix(w, "z"), strings.HasSuffix(w, "o"):
		return w + "es"
	case len(w) > 1 && w[len(w)-1] == 'y' && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}

// truncateWords shortens s to at most max runes, cutting at the last
// space that keeps room for "…" when possible.
func truncateWords(s string, max int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	cut, n, lastSpace := 0, 0, -1
	for i, r := range s {
		if n == max-ellipsisRunes {
			cut = i
			break
		}
		if r == ' ' {
			lastSpace = i
		}
		n++
	}
	if lastSpace > 0 {
		cut = lastSpace
	}
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s[:cut]), ",;:—-")) + ellipsis
}
