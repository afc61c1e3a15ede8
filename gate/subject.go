package gate

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stratagate/stratagate/bm25"
)

// Subject and answer-type checks of the heuristic assessor. A single
// answer must come from a window member that is about the question's
// subject — spoken by them, or naming them in its own words (not only
// addressing them: "Thanks, Sam!") — and that covers a topic word; and
// it must hold an answer of the asked type (who → a person, where → a
// place, how many → a number).

// subjectTerms are the terms of the question's subject: its first entity
// that is not an either-or alternative; nil without one.
func subjectTerms(q *Question) []string {
	for j, e := range q.Entities {
		if q.altEntity[j] {
			continue
		}
		var ts []string
		for _, t := range bm25.AppendTerms(nil, e) {
			ts = append(ts, canon(t))
		}
		return ts
	}
	return nil
}

func holdsAll(set map[string]bool, ts []string) bool {
	if len(ts) == 0 {
		return false
	}
	for _, t := range ts {
		if !set[t] {
			return false
		}
	}
	return true
}

// aboutSubject reports whether a member of the window — given by its
// term set: the item's own (with what it inherits from the cited items
// it is linked to) and each cited context item's — is about the subject
// and covers a topic word.
func aboutSubject(subject []string, topic []map[string]bool, sets []map[string]bool) bool {
	if len(subject) == 0 {
		return true
	}
	for _, set := range sets {
		if !holdsAll(set, subject) {
			continue
		}
		if len(topic) == 0 {
			return true
		}
		for _, exp := range topic {
			for t := range exp {
				if set[t] {
					return true
				}
			}
		}
	}
	return false
}

// placeNouns name kinds of places ("at the beach", "to the museum"): a
// where-answer holds one of them or a capitalised name.
var placeNouns = termSet("park", "beach", "home", "house", "school", "city", "town", "village", "country", "lake",
	"mountain", "mountains", "museum", "cafe", "restaurant", "shelter", "church", "office", "studio", "store", "shop",
	"gym", "library", "hospital", "center", "centre", "club", "camp", "forest", "river", "coast", "island",
	"street", "garden", "farm", "market", "mall", "theater", "theatre", "stadium", "university", "college",
	"campus", "hotel", "airport", "station", "trail", "festival", "fair", "concert", "venue", "downtown", "abroad",
	"overseas", "countryside", "neighborhood", "neighbourhood", "apartment", "flat", "kitchen", "backyard")

// personNouns name people by relation ("my colleague", "her sister"): a
// who-answer holds one of them or a capitalised name.
var personNouns = termSet("friend", "friends", "colleague", "coworker", "boss", "mentor", "teacher", "coach",
	"mom", "mother", "dad", "father", "parent", "parents", "sister", "brother", "son", "daughter", "kid", "kids",
	"child", "children", "wife", "husband", "partner", "girlfriend", "boyfriend", "cousin", "aunt", "uncle",
	"grandma", "grandmother", "grandpa", "grandfather", "neighbor", "neighbour", "family", "team", "group",
	"classmate", "roommate", "doctor", "therapist", "counselor", "instructor", "client", "student", "students")

// answerTyped reports whether some member holds an answer of the type
// the question asks for.
func answerTyped(q *Question, members []*Item) bool {
	if q.Ago || len(q.Between[0]) > 0 {
		return true // the length is computed from the dates
	}
	var nouns map[string]bool
	switch {
	case q.WH == WhWho:
		nouns = personNouns
	case q.WH == WhWhere && !q.WantsTime:
		nouns = placeNouns
	case q.WH == WhHowMany && !q.WantsList, q.WH == WhHowLong && !q.WantsTime:
		for _, m := range members {
			if hasNumber(m.Text + " " + m.Title + " " + m.Quote) {
				return true
			}
		}
		return false
	default:
		return true
	}
	qterms := mentionSet(q)
	for _, m := range members {
		text := m.Text
		if text == "" {
			text = m.Title + ". " + m.Quote
		}
		if hasName(stripVocatives(text), qterms) {
			return true
		}
		for t := range itemTermSet(m) {
			if nouns[t] {
				return true
			}
		}
	}
	return false
}

// hasName reports whether text holds a capitalised word that does not
// start a sentence, is not "I", and is not a word of the question (its
// entity, say): a name the answer adds.
func hasName(text string, qterms map[string]bool) bool {
	for _, s := range splitSentences(text) {
		first := true
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' }) {
			if first {
				first = false
				continue
			}
			r, _ := utf8.DecodeRuneInString(w)
			if !unicode.IsUpper(r) || w == "I" || strings.HasPrefix(w, "I'") || strings.HasPrefix(w, "I’") ||
				calendarWords[strings.ToLower(w)] {
				continue // "Sunday", "May": no name
			}
			known := false
			for _, t := range bm25.AppendTerms(nil, w) {
				known = known || qterms[canon(t)]
			}
			if !known {
				return true
			}
		}
	}
	return false
}

// numberWords are counts written out.
var numberWords = wordSet("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
	"twelve", "dozen", "twice", "once", "thrice", "both", "couple", "several", "few", "many", "hundred", "thousand")

func hasNumber(text string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if numberWords[w] {
			return true
		}
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// answerTypeText names the answer type a question asks for (" with a
// person", …), empty for untyped questions.
func answerTypeText(q *Question) string {
	switch {
	case q.WH == WhWho:
		return " naming a person"
	case q.WH == WhWhere && !q.WantsTime:
		return " naming a place"
	case q.WH == WhHowMany && !q.WantsList, q.WH == WhHowLong && !q.WantsTime:
		return " with a number"
	}
	return ""
}

// subjectText is " by or about <subject>", empty without a subject.
func subjectText(q *Question) string {
	for j, e := range q.Entities {
		if !q.altEntity[j] {
			return " by or about " + e
		}
	}
	return ""
}
