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
// the password is covered too), or ok false when the authority has no '@',
// no ':' before it or no host after it. A user name alone ("git@") is not
// a secret.
func matchURL(s string, i int) (start, end int, ok bool) {
	at := -1
	for e := i; e < len(s); e++ {
		if c := s[e]; c == '@' {
			at = e
		} else if !isUserinfo(c) {
			break
		}
	}
	if at < 0 || at+1 >= len(s) || !(isAlnum(s[at+1]) || s[at+1] == '[') {
		return 0, 0, false
	}
	if strings.IndexByte(s[i:at], ':') < 0 {
		return 0, 0, false
	}
	return i, at, true
}
