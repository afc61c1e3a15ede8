package temporal

// qty is a parsed count: exact, or vague ("a few", "several", "some").
type qty struct {
	n     int
	vague bool
}

// count parses a count: digits (up to six), number words up to
// ninety-nine, "a"/"an", "a couple (of)", "a few", "few", "several", "some".
func (p *parser) count(i int) (q qty, n int, ok bool) {
	switch {
	case p.isW(i, "a") && p.isW(i+1, "couple") && p.isW(i+2, "of"):
		return qty{n: 2}, 3, true
	case p.isW(i, "a", "couple") && p.isW(i+1, "couple", "of"):
		return qty{n: 2}, 2, true
	case p.isW(i, "a") && p.isW(i+1, "few"):
		return qty{vague: true}, 2, true
	case p.isW(i, "few", "several", "some"):
		return qty{vague: true}, 1, true
	}
	if v, digits, ok := p.num(i); ok {
		if digits > 6 || v < 1 {
			return qty{}, 0, false
		}
		return qty{n: v}, 1, true
	}
	if t, ok := tensNumbers[p.w(i)]; ok {
		if u := digitWord(p.w(i + 2)); u > 0 && p.isW(i+1, "-") {
			return qty{n: t + u}, 3, true
		}
		if u := digitWord(p.w(i + 1)); u > 0 {
			return qty{n: t + u}, 2, true
		}
		return qty{n: t}, 1, true
	}
	if v, ok := smallNumbers[p.w(i)]; ok {
		return qty{n: v}, 1, true
	}
	return qty{}, 0, false
}

// digitWord is the value of "one".."nine", else 0.
func digitWord(s string) int {
	if v := smallNumbers[s]; v < 10 && s != "a" && s != "an" {
		return v
	}
	return 0
}

// countHedge parses a hedge before a count.
func (p *parser) countHedge(i int) (n int, approx bool) {
	for _, h := range countHedges {
		if k := p.match(i, h.p); k > 0 {
			return k, h.approx
		}
	}
	return 0, false
}

// quantity parses [hedge] count unit. wd/weekend report weekday and
// weekend units, which only "ago" accepts.
func (p *parser) quantity(i int) (q qty, u unit, wd weekdayWord, weekend bool, approx bool, n int, ok bool) {
	h, approx := p.countHedge(i)
	q, qn, ok := p.count(i + h)
	if !ok {
		return
	}
	j := i + h + qn
	s := p.w(j)
	switch {
	case unitWords[s] != uNone:
		u = unitWords[s]
	case s == "weekend" || s == "weekends":
		weekend = true
	default:
		if wd, ok = weekdayWords[s]; !ok {
			return qty{}, uNone, wd, false, false, 0, false
		}
	}
	return q, u, wd, weekend, approx || q.vague, j + 1 - i, true
}

// ago parses "N units ago" / "N units back", including "two weekends
// ago" and "two Fridays ago". Vague counts cover a documented range.
func (p *parser) ago(i int) (cand, bool) {
	q, u, wd, weekend, approx, n, ok := p.quantity(i)
	if !ok || !p.isW(i+n, "ago", "back") {
		return cand{}, false
	}
	n++
	var r Resolution
	switch {
	case weekend:
		if q.vague {
			return cand{}, false
		}
		r = p.weekendRes(p.addDays(p.today, -7*q.n), BasisRelative)
	case u == uNone:
		if q.vague {
			return cand{}, false
		}
		r = p.dayRes(p.addDays(p.weekdayBefore(p.today, wd.d), -7*(q.n-1)), BasisRelative)
	case q.vague:
		lo, hi := vagueBounds[u][0], vagueBounds[u][1]
		a, b := p.shift(u, -hi), p.shift(u, -lo)
		r = span(a.Start, b.End, a.Precision, BasisRelative)
	default:
		r = p.shift(u, -q.n)
	}
	r.Approx = approx
	return cand{r, n}, true
}

// future parses "in N units" and "N units from now/today".
func (p *parser) future(i int) (cand, bool) {
	var q qty
	var u unit
	var approx, ok bool
	var n int
	if p.isW(i, "in") {
		var weekend bool
		q, u, _, weekend, approx, n, ok = p.quantity(i + 1)
		if !ok || weekend || u == uNone {
			return cand{}, false
		}
		n++
	} else {
		var weekend bool
		q, u, _, weekend, approx, n, ok = p.quantity(i)
		if !ok || weekend || u == uNone || !p.isW(i+n, "from") || !p.isW(i+n+1, "now", "today") {
			return cand{}, false
		}
		n += 2
	}
	var r Resolution
	if q.vague {
		lo, hi := vagueBounds[u][0], vagueBounds[u][1]
		a, b := p.shift(u, lo), p.shift(u, hi)
		r = span(a.Start, b.End, a.Precision, BasisRelative)
	} else {
		r = p.shift(u, q.n)
	}
	r.Approx = approx
	return cand{r, n}, true
}

