package diagram_test

import (
	"encoding/binary"
	"math"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/viewer/diagram"
)

func date(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

// requireTimelineSane checks that every number is finite and every mark
// lies on the axis, in its row band.
func requireTimelineSane(t testing.TB, l diagram.TimelineLayout, rows int) {
	t.Helper()
	const eps = 1e-6
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	require.Len(t, l.Rows, rows)
	require.True(t, finite(l.Width) && finite(l.Height) && l.Width > 0 && l.Height > 0)
	require.True(t, l.AxisX1 < l.AxisX2 && l.AxisX1 >= 0 && l.AxisX2 <= l.Width)
	require.False(t, l.To.Before(l.From))
	onAxis := func(what string, x float64) {
		t.Helper()
		require.True(t, finite(x) && x >= l.AxisX1-eps && x <= l.AxisX2+eps, "%s: %v not in [%v,%v]", what, x, l.AxisX1, l.AxisX2)
	}
	for i, tk := range l.Ticks {
		onAxis("tick "+tk.Label, tk.X)
		if i > 0 {
			require.Greater(t, tk.X, l.Ticks[i-1].X, "ticks ascend")
		}
	}
	for i, r := range l.Rows {
		require.True(t, r.Y > l.Top && r.Y < l.Height, "row %d at %v", i, r.Y)
		onAxis("mention", r.MentionX)
		onAxis("start", r.X1)
		onAxis("end", r.X2)
		require.GreaterOrEqual(t, r.X2-r.X1, diagram.MinBar-eps)
		if r.HasMention {
			require.InDelta(t, l.X(r.Mentioned), r.MentionX, 1e-6)
		}
	}
}

func TestLayoutTimelineAxisCoversSpans(t *testing.T) {
	spans := []diagram.Span{
		{ID: 1, Label: "moved to the coast", Mentioned: date(2023, 6, 10), Start: date(2023, 3, 1), End: date(2023, 4, 1), Precision: "month"},
		{ID: 2, Label: "started a pottery class", Mentioned: date(2023, 7, 2), Start: date(2023, 7, 5), Precision: "day", Class: "forgotten"},
		{ID: 3, Label: "mentioned only", Mentioned: date(2023, 8, 1)},
		{ID: 4, Label: "a long project", Mentioned: date(2023, 9, 1), Start: date(2021, 1, 1), End: date(2022, 1, 1), Precision: "year"},
	}
	l := diagram.LayoutTimeline(spans, diagram.TimelineOptions{})
	requireTimelineSane(t, l, len(spans))
	assert.True(t, l.From.Before(date(2021, 1, 1)))
	assert.True(t, l.To.After(date(2023, 9, 1)))
	assert.Equal(t, time.UTC, l.From.Location())
	for i, r := range l.Rows {
		assert.Equal(t, spans[i], r.Span, "rows keep the input order and copy the span")
		assert.True(t, r.HasMention)
		assert.False(t, r.Clipped)
	}
	assert.Equal(t, "forgotten", l.Rows[1].Class)
	assert.True(t, l.Rows[0].Happened)
	assert.InDelta(t, l.X(date(2023, 3, 1)), l.Rows[0].X1, 1e-9)
	assert.InDelta(t, l.X(date(2023, 4, 1)), l.Rows[0].X2, 1e-9)
	assert.False(t, l.Rows[2].Happened, "no start: unknown")
	assert.Equal(t, 960.0, l.Width)
	assert.InDelta(t, l.Top+4*22+6, l.Height, 1e-9)
}

func TestLayoutTimelineXMonotonic(t *testing.T) {
	l := diagram.LayoutTimeline([]diagram.Span{{Mentioned: date(1990, 1, 1)}, {Mentioned: date(2030, 1, 1)}}, diagram.TimelineOptions{})
	prev := math.Inf(-1)
	for tm := date(1985, 1, 1); tm.Before(date(2035, 1, 1)); tm = tm.Add(97 * 24 * time.Hour) {
		x := l.X(tm)
		require.Greater(t, x, prev, "%v", tm)
		prev = x
	}
	assert.InDelta(t, l.AxisX1, l.X(l.From), 1e-9)
	assert.InDelta(t, l.AxisX2, l.X(l.To), 1e-9)
}

func TestLayoutTimelineTickSteps(t *testing.T) {
	dayLabel := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	monthLabel := regexp.MustCompile(`^[A-Z][a-z]{2} \d{4}$`)
	yearLabel := regexp.MustCompile(`^\d{4}$`)
	for _, tc := range []struct {
		name     string
		from, to time.Time
		label    *regexp.Regexp
		// maxStep bounds the distance between consecutive ticks.
		maxStep time.Duration
		major   string // a label that must be major
	}{
		{"10 days", date(2023, 4, 26), date(2023, 5, 6), dayLabel, 2 * 24 * time.Hour, "2023-05-01"},
		{"6 months", date(2022, 10, 15), date(2023, 4, 15), monthLabel, 31 * 24 * time.Hour, "Jan 2023"},
		{"5 years", date(2016, 3, 1), date(2021, 3, 1), yearLabel, 366 * 24 * time.Hour, "2020"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := diagram.LayoutTimeline([]diagram.Span{{Mentioned: tc.to, Start: tc.from}}, diagram.TimelineOptions{})
			requireTimelineSane(t, l, 1)
			require.GreaterOrEqual(t, len(l.Ticks), 4)
			majors := map[string]bool{}
			for i, tk := range l.Ticks {
				assert.Regexp(t, tc.label, tk.Label)
				majors[tk.Label] = tk.Major
				if i > 0 {
					px := tk.X - l.Ticks[i-1].X
					step := time.Duration(px / (l.AxisX2 - l.AxisX1) * float64(l.To.Sub(l.From)))
					assert.LessOrEqual(t, step, tc.maxStep+time.Hour, "step between %s and %s", l.Ticks[i-1].Label, tk.Label)
				}
			}
			assert.True(t, majors[tc.major], "%s is a major tick in %v", tc.major, majors)
			assert.Contains(t, majors, tc.major)
		})
	}
}

