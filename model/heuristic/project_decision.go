package heuristic

import (
	"strings"
	"time"
	"unicode"
)

// ---- the project of a decision --------------------------------------------

// projectFor returns the project a "we" decision in the sentence [a, b)
// is about: the name after a "for" at or after token from ("use Postgres
// for Atlas"); else the first batch project named by the event's
// entities or the sentence; else the batch's only project; else "".
func (p *projector) projectFor(a, b, from int) string {
	for k := from; k < b-1; k++ {
		if p.toks[k].low != "for" {
			continue
		}
		if name, _, ok := p.object(k+1, b, false); ok && p.projectCandidate(name) {
			return p.addProject(name)
		}
	}
	for _, e := range p.ev.Entities {
		if s, ok := p.projSet[nkey(e)]; ok {
			return s
		}
	}
	for k := a; k < b; k++ {
		if s, ok := p.projSet[p.toks[k].low]; ok {
			return s
		}
	}
	if len(p.projects) == 1 {
		return p.projects[0]
	}
	return ""
}

// launch handles a launch date in sentence si: a date that starts within
// launchWindow words after the launch word at token i and is not negated
// ("not on May 20"). It reports whether it proposed anything.
func (p *projector) launch(si, i, a, b int) bool {
	if st := strings.ToLower(strings.TrimSpace(p.ev.Status)); st == "cancelled" || st == "canceled" {
		return false
	}
	proj := p.projectFor(a, b, b)
	if proj == "" {
		return false
	}
	s := p.sents[si]
	base := p.sentOff[si]
	ref := p.mentioned
	if ref.IsZero() {
		return false
	}
	p.times = findTimes(s, ref, p.times[:0])
	limit := p.toks[min(i+launchWindow, b-1)].end - base
	from := p.toks[i].end - base
	pick := -1
	for k, t := range p.times {
		if t.off < from || t.off > limit || negated(s, t.off) {
			continue
		}
		if pick < 0 || (p.ev.TimeText != "" && strings.Contains(s[t.off:t.off+t.n], strings.TrimSpace(p.ev.TimeText))) {
			pick = k
		}
	}
	if pick < 0 {
		return false
	}
	t := p.times[pick]
	value := strings.TrimSpace(s[t.off : t.off+t.n])
	for _, prep := range [...]string{"on ", "by ", "for ", "at ", "in "} {
		if len(value) > len(prep) && strings.EqualFold(value[:len(prep)], prep) {
			value = strings.TrimSpace(value[len(prep):])
			break
		}
	}
	if !absoluteDate(value) {
		// A relative date ("next Monday") means nothing later: use the
		// day it resolves to, or nothing.
		if !t.known || t.start.IsZero() || (!t.end.IsZero() && t.end.Sub(t.start) > 24*time.Hour) {
			return false
		}
		value = t.start.Format("2006-01-02")
	}
	v, ok := cleanValue(value)
	if !ok {
		return false
	}
	p.fact(kindProject, proj, keyLaunchDate, v, p.validMention())
	return true
}

// absoluteDate reports whether a date expression names its date by
// itself: it has a digit or a month name.
func absoluteDate(s string) bool {
	for _, r := range s {
		if unicode.IsDigit(r) {
			return true
		}
	}
	for i := 0; ; {
		w, next := cueToken(s, i)
		if w == "" {
			return false
		}
		i = next
		lw := strings.ToLower(w)
		if calendarWord(lw) && !weekday(lw) {
			return true
		}
	}
}
