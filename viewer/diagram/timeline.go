package diagram

import (
	"math"
	"strconv"
	"time"
)

// MinBar is the narrowest happened interval drawn, in pixels, so that an
// event of one day (or a point in time) stays visible on a long axis.
const MinBar = 3.0

const (
	defaultTimelineWidth = 960.0
	minTimelineWidth     = 240.0
	defaultRowHeight     = 22.0
	defaultLabelWidth    = 280.0
	axisPad              = 12.0 // room at both ends of the axis for the end ticks' labels
	headerHeight         = 26.0 // band above the rows for the tick labels
	bottomPad            = 6.0
	day                  = 86400.0
)

// The axis works in the years 1 to 9999: instants outside are placed at
// those bounds (and their rows marked Clipped), which keeps every date
// computation and label sane.
var (
	minInstant = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	maxInstant = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
)

// Span is one event to draw on two clocks: when it was mentioned and when
// it happened.
type Span struct {
	ID    uint64
	Label string
	// Mentioned is when the event was mentioned (always set for stored
	// events; zero draws no mention mark).
	Mentioned time.Time
	// Start and End bound when it happened, End exclusive. A zero Start
	// means unknown; a zero End (or one not after Start) means a point in
	// time at Start.
	Start, End time.Time
	// Precision ("day", "week", "month", "year", "range", "unknown", ...)
	// and Class (e.g. a CSS class) are opaque: copied to the row.
	Precision string
	Class     string
}

// Tick is one axis tick; its label belongs in the band above the rows.
type Tick struct {
	X     float64
	Label string
	// Major marks a boundary of the next larger unit (a month for day and
	// week ticks, a year for month ticks, a decade or more for year ticks).
	Major bool
}

// Row is a span placed in its row.
type Row struct {
	Span
	// Y is the row's vertical centre.
	Y float64
	// MentionX is where Mentioned lies on the axis (clamped to the axis
	// when it lies beyond); HasMention is false when Mentioned is zero or
	// beyond the axis.
	MentionX   float64
	HasMention bool
	// Happened is false when Start is zero or the interval lies wholly
	// beyond the axis.
	Happened bool
	// X1, X2 is the happened interval drawn (clamped to the axis);
	// X2-X1 >= MinBar, so a day is visible.
	X1, X2 float64
	// Clipped says the happened interval extends beyond the axis (or
	// beyond the years 1 to 9999).
	Clipped bool
}

// TimelineOptions sizes a timeline. The zero value is usable.
type TimelineOptions struct {
	// Width in pixels; 0 (or any non-finite or negative value) means 960;
	// at least 240, at most 100000.
	Width float64
	// RowHeight in pixels; 0 means 22; between 4 and 1000.
	RowHeight float64
	// LabelWidth is the left gutter for the rows' labels; 0 means 280; at
	// most half the width.
	LabelWidth float64
	// From and To, when set, fix the axis (a zoom window; rows reaching
	// beyond it are clipped). A zero end fits the data; a window that is
	// empty after that is ignored.
	From, To time.Time
}

// TimelineLayout is the computed timeline: the axis spans [AxisX1,AxisX2]
// horizontally, tick labels sit in [0,Top), and row i occupies
// [Top+i·RowHeight, Top+(i+1)·RowHeight).
type TimelineLayout struct {
	Width, Height  float64
	From, To       time.Time // the axis, in UTC; both zero when no span has a time
	AxisX1, AxisX2 float64
	Top            float64
	Ticks          []Tick
	Rows           []Row
}

