package temporal

import "time"

// parser resolves token sequences against a reference time. The grammar
// is layered and non-recursive, so parsing is linear in the text length:
//
//	top      = point | duration | pastRange | since | fromTo | vague | ambiguousDate | justPast
//	point    = [hedge] [prep] timed
//	timed    = anchored [part-of-day] [[,] at] time | [at] time [on] anchored | anchored
//	anchored = base | "the <weekday>/day/week before|after <base>" | "the week of <base>"
//	base     = every atomic form (relative words, dates, seasons, ...)
//
// "cued" means a preposition or similar cue precedes the position, which
// licenses bare months, years and seasons ("in May", "during 2022").
type parser struct {
	toks  []token
	ref   time.Time
	loc   *time.Location
	today time.Time // midnight of ref's day in ref's location
	whole bool      // parsing one whole expression (Resolve), not free text
}

// newParser tokenizes text for resolution against ref.
func newParser(text string, ref time.Time) *parser {
	ref = ref.Round(0) // drop the monotonic reading
	loc := ref.Location()
	return &parser{
		toks:  tokenize(text),
		ref:   ref,
		loc:   loc,
		today: time.Date(ref.Year(), ref.Month(), ref.Day(), 0, 0, 0, 0, loc),
	}
}

// cand is a candidate parse consuming n tokens.
type cand struct {
	r Resolution
	n int
}

// best keeps the longest valid candidate; ties keep the first.
type best struct {
	c  cand
	ok bool
}

// add offers a candidate.
func (b *best) add(c cand, ok bool) {
	if !ok || c.n <= 0 || !valid(c.r) {
		return
	}
	if !b.ok || c.n > b.c.n {
		b.c, b.ok = c, true
	}
}

// w is the lower-cased text of token i, or "" past either end.
func (p *parser) w(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].s
}

// isW reports whether token i is one of words.
func (p *parser) isW(i int, words ...string) bool {
	s := p.w(i)
	if s == "" {
		return false
	}
	for _, w := range words {
		if s == w {
			return true
		}
	}
	return false
}

// match returns len(ph) when the tokens at i spell ph, else 0.
func (p *parser) match(i int, ph phrase) int {
	for k, w := range ph {
		if p.w(i+k) != w {
			return 0
		}
	}
	return len(ph)
}

// longest returns the length of the longest phrase in list matching at i.
func (p *parser) longest(i int, list []phrase) int {
	n := 0
	for _, ph := range list {
		if k := p.match(i, ph); k > n {
			n = k
		}
	}
	return n
}

// num returns the value and digit count of numeric token i.
func (p *parser) num(i int) (v, digits int, ok bool) {
	if i < 0 || i >= len(p.toks) || p.toks[i].kind != tNum || p.toks[i].val < 0 {
		return 0, 0, false
	}
	return p.toks[i].val, len(p.toks[i].s), true
}

// adj reports whether token i touches token i-1 (no space between).
func (p *parser) adj(i int) bool {
	return i > 0 && i < len(p.toks) && p.toks[i].start == p.toks[i-1].end
}

// glued reports whether token i continues the letter/digit run of token
// i-1, so that a match may not begin or end between them.
func (p *parser) glued(i int) bool {
	return p.adj(i) && alnum(p.toks[i].kind) && alnum(p.toks[i-1].kind)
}

// skipStarters disables the starter filter (tests only).
var skipStarters = false

// canStart reports whether an expression may begin at token i.
func (p *parser) canStart(i int) bool {
	switch t := p.toks[i]; t.kind {
	case tWord:
		return skipStarters || starters[t.s]
	case tPunct:
		return skipStarters
	}
	return true
}

// top parses any expression at i.
func (p *parser) top(i int, cued bool) (cand, bool) {
	if i >= len(p.toks) {
		return cand{}, false
	}
	var b best
	b.add(p.point(i, cued))
	b.add(p.duration(i))
	b.add(p.pastRange(i))
	b.add(p.since(i))
	b.add(p.fromTo(i))
	if n := p.longest(i, vaguePhrases); n > 0 {
		b.add(cand{unknown(""), n}, true)
	}
	b.add(p.ambiguousDate(i))
	b.add(p.justPast(i))
	return b.c, b.ok
}

