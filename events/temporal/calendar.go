package temporal

import "time"

// date is midnight of y-m-d in ref's location (out-of-range parts
// normalise as in time.Date).
func (p *parser) date(y int, m time.Month, d int) time.Time {
	return time.Date(y, m, d, 0, 0, 0, 0, p.loc)
}

// addDays moves a midnight by n calendar days (DST-safe).
func (p *parser) addDays(t time.Time, n int) time.Time {
	return p.date(t.Year(), t.Month(), t.Day()+n)
}

// weekStart is the Monday midnight of t's ISO week.
func (p *parser) weekStart(t time.Time) time.Time {
	return p.addDays(t, -((int(t.Weekday()) + 6) % 7))
}

// span builds a resolution for [s, e).
func span(s, e time.Time, prec Precision, b Basis) Resolution {
	return Resolution{Start: s, End: e, Precision: prec, Basis: b}
}

// dayRes is the calendar day starting at midnight t.
func (p *parser) dayRes(t time.Time, b Basis) Resolution {
	return span(t, p.addDays(t, 1), PrecisionDay, b)
}

// weekRes is the ISO week (Monday to Monday) containing t.
func (p *parser) weekRes(t time.Time, b Basis) Resolution {
	s := p.weekStart(t)
	return span(s, p.addDays(s, 7), PrecisionWeek, b)
}

// weekendRes is Saturday–Sunday of the ISO week containing t.
func (p *parser) weekendRes(t time.Time, b Basis) Resolution {
	s := p.addDays(p.weekStart(t), 5)
	return span(s, p.addDays(s, 2), PrecisionRange, b)
}

// monthRes is calendar month m of year y (m may be out of 1..12).
func (p *parser) monthRes(y int, m time.Month, b Basis) Resolution {
	return span(p.date(y, m, 1), p.date(y, m+1, 1), PrecisionMonth, b)
}

// yearRes is calendar year y.
func (p *parser) yearRes(y int, b Basis) Resolution {
	return span(p.date(y, time.January, 1), p.date(y+1, time.January, 1), PrecisionYear, b)
}

// seasonRes is season s beginning in year y (winter y is December y to
// February y+1).
func (p *parser) seasonRes(s season, y int, b Basis) Resolution {
	m := seasonStartMonth[s]
	return span(p.date(y, m, 1), p.date(y, m+3, 1), PrecisionSeason, b)
}

// weekdayIn is weekday wd of the ISO week containing t.
func (p *parser) weekdayIn(t time.Time, wd time.Weekday) time.Time {
	return p.addDays(p.weekStart(t), (int(wd)+6)%7)
}

// weekdayBefore is the latest weekday wd strictly before day t.
func (p *parser) weekdayBefore(t time.Time, wd time.Weekday) time.Time {
	back := (int(t.Weekday()) - int(wd) + 7) % 7
	if back == 0 {
		back = 7
	}
	return p.addDays(t, -back)
}

// weekdayAfter is the earliest weekday wd strictly after day t.
func (p *parser) weekdayAfter(t time.Time, wd time.Weekday) time.Time {
	ahead := (int(wd) - int(t.Weekday()) + 7) % 7
	if ahead == 0 {
		ahead = 7
	}
	return p.addDays(t, ahead)
}

// truncHour is the start of the clock hour containing t in ref's location.
func (p *parser) truncHour(t time.Time) time.Time {
	t = t.In(p.loc)
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, p.loc)
}

// daysIn is the number of days in month m of year y.
func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// validDate reports whether y-m-d is a real calendar date.
func validDate(y int, m time.Month, d int) bool {
	return m >= time.January && m <= time.December && d >= 1 && d <= daysIn(y, m)
}

// distance is how far ref lies from [r.Start, r.End): zero inside.
func (p *parser) distance(r Resolution) time.Duration {
	switch {
	case p.ref.Before(r.Start):
		return r.Start.Sub(p.ref)
	case !p.ref.Before(r.End):
		return p.ref.Sub(r.End)
	}
	return 0
}

// nearestDay picks, among the years around ref's, the occurrence of m-d
// nearest to ref (always within about six months); ties go to the past.
func (p *parser) nearestDay(m time.Month, d int) (Resolution, bool) {
	var best Resolution
	found := false
	var bestDist time.Duration
	for y := p.today.Year() - 1; y <= p.today.Year()+1; y++ {
		if !validDate(y, m, d) {
			continue
		}
		r := p.dayRes(p.date(y, m, d), BasisInferred)
		if dist := p.distance(r); !found || dist < bestDist {
			best, bestDist, found = r, dist, true
		}
	}
	return best, found
}

