package redact

import "strings"

const (
	pemBegin = "-----BEGIN "
	pemEnd   = "-----END "
	pemDash  = "-----"
	// pemMaxLabel bounds the label ("RSA PRIVATE KEY", "OPENSSH PRIVATE
	// KEY", "PGP PRIVATE KEY BLOCK") so a stray "-----BEGIN " costs
	// little.
	pemMaxLabel = 64
)

// pemLabel reports whether a PEM private key block starts at s[i] and
// returns its label ("RSA PRIVATE KEY") and the end of its BEGIN line.
func pemLabel(s string, i int) (label string, end int, ok bool) {
	if !strings.HasPrefix(s[i:], pemBegin) {
		return "", 0, false
	}
	ls := i + len(pemBegin)
	le := ls
	for le < len(s) && le-ls <= pemMaxLabel && (isUpperOrDigit(s[le]) || s[le] == ' ') {
		le++
	}
	label = s[ls:le]
	if !strings.HasPrefix(s[le:], pemDash) || !strings.Contains(label, "PRIVATE KEY") {
		return "", 0, false
	}
	return label, le + len(pemDash), true
}

// pemAt reports whether a PEM private key block starts at s[i]. Tokens
// and values stop there, so that a key pasted right after "password=" or a
// token is redacted whole as a key instead of losing its BEGIN line to the
// value and leaking its body.
func pemAt(s string, i int) bool {
	if s[i] != '-' {
		return false
	}
	_, _, ok := pemLabel(s, i)
	return ok
}

// matchPEM returns the end of the PEM private key block that starts at
// s[i], or -1. The block runs to the END line with the same label; without
// one, to the end of s (a key cut short is still a key).
func matchPEM(s string, i int) int {
	label, j, ok := pemLabel(s, i)
	if !ok {
		return -1
	}
	for {
		k := strings.Index(s[j:], pemEnd)
		if k < 0 {
			return len(s)
		}
		j += k + len(pemEnd)
		if strings.HasPrefix(s[j:], label) && strings.HasPrefix(s[j+len(label):], pemDash) {
			return j + len(label) + len(pemDash)
		}
	}
}