// point is [hedge] [prep] timed.
func (p *parser) point(i int, cued bool) (cand, bool) {
	var b best
	b.add(p.prepped(i, cued))
	if h := p.longest(i, pointHedges); h > 0 {
		if c, ok := p.prepped(i+h, cued); ok {
			c.n += h
			c.r.Approx = true
			b.add(c, true)
		}
	}
	return b.c, b.ok
}

// prepped is [prep] timed.
func (p *parser) prepped(i int, cued bool) (cand, bool) {
	var b best
	b.add(p.timed(i, cued))
	if s := p.w(i); cuePreps[s] || plainPreps[s] {
		if c, ok := p.timed(i+1, cued || cuePreps[s]); ok {
			c.n++
			b.add(c, true)
		}
	}
	return b.c, b.ok
}

// timed attaches an optional part of day and clock time to a day.
func (p *parser) timed(i int, cued bool) (cand, bool) {
	var b best
	if d, ok := p.anchored(i, cued); ok {
		b.add(d, true)
		if d.r.Precision == PrecisionDay {
			n := d.n
			if partsOfDay[p.w(i+n)] {
				n++
				b.add(cand{d.r, n}, true)
			}
			for _, conn := range [...]int{0, 1, 2} {
				j := i + n
				switch conn {
				case 1:
					if !p.isW(j, "at", ",", "around") {
						continue
					}
				case 2:
					if !p.isW(j, ",") || !p.isW(j+1, "at", "around") {
						continue
					}
				}
				if h, m, tn, ok := p.timeAt(j + conn); ok {
					b.add(cand{p.instant(d.r, h, m, p.isW(j+conn-1, "around")), n + conn + tn}, true)
				}
			}
		}
	}
	// time first: "at 3pm yesterday", "3pm on Friday"
	j := i
	if p.isW(j, "at", "around") {
		j++
	}
	if h, m, tn, ok := p.timeAt(j); ok {
		k := j + tn
		if p.isW(k, ",") {
			k++
		}
		if p.isW(k, "on") {
			k++
		}
		if d, ok := p.anchored(k, true); ok && d.r.Precision == PrecisionDay {
			b.add(cand{p.instant(d.r, h, m, p.isW(i, "around")), k - i + d.n}, true)
		}
	}
	return b.c, b.ok
}

// instant is the hour-long interval at h:m on day d.
func (p *parser) instant(d Resolution, h, m int, approx bool) Resolution {
	s := time.Date(d.Start.Year(), d.Start.Month(), d.Start.Day(), h, m, 0, 0, p.loc)
	r := span(s, s.Add(time.Hour), PrecisionInstant, d.Basis)
	r.Approx = d.Approx || approx
	return r
}

// timeAt parses a clock time: "3pm", "3 p.m.", "3:30pm", "15:00",
// "09:30", "noon", "midnight". A bare "3" or "10:30" is ambiguous
// (am or pm) and is not a time.
func (p *parser) timeAt(i int) (h, m, n int, ok bool) {
	switch p.w(i) {
	case "noon", "midday":
		return 12, 0, 1, true
	case "midnight":
		return 0, 0, 1, true
	}
	hv, hd, ok := p.num(i)
	if !ok || hd > 2 {
		return 0, 0, 0, false
	}
	j := i + 1
	hasMin := false
	if p.isW(j, ":") && p.adj(j) {
		mv, md, ok := p.num(j + 1)
		if !ok || md != 2 || mv > 59 || !p.adj(j+1) {
			return 0, 0, 0, false
		}
		m, hasMin, j = mv, true, j+2
	}
	if pm, mn := p.meridiem(j); mn > 0 {
		if hv < 1 || hv > 12 {
			return 0, 0, 0, false
		}
		h = hv % 12
		if pm {
			h += 12
		}
		return h, m, j + mn - i, true
	}
	if hasMin && hv <= 23 && (hv >= 12 || (hd == 2 && p.w(i)[0] == '0')) {
		return hv, m, j - i, true
	}
	return 0, 0, 0, false
}

