package redact

import "strings"

// isUserinfo reports a byte RFC 3986 allows in a URL's userinfo
// (unreserved, percent-encoded, sub-delims and ':'); '@' is handled by
// matchURL.
func isUserinfo(c byte) bool {
	if isAlnum(c) {
		return true
	}
	switch c {
	case '-', '.', '_', '~', '%', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', ':':
		return true
	}
	return false
}

// matchURL looks for user:password@ right after a "://" whose first byte
// after the slashes is s[i]. It returns the span of "user:password" (the
// part before the last '@' of the authority, so an unescaped '@' inside
// the password is covered too; an '@' counts only when a host follows
// it), or ok false when there is no such '@' or no ':' before it. A user name alone ("git@") is not
// a secret.
func matchURL(s string, i int) (start, end int, ok bool) {
	at := -1
	for e := i; e < len(s); e++ {
		if c := s[e]; c == '@' {
			if hostStart(s, e+1) {
				at = e
			}
		} else if !isUserinfo(c) {
			break
		}
	}
	if at < 0 || strings.IndexByte(s[i:at], ':') < 0 {
		return 0, 0, false
	}
	return i, at, true
}

// hostStart reports whether a host can start at s[i]: a letter or digit,
// or the '[' of an IPv6 literal. A marker is not a host: the secret it
// replaced (a PEM block after "u:p@") did not read as one either, and
// String must not find more in its own output than in its input.
func hostStart(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	return isAlnum(s[i]) || (s[i] == '[' && markerLen(s[i:]) == 0)
}
