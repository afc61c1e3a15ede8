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

// matchPEM returns the end of the PEM private key block that starts at
// s[i], or -1. The block runs to the END line with the same label; without
// one, to the end of s (a key cut short is still a key).
func matchPEM(s string, i int) int {
	if !strings.HasPrefix(s[i:], pemBegin) {
		return -1
	}
	ls := i + len(pemBegin)
	le := ls
	for le < len(s) && le-ls <= pemMaxLabel && (isUpperOrDigit(s[le]) || s[le] == ' ') {
		le++
	}
	label := s[ls:le]
	if !strings.HasPrefix(s[le:], pemDash) || !strings.Contains(label, "PRIVATE KEY") {
		return -1
	}
	for j := le + len(pemDash); ; {
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
