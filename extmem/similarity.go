package extmem

// The text and structure features the heuristic decider compares a
// candidate and an existing event on. Terms come from bm25.Tokenize, the
// index's own tokenizer (stemmed, stopwords dropped), so "moved" and
// "moving" agree here as they do in search.

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/stratagate/stratagate/bm25"
)

// narrationTerms are words an exporting assistant narrates with ("The
// user prefers…") that say nothing about the subject; counting them
// would make any two imported memories look related.
var narrationTerms = map[string]bool{"user": true}

// termSet is the set of content terms of texts.
func termSet(texts ...string) map[string]bool {
	set := map[string]bool{}
	for _, t := range texts {
		for _, tok := range bm25.Tokenize(t) {
			if !narrationTerms[tok.Term] {
				set[tok.Term] = true
			}
		}
	}
	return set
}

// shared counts the terms of a that b holds too.
func shared(a, b map[string]bool) int {
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	return n
}

// private counts the terms of a that b lacks, not counting marker terms
// (a change or negation word is not a value).
func private(a, b map[string]bool) int {
	n := 0
	for t := range a {
		if !b[t] && !markerTerms[t] {
			n++
		}
	}
	return n
}

// ratio is n/d, 0 for an empty d.
func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// Change markers: words and phrases that say a value replaced an earlier
// one ("switched to…", "now uses…"). The ending markers say an old value
// stopped being true, which is a change even with no new value ("I no
// longer eat meat"); the others need a new value beside them ("now uses
// Vim" restating "uses Vim" changes nothing). Phrases are sequences of
// folded words; apostrophes are dropped ("don't" is "dont").
var (
	changeMarkers = [][]string{
		{"now"}, {"switched"}, {"instead"}, {"changed"}, {"moved"}, {"replaced"},
	}
	endingMarkers = [][]string{
		{"no", "longer"}, {"not", "anymore"}, {"anymore"}, {"any", "more"},
		{"used", "to"}, {"stopped"},
	}
)

// negations mark a statement's polarity; a negation inside a change
// marker ("no longer") counts as the marker, not as a negation.
var negations = map[string]bool{
	"not": true, "no": true, "never": true, "nor": true, "none": true, "cannot": true,
	"dont": true, "doesnt": true, "didnt": true, "isnt": true, "arent": true,
	"wasnt": true, "werent": true, "cant": true, "wont": true, "havent": true, "hasnt": true,
}

// markerTerms are the index terms of the change markers and negations,
// which private leaves out.
var markerTerms = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range slices.Concat(changeMarkers, endingMarkers) {
		for t := range termSet(strings.Join(p, " ")) {
			m[t] = true
		}
	}
	for w := range negations {
		for t := range termSet(w) {
			m[t] = true
		}
	}
	return m
}()

// words folds text to lower-case words of letters and digits, dropping
// apostrophes inside a word.
func words(text string) []string {
	text = strings.NewReplacer("'", "", "\u2019", "").Replace(strings.ToLower(text))
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// markers reports whether ws hold a change marker, whether one of them
// is an ending marker, and whether they hold a negation that is not part
// of a marker.
func markers(ws []string) (change, ending, negated bool) {
	for i := 0; i < len(ws); i++ {
		if n := markerAt(ws, i, endingMarkers); n > 0 {
			change, ending = true, true
			i += n - 1
			continue
		}
		if n := markerAt(ws, i, changeMarkers); n > 0 {
			change = true
			i += n - 1
			continue
		}
		if negations[ws[i]] {
			negated = true
		}
	}
	return change, ending, negated
}

// markerAt is the length of the marker of list starting at ws[i], or 0.
func markerAt(ws []string, i int, list [][]string) int {
	for _, p := range list {
		if i+len(p) <= len(ws) && equalWords(ws[i:i+len(p)], p) {
			return len(p)
		}
	}
	return 0
}

func equalWords(a, b []string) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Agreement of one structural signal.
const (
	disagree = -1
	neutral  = 0
	agree    = 1
)

// oneOffTypes are event types of things that happen once and are done,
// which a standing preference is not.
var oneOffTypes = map[string]bool{
	"meeting": true, "incident": true, "task_completed": true, "activity": true,
	"cancellation": true, "life_event": true,
}

// recurringTypes are event types that repeat: two of them on disjoint
// dates are two occurrences, not a contradiction.
var recurringTypes = map[string]bool{
	"activity": true, "meeting": true, "incident": true, "task_completed": true,
}

// typeAgreement compares the candidate's event type, or failing that its
// kind, with the existing event's type: the same type agrees; a
// preference agrees with a preference event and disagrees with a one-off
// event; an event disagrees with a plain fact; instructions say nothing.
func typeAgreement(c *Candidate, e *Existing) int {
	et := strings.ToLower(e.EventType)
	if et == "" || et == "other" {
		return neutral
	}
	if ct := strings.ToLower(c.Temporal.EventType); ct != "" && ct == et {
		return agree
	}
	switch c.Kind {
	case KindPreference:
		if et == "preference" {
			return agree
		}
		if oneOffTypes[et] {
			return disagree
		}
	case KindEvent:
		switch et {
		case "fact":
			return disagree
		case "preference":
			return neutral
		}
		return agree
	case KindFact:
		if et == "fact" {
			return agree
		}
	}
	return neutral
}

// peopleAgreement compares participants case-folded: any one in common
// agrees, none in common disagrees, a side without any says nothing.
func peopleAgreement(a, b []string) int {
	if len(a) == 0 || len(b) == 0 {
		return neutral
	}
	for _, x := range a {
		for _, y := range b {
			if strings.EqualFold(strings.TrimSpace(x), strings.TrimSpace(y)) {
				return agree
			}
		}
	}
	return disagree
}

// interval is a happened interval [start, end); an instant or a missing
// end is a one-nanosecond interval at start.
type interval struct{ start, end time.Time }

func happenedInterval(start, end time.Time) (interval, bool) {
	if start.IsZero() {
		return interval{}, false
	}
	if !end.After(start) {
		end = start.Add(time.Nanosecond)
	}
	return interval{start, end}, true
}

// timeAgreement: two known happened intervals agree when they overlap and
// disagree when disjoint; an unknown side says nothing.
func timeAgreement(a, b interval, aok, bok bool) int {
	if !aok || !bok {
		return neutral
	}
	if a.start.Before(b.end) && b.start.Before(a.end) {
		return agree
	}
	return disagree
}

// newer reports whether the candidate is known to be the later word:
// mentioned after the existing event when both mention times are known,
// otherwise happening entirely after it.
func newer(c *Candidate, e *Existing, ci, ei interval, cok, eok bool) bool {
	if !c.Temporal.MentionedAt.IsZero() && !e.MentionedAt.IsZero() {
		return c.Temporal.MentionedAt.After(e.MentionedAt)
	}
	return cok && eok && !ci.start.Before(ei.end)
}
