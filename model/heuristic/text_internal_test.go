package heuristic

import (
	"testing"
	"unicode"
)

// The ASCII fast paths decide every character as unicode does.
func TestWordRunesEqualUnicode(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		start := unicode.IsLetter(r) || unicode.IsDigit(r)
		if got := isWordStart(r); got != start {
			t.Fatalf("isWordStart(%U) = %v, unicode says %v", r, got, start)
		}
		if got, want := isWordRune(r), start || unicode.IsMark(r); got != want {
			t.Fatalf("isWordRune(%U) = %v, unicode says %v", r, got, want)
		}
	}
}
