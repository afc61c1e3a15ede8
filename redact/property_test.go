package redact_test

import (
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/stratagate/stratagate/redact"
)

// longestMarker bounds how much one finding can grow the text.
var longestMarker = len(redact.KindURLCredentials.Marker())

// runeStarts returns the offsets at which a range loop over s decodes a
// rune (invalid bytes count one each), plus len(s): the only places a
// replacement may cut.
func runeStarts(s string) map[int]bool {
	m := make(map[int]bool, len(s)+1)
	for i := range s {
		m[i] = true
	}
	m[len(s)] = true
	return m
}

// checkProperties checks what must hold for every input; it reports with
// t.Errorf so a fuzz run shows every broken property at once.
func checkProperties(t testing.TB, s string) {
	t.Helper()
	fs := redact.Find(s)
	starts := runeStarts(s)
	prev := 0
	for i, f := range fs {
		switch {
		case f.Start < prev || f.End <= f.Start || f.End > len(s):
			t.Errorf("finding %d %+v out of order or empty (previous end %d, len %d)", i, f, prev, len(s))
			return
		case !starts[f.Start] || !starts[f.End]:
			t.Errorf("finding %d %+v cuts a UTF-8 sequence", i, f)
		case f.Kind.Marker() == "[redacted:]":
			t.Errorf("finding %d has no kind", i)
		}
		prev = f.End
	}
	out := redact.String(s)
	if len(fs) == 0 && out != s {
		t.Errorf("no findings but String changed %q to %q", s, out)
	}
	if max := len(s) + len(fs)*longestMarker; len(out) > max {
		t.Errorf("output %d bytes, more than %d", len(out), max)
	}
	if utf8.ValidString(s) && !utf8.ValidString(out) {
		t.Errorf("valid input %q gave invalid output %q", s, out)
	}
	if again := redact.String(out); again != out {
		t.Errorf("not idempotent:\n in  %q\n out %q\n again %q", s, out, again)
	}
	if f := redact.Find(out); len(f) != 0 {
		t.Errorf("output %q still has findings %+v", out, f)
	}
	if redact.Contains(s) != (len(fs) > 0) {
		t.Errorf("Contains disagrees with Find on %q", s)
	}
}

// unsafeData returns the address of a string's bytes, to tell whether
// String returned its argument or a copy.
func unsafeData(s string) *byte { return unsafe.StringData(s) }
