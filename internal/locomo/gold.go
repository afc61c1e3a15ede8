package locomo

import (
	"regexp"
	"strings"
	"time"

	"github.com/stratagate/stratagate/events/temporal"
)

var (
	vagueCount  = regexp.MustCompile(`\b(few|several)\b|\bsome\s+(days?|weeks?|weekends?|months?|years?)\b`)
	gluedYear   = regexp.MustCompile(`([a-z])\.(\d{4})\b`)
	leadOrdinal = regexp.MustCompile(`^(first|second|third|fourth|last)\s+(week|weekend)\s+of\s`)
	sinceForm   = regexp.MustCompile(`^(?:ever\s+)?since\s+(.+)$`)
	anchorForm  = regexp.MustCompile(`^(?:the\s+)?(.+?)\s+(before|after)\s+(.+)$`)
	countForm   = regexp.MustCompile(`^(\S+(?:\s+of)?)\s+(days?|weeks?|weekends?|months?|years?)$`)
	weekdays    = map[string]bool{"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true}
)

// ParseGold reads a temporal gold answer as the interval [start, end) it
// names, resolving relative answers against ref (the date of the session
// holding the question's first evidence turn). precision is a
// temporal.Precision value. ok is false for anything that is not a date —
// durations, vague answers, unknown shapes — which callers must count and
// leave out, never guess. The rules are in the package documentation.
func ParseGold(answer string, ref time.Time) (start, end time.Time, precision string, ok bool) {
	s := normalizeGold(answer)
	if s == "" || vagueCount.MatchString(s) {
		return time.Time{}, time.Time{}, "", false
	}
	if m := sinceForm.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	r, ok := resolveGold(s, ref)
	if !ok {
		return time.Time{}, time.Time{}, "", false
	}
	return r.Start, r.End, string(r.Precision), true
}

// normalizeGold lower-cases the answer, folds runs of spaces, splits a
// month glued to its year by a period ("april.2023"), trims spaces,
// quotes and a final period, and corrects misspelt month names
// (fixMonths).
// A stray mark inside a date ("3` July") is left alone, so the answer
// stays unparsed: it may stand for a lost digit ("31 July"), and a gold
// date is never guessed.
func normalizeGold(answer string) string {
	s := strings.Join(strings.Fields(strings.ToLower(answer)), " ")
	s = strings.Trim(gluedYear.ReplaceAllString(s, "$1 $2"), " \"'`.")
	return fixMonths(s)
}

func resolveGold(s string, ref time.Time) (temporal.Resolution, bool) {
	if r := temporal.Resolve(s, ref); dated(r) {
		return r, true
	} else if r.Duration != nil {
		return temporal.Resolution{}, false
	}
	// "first weekend of August 2023": the article left out.
	if leadOrdinal.MatchString(s) {
		if r := temporal.Resolve("the "+s, ref); dated(r) {
			return r, true
		}
	}
	if r, ok := resolveRange(s, ref); ok {
		return r, true
	}
	return resolveAnchored(s, ref)
}

// resolveAnchored rewrites the anchored forms the resolver lacks (rule 5
// of the package documentation).
func resolveAnchored(s string, ref time.Time) (temporal.Resolution, bool) {
	m := anchorForm.FindStringSubmatch(s)
	if m == nil {
		return temporal.Resolution{}, false
	}
	what, dir, anchorText := m[1], m[2], m[3]
	anchor := temporal.Resolve(anchorText, ref)
	if !dated(anchor) || anchor.Precision != temporal.PrecisionDay {
		return temporal.Resolution{}, false
	}
	var rel string
	switch {
	case what == "day":
		rel = map[string]string{"before": "yesterday", "after": "tomorrow"}[dir]
	case what == "week" || what == "weekend" || what == "month" || what == "year" || weekdays[what]:
		rel = map[string]string{"before": "last ", "after": "next "}[dir] + what
	default:
		c := countForm.FindStringSubmatch(what)
		if c == nil {
			return temporal.Resolution{}, false
		}
		if dir == "before" {
			rel = what + " ago"
		} else {
			rel = "in " + what
		}
	}
	r := temporal.Resolve(rel, anchor.Start)
	if !dated(r) {
		return temporal.Resolution{}, false
	}
	return r, true
}

// dated reports whether r locates an interval (and is no duration).
func dated(r temporal.Resolution) bool {
	return r.Known() && r.Duration == nil && r.End.After(r.Start)
}

var (
	// rangeSep separates the two ends of a range: a hyphen or dash
	// ("5-6 November", "5–6 November") or to/and/until/till/through
	// ("from 3 to 7 March", "between 19 and 24 October").
	rangeSep = regexp.MustCompile(`\s*[-–—]\s*|\s+(?:to|and|until|till|through)\s+`)
	// bareDay is a day of the month alone ("5", "6th"), possibly followed
	// by a year ("6, 2022").
	bareDay = regexp.MustCompile(`^(\d{1,2})(?:st|nd|rd|th)?(,?\s*\d{4})?$`)
	// dayFirst is "6 November 2022" / "6th of November": the day, then
	// the rest that a bare left end borrows.
	dayFirst = regexp.MustCompile(`^\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(\S.*)$`)
	// monthFirst is "November 5": the month that a bare right end borrows.
	monthFirst = regexp.MustCompile(`^([a-z]+)\.?\s+\d{1,2}(?:st|nd|rd|th)?$`)
	// endYear is the year that closes an answer.
	endYear = regexp.MustCompile(`\b(\d{4})$`)
)

// resolveRange reads a range "[from|between] X sep Y" as [start of X, end
// of Y). An end that leaves out what the other end says borrows it: "5-6
// November 2022" is 5 November 2022 to 6 November 2022, "November 5-6,
// 2022" likewise, and "from May 3 to May 7, 2023" takes the year of its
// right end. Both ends must resolve to dates with X starting before Y
// ends. Every separator position is tried, left to right.
func resolveRange(s string, ref time.Time) (temporal.Resolution, bool) {
	body := s
	for _, lead := range []string{"from ", "between "} {
		body = strings.TrimPrefix(body, lead)
	}
	for _, sep := range rangeSep.FindAllStringIndex(body, -1) {
		left, right := body[:sep[0]], body[sep[1]:]
		if left == "" || right == "" {
			continue
		}
		if bareDay.MatchString(left) && !strings.Contains(left, " ") {
			if m := dayFirst.FindStringSubmatch(right); m != nil {
				left += " " + m[1]
			}
		}
		if m := bareDay.FindStringSubmatch(right); m != nil {
			if lm := monthFirst.FindStringSubmatch(left); lm != nil {
				right = lm[1] + " " + right
			}
		}
		if !endYear.MatchString(left) {
			if y := endYear.FindString(right); y != "" {
				left += " " + y
			}
		}
		x, y := temporal.Resolve(left, ref), temporal.Resolve(right, ref)
		if !dated(x) || !dated(y) || !x.Start.Before(y.End) {
			continue
		}
		if x.Start.Equal(y.Start) && x.End.Equal(y.End) {
			return x, true
		}
		return temporal.Resolution{Start: x.Start, End: y.End, Precision: temporal.PrecisionRange, Basis: x.Basis}, true
	}
	return temporal.Resolution{}, false
}

// monthNames are the full month names that fixMonths corrects towards.
// "may", "june" and "july" are left out: too short, their one-edit
// neighbours are mostly English words (jane, tune, dune, jury, duly).
var monthNames = []string{"january", "february", "march", "april", "august", "september", "october", "november", "december"}

// nearMonthWords are English words one edit from a month name in
// monthNames; fixMonths leaves them alone ("arch", "match", "marsh").
var nearMonthWords = map[string]bool{
	"arch": true, "mach": true, "marc": true, "match": true, "marsh": true, "parch": true, "larch": true,
	"aril": true,
}

// fixMonths replaces each misspelt month name in s by the month: a word
// of four letters or more that is no month word and no English word of
// nearMonthWords, one edit (insertion, deletion, substitution or
// transposition of neighbours) from a name in monthNames ("feburary",
// "novmber", "septmber").
func fixMonths(s string) string {
	words := strings.Split(s, " ")
	changed := false
	for i, w := range words {
		core := strings.TrimRight(w, ",.")
		if len(core) < 4 || nearMonthWords[core] || !lettersOnly(core) {
			continue
		}
		for _, m := range monthNames {
			if core != m && editDistance1(core, m) {
				words[i], changed = m+w[len(core):], true
				break
			}
		}
	}
	if !changed {
		return s
	}
	return strings.Join(words, " ")
}

// lettersOnly reports whether w is all a–z.
func lettersOnly(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// editDistance1 reports whether ASCII words a and b differ by exactly one
// edit: one inserted, deleted or substituted letter, or two neighbouring
// letters swapped.
func editDistance1(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	switch len(a) - len(b) {
	case 0:
		diff := -1
		for i := 0; i < len(a); i++ {
			if a[i] == b[i] {
				continue
			}
			if diff >= 0 {
				// a second difference: only a swap of neighbours is one edit
				return diff == i-1 && a[diff] == b[i] && a[i] == b[diff] && a[i+1:] == b[i+1:]
			}
			diff = i
		}
		return diff >= 0
	case 1:
		i := 0
		for i < len(b) && a[i] == b[i] {
			i++
		}
		return a[i+1:] == b[i:]
	}
	return false
}
