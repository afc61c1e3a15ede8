package heuristic

import (
	"time"

	"github.com/stratagate/stratagate/events/temporal"
)

// timeSpan is one temporal expression of a sentence: its byte span and,
// when it resolves, its interval.
type timeSpan struct {
	off, n     int
	known      bool
	start, end time.Time
}

// findTimes appends the temporal expressions of text, written at ref, to
// dst. Spans that do not lie inside text are dropped, so a misbehaving
// finder cannot make a quote or time text leave the sentence.
func findTimes(text string, ref time.Time, dst []timeSpan) []timeSpan {
	for _, m := range temporal.Find(text, ref) {
		if m.Offset < 0 || m.Length <= 0 || m.Offset > len(text)-m.Length {
			continue
		}
		dst = append(dst, timeSpan{off: m.Offset, n: m.Length, known: m.Known(), start: m.Start, end: m.End})
	}
	return dst
}
