package locomo

import (
	"regexp"
	"strings"
	"time"

	"github.com/stratagate/stratagate/events/temporal"
)

var (
	vagueCount = regexp.MustCompile(`\b(few|several)\b|\bsome\s+(days?|weeks?|weekends?|months?|years?)\b`)
	sinceForm  = regexp.MustCompile(`^(?:ever\s+)?since\s+(.+)$`)
	anchorForm = regexp.MustCompile(`^(?:the\s+)?(.+?)\s+(before|after)\s+(.+)$`)
	countForm  = regexp.MustCompile(`^(\S+(?:\s+of)?)\s+(days?|weeks?|weekends?|months?|years?)$`)
	weekdays   = map[string]bool{"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true}
)

// ParseGold reads a temporal gold answer as the interval [start, end) it
// names, resolving relative answers against ref (the date of the session
// holding the question's first evidence turn). precision is a
// temporal.Precision value. ok is false for anything that is not a date —
// durations, vague answers, unknown shapes — which callers must count and
// leave out, never guess. The rules are in the package documentation.
func ParseGold(answer string, ref time.Time) (start, end time.Time, precision string, ok bool) {
	s := strings.Join(strings.Fields(strings.ToLower(answer)), " ")
	s = strings.Trim(s, " \"'`.")
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

func resolveGold(s string, ref time.Time) (temporal.Resolution, bool) {
	if r := temporal.Resolve(s, ref); dated(r) {
		return r, true
	} else if r.Duration != nil {
		return temporal.Resolution{}, false
	}
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
