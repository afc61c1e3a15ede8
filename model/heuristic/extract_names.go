package heuristic

import (
	"strings"
	"unicode/utf8"

	"github.com/stratagate/stratagate/model"
)

// ---- names ---------------------------------------------------------------

// learnNames collects the known persons and the words seen capitalised
// mid-sentence, from every conversational message of the input (target
// and context) and from the existing events' participants.
func (x *extractor) learnNames() {
	all := [][]model.DeriveMessage{x.in.Messages, x.in.Before, x.in.After}
	for _, msgs := range all {
		for i := range msgs {
			m := &msgs[i]
			if !conversational(m) {
				continue
			}
			if sp := personSpeaker(m); sp != "" {
				x.addPerson(sp)
			}
		}
	}
	for _, e := range x.in.Existing {
		for _, p := range e.Participants {
			if p = strings.TrimSpace(p); p != "" && utf8.ValidString(p) && utf8.RuneCountInString(p) <= maxNameRunes {
				x.addPerson(p)
			}
		}
	}
	for _, msgs := range all {
		for i := range msgs {
			m := &msgs[i]
			if !conversational(m) {
				continue
			}
			l := learnedNames.get(validUTF8(m.Content), learnText)
			for _, w := range l.known {
				x.known[w] = true
			}
			for _, p := range l.persons {
				x.addPerson(p)
			}
		}
	}
}

// learned is what a message's text teaches about names: the lower-case
// forms of its mid-sentence capitalised words, and the names that follow
// a relation word ("my sister Ana"), as written.
type learned struct {
	known, persons []string
}

// learnedNames caches learnText: every message is read by three
// extractions (as its block, and as the context of the blocks either
// side), and what it teaches depends on its text alone.
var learnedNames textCache[learned]

// learnText learns from the first maxMsgSentences sentences of s.
func learnText(s string) learned {
	var l learned
	n := 0
	forEachSentence(s, func(s string) {
		if n++; n > maxMsgSentences {
			return
		}
		l.learnSentence(s)
	})
	return l
}

// learnSentence records mid-sentence capitalised words and names that
// follow a relation word.
func (l *learned) learnSentence(s string) {
	t := tokenizer{s: s}
	prev := ""
	first := true
	for {
		tok, han, ok := t.next()
		if !ok {
			return
		}
		if han {
			prev, first = "", false
			continue
		}
		if isCapitalised(tok) {
			lw := strings.ToLower(tok)
			if !first && !nonName(lw) {
				l.known = append(l.known, lw)
				if relationWord(prev) {
					l.persons = append(l.persons, tok)
				}
			}
		}
		prev = strings.ToLower(tok)
		first = false
	}
}

// personSpeaker returns m's speaker when it names a person: a user
// message whose Speaker, trimmed, is non-empty, valid, at most 64 runes
// and neither "user" nor "assistant". The name is returned as stored, so
// that it matches the message's speaker exactly.
func personSpeaker(m *model.DeriveMessage) string {
	if !strings.EqualFold(strings.TrimSpace(m.Role), "user") {
		return ""
	}
	sp := m.Speaker
	if sp == "" || sp != strings.TrimSpace(sp) || !utf8.ValidString(sp) || utf8.RuneCountInString(sp) > maxNameRunes {
		return ""
	}
	if strings.EqualFold(sp, "user") || strings.EqualFold(sp, "assistant") {
		return ""
	}
	return sp
}

// addPerson records name as a known person: its lower-case full form,
// first word and all words.
func (x *extractor) addPerson(name string) {
	lw := strings.ToLower(name)
	x.personFirst[lw] = true
	words := strings.Fields(lw)
	if len(words) > 0 {
		x.personFirst[words[0]] = true
	}
	for _, w := range words {
		x.personWords[w] = true
	}
}

// isPerson reports whether the capitalised group g (lower-cased words)
// names a known person: the whole group or its first word is a known
// person's full name or first word.
func (x *extractor) isPerson(lowerGroup string) bool {
	if x.personFirst[lowerGroup] {
		return true
	}
	first, _, _ := strings.Cut(lowerGroup, " ")
	return x.personFirst[first]
}

