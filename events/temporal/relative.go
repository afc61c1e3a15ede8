package temporal

import "time"

// relDay parses today, tonight, yesterday, tomorrow, this
// morning/afternoon/evening, last night, earlier/later/so far today, and
// the words for the moment of speaking: right now, just now, a moment
// ago, moments ago (ref's day: day precision, like "today").
func (p *parser) relDay(i int) (cand, bool) {
	off, n := 0, 1
	switch {
	case p.isW(i, "today", "tonight"):
	case p.isW(i, "right", "just") && p.isW(i+1, "now"):
		n = 2
	case p.isW(i, "moments") && p.isW(i+1, "ago"):
		n = 2
	case p.isW(i, "a") && p.isW(i+1, "moment") && p.isW(i+2, "ago"):
		n = 3
	case p.isW(i, "so") && p.isW(i+1, "far") && p.isW(i+2, "today"):
		n = 3
	case p.isW(i, "yesterday"):
		off = -1
	case p.isW(i, "tomorrow"):
		off = 1
	case p.isW(i, "this") && p.isW(i+1, "morning", "afternoon", "evening"):
		n = 2
	case p.isW(i, "last") && p.isW(i+1, "night"):
		off, n = -1, 2
	case p.isW(i, "earlier", "later") && p.isW(i+1, "today"):
		n = 2
	default:
		return cand{}, false
	}
	return cand{p.dayRes(p.addDays(p.today, off), BasisRelative), n}, true
}

// direction parses last (-1), this (0) and next (+1) with their variants
// ("this past", "this coming", "coming", "upcoming").
func (p *parser) direction(i int) (dir, n int, ok bool) {
	switch {
	case p.isW(i, "this") && p.isW(i+1, "past"):
		return -1, 2, true
	case p.isW(i, "this") && p.isW(i+1, "coming"):
		return 1, 2, true
	case p.isW(i, "last"):
		return -1, 1, true
	case p.isW(i, "next", "coming", "upcoming"):
		return 1, 1, true
	case p.isW(i, "this"):
		return 0, 1, true
	}
	return 0, 0, false
}

// lastThisNext parses last/this/next followed by week, weekend, month,
// year, a weekday (also abbreviated: "last Tues"), a season or a month
// name.
func (p *parser) lastThisNext(i int) (cand, bool) {
	dir, n, ok := p.direction(i)
	if !ok {
		return cand{}, false
	}
	j := i + n
	t := p.w(j)
	n++
	switch t {
	case "week":
		return cand{p.weekRes(p.addDays(p.today, 7*dir), BasisRelative), n}, true
	case "weekend":
		return cand{p.weekendRes(p.addDays(p.today, 7*dir), BasisRelative), n}, true
	case "month":
		return cand{p.shift(uMonth, dir), n}, true
	case "year":
		return cand{p.shift(uYear, dir), n}, true
	}
	wd, ok := weekdayWords[t]
	if d, abbr := weekdayAbbrs[t]; abbr && !(riskyWeekdayAbbr(t) && p.toks[j].lower) {
		wd, ok = weekdayWord{d: d}, true
	}
	if ok && !wd.plural {
		var d time.Time
		switch dir {
		case -1:
			d = p.weekdayBefore(p.today, wd.d)
		case 1:
			d = p.weekdayAfter(p.today, wd.d)
		default:
			d = p.weekdayIn(p.today, wd.d)
		}
		return cand{p.dayRes(d, BasisRelative), n}, true
	}
	if s, ok := seasonWords[t]; ok {
		return cand{p.seasonDir(s, dir), n}, true
	}
	// "this may help": lower-case may/march/mar never follow last/this/next.
	if mw, ok := monthWords[t]; ok && !(riskyMonth(t) && (mw.abbr || p.toks[j].lower)) {
		y := p.today.Year()
		switch {
		case dir < 0 && mw.m >= p.today.Month():
			y--
		case dir > 0 && mw.m <= p.today.Month():
			y++
		}
		return cand{p.monthRes(y, mw.m, BasisRelative), n}, true
	}
	return cand{}, false
}

// unitBeforeLast parses "the week before" (the week before ref's week),
// "the week/month/year before last" and "the week/month/year after next".
func (p *parser) unitBeforeLast(i int) (cand, bool) {
	if !p.isW(i, "the") {
		return cand{}, false
	}
	var u unit
	switch p.w(i + 1) {
	case "week":
		u = uWeek
	case "month":
		u = uMonth
	case "year":
		u = uYear
	default:
		return cand{}, false
	}
	switch {
	case p.isW(i+2, "before") && p.isW(i+3, "last"):
		return cand{p.shift(u, -2), 4}, true
	case p.isW(i+2, "after") && p.isW(i+3, "next"):
		return cand{p.shift(u, 2), 4}, true
	case u == uWeek && p.isW(i+2, "before"):
		return cand{p.shift(u, -1), 3}, true
	}
	return cand{}, false
}

