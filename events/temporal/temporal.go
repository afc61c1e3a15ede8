package temporal

import "time"

// Precision is the granularity of a resolved interval. See the package
// documentation for which expressions produce which precision.
type Precision string

// Precision values.
const (
	// PrecisionInstant is a clock time; its interval is one hour long.
	PrecisionInstant Precision = "instant"
	// PrecisionDay is one calendar day (or, with Approx, a run of days).
	PrecisionDay Precision = "day"
	// PrecisionWeek is one ISO week, Monday to Monday (or, with Approx, a run of weeks).
	PrecisionWeek Precision = "week"
	// PrecisionMonth is one calendar month (or, with Approx, a run of months).
	PrecisionMonth Precision = "month"
	// PrecisionSeason is one meteorological season of the northern hemisphere.
	PrecisionSeason Precision = "season"
	// PrecisionYear is one calendar year (or, with Approx, a run of years).
	PrecisionYear Precision = "year"
	// PrecisionRange is an interval that is not one calendar unit: a
	// weekend, part of a month, "since X", "from X to Y".
	PrecisionRange Precision = "range"
	// PrecisionUnknown means the text was not understood, or names no
	// recoverable interval ("a while ago"); Start and End are zero.
	PrecisionUnknown Precision = "unknown"
)

// Basis says how a Resolution's interval was obtained.
type Basis string

// Basis values.
const (
	// BasisExplicit: the text carries an absolute date ("7 May 2023", "2022").
	BasisExplicit Basis = "explicit"
	// BasisRelative: computed from the reference time ("yesterday", "last week").
	BasisRelative Basis = "relative"
	// BasisInferred: the text leaves something open (the year of "7 May",
	// the tense of "Friday") and the resolver chose the documented default.
	BasisInferred Basis = "inferred"
	// BasisSaid: the text names no time but reports the event as just
	// done ("I just opened my bakery", "we've just finished"), so the
	// interval is the day the message was said: ref's day. It is the
	// weakest dated basis; Find drops it in a question and in a sentence
	// that holds another dated expression (see the package documentation).
	BasisSaid Basis = "said"
	// BasisUnknown: there is no interval (unknown text, pure durations).
	BasisUnknown Basis = "unknown"
)

// Resolution is a temporal expression resolved against a reference time.
// Intervals are half-open, [Start, End), in the reference time's location.
type Resolution struct {
	Text      string    // the expression as written
	Start     time.Time // inclusive; zero when unknown or a pure duration
	End       time.Time // exclusive (half-open interval [Start, End)); zero when unknown
	Precision Precision
	Basis     Basis
	Approx    bool      // coarse on purpose: "a few years ago", "early June", "around 2020"
	Duration  *Duration // set for durations ("for 4 years", "two weeks long"): not a date
}

// Duration is a length of time mentioned in the text ("for 4 years"). It
// locates nothing by itself.
type Duration struct {
	Years, Months, Weeks, Days, Hours int
	Approx                            bool // "for a few years", "for about 2 weeks"
}

// Match is one temporal expression found in a text, with the byte span of
// the expression in the scanned text: text[Offset:Offset+Length] == Text.
type Match struct {
	Resolution
	Offset, Length int
}

// Known reports whether the resolution locates an interval in time.
func (r Resolution) Known() bool {
	return r.Precision != PrecisionUnknown && !r.Start.IsZero()
}

// Overlaps reports whether the resolution's interval [Start, End) shares
// any instant with the query interval [start, end). A zero start or end
// leaves that side of the query unbounded. Unknown resolutions and pure
// durations overlap nothing.
func (r Resolution) Overlaps(start, end time.Time) bool {
	if !r.Known() || !r.End.After(r.Start) {
		return false
	}
	if !start.IsZero() && !end.IsZero() && !start.Before(end) {
		return false
	}
	if !end.IsZero() && !r.Start.Before(end) {
		return false
	}
	if !start.IsZero() && !start.Before(r.End) {
		return false
	}
	return true
}

// Resolve resolves one temporal expression against ref, the time of the
// message that contains it. The whole expression must parse (surrounding
// punctuation is ignored); anything else resolves to Precision unknown with
// zero times and Text kept. Resolve never panics.
func Resolve(expr string, ref time.Time) Resolution {
	p := newParser(expr, ref)
	p.whole = true
	all := p.toks
	lo, hi := 0, len(all)
	for attempt := 0; attempt < 2; attempt++ {
		if attempt == 1 {
			for lo < hi && all[lo].kind == tPunct {
				lo++
			}
			for hi > lo && all[hi-1].kind == tPunct {
				hi--
			}
			if lo == 0 && hi == len(all) {
				break
			}
		}
		if lo >= hi {
			break
		}
		p.toks = all[lo:hi]
		if c, ok := p.top(0, true); ok && c.n == len(p.toks) {
			c.r.Text = expr
			return c.r
		}
	}
	return unknown(expr)
}

// Find scans free text (a sentence or a message) written at ref and
// returns every temporal expression in it, leftmost-longest and
// non-overlapping, in order of appearance. Recognised vague expressions
// ("recently", "a while ago") are returned with Precision unknown, and
// durations ("for 4 years") with Duration set; callers that want dates
// only keep matches whose Known() is true. A match never starts or ends
// inside a run of letters or digits, and recurrences ("every Tuesday",
// "each summer") are skipped: they name no single interval. Find never
// panics.
func Find(text string, ref time.Time) []Match {
	p := newParser(text, ref)
	var out []Match
	said := false
	for i := 0; i < len(p.toks); {
		if (i > 0 && p.glued(i)) || !p.canStart(i) {
			i++
			continue
		}
		c, ok := p.top(i, false)
		if !ok || (i+c.n < len(p.toks) && p.glued(i+c.n)) || p.isW(i-1, "every", "each") {
			i++
			continue
		}
		start, end := p.toks[i].start, p.toks[i+c.n-1].end
		c.r.Text = text[start:end]
		out = append(out, Match{Resolution: c.r, Offset: start, Length: end - start})
		said = said || c.r.Basis == BasisSaid
		i += c.n
	}
	if said {
		out = p.keepSaid(out)
	}
	return out
}

// unknown is the resolution of text that names no interval.
func unknown(text string) Resolution {
	return Resolution{Text: text, Precision: PrecisionUnknown, Basis: BasisUnknown}
}

// valid reports whether a candidate resolution is well formed: unknown,
// a pure duration, or a non-empty interval within years 1..9999.
func valid(r Resolution) bool {
	switch {
	case r.Precision == PrecisionUnknown:
		return r.Start.IsZero() && r.End.IsZero()
	case r.Start.IsZero() && r.End.IsZero():
		return r.Duration != nil
	case r.Start.IsZero() || !r.End.After(r.Start):
		return false
	}
	return r.Start.Year() >= 1 && r.End.Year() <= 9999
}