func TestLayoutTimelineMinBar(t *testing.T) {
	spans := []diagram.Span{
		{Label: "one day", Mentioned: date(2020, 1, 1), Start: date(2019, 5, 1), End: date(2019, 5, 2), Precision: "day"},
		{Label: "a point", Mentioned: date(2020, 1, 1), Start: date(2015, 5, 1)},
		{Label: "end before start", Mentioned: date(2020, 1, 1), Start: date(2018, 5, 1), End: date(2018, 4, 1)},
		{Label: "at the axis start", Mentioned: date(2020, 1, 1), Start: date(2010, 1, 1)},
	}
	l := diagram.LayoutTimeline(spans, diagram.TimelineOptions{})
	requireTimelineSane(t, l, len(spans))
	for _, r := range l.Rows {
		assert.True(t, r.Happened, r.Label)
		assert.InDelta(t, diagram.MinBar, r.X2-r.X1, 1e-9, r.Label)
	}
	assert.InDelta(t, l.X(date(2015, 5, 1)), (l.Rows[1].X1+l.Rows[1].X2)/2, 1e-9, "a point is centred on its instant")
	assert.GreaterOrEqual(t, l.Rows[3].X1, l.AxisX1)
}

func TestLayoutTimelineWindowClips(t *testing.T) {
	spans := []diagram.Span{
		{Label: "inside", Mentioned: date(2023, 2, 1), Start: date(2023, 2, 1), End: date(2023, 3, 1)},
		{Label: "straddles", Mentioned: date(2023, 2, 1), Start: date(2022, 6, 1), End: date(2023, 3, 1)},
		{Label: "before", Mentioned: date(2021, 1, 1), Start: date(2020, 1, 1), End: date(2020, 2, 1)},
		{Label: "unknown", Mentioned: date(2023, 2, 1)},
	}
	l := diagram.LayoutTimeline(spans, diagram.TimelineOptions{From: date(2023, 1, 1), To: date(2024, 1, 1)})
	requireTimelineSane(t, l, len(spans))
	assert.Equal(t, date(2023, 1, 1), l.From)
	assert.Equal(t, date(2024, 1, 1), l.To)
	for _, tc := range []struct {
		happened, clipped, mention bool
	}{
		{true, false, true},
		{true, true, true},
		{false, true, false},
		{false, false, true},
	} {
		r := l.Rows[0]
		l.Rows = l.Rows[1:]
		assert.Equal(t, tc.happened, r.Happened, r.Label)
		assert.Equal(t, tc.clipped, r.Clipped, r.Label)
		assert.Equal(t, tc.mention, r.HasMention, r.Label)
		if r.Label == "straddles" {
			assert.InDelta(t, l.AxisX1, r.X1, 1e-9, "clamped to the axis")
		}
	}
	// Only one end fixed: the other fits the data; an empty window is ignored.
	l = diagram.LayoutTimeline(spans, diagram.TimelineOptions{From: date(2023, 1, 1)})
	assert.Equal(t, date(2023, 1, 1), l.From)
	assert.True(t, l.To.After(date(2023, 3, 1)))
	l = diagram.LayoutTimeline(spans, diagram.TimelineOptions{From: date(2024, 1, 1), To: date(2023, 1, 1)})
	assert.True(t, l.From.Before(date(2020, 1, 1)))
}