// LayoutTimeline lays spans out one per row, in the order given. The axis
// covers every mention time and every happened interval, padded a little
// (a day either side when they are all the same instant), unless the
// options fix it.
func LayoutTimeline(spans []Span, o TimelineOptions) TimelineLayout {
	w := side(o.Width, defaultTimelineWidth, minTimelineWidth)
	rh := defaultRowHeight
	if v := o.RowHeight; v > 0 && !math.IsInf(v, 0) {
		rh = min(max(v, 4), 1000)
	}
	lw := defaultLabelWidth
	if v := o.LabelWidth; v > 0 && !math.IsInf(v, 0) {
		lw = v
	}
	lw = min(lw, w/2)
	l := TimelineLayout{Width: w, AxisX1: lw + axisPad, AxisX2: w - axisPad, Top: headerHeight}
	l.Height = headerHeight + float64(len(spans))*rh + bottomPad

	lo, hi, ok := dataRange(spans)
	if ok {
		lo, hi = pad(lo, hi)
	}
	wlo, whi := lo, hi
	if !o.From.IsZero() {
		wlo, _ = inputSecs(o.From)
	}
	if !o.To.IsZero() {
		whi, _ = inputSecs(o.To)
	}
	if (ok || !o.From.IsZero() && !o.To.IsZero()) && whi > wlo {
		lo, hi, ok = wlo, whi, true
	}
	if ok {
		l.From, l.To = instant(math.Floor(lo)), instant(math.Ceil(hi))
		l.Ticks = l.ticks()
	}
	l.Rows = make([]Row, len(spans))
	for i, s := range spans {
		l.Rows[i] = l.row(s, headerHeight+(float64(i)+0.5)*rh)
	}
	return l
}

// dataRange is the smallest and largest instant among the spans.
func dataRange(spans []Span) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	add := func(t time.Time) {
		if !t.IsZero() {
			s, _ := inputSecs(t)
			lo, hi = min(lo, s), max(hi, s)
		}
	}
	for _, s := range spans {
		add(s.Mentioned)
		add(s.Start)
		if !s.Start.IsZero() && s.End.After(s.Start) {
			add(s.End)
		}
	}
	return lo, hi, lo <= hi
}

// pad widens [lo,hi] by 3% (at least an hour) at each end, or by a day
// when it is a single instant, so no mark sits on the axis' end.
func pad(lo, hi float64) (float64, float64) {
	p := day
	if hi > lo {
		p = max((hi-lo)*0.03, 3600)
	}
	return lo - p, hi + p
}

// secs returns t as seconds since the Unix epoch. Float seconds, unlike a
// time.Duration, hold the whole range of time.Time.
func secs(t time.Time) float64 {
	return float64(t.Unix()) + float64(t.Nanosecond())*1e-9
}

// inputSecs is secs of an input instant clamped to the years 1 to 9999,
// and whether it was clamped.
func inputSecs(t time.Time) (float64, bool) {
	switch {
	case t.Before(minInstant):
		return secs(minInstant), true
	case t.After(maxInstant):
		return secs(maxInstant), true
	}
	return secs(t), false
}

func instant(s float64) time.Time {
	whole := math.Floor(s)
	return time.Unix(int64(whole), int64((s-whole)*1e9)).UTC()
}

// X returns the horizontal position of t on the axis (not clamped: a time
// beyond the axis lies beyond AxisX1 or AxisX2). Without an axis it is
// AxisX1.
func (l TimelineLayout) X(t time.Time) float64 {
	return l.x(secs(t))
}

func (l TimelineLayout) x(s float64) float64 {
	lo, hi := secs(l.From), secs(l.To)
	if !(hi > lo) {
		return l.AxisX1
	}
	return l.AxisX1 + (s-lo)/(hi-lo)*(l.AxisX2-l.AxisX1)
}

func (l TimelineLayout) row(s Span, y float64) Row {
	r := Row{Span: s, Y: y, MentionX: l.AxisX1, X1: l.AxisX1, X2: l.AxisX1 + MinBar}
	if !l.To.After(l.From) {
		return r // no axis: no span has a time
	}
	lo, hi := secs(l.From), secs(l.To)
	if !s.Mentioned.IsZero() {
		m, clamped := inputSecs(s.Mentioned)
		r.HasMention = !clamped && m >= lo && m <= hi
		r.MentionX = l.x(min(max(m, lo), hi))
	}
	if s.Start.IsZero() {
		return r
	}
	a, ca := inputSecs(s.Start)
	b, cb := a, false
	if s.End.After(s.Start) {
		b, cb = inputSecs(s.End)
	}
	r.Clipped = ca || cb || a < lo || b > hi
	r.Happened = b >= lo && a <= hi
	r.X1, r.X2 = l.x(min(max(a, lo), hi)), l.x(min(max(b, lo), hi))
	if r.X2-r.X1 < MinBar {
		c := min(max((r.X1+r.X2)/2, l.AxisX1+MinBar/2), l.AxisX2-MinBar/2)
		r.X1, r.X2 = c-MinBar/2, c+MinBar/2
	}
	return r
}

