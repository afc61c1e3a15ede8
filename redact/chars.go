package redact

// Byte classes. Every matcher consumes only ASCII bytes at its edges, so a
// finding starts and ends at an ASCII byte (or the end of input) and a
// replacement can never split a UTF-8 sequence.

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isAlnum(c byte) bool { return isDigit(c) || isUpper(c) || isLower(c) }

// isWord reports whether c belongs to a word or an identifier. A key
// prefix must not follow such a byte, so "task-force" and "asking" keep
// their "sk".
func isWord(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

// isBlank reports a space or a tab: the only gaps allowed inside one line
// of a key = value pair or between "Bearer" and its token.
func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// isSpace reports ASCII white space.
func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// isQuote reports a byte that may quote a key or a value.
func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

// lower folds an ASCII letter to lower case.
func lower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether s starts with prefix, ignoring ASCII case;
// prefix must be lower case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lower(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// looksRandom reports whether a candidate key body has a digit or both
// cases of letters. Real keys are random and nearly always do; words
// joined by hyphens or underscores ("sk-learn-compatible-estimators")
// do not.
func looksRandom(body string) bool {
	var up, low bool
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case isDigit(c):
			return true
		case isUpper(c):
			up = true
		case isLower(c):
			low = true
		}
		if up && low {
			return true
		}
	}
	return false
}

// markerLen returns the length of the marker s starts with, or 0: a
// marker is "[redacted:" + lower-case letters and '_' + "]".
func markerLen(s string) int {
	if len(s) < len(markerOpen)+2 || s[:len(markerOpen)] != markerOpen {
		return 0
	}
	for i := len(markerOpen); i < len(s) && i <= len(markerOpen)+32; i++ {
		c := s[i]
		switch {
		case isLower(c) || c == '_':
		case c == markerClose[0] && i > len(markerOpen):
			return i + 1
		default:
			return 0
		}
	}
	return 0
}
