package temporal_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stratagate/stratagate/events/temporal"
)

var fuzzSeeds = []string{
	"yesterday", "last Saturday", "the sunday before 25 May 2023", "7/5/2023", "May 7th, 2023",
	"I moved to Seattle last Saturday and start work next Monday.", "我昨天去了，三年前", "2023年5月7日",
	"from 2019 to 2021", "over the past 5 years", "at 3pm yesterday", "early June", "a few days ago",
	"for 4 years", "since last May", "twenty-five years ago", "around in May", "\xff\xfe", "",
	"I just opened my bakery!", "I should've just asked. Have you just moved?", "so far this week, right now",
	"I just finished the race on Sunday.", "just wanted", "I had just moved",
}

// FuzzResolve: Resolve never panics, and a known result is a non-empty
// interval while an unknown one has zero times.
func FuzzResolve(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, int64(1683554160))
	}
	f.Fuzz(func(t *testing.T, text string, unix int64) {
		ref := time.Unix(unix%(1<<37), 0).UTC()
		res := temporal.Resolve(text, ref)
		if res.Text != text {
			t.Fatalf("text not kept: %q", res.Text)
		}
		switch {
		case res.Known():
			if !res.Start.Before(res.End) {
				t.Fatalf("%q: empty interval %v..%v", text, res.Start, res.End)
			}
		case res.Precision == temporal.PrecisionUnknown:
			if !res.Start.IsZero() || !res.End.IsZero() || res.Duration != nil {
				t.Fatalf("%q: unknown with data %+v", text, res)
			}
		default:
			if res.Duration == nil {
				t.Fatalf("%q: neither known, unknown nor a duration: %+v", text, res)
			}
		}
	})
}

// FuzzFind: Find never panics; its spans are in bounds, ordered and
// non-overlapping, and each span resolves identically with Resolve.
func FuzzFind(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, int64(1683554160))
	}
	f.Fuzz(func(t *testing.T, text string, unix int64) {
		ref := time.Unix(unix%(1<<37), 0).UTC()
		prev := 0
		for _, m := range temporal.Find(text, ref) {
			if m.Offset < prev || m.Length <= 0 || m.Offset+m.Length > len(text) {
				t.Fatalf("%q: bad span %d+%d after %d", text, m.Offset, m.Length, prev)
			}
			span := text[m.Offset : m.Offset+m.Length]
			if span != m.Text {
				t.Fatalf("%q: Text %q != span %q", text, m.Text, span)
			}
			if !agreesAlone(span, m, ref) {
				t.Fatalf("%q: span %q resolves to %+v in Find but %+v alone", text, span, m.Resolution, temporal.Resolve(span, ref))
			}
			prev = m.Offset + m.Length
		}
	})
}

// sameResolution compares resolutions including Duration contents.
func sameResolution(a, b temporal.Resolution) bool {
	if (a.Duration == nil) != (b.Duration == nil) {
		return false
	}
	if a.Duration != nil && *a.Duration != *b.Duration {
		return false
	}
	a.Duration, b.Duration = nil, nil
	return a.Text == b.Text && a.Start.Equal(b.Start) && a.End.Equal(b.End) &&
		a.Precision == b.Precision && a.Basis == b.Basis && a.Approx == b.Approx
}

// agreesAlone reports whether Find's match m of span resolves as Resolve
// resolves the span alone. The one documented exception: a bare weekday
// in a sentence about the future is the coming one in Find (which sees
// the sentence) and the last one alone, 7 or 14 days apart.
func agreesAlone(span string, m temporal.Match, ref time.Time) bool {
	alone := temporal.Resolve(span, ref)
	if alone == m.Resolution || sameResolution(alone, m.Resolution) {
		return true
	}
	// The span starts with the weekday (after "on"), possibly followed by
	// a clock time ("Friday 3pm").
	low := strings.TrimPrefix(strings.ToLower(span), "on ")
	weekday := false
	for d := time.Sunday; d <= time.Saturday; d++ {
		weekday = weekday || strings.HasPrefix(low, strings.ToLower(d.String()))
	}
	gap := m.Start.Sub(alone.Start)
	return weekday && m.Basis == temporal.BasisInferred && alone.Basis == temporal.BasisInferred &&
		m.Precision == alone.Precision && (gap == 7*24*time.Hour || gap == 14*24*time.Hour)
}
