package extmem_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/extmem"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// Each date rule of docs/IMPORT.md (a–f), on memories written for it.
func TestParseTemporal(t *testing.T) {
	tests := []struct {
		name       string
		temporal   string // the memory's temporal object
		start, end time.Time
		precision  string
		basis      string
		mentioned  time.Time
		warning    string // a substring of one warning; "" = none required
	}{
		// a) unknown precision or basis: no dates, whatever was written.
		{name: "a: unknown precision drops the given dates",
			temporal:  `{"original_text": "a while back", "happened_start": "2023-04-02", "precision": "unknown", "basis": "explicit"}`,
			precision: "unknown", basis: "unknown", warning: "precision or basis unknown"},
		{name: "a: unknown basis drops the given dates",
			temporal:  `{"happened_start": "2023-04-02", "happened_end": "2023-04-03", "precision": "day", "basis": "unknown"}`,
			precision: "unknown", basis: "unknown", warning: "happened dates ignored"},
		{name: "a: missing precision and basis",
			temporal:  `{"happened_start": "2019", "original_text": "when I was a student"}`,
			precision: "unknown", basis: "unknown"},
		{name: "a: an unknown precision word is unknown",
			temporal:  `{"happened_start": "2019", "precision": "decade", "basis": "explicit"}`,
			precision: "unknown", basis: "unknown", warning: `precision "decade" unknown`},
		{name: "a: no temporal at all",
			temporal:  `null`,
			precision: "unknown", basis: "unknown"},

		// b) relative: resolved against mentioned_at, never without it.
		{name: "b: relative resolved against mentioned_at",
			temporal: `{"original_text": "last spring", "mentioned_at": "2024-09-14", "precision": "season", "basis": "relative"}`,
			start:    day(2024, 3, 1), end: day(2024, 6, 1), precision: "season", basis: "relative", mentioned: day(2024, 9, 14)},
		{name: "b: the resolution wins over a given start",
			temporal: `{"original_text": "yesterday", "mentioned_at": "2024-09-14T10:00:00Z", "happened_start": "2024-09-01", "precision": "day", "basis": "relative"}`,
			start:    day(2024, 9, 13), end: day(2024, 9, 14), precision: "day", basis: "relative", mentioned: day(2024, 9, 14).Add(10 * time.Hour)},
		{name: "b: relative without mentioned_at has no dates",
			temporal:  `{"original_text": "last spring", "happened_start": "2024-03-01", "precision": "season", "basis": "relative"}`,
			precision: "unknown", basis: "relative", warning: "without mentioned_at"},
		{name: "b: unresolvable text keeps the given start when mentioned_at is set",
			temporal: `{"original_text": "around the move", "mentioned_at": "2024-09-14", "happened_start": "2024-08-05", "precision": "week", "basis": "relative"}`,
			start:    day(2024, 8, 5), end: day(2024, 8, 12), precision: "week", basis: "relative", mentioned: day(2024, 9, 14)},
		{name: "b: unresolvable text and no start",
			temporal:  `{"original_text": "around the move", "mentioned_at": "2024-09-14", "precision": "week", "basis": "relative"}`,
			precision: "unknown", basis: "relative", mentioned: day(2024, 9, 14)},

		// c) explicit, said, inferred: the start, and an end given or derived.
		{name: "c: explicit day",
			temporal: `{"happened_start": "2023-11-05", "precision": "day", "basis": "explicit"}`,
			start:    day(2023, 11, 5), end: day(2023, 11, 6), precision: "day", basis: "explicit"},
		{name: "c: a given end after the start",
			temporal: `{"happened_start": "2023-11-05", "happened_end": "2023-11-09", "precision": "day", "basis": "explicit"}`,
			start:    day(2023, 11, 5), end: day(2023, 11, 9), precision: "day", basis: "explicit"},
		{name: "c: an end before the start is ignored",
			temporal: `{"happened_start": "2023-11-05", "happened_end": "2023-11-01", "precision": "day", "basis": "said"}`,
			start:    day(2023, 11, 5), end: day(2023, 11, 6), precision: "day", basis: "said", warning: "not after happened_start"},
		{name: "c: week",
			temporal: `{"happened_start": "2023-11-06", "precision": "week", "basis": "inferred"}`,
			start:    day(2023, 11, 6), end: day(2023, 11, 13), precision: "week", basis: "inferred"},
		{name: "c: month",
			temporal: `{"happened_start": "2021-03", "precision": "month", "basis": "explicit"}`,
			start:    day(2021, 3, 1), end: day(2021, 4, 1), precision: "month", basis: "explicit"},
		{name: "c: season",
			temporal: `{"happened_start": "2022-06-01", "precision": "SEASON", "basis": "Explicit"}`,
			start:    day(2022, 6, 1), end: day(2022, 9, 1), precision: "season", basis: "explicit"},
		{name: "c: year",
			temporal: `{"happened_start": "2018", "precision": "year", "basis": "explicit"}`,
			start:    day(2018, 1, 1), end: day(2019, 1, 1), precision: "year", basis: "explicit"},
		{name: "c: instant keeps the offset",
			temporal: `{"happened_start": "2023-11-05T18:45:00+01:00", "precision": "instant", "basis": "explicit"}`,
			start:    time.Date(2023, 11, 5, 18, 45, 0, 0, time.FixedZone("", 3600)),
			end:      time.Date(2023, 11, 5, 18, 45, 1, 0, time.FixedZone("", 3600)), precision: "instant", basis: "explicit"},
		{name: "c: range with an end",
			temporal: `{"happened_start": "2020-02", "happened_end": "2020-07", "precision": "range", "basis": "explicit"}`,
			start:    day(2020, 2, 1), end: day(2020, 7, 1), precision: "range", basis: "explicit"},
		{name: "c: range without an end is unknown",
			temporal:  `{"happened_start": "2020-02", "precision": "range", "basis": "explicit"}`,
			precision: "unknown", basis: "explicit", warning: "a range needs happened_end"},
		{name: "c: no start, no dates",
			temporal:  `{"original_text": "on my birthday", "precision": "day", "basis": "explicit"}`,
			precision: "unknown", basis: "explicit"},
		{name: "c: a precision finer than the written date is lowered",
			temporal: `{"happened_start": "2021-03", "precision": "day", "basis": "explicit"}`,
			start:    day(2021, 3, 1), end: day(2021, 4, 1), precision: "month", basis: "explicit", warning: "finer than happened_start"},

		// d) malformed dates are absent, with a warning.
		{name: "d: a malformed start",
			temporal:  `{"happened_start": "5th of May", "precision": "day", "basis": "explicit"}`,
			precision: "unknown", basis: "explicit", warning: `happened_start "5th of May" is not a date`},
		{name: "d: a date that is not a string",
			temporal:  `{"happened_start": 2021, "precision": "year", "basis": "explicit"}`,
			precision: "unknown", basis: "explicit", warning: "not a string"},
		{name: "d: an impossible day",
			temporal:  `{"happened_start": "2023-02-30", "precision": "day", "basis": "explicit"}`,
			precision: "unknown", basis: "explicit", warning: "not a date"},
		{name: "d: a malformed end falls back to the precision",
			temporal: `{"happened_start": "2023-02-10", "happened_end": "soon", "precision": "day", "basis": "explicit"}`,
			start:    day(2023, 2, 10), end: day(2023, 2, 11), precision: "day", basis: "explicit", warning: "happened_end"},

		// e) mentioned_at is kept, never defaulted.
		{name: "e: mentioned_at kept beside an explicit date",
			temporal: `{"mentioned_at": "2024-01-20T08:00:00Z", "happened_start": "2023-12-24", "precision": "day", "basis": "explicit"}`,
			start:    day(2023, 12, 24), end: day(2023, 12, 25), precision: "day", basis: "explicit", mentioned: day(2024, 1, 20).Add(8 * time.Hour)},
		{name: "e: mentioned_at kept when the dates are unknown",
			temporal:  `{"mentioned_at": "2024-01-20", "precision": "unknown", "basis": "unknown"}`,
			precision: "unknown", basis: "unknown", mentioned: day(2024, 1, 20)},

		// f) years outside 1678–2261 are absent.
		{name: "f: too early",
			temporal:  `{"happened_start": "1492", "precision": "year", "basis": "explicit"}`,
			precision: "unknown", basis: "explicit", warning: "outside the years 1678–2261"},
		{name: "f: too late",
			temporal:  `{"happened_start": "2300-01-01", "precision": "day", "basis": "explicit"}`,
			precision: "unknown", basis: "explicit", warning: "outside"},
		{name: "f: the last year still fits",
			temporal: `{"happened_start": "2261", "precision": "year", "basis": "explicit"}`,
			start:    day(2261, 1, 1), end: day(2262, 1, 1), precision: "year", basis: "explicit"},
		{name: "f: a mention date out of range",
			temporal:  `{"mentioned_at": "0001-01-01", "original_text": "yesterday", "precision": "day", "basis": "relative"}`,
			precision: "unknown", basis: "relative", warning: "mentioned_at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// exported_at is set on every document: it must never leak
			// into an event date.
			text := `{"format": "stratagate.external-memory.v2", "exported_at": "2024-10-02T18:30:00Z", "memories": [` +
				`{"kind": "event", "title": "Something happened", "temporal": ` + tt.temporal + `}]}`
			d, err := extmem.Parse(text)
			require.NoError(t, err)
			assert.Equal(t, day(2024, 10, 2).Add(18*time.Hour+30*time.Minute), d.ExportedAt)
			c := d.Memories[0]
			tm := c.Temporal
			assert.True(t, tt.start.Equal(tm.HappenedStart), "start %v, want %v", tm.HappenedStart, tt.start)
			assert.True(t, tt.end.Equal(tm.HappenedEnd), "end %v, want %v", tm.HappenedEnd, tt.end)
			assert.Equal(t, tt.start.IsZero(), tm.HappenedStart.IsZero())
			assert.Equal(t, tt.precision, tm.Precision)
			assert.Equal(t, tt.basis, tm.Basis)
			assert.True(t, tt.mentioned.Equal(tm.MentionedAt), "mentioned %v, want %v", tm.MentionedAt, tt.mentioned)
			if tt.warning != "" {
				assert.True(t, containsSub(c.Warnings, tt.warning), "warnings %q lack %q", c.Warnings, tt.warning)
			}
		})
	}
}

