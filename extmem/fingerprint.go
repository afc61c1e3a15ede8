package extmem

import (
	"strings"
	"unicode"
)

// Fingerprint is the normalised form of a memory's title and summary that
// makes re-imports deterministic: lower-case, letters and digits only,
// every run of other characters one space, trimmed; the two parts joined
// by " | ". Two memories that differ only in case, punctuation or spacing
// share a fingerprint; a changed word changes it.
func Fingerprint(title, summary string) string {
	return normalise(title) + " | " + normalise(summary)
}

// Fingerprint is the candidate's Fingerprint(Title, Summary).
func (c *Candidate) Fingerprint() string { return Fingerprint(c.Title, c.Summary) }

// normalise lower-cases s and keeps its letters and digits, one space
// between runs of them.
func normalise(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	gap := false
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			gap = b.Len() > 0
			continue
		}
		if gap {
			b.WriteByte(' ')
			gap = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