// nearestMonth is the occurrence of month m nearest to ref.
func (p *parser) nearestMonth(m time.Month) Resolution {
	y := p.today.Year()
	best := p.monthRes(y-1, m, BasisInferred)
	bestDist := p.distance(best)
	for _, yy := range [...]int{y, y + 1} {
		r := p.monthRes(yy, m, BasisInferred)
		if dist := p.distance(r); dist < bestDist {
			best, bestDist = r, dist
		}
	}
	return best
}

// currentSeason is the season containing ref and the year it began.
func (p *parser) currentSeason() (season, int) {
	y := p.today.Year()
	switch m := p.today.Month(); {
	case m >= time.March && m <= time.May:
		return spring, y
	case m >= time.June && m <= time.August:
		return summer, y
	case m >= time.September && m <= time.November:
		return autumn, y
	case m == time.December:
		return winter, y
	}
	return winter, y - 1
}

// seasonDir resolves last (-1), this (0) or next (+1) season s: "last" is
// the latest occurrence that ended by the start of ref's own season,
// "next" the earliest that starts after it, and "this" the one in ref's
// year (for winter: the one containing January–February of ref's year
// when ref is in January or February, else the one starting in December).
func (p *parser) seasonDir(s season, dir int) Resolution {
	cs, cy := p.currentSeason()
	cur := p.seasonRes(cs, cy, BasisRelative)
	y := p.today.Year()
	switch dir {
	case -1:
		for yy := y; yy >= y-2; yy-- {
			if r := p.seasonRes(s, yy, BasisRelative); !r.End.After(cur.Start) {
				return r
			}
		}
	case 1:
		for yy := y - 1; yy <= y+1; yy++ {
			if r := p.seasonRes(s, yy, BasisRelative); r.Start.After(cur.Start) {
				return r
			}
		}
	}
	if s == winter && p.today.Month() <= time.February {
		y--
	}
	return p.seasonRes(s, y, BasisRelative)
}

// nearestSeason is the occurrence of season s nearest to ref.
func (p *parser) nearestSeason(s season) Resolution {
	y := p.today.Year()
	best := p.seasonRes(s, y-1, BasisInferred)
	bestDist := p.distance(best)
	for _, yy := range [...]int{y, y + 1} {
		r := p.seasonRes(s, yy, BasisInferred)
		if dist := p.distance(r); dist < bestDist {
			best, bestDist = r, dist
		}
	}
	return best
}

// nearestWeekend is the weekend nearest to ref: the current one on
// Saturday or Sunday, otherwise the closer of the previous and the next
// (Monday–Wednesday: previous; Thursday–Friday: next).
func (p *parser) nearestWeekend() Resolution {
	prev := p.weekendRes(p.addDays(p.today, -7), BasisInferred)
	cur := p.weekendRes(p.today, BasisInferred)
	if wd := p.today.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return cur
	}
	if p.today.Sub(prev.End) <= cur.Start.Sub(p.today) {
		return prev
	}
	return cur
}

// shift is the unit-sized interval k units away from ref (k < 0: past):
// the clock hour for seconds, minutes and hours, else the calendar day,
// ISO week, month or year.
func (p *parser) shift(u unit, k int) Resolution {
	switch u {
	case uSecond, uMinute, uHour:
		d := time.Second
		if u == uMinute {
			d = time.Minute
		} else if u == uHour {
			d = time.Hour
		}
		s := p.truncHour(p.ref.Add(time.Duration(k) * d))
		return span(s, s.Add(time.Hour), PrecisionInstant, BasisRelative)
	case uDay:
		return p.dayRes(p.addDays(p.today, k), BasisRelative)
	case uWeek:
		return p.weekRes(p.addDays(p.today, 7*k), BasisRelative)
	case uFortnight:
		return p.weekRes(p.addDays(p.today, 14*k), BasisRelative)
	case uMonth:
		return p.monthRes(p.today.Year(), p.today.Month()+time.Month(k), BasisRelative)
	}
	return p.yearRes(p.today.Year()+k, BasisRelative)
}

// back moves ref back by n units exactly (for "over the past n units").
func (p *parser) back(u unit, n int) time.Time {
	switch u {
	case uSecond:
		return p.ref.Add(-time.Duration(n) * time.Second)
	case uMinute:
		return p.ref.Add(-time.Duration(n) * time.Minute)
	case uHour:
		return p.ref.Add(-time.Duration(n) * time.Hour)
	case uDay:
		return p.ref.AddDate(0, 0, -n)
	case uWeek:
		return p.ref.AddDate(0, 0, -7*n)
	case uFortnight:
		return p.ref.AddDate(0, 0, -14*n)
	case uMonth:
		return p.ref.AddDate(0, -n, 0)
	}
	return p.ref.AddDate(-n, 0, 0)
}
