package temporal

import "time"

// dayNum parses a day of month, "7" or "7th" (the suffix must touch).
func (p *parser) dayNum(i int) (d int, ord bool, n int, ok bool) {
	v, digits, ok := p.num(i)
	if !ok || digits > 2 || v < 1 || v > 31 {
		return 0, false, 0, false
	}
	if p.isW(i+1, "st", "nd", "rd", "th") && p.adj(i+1) {
		return v, true, 2, true
	}
	return v, false, 1, true
}

// monthAt parses a month name or abbreviation (with an optional touching
// "."). risky marks lower-case words that are also ordinary English words.
func (p *parser) monthAt(i int) (m time.Month, risky bool, n int, ok bool) {
	s := p.w(i)
	mw, ok := monthWords[s]
	if !ok {
		return 0, false, 0, false
	}
	n = 1
	if mw.abbr && p.isW(i+1, ".") && p.adj(i+1) {
		n = 2
	}
	return mw.m, riskyMonth(s) && p.toks[i].lower, n, true
}

// yearAt parses a four-digit year in [lo, hi].
func (p *parser) yearAt(i, lo, hi int) (int, bool) {
	v, digits, ok := p.num(i)
	if !ok || digits != 4 || v < lo || v > hi {
		return 0, false
	}
	return v, true
}

// yearAfter parses an optional ", 2023" / "2023" after a date; n is 0 when
// there is none.
func (p *parser) yearAfter(j int) (y, n int) {
	k := j
	if p.isW(k, ",") {
		k++
	}
	if v, ok := p.yearAt(k, 1000, 2999); ok {
		return v, k + 1 - j
	}
	return 0, 0
}

// dayResult resolves y-m-d (explicit) or m-d without a year (the nearest
// occurrence, inferred).
func (p *parser) dayResult(y int, m time.Month, d int, yn int) (Resolution, bool) {
	if yn == 0 {
		return p.nearestDay(m, d)
	}
	if !validDate(y, m, d) {
		return Resolution{}, false
	}
	return p.dayRes(p.date(y, m, d), BasisExplicit), true
}

// absDate parses "7 May 2023", "7th of May", "the 7th of May 2023",
// "May 7th, 2023", "May the 7th", each optionally led by a weekday
// ("Sunday, 7 May 2023").
func (p *parser) absDate(i int) (cand, bool) {
	var b best
	b.add(p.dmy(i))
	b.add(p.mdy(i))
	if wd, ok := weekdayWords[p.w(i)]; ok && !wd.plural {
		j := i + 1
		if p.isW(j, ",") {
			j++
		}
		for _, f := range [...]func(int) (cand, bool){p.dmy, p.mdy} {
			if c, ok := f(j); ok {
				c.n += j - i
				b.add(c, true)
			}
		}
	}
	return b.c, b.ok
}

// dmy parses day-first dates.
func (p *parser) dmy(i int) (cand, bool) {
	j := i
	the := p.isW(j, "the")
	if the {
		j++
	}
	d, ord, dn, ok := p.dayNum(j)
	if !ok || (the && !ord) {
		return cand{}, false
	}
	j += dn
	of := p.isW(j, "of")
	if of {
		j++
	}
	m, risky, mn, ok := p.monthAt(j)
	if !ok {
		return cand{}, false
	}
	j += mn
	y, yn := p.yearAfter(j)
	if yn == 0 && risky && !ord && !of {
		return cand{}, false
	}
	r, ok := p.dayResult(y, m, d, yn)
	return cand{r, j + yn - i}, ok
}

// mdy parses month-first dates.
func (p *parser) mdy(i int) (cand, bool) {
	m, risky, mn, ok := p.monthAt(i)
	if !ok {
		return cand{}, false
	}
	j := i + mn
	the := p.isW(j, "the")
	if the {
		j++
	}
	d, ord, dn, ok := p.dayNum(j)
	if !ok || (the && !ord) {
		return cand{}, false
	}
	j += dn
	y, yn := p.yearAfter(j)
	if yn == 0 && risky && !ord {
		return cand{}, false
	}
	r, ok := p.dayResult(y, m, d, yn)
	return cand{r, j + yn - i}, ok
}

// monthYear parses "May 2023", "May, 2023", "May of 2023".
func (p *parser) monthYear(i int) (cand, bool) {
	m, _, mn, ok := p.monthAt(i)
	if !ok {
		return cand{}, false
	}
	j := i + mn
	if p.isW(j, ",", "of") {
		j++
	}
	y, ok := p.yearAt(j, 1000, 2999)
	if !ok {
		return cand{}, false
	}
	return cand{p.monthRes(y, m, BasisExplicit), j + 1 - i}, true
}

// numParts parses A/B/C or A-B-C with touching separators.
func (p *parser) numParts(i int) (v, digits [3]int, ok bool) {
	sep := p.w(i + 1)
	if sep != "/" && sep != "-" {
		return v, digits, false
	}
	for k := 0; k < 3; k++ {
		t := i + 2*k
		if k > 0 && (p.w(t-1) != sep || !p.adj(t-1) || !p.adj(t)) {
			return v, digits, false
		}
		if v[k], digits[k], ok = p.num(t); !ok {
			return v, digits, false
		}
	}
	return v, digits, true
}

