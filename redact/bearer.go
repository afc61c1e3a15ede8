package redact

const (
	bearer = "bearer"
	// bearerMin is the shortest token a bare "Bearer" must carry: below
	// it the word is more likely prose ("the bearer bonds") than a
	// credential. An Authorization header has no minimum.
	bearerMin = 16
)

// isTokenChar reports a byte of an RFC 6750 bearer token (b64token)
// before its trailing '=' padding.
func isTokenChar(c byte) bool {
	if isAlnum(c) {
		return true
	}
	switch c {
	case '-', '.', '_', '~', '+', '/':
		return true
	}
	return false
}

// tokenEnd returns the end of the b64token starting at s[i]: token
// characters, then any '=' padding.
func tokenEnd(s string, i int) int {
	for i < len(s) && isTokenChar(s[i]) && !pemAt(s, i) {
		i++
	}
	for i < len(s) && s[i] == '=' {
		i++
	}
	return i
}

// matchBearer looks for "Bearer" (any case) at s[i], blanks, then a token
// of at least bearerMin bytes that looks random (a digit, mixed case or
// one of the punctuation bytes of base64 and JWTs). It returns the
// token's span; "Bearer " itself is kept. The caller has checked the word
// boundary before i.
func matchBearer(s string, i int) (start, end int, ok bool) {
	if !hasPrefixFold(s[i:], bearer) {
		return 0, 0, false
	}
	j := i + len(bearer)
	if j >= len(s) || !isBlank(s[j]) {
		return 0, 0, false
	}
	for j < len(s) && isBlank(s[j]) {
		j++
	}
	e := tokenEnd(s, j)
	if e-j < bearerMin || !tokenLooksRandom(s[j:e]) {
		return 0, 0, false
	}
	return j, e, true
}

// tokenLooksRandom is looksRandom, also accepting the punctuation a
// base64 or JWT token carries; a hyphen alone does not count, so
// "well-intentioned" after "bearer" stays.
func tokenLooksRandom(t string) bool {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '.', '_', '~', '+', '/', '=':
			return true
		}
	}
	return looksRandom(t)
}