// tickUnit is a tick step: n days, weeks (Mondays), months or years.
type tickUnit int

const (
	unitDay tickUnit = iota
	unitWeek
	unitMonth
	unitYear
)

type tickStep struct {
	unit tickUnit
	n    int
}

// approx is the step's length in seconds.
func (s tickStep) approx() float64 {
	switch s.unit {
	case unitDay:
		return float64(s.n) * day
	case unitWeek:
		return float64(s.n) * 7 * day
	case unitMonth:
		return float64(s.n) * 30.44 * day
	}
	return float64(s.n) * 365.25 * day
}

// room is the spacing, in pixels, that the step's labels need.
func (s tickStep) room() float64 {
	chars := 10.0 // 2006-01-02
	switch s.unit {
	case unitMonth:
		chars = 8 // Jan 2006
	case unitYear:
		chars = 5
	}
	return chars*charWidth + 14
}

// chooseStep returns the finest step whose labels fit the axis.
func chooseStep(span, width float64) tickStep {
	steps := []tickStep{{unitDay, 1}, {unitDay, 2}, {unitWeek, 1}, {unitWeek, 2},
		{unitMonth, 1}, {unitMonth, 2}, {unitMonth, 3}, {unitMonth, 6}}
	for _, s := range steps {
		if span/s.approx()*s.room() <= width {
			return s
		}
	}
	for e := 1; e <= 1e6; e *= 10 {
		for _, m := range []int{1, 2, 5} {
			if s := (tickStep{unitYear, m * e}); span/s.approx()*s.room() <= width {
				return s
			}
		}
	}
	return tickStep{unitYear, 1e7}
}

// ticks walks the chosen step's calendar boundaries across the axis, in UTC.
func (l TimelineLayout) ticks() []Tick {
	lo, hi := secs(l.From), secs(l.To)
	s := chooseStep(hi-lo, l.AxisX2-l.AxisX1)
	f := l.From
	var t time.Time
	switch s.unit {
	case unitDay:
		t = time.Date(f.Year(), f.Month(), f.Day(), 0, 0, 0, 0, time.UTC)
	case unitWeek:
		// Count weeks from a Monday so that fortnights align the same way
		// whatever the axis.
		monday := time.Date(1970, 1, 5, 0, 0, 0, 0, time.UTC)
		days := floorDiv(int(math.Floor((lo-float64(monday.Unix()))/day)), 7*s.n) * 7 * s.n
		t = monday.AddDate(0, 0, days)
	case unitMonth:
		m := floorDiv(int(f.Month())-1, s.n) * s.n
		t = time.Date(f.Year(), time.Month(m+1), 1, 0, 0, 0, 0, time.UTC)
	case unitYear:
		t = time.Date(floorDiv(f.Year(), s.n)*s.n, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	var out []Tick
	for guard := 0; !t.After(l.To) && guard < 20000; guard++ {
		keep, major, label := true, false, t.Format("2006-01-02")
		next := t
		switch s.unit {
		case unitDay:
			keep, major = (t.Day()-1)%s.n == 0, t.Day() == 1
			next = t.AddDate(0, 0, 1)
		case unitWeek:
			major = t.Day() <= 7*s.n
			next = t.AddDate(0, 0, 7*s.n)
		case unitMonth:
			major, label = t.Month() == time.January, t.Format("Jan 2006")
			next = t.AddDate(0, s.n, 0)
		case unitYear:
			major, label = t.Year()%(10*s.n) == 0, strconv.Itoa(t.Year())
			next = time.Date(t.Year()+s.n, 1, 1, 0, 0, 0, 0, time.UTC)
		}
		if keep && !t.Before(l.From) {
			out = append(out, Tick{X: l.x(secs(t)), Label: label, Major: major})
		}
		t = next
	}
	return out
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