// numericDay interprets numeric parts: YYYY-MM-DD, or D/M/YYYY vs
// M/D/YYYY when a part above 12 (or equal parts) decides. ambiguous is
// set for a well-formed date whose order cannot be decided.
func numericDay(v, digits [3]int) (y int, m time.Month, d int, ambiguous, ok bool) {
	switch {
	case digits[0] == 4 && digits[1] <= 2 && digits[2] <= 2:
		y, m, d = v[0], time.Month(v[1]), v[2]
	case digits[0] <= 2 && digits[1] <= 2 && digits[2] == 4:
		a, b := v[0], v[1]
		y = v[2]
		switch {
		case a == b || (b > 12 && a <= 12):
			m, d = time.Month(a), b
		case a > 12 && b <= 12:
			m, d = time.Month(b), a
		case a >= 1 && b >= 1 && a <= 12 && b <= 12:
			return 0, 0, 0, true, false
		default:
			return 0, 0, 0, false, false
		}
	default:
		return 0, 0, 0, false, false
	}
	if y < 1000 || y > 2999 || !validDate(y, m, d) {
		return 0, 0, 0, false, false
	}
	return y, m, d, false, true
}

// numericDate parses unambiguous numeric dates (explicit, day).
func (p *parser) numericDate(i int) (cand, bool) {
	v, digits, ok := p.numParts(i)
	if !ok {
		return cand{}, false
	}
	y, m, d, _, ok := numericDay(v, digits)
	if !ok {
		return cand{}, false
	}
	return cand{p.dayRes(p.date(y, m, d), BasisExplicit), 5}, true
}

// ambiguousDate matches "7/5/2023"-style dates whose day/month order is
// undecidable: they are reported with Precision unknown.
func (p *parser) ambiguousDate(i int) (cand, bool) {
	v, digits, ok := p.numParts(i)
	if !ok {
		return cand{}, false
	}
	if _, _, _, amb, _ := numericDay(v, digits); !amb || v[2] < 1000 || v[2] > 2999 || !validDate(v[2], time.Month(v[1]), v[0]) || !validDate(v[2], time.Month(v[0]), v[1]) {
		return cand{}, false
	}
	return cand{unknown(""), 5}, true
}

// seasonYear parses "summer 2022", "the summer of 2022", "fall, 2021"
// (explicit; winter 2022 is December 2022 to February 2023).
func (p *parser) seasonYear(i int) (cand, bool) {
	j := i
	if p.isW(j, "the") {
		j++
	}
	s, ok := seasonWords[p.w(j)]
	if !ok {
		return cand{}, false
	}
	j++
	if p.isW(j, "of", ",") {
		j++
	}
	y, ok := p.yearAt(j, 1000, 2999)
	if !ok {
		return cand{}, false
	}
	return cand{p.seasonRes(s, y, BasisExplicit), j + 1 - i}, true
}

// yearCue parses "the year 2022", "year 2022" and "of 2022" (1900–2100).
func (p *parser) yearCue(i int) (cand, bool) {
	j := i
	switch {
	case p.isW(j, "the") && p.isW(j+1, "year"):
		j += 2
	case p.isW(j, "year", "of"):
		j++
	default:
		return cand{}, false
	}
	y, ok := p.yearAt(j, 1900, 2100)
	if !ok {
		return cand{}, false
	}
	return cand{p.yearRes(y, BasisExplicit), j + 1 - i}, true
}

// cuedYear parses a bare year 1900–2100 after a cue ("in 2022").
func (p *parser) cuedYear(i int) (cand, bool) {
	y, ok := p.yearAt(i, 1900, 2100)
	if !ok {
		return cand{}, false
	}
	return cand{p.yearRes(y, BasisExplicit), 1}, true
}

// cuedMonth parses a bare month after a cue ("in May"): the occurrence
// nearest to ref, basis inferred. A whole expression that is just a
// lower-case "may" or "march" stays unknown.
func (p *parser) cuedMonth(i int) (cand, bool) {
	m, risky, n, ok := p.monthAt(i)
	if !ok || (monthWords[p.w(i)].abbr && riskyMonth(p.w(i))) || (risky && p.whole && i == 0) {
		return cand{}, false
	}
	return cand{p.nearestMonth(m), n}, true
}

// partWord parses early/mid/late and "the beginning/start/middle/end of":
// part 0 = first third, 1 = middle third, 2 = last third.
func (p *parser) partWord(i int) (part, n int, ok bool) {
	switch p.w(i) {
	case "early":
		return 0, 1, true
	case "late":
		return 2, 1, true
	case "mid":
		if p.isW(i+1, "-") && p.adj(i+1) {
			return 1, 2, true
		}
		return 1, 1, true
	}
	j := i
	if p.isW(j, "the") {
		j++
	}
	switch p.w(j) {
	case "beginning", "start":
		part = 0
	case "middle":
		part = 1
	case "end":
		part = 2
	default:
		return 0, 0, false
	}
	if !p.isW(j+1, "of") {
		return 0, 0, false
	}
	return part, j + 2 - i, true
}