// meridiem parses "am", "pm", "a.m.", "p.m." at j.
func (p *parser) meridiem(j int) (pm bool, n int) {
	switch p.w(j) {
	case "am":
		return false, 1
	case "pm":
		return true, 1
	case "a", "p":
		if p.isW(j+1, ".") && p.isW(j+2, "m") {
			n = 3
			if p.isW(j+3, ".") {
				n = 4
			}
			return p.w(j) == "p", n
		}
	}
	return false, 0
}

// anchored is a base expression or one anchored on a base date.
func (p *parser) anchored(i int, cued bool) (cand, bool) {
	var b best
	b.add(p.base(i, cued))
	b.add(p.anchor(i))
	return b.c, b.ok
}

// anchor parses "the Sunday before 25 May 2023", "the day after
// tomorrow", "the week of 7 May", "the week before 7 May", "the weekend
// of 7 May". The anchor must resolve to a day (a week also works for
// "the week before/after").
func (p *parser) anchor(i int) (cand, bool) {
	j := i
	the := p.isW(j, "the")
	if the {
		j++
	}
	head := p.w(j)
	wd, isWD := weekdayWords[head]
	if isWD && wd.plural {
		return cand{}, false
	}
	dir := 0
	switch p.w(j + 1) {
	case "before":
		dir = -1
	case "after":
		dir = 1
	case "of":
	default:
		return cand{}, false
	}
	x, ok := p.base(j+2, true)
	if !ok || !x.r.Known() {
		return cand{}, false
	}
	n := j + 2 - i + x.n
	isDay := x.r.Precision == PrecisionDay && !x.r.Approx
	var r Resolution
	switch {
	case isWD && dir != 0 && isDay:
		if dir < 0 {
			r = p.dayRes(p.weekdayBefore(x.r.Start, wd.d), x.r.Basis)
		} else {
			r = p.dayRes(p.weekdayAfter(x.r.Start, wd.d), x.r.Basis)
		}
	case head == "day" && dir != 0 && isDay:
		r = p.dayRes(p.addDays(x.r.Start, dir), x.r.Basis)
	case head == "week" && the && dir == 0 && isDay:
		r = p.weekRes(x.r.Start, x.r.Basis)
	case head == "week" && the && dir != 0 && (isDay || x.r.Precision == PrecisionWeek):
		r = p.weekRes(p.addDays(x.r.Start, 7*dir), x.r.Basis)
	case head == "weekend" && the && dir == 0 && isDay:
		r = p.weekendRes(x.r.Start, x.r.Basis)
	default:
		return cand{}, false
	}
	r.Approx = x.r.Approx
	return cand{r, n}, true
}

// base parses the atomic forms at i.
func (p *parser) base(i int, cued bool) (cand, bool) {
	if i >= len(p.toks) {
		return cand{}, false
	}
	var b best
	switch p.toks[i].kind {
	case tHan:
		b.add(p.chinese(i))
		return b.c, b.ok
	case tNum:
		b.add(p.chinese(i))
		b.add(p.absDate(i))
		b.add(p.numericDate(i))
		b.add(p.ago(i))
		b.add(p.future(i))
	case tWord:
		b.add(p.relDay(i))
		b.add(p.lastThisNext(i))
		b.add(p.unitBeforeLast(i))
		b.add(p.weekdayForms(i))
		b.add(p.ago(i))
		b.add(p.future(i))
		b.add(p.absDate(i))
		b.add(p.monthYear(i))
		b.add(p.seasonYear(i))
		b.add(p.partOf(i))
		b.add(p.monthWeek(i))
		b.add(p.earlierLater(i))
		b.add(p.yearCue(i))
	default:
		return cand{}, false
	}
	if cued { // licensed only after a cue; added last so they lose ties
		b.add(p.cuedMonth(i))
		b.add(p.cuedYear(i))
		b.add(p.cuedSeason(i))
		b.add(p.cuedWeekend(i))
	}
	return b.c, b.ok
}