// weekdayForms parses a bare weekday ("Friday": the most recent one
// strictly before ref's day, or in free text whose sentence speaks of the
// future the next one strictly after it; basis inferred) and "Friday
// [of] last/this/next week" (that weekday of the named ISO week).
func (p *parser) weekdayForms(i int) (cand, bool) {
	wd, ok := weekdayWords[p.w(i)]
	if !ok || wd.plural {
		return cand{}, false
	}
	j := i + 1
	if p.isW(j, "of") {
		j++
	}
	if dir, n, ok := p.direction(j); ok && p.isW(j+n, "week") {
		d := p.weekdayIn(p.addDays(p.today, 7*dir), wd.d)
		return cand{p.dayRes(d, BasisRelative), j + n + 1 - i}, true
	}
	if !p.whole && p.futureSentence(i) {
		return cand{p.dayRes(p.weekdayAfter(p.today, wd.d), BasisInferred), 1}, true
	}
	return cand{p.dayRes(p.weekdayBefore(p.today, wd.d), BasisInferred), 1}, true
}

// futureSentence reports whether the sentence around token i speaks of
// the future: it holds will, 'll, shall, won't, gonna, going to, plan(s,
// ning) to, scheduled, upcoming, until or till. A bare weekday there is
// the coming one ("I'll call you on Friday"), not the last one.
func (p *parser) futureSentence(i int) bool {
	lo, hi := i, i
	for lo > 0 && !p.sentenceEnd(lo-1) {
		lo--
	}
	for hi+1 < len(p.toks) && !p.sentenceEnd(hi+1) {
		hi++
	}
	for k := lo; k <= hi; k++ {
		switch p.w(k) {
		case "will", "shall", "gonna", "scheduled", "upcoming", "until", "till":
			return true
		case "ll":
			if p.isApostrophe(k - 1) {
				return true
			}
		case "t":
			if p.isApostrophe(k-1) && p.isW(k-2, "won") {
				return true
			}
		case "going", "plan", "plans", "planning":
			if p.isW(k+1, "to") {
				return true
			}
		}
	}
	return false
}

// sentenceEnd reports whether token k ends a sentence.
func (p *parser) sentenceEnd(k int) bool {
	if k < 0 || k >= len(p.toks) || p.toks[k].kind != tPunct {
		return false
	}
	switch p.toks[k].s {
	case ".", "!", "?", ";", "。", "！", "？", "；":
		return true
	}
	return false
}

// isApostrophe reports whether token k is ' or ’ glued to its neighbours.
func (p *parser) isApostrophe(k int) bool {
	if k < 0 || k >= len(p.toks) || p.toks[k].kind != tPunct {
		return false
	}
	return p.toks[k].s == "'" || p.toks[k].s == "’"
}

// earlierLater parses "earlier this week/month/year" ([unit start, end of
// ref's day)) and "later this week/month/year" ([ref's day, unit end)),
// also as "earlier in the week"; "so far this week/month/year" is the
// part up to now, like "earlier this week".
func (p *parser) earlierLater(i int) (cand, bool) {
	lead, upTo := 1, p.isW(i, "earlier")
	switch {
	case p.isW(i, "so") && p.isW(i+1, "far") && p.isW(i+2, "this"):
		lead, upTo = 2, true
	case !p.isW(i, "earlier", "later"):
		return cand{}, false
	}
	n := lead + 2
	switch {
	case p.isW(i+lead, "this"):
	case lead == 1 && p.isW(i+1, "in") && p.isW(i+2, "the"):
		n = 4
	default:
		return cand{}, false
	}
	var whole Resolution
	switch p.w(i + n - 1) {
	case "week":
		whole = p.weekRes(p.today, BasisRelative)
	case "month":
		whole = p.shift(uMonth, 0)
	case "year":
		whole = p.shift(uYear, 0)
	default:
		return cand{}, false
	}
	if upTo {
		return cand{span(whole.Start, p.addDays(p.today, 1), PrecisionRange, BasisRelative), n}, true
	}
	return cand{span(p.today, whole.End, PrecisionRange, BasisRelative), n}, true
}

// cuedSeason parses "[the] summer" after a cue: the occurrence nearest to
// ref, basis inferred. "fall" is excluded ("in the fall" is usually a
// fall); it needs a year or last/this/next.
func (p *parser) cuedSeason(i int) (cand, bool) {
	j := i
	if p.isW(j, "the") {
		j++
	}
	s, ok := seasonWords[p.w(j)]
	if !ok || p.w(j) == "fall" {
		return cand{}, false
	}
	return cand{p.nearestSeason(s), j + 1 - i}, true
}

// cuedWeekend parses "the weekend" after a cue ("over the weekend"): the
// nearest weekend, basis inferred.
func (p *parser) cuedWeekend(i int) (cand, bool) {
	if !p.isW(i, "the") || !p.isW(i+1, "weekend") {
		return cand{}, false
	}
	return cand{p.nearestWeekend(), 2}, true
}