// durationOf builds a Duration of q units; seconds and minutes have no
// field and are rejected.
func durationOf(q qty, u unit, approx bool) (*Duration, Precision, bool) {
	k := q.n
	if q.vague {
		k = vagueDurationCount
	}
	d := &Duration{Approx: approx || q.vague}
	prec := PrecisionDay
	switch u {
	case uHour:
		d.Hours, prec = k, PrecisionInstant
	case uDay:
		d.Days = k
	case uWeek:
		d.Weeks, prec = k, PrecisionWeek
	case uFortnight:
		d.Weeks, prec = 2*k, PrecisionWeek
	case uMonth:
		d.Months, prec = k, PrecisionMonth
	case uYear:
		d.Years, prec = k, PrecisionYear
	default:
		return nil, "", false
	}
	return d, prec, true
}

// duration parses "for N units" and "N units long": a length of time,
// not a date. Precision names the unit; Start/End stay zero.
func (p *parser) duration(i int) (cand, bool) {
	j, extra := i, 0
	if p.isW(i, "for") {
		j, extra = i+1, 1
	}
	q, u, _, weekend, approx, n, ok := p.quantity(j)
	if !ok || weekend || u == uNone {
		return cand{}, false
	}
	if extra == 0 {
		if !p.isW(j+n, "long") {
			return cand{}, false
		}
		n++
	}
	d, prec, ok := durationOf(q, u, approx)
	if !ok {
		return cand{}, false
	}
	return cand{Resolution{Precision: prec, Basis: BasisUnknown, Approx: d.Approx, Duration: d}, n + extra}, true
}

// pastRange parses "[over|in|during|for|within|throughout] the past/last N
// units" (the preposition is required when N is omitted: "over the past
// year"): [ref − N units, ref), precision of the unit (range for clock
// units), Duration set.
func (p *parser) pastRange(i int) (cand, bool) {
	j := i
	prep := p.isW(j, "over", "in", "during", "for", "within", "throughout")
	if prep {
		j++
	}
	if !p.isW(j, "the") || !p.isW(j+1, "past", "last", "previous") {
		return cand{}, false
	}
	j += 2
	q := qty{n: 1}
	approx := false
	if !p.isW(j, "a", "an") {
		if c, cn, ok := p.count(j); ok {
			q, approx, j = c, c.vague, j+cn
		} else if !prep {
			return cand{}, false
		}
	} else if !prep {
		return cand{}, false
	}
	u := unitWords[p.w(j)]
	if u == uNone {
		return cand{}, false
	}
	k := q.n
	if q.vague {
		k = vagueBounds[u][1]
	}
	d, prec, ok := durationOf(q, u, approx)
	if !ok {
		d = nil
	}
	if u <= uHour {
		prec = PrecisionRange
	}
	r := span(p.back(u, k), p.ref, prec, BasisRelative)
	r.Approx, r.Duration = approx, d
	return cand{r, j + 1 - i}, true
}

// since parses "since X" / "ever since X": [X.Start, ref).
func (p *parser) since(i int) (cand, bool) {
	j := i
	if p.isW(j, "ever") {
		j++
	}
	if !p.isW(j, "since") {
		return cand{}, false
	}
	x, ok := p.point(j+1, true)
	if !ok || !x.r.Known() || !x.r.Start.Before(p.ref) {
		return cand{}, false
	}
	r := span(x.r.Start, p.ref, PrecisionRange, x.r.Basis)
	r.Approx = x.r.Approx
	return cand{r, j + 1 - i + x.n}, true
}

// fromTo parses "from X to/until/till/through Y" and "between X and Y":
// [X.Start, Y.End).
func (p *parser) fromTo(i int) (cand, bool) {
	var seps []string
	switch p.w(i) {
	case "from":
		seps = fromSeps
	case "between":
		seps = betweenSeps
	default:
		return cand{}, false
	}
	x, ok := p.point(i+1, true)
	if !ok || !x.r.Known() {
		return cand{}, false
	}
	j := i + 1 + x.n
	if !p.isW(j, seps...) {
		return cand{}, false
	}
	y, ok := p.point(j+1, true)
	if !ok || !y.r.Known() || !x.r.Start.Before(y.r.End) {
		return cand{}, false
	}
	r := span(x.r.Start, y.r.End, PrecisionRange, weaker(x.r.Basis, y.r.Basis))
	r.Approx = x.r.Approx || y.r.Approx
	return cand{r, j + 1 + y.n - i}, true
}

// Separators of "from X to Y" and "between X and Y".
var (
	fromSeps    = []string{"to", "until", "till", "through", "thru", "-", "–", "—"}
	betweenSeps = []string{"and"}
)

// weaker returns the less certain of two bases.
func weaker(a, b Basis) Basis {
	rank := func(x Basis) int {
		switch x {
		case BasisExplicit:
			return 0
		case BasisRelative:
			return 1
		case BasisInferred:
			return 2
		case BasisSaid:
			return 3
		}
		return 4
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}