func containsSub(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// The other temporal fields are kept, trimmed and bounded.
func TestParseTemporalFields(t *testing.T) {
	c := parseOne(t, `{"kind": "event", "title": "Dinner", "temporal": {"original_text": " on  Friday ", "status": "Canceled",
		"event_type": "meeting", "participants": ["Marta", "Jonas"], "precision": "unknown", "basis": "unknown"}}`)
	assert.Equal(t, "on Friday", c.Temporal.OriginalText)
	assert.Equal(t, "cancelled", c.Temporal.Status)
	assert.Equal(t, "meeting", c.Temporal.EventType)
	assert.Equal(t, []string{"Marta", "Jonas"}, c.Temporal.Participants)

	c = parseOne(t, `{"kind": "event", "title": "x", "temporal": {"status": "maybe", "original_text": "`+strings.Repeat("very ", 40)+`long ago"}}`)
	assert.Equal(t, "unknown", c.Temporal.Status)
	assert.LessOrEqual(t, len([]rune(c.Temporal.OriginalText)), extmem.MaxTimeTextRunes)
	assert.Contains(t, c.Warnings, `status "maybe" unknown, unknown used`)
	assert.Contains(t, c.Warnings, "original_text clipped to 120 runes")
}

// exported_at is metadata: parsed like any date, a malformed one only
// warns.
func TestParseExportedAt(t *testing.T) {
	d, err := extmem.Parse(`{"format": "stratagate.external-memory.v2", "exportedAt": "2024-05", "memories": [` + bakeMem + `]}`)
	require.NoError(t, err)
	assert.Equal(t, day(2024, 5, 1), d.ExportedAt)

	d, err = extmem.Parse(`{"format": "stratagate.external-memory.v2", "exported_at": "today", "memories": [` + bakeMem + `]}`)
	require.NoError(t, err)
	assert.True(t, d.ExportedAt.IsZero())
	assert.Equal(t, []string{`exported_at "today" is not a date, ignored`}, d.Warnings)
}