// partOf parses a part of a month ("early June": days 1–10, "mid June":
// 11–20, "late June"/"end of June": 21–end), of a year ("early 2022":
// Jan–Apr, "mid-2022": May–Aug, "late 2022": Sep–Dec) or of a week ("end
// of the week": Fri–Sun; early: Mon–Tue; mid: Wed–Thu). Approx is set.
func (p *parser) partOf(i int) (cand, bool) {
	part, n, ok := p.partWord(i)
	if !ok {
		return cand{}, false
	}
	j := i + n
	var whole Resolution
	if m, _, mn, ok := p.monthAt(j); ok && !(monthWords[p.w(j)].abbr && riskyMonth(p.w(j))) {
		j += mn
		if y, yn := p.yearAfter(j); yn > 0 {
			whole, j = p.monthRes(y, m, BasisExplicit), j+yn
		} else {
			whole = p.nearestMonth(m)
		}
	} else if y, ok := p.yearAt(j, 1900, 2100); ok {
		whole, j = p.yearRes(y, BasisExplicit), j+1
	} else {
		dir, dn, ok := p.direction(j)
		if !ok && p.isW(j, "the") {
			dir, dn, ok = 0, 1, true
		}
		if !ok {
			return cand{}, false
		}
		switch p.w(j + dn) {
		case "week":
			whole = p.weekRes(p.addDays(p.today, 7*dir), BasisRelative)
		case "month":
			whole = p.shift(uMonth, dir)
		case "year":
			whole = p.shift(uYear, dir)
		default:
			return cand{}, false
		}
		j += dn + 1
	}
	r := p.third(whole, part)
	r.Approx = true
	return cand{r, j - i}, true
}

// third cuts part 0, 1 or 2 out of a week, month or year.
func (p *parser) third(whole Resolution, part int) Resolution {
	s := whole.Start
	var cuts [4]time.Time
	switch whole.Precision {
	case PrecisionWeek:
		cuts = [4]time.Time{s, p.addDays(s, 2), p.addDays(s, 4), whole.End}
	case PrecisionMonth:
		cuts = [4]time.Time{s, p.addDays(s, 10), p.addDays(s, 20), whole.End}
	default:
		cuts = [4]time.Time{s, p.date(s.Year(), time.May, 1), p.date(s.Year(), time.September, 1), whole.End}
	}
	return span(cuts[part], cuts[part+1], PrecisionRange, whole.Basis)
}

// weekOrdinals numbers the weeks of a month; -1 is the last.
var weekOrdinals = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1}

// monthWeek parses "the first/second/third/fourth/last week of <month>"
// (days 1–7, 8–14, 15–21, 22–28, or the month's last seven days) and "the
// first/.../last weekend of <month>" (that month's nth or last Saturday
// and the Sunday after it). The month is "June", "June 2023", "this/next/
// last month" or "the month".
func (p *parser) monthWeek(i int) (cand, bool) {
	if !p.isW(i, "the") || !p.isW(i+3, "of") {
		return cand{}, false
	}
	k, ok := weekOrdinals[p.w(i+1)]
	weekend := p.isW(i+2, "weekend")
	if !ok || (!weekend && !p.isW(i+2, "week")) {
		return cand{}, false
	}
	j := i + 4
	var whole Resolution
	if m, _, mn, ok := p.monthAt(j); ok && !(monthWords[p.w(j)].abbr && riskyMonth(p.w(j))) {
		j += mn
		if y, yn := p.yearAfter(j); yn > 0 {
			whole, j = p.monthRes(y, m, BasisExplicit), j+yn
		} else {
			whole = p.nearestMonth(m)
		}
	} else {
		dir, dn, ok := p.direction(j)
		if !ok && p.isW(j, "the") {
			dir, dn, ok = 0, 1, true
		}
		if !ok || !p.isW(j+dn, "month") {
			return cand{}, false
		}
		whole, j = p.shift(uMonth, dir), j+dn+1
	}
	s := whole.Start
	var r Resolution
	switch {
	case weekend && k > 0:
		sat := p.addDays(s, (int(time.Saturday)-int(s.Weekday())+7)%7+7*(k-1))
		r = span(sat, p.addDays(sat, 2), PrecisionRange, whole.Basis)
	case weekend:
		last := p.addDays(whole.End, -1)
		sat := p.addDays(last, -((int(last.Weekday()) - int(time.Saturday) + 7) % 7))
		r = span(sat, p.addDays(sat, 2), PrecisionRange, whole.Basis)
	case k > 0:
		r = span(p.addDays(s, 7*(k-1)), p.addDays(s, 7*k), PrecisionRange, whole.Basis)
	default:
		r = span(p.addDays(whole.End, -7), whole.End, PrecisionRange, whole.Basis)
	}
	return cand{r, j - i}, true
}