func TestLayoutTimelineDegenerate(t *testing.T) {
	same := date(2022, 8, 8).Add(13 * time.Hour)
	for _, tc := range []struct {
		name  string
		spans []diagram.Span
		o     diagram.TimelineOptions
		check func(t *testing.T, l diagram.TimelineLayout)
	}{
		{"no spans", nil, diagram.TimelineOptions{}, func(t *testing.T, l diagram.TimelineLayout) {
			assert.Empty(t, l.Ticks)
			assert.True(t, l.From.IsZero() && l.To.IsZero())
			assert.Less(t, l.Height, 40.0)
		}},
		{"no times at all", []diagram.Span{{Label: "x"}}, diagram.TimelineOptions{}, func(t *testing.T, l diagram.TimelineLayout) {
			assert.Empty(t, l.Ticks)
			assert.False(t, l.Rows[0].Happened || l.Rows[0].HasMention)
		}},
		{"all times equal", []diagram.Span{{Mentioned: same, Start: same}, {Mentioned: same}}, diagram.TimelineOptions{}, func(t *testing.T, l diagram.TimelineLayout) {
			assert.True(t, l.To.After(l.From))
			assert.NotEmpty(t, l.Ticks)
			assert.InDelta(t, (l.AxisX1+l.AxisX2)/2, l.Rows[1].MentionX, 1)
		}},
		{"year 1 to 9999", []diagram.Span{{Mentioned: date(1, 1, 2), Start: date(1, 1, 2), End: date(9999, 12, 31), Precision: "unknown"}}, diagram.TimelineOptions{}, func(t *testing.T, l diagram.TimelineLayout) {
			assert.NotEmpty(t, l.Ticks)
			assert.LessOrEqual(t, len(l.Ticks), 20)
			assert.Regexp(t, `^\d+$`, l.Ticks[0].Label)
			assert.False(t, l.Rows[0].Clipped)
		}},
		{"beyond the years 1 to 9999", []diagram.Span{{Mentioned: date(2000, 1, 1), Start: date(-4000, 1, 1), End: date(12000, 1, 1)}}, diagram.TimelineOptions{}, func(t *testing.T, l diagram.TimelineLayout) {
			assert.True(t, l.Rows[0].Clipped)
			assert.True(t, l.Rows[0].Happened)
		}},
		{"zone offsets", []diagram.Span{{Mentioned: time.Date(2023, 1, 1, 1, 0, 0, 0, time.FixedZone("east", 5*3600))}}, diagram.TimelineOptions{}, func(t *testing.T, l diagram.TimelineLayout) {
			assert.Equal(t, time.UTC, l.From.Location())
			assert.Contains(t, []string{"2022-12-31", "2023-01-01"}, l.Ticks[0].Label, "ticks fall on UTC days")
		}},
		{"odd options", []diagram.Span{{Mentioned: same}}, diagram.TimelineOptions{Width: math.NaN(), RowHeight: math.Inf(1), LabelWidth: 5000}, func(t *testing.T, l diagram.TimelineLayout) {
			assert.Equal(t, 960.0, l.Width)
			assert.Equal(t, 480.0+12, l.AxisX1, "the gutter is at most half the width")
		}},
		{"tiny width", []diagram.Span{{Mentioned: same}}, diagram.TimelineOptions{Width: 3, RowHeight: 1}, func(t *testing.T, l diagram.TimelineLayout) {
			assert.Equal(t, 240.0, l.Width)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := diagram.LayoutTimeline(tc.spans, tc.o)
			requireTimelineSane(t, l, len(tc.spans))
			tc.check(t, l)
		})
	}
}

func FuzzLayoutTimeline(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}, uint16(0))
	f.Add(make([]byte, 48), uint16(300))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0x80, 1, 0, 0, 0, 0, 0, 0, 0}, uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, width uint16) {
		at := func(b []byte) time.Time {
			v := int64(binary.LittleEndian.Uint64(b))
			if v%7 == 0 {
				return time.Time{}
			}
			// Mostly realistic instants, sometimes extreme ones.
			if v%5 == 0 {
				return time.Unix(v, 0)
			}
			return time.Unix(v%(1<<36), v%1e9)
		}
		var spans []diagram.Span
		for len(data) >= 24 {
			spans = append(spans, diagram.Span{Mentioned: at(data[0:8]), Start: at(data[8:16]), End: at(data[16:24])})
			data = data[24:]
		}
		o := diagram.TimelineOptions{Width: float64(width), RowHeight: float64(width % 40)}
		if len(spans) > 1 {
			o.From, o.To = spans[0].Start, spans[1].End
		}
		requireTimelineSane(t, diagram.LayoutTimeline(spans, o), len(spans))
	})
}