// samePerson reports whether a and b name the same person: equal ignoring
// case, or one is a single word equal to the other's first word.
func samePerson(a, b string) bool {
	if strings.EqualFold(a, b) {
		return true
	}
	fa, _, ma := strings.Cut(a, " ")
	fb, _, mb := strings.Cut(b, " ")
	if ma && mb {
		return false
	}
	return strings.EqualFold(fa, fb)
}

// findNames returns the participants and entities named in s, and whether a
// named subject occurs (a known person anywhere, or a known capitalised
// name as the first word after fillers).
func (x *extractor) findNames(s, speaker string) (people, entities []string, named bool) {
	if speaker != "" {
		people = append(people, speaker)
	}
	toks := x.words
	// The first non-filler word may be a named subject.
	for _, t := range toks {
		if t.text == "" {
			break
		}
		lw := strings.ToLower(t.text)
		if fillerWord(lw) {
			continue
		}
		if isCapitalised(t.text) && (x.known[lw] || x.isPerson(lw)) && !nonName(lw) {
			named = true
		}
		break
	}
	addEntity := func(e string) {
		if len(entities) >= maxNames || utf8.RuneCountInString(e) > maxNameRunes {
			return
		}
		for _, o := range entities {
			if strings.EqualFold(o, e) {
				return
			}
		}
		for _, o := range people {
			if samePerson(o, e) {
				return
			}
		}
		entities = append(entities, e)
	}
	for i := 0; i < len(toks); {
		if !x.nameWord(toks, i) {
			if lw := strings.ToLower(toks[i].text); productWord(lw) {
				addEntity(toks[i].text)
			}
			i++
			continue
		}
		j := i + 1
		for j < len(toks) && j-i < maxGroupTokens && x.nameWord(toks, j) && s[toks[j-1].end:toks[j].start] == " " {
			j++
		}
		g := s[toks[i].start:toks[j-1].end]
		lg := strings.ToLower(g)
		rel := i > 0 && relationWord(strings.ToLower(toks[i-1].text))
		if x.isPerson(lg) || rel {
			named = true
			dup := false
			for _, p := range people {
				if samePerson(p, g) {
					dup = true
					break
				}
			}
			if !dup && len(people) < maxNames && utf8.RuneCountInString(g) <= maxNameRunes {
				people = append(people, g)
			}
		} else {
			addEntity(g)
		}
		i = j
	}
	return people, entities, named
}

// nameWord reports whether word i of toks can be part of a name: it is
// capitalised, not a non-name word, not a shouted cue or stopword
// ("WE LAUNCHED"), and — as the first word of the sentence — known as a
// name from elsewhere in the input.
func (x *extractor) nameWord(toks []nameTok, i int) bool {
	t := toks[i].text
	if t == "" || !isCapitalised(t) {
		return false
	}
	lw := strings.ToLower(t)
	if nonName(lw) || !hasLetter(lw) {
		return false
	}
	if utf8.RuneCountInString(t) > 1 && t == strings.ToUpper(t) {
		if _, cue := cueIndex[lw]; cue {
			return false
		}
	}
	if i == 0 {
		return x.known[lw] || x.isPerson(lw)
	}
	return true
}

// subject returns the person a statement is about: the first person named
// before the first typed cue (anywhere when there is none), else the
// speaker.
func (x *extractor) subject(s, speaker string, typePos int) string {
	limit := len(s)
	if typePos >= 0 && typePos < len(x.cues) {
		limit = x.cues[typePos].start
	}
	toks := x.words
	for i := 0; i < len(toks); i++ {
		if toks[i].text == "" || toks[i].start >= limit || !x.nameWord(toks, i) {
			continue
		}
		lw := strings.ToLower(toks[i].text)
		rel := i > 0 && relationWord(strings.ToLower(toks[i-1].text))
		if x.isPerson(lw) || rel {
			if speaker != "" && samePerson(speaker, toks[i].text) {
				return speaker
			}
			return toks[i].text
		}
	}
	return speaker
}
