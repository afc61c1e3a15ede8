package redact

import (
	"strings"
)

// trigger marks the bytes at which some matcher can begin; the scanner
// passes over every other byte with one table load.
var trigger = func() (t [256]bool) {
	for _, c := range []byte("[-=:bB") {
		t[c] = true
	}
	for c := range keyRules {
		t[c] = true
	}
	return t
}()

// boundary reports whether a prefix may start at s[i]: at the start of
// input, right after the previous finding (which reads as a marker, a
// boundary, once replaced: treating it so here keeps String idempotent),
// or after a byte that cannot be part of a word.
func boundary(s string, i, last int) bool {
	return i == last || !isWord(s[i-1])
}

// scan returns the first finding at or after s[from]. last is the end of
// the previous finding (0 at the start).
func scan(s string, from, last int) (Finding, bool) {
	for i := from; i < len(s); i++ {
		c := s[i]
		if !trigger[c] {
			continue
		}
		switch c {
		case '[':
			if n := markerLen(s[i:]); n > 0 {
				i += n - 1
			}
		case '-':
			if e := matchPEM(s, i); e >= 0 {
				return Finding{Kind: KindPrivateKey, Start: i, End: e}, true
			}
		case ':', '=':
			if c == ':' && strings.HasPrefix(s[i+1:], "//") {
				if a, e, ok := matchURL(s, i+3); ok {
					return Finding{Kind: KindURLCredentials, Start: a, End: e}, true
				}
				continue
			}
			f, ok, resume := matchPair(s, i, last)
			if ok {
				return f, true
			}
			if resume > 0 {
				i = resume - 1 // the marker there is skipped next
			}
		case 'b', 'B':
			if boundary(s, i, last) {
				if a, e, ok := matchBearer(s, i); ok {
					return Finding{Kind: KindBearer, Start: a, End: e}, true
				}
			}
		default:
			if boundary(s, i, last) {
				if e := matchKey(s, i); e >= 0 {
					return Finding{Kind: KindAPIKey, Start: i, End: e}, true
				}
			}
		}
	}
	return Finding{}, false
}

// Find returns the secrets in s, sorted by Start and not overlapping. It
// returns nil, without allocating, when there are none.
func Find(s string) []Finding {
	var out []Finding
	for f, ok := scan(s, 0, 0); ok; f, ok = scan(s, f.End, f.End) {
		out = append(out, f)
	}
	return out
}

// Contains reports whether s holds a secret Find would report. It stops at
// the first one.
func Contains(s string) bool {
	_, ok := scan(s, 0, 0)
	return ok
}

// String returns s with every finding replaced by its kind's Marker. When
// there is nothing to redact it returns s itself and allocates nothing.
// String is idempotent: its output holds no finding, and markers already
// in s are left as they are.
func String(s string) string {
	f, ok := scan(s, 0, 0)
	if !ok {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(markerOpen) + len(KindURLCredentials) + len(markerClose))
	prev := 0
	for ; ok; f, ok = scan(s, f.End, f.End) {
		b.WriteString(s[prev:f.Start])
		b.WriteString(markerOpen)
		b.WriteString(string(f.Kind))
		b.WriteString(markerClose)
		prev = f.End
	}
	b.WriteString(s[prev:])
	return b.String()
}
