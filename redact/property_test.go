package redact_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
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

// soupParts are the pieces matchers react to; random strings of them
// reach far more matcher interplay than byte-level fuzzing does.
var soupParts = []string{
	"password", "Token", "x_secret", "Authorization", "apiKey", "=", ":", "=>", ":=", "==", "://",
	"@", "Bearer", " ", "\t", "\n", "\"", "'", "`", "\\", "**", "&", ",", ";", "-", "/", "[", "]",
	"sk-", "sk-proj-", "ghp_", "github_pat_", "AKIA", "AIza", "xoxb-", "sk_live_",
	"abcdefgh", "ABCD1234", "0123456789abcdef", "Zz9_", "-----BEGIN PRIVATE KEY-----",
	"-----END PRIVATE KEY-----", "-----BEGIN RSA PRIVATE KEY-----", "-----", "[redacted:secret]",
	"[redacted:", "€", "\xe2\x82", "\xff", "host", "a:b",
}

func TestPropertiesRandomSoup(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	var b strings.Builder
	for range n {
		b.Reset()
		for range 1 + rng.IntN(24) {
			b.WriteString(soupParts[rng.IntN(len(soupParts))])
		}
		checkProperties(t, b.String())
		if t.Failed() {
			t.Fatalf("input %q (seed %d)", b.String(), seed)
		}
	}
}
