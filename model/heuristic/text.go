package heuristic

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenCount counts word tokens, each Han character counting as one, and
// returns 0 for text without any letter.
func tokenCount(s string) int {
	n := 0
	letter := false
	t := tokenizer{s: s}
	for {
		tok, han, ok := t.next()
		if !ok {
			break
		}
		if han {
			n += utf8.RuneCountInString(tok)
			letter = true
		} else {
			n++
			letter = letter || hasLetter(tok)
		}
	}
	if !letter {
		return 0
	}
	return n
}

// forEachSentence calls fn with each trimmed, non-empty sentence of s.
// A sentence ends at a line break; after ".", "!", "?" or "…" (plus any
// closing quotes or brackets) when followed by white space or the end;
// and always after "。", "！" or "？", since CJK text has no spaces.
func forEachSentence(s string, fn func(string)) {
	emit := func(t string) {
		if t = strings.TrimSpace(t); t != "" {
			fn(t)
		}
	}
	start, i := 0, 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\r', '\u2028', '\u2029', '\u0085':
			emit(s[start:i])
			i += n
			start = i
			continue
		case '.', '!', '?', '…':
			j := skipClosers(s, i+n)
			if j == len(s) {
				emit(s[start:])
				return
			}
			if next, _ := utf8.DecodeRuneInString(s[j:]); unicode.IsSpace(next) {
				emit(s[start:j])
				i, start = j, j
				continue
			}
		case '。', '！', '？':
			j := skipClosers(s, i+n)
			emit(s[start:j])
			i, start = j, j
			continue
		}
		i += n
	}
	emit(s[start:])
}

// skipClosers returns the index after any closing quotes or brackets at i.
func skipClosers(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '"', '\'', ')', ']', '’', '”', '」', '』', '）', '】':
			i += n
		default:
			return i
		}
	}
	return i
}

// tokenizer yields the words and Han runs of a string. A word is a run of
// letters, digits and combining marks, starting with a letter or digit;
// a single "." or "-" between two such characters is kept inside it
// ("fly.io", "follow-up"). A Han run is a maximal run of Han characters.
type tokenizer struct {
	s string
	i int
}

// next returns the next token, whether it is a Han run, and false at the
// end.
func (t *tokenizer) next() (tok string, han, ok bool) {
	s, i := t.s, t.i
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isHan(r) || isWordStart(r) {
			break
		}
		i += n
	}
	if i >= len(s) {
		t.i = i
		return "", false, false
	}
	start := i
	r, n := utf8.DecodeRuneInString(s[i:])
	i += n
	if isHan(r) {
		for i < len(s) {
			r, n = utf8.DecodeRuneInString(s[i:])
			if !isHan(r) {
				break
			}
			i += n
		}
		t.i = i
		return s[start:i], true, true
	}
	for i < len(s) {
		r, n = utf8.DecodeRuneInString(s[i:])
		if isHan(r) {
			break
		}
		if isWordRune(r) {
			i += n
			continue
		}
		if r == '.' || r == '-' {
			r2, n2 := utf8.DecodeRuneInString(s[i+n:])
			if n2 > 0 && !isHan(r2) && isWordStart(r2) {
				i += n + n2
				continue
			}
		}
		break
	}
	t.i = i
	return s[start:i], false, true
}

// forEachBigram calls fn with each pair of adjacent runes of a Han run of
// at least two characters.
func forEachBigram(run string, fn func(string)) {
	for i := 0; i < len(run); {
		_, n1 := utf8.DecodeRuneInString(run[i:])
		if i+n1 >= len(run) {
			return
		}
		_, n2 := utf8.DecodeRuneInString(run[i+n1:])
		fn(run[i : i+n1+n2])
		i += n1
	}
}

// isHan reports whether r is a Han (CJK ideographic) character.
func isHan(r rune) bool { return r >= 0x2E80 && unicode.Is(unicode.Han, r) }

// isWordStart reports whether r can start a word: a letter or a digit.
// ASCII is decided here, as unicode decides it; the tokenizers ask for
// every character of every message several times per block.
func isWordStart(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isWordRune reports whether r continues a word: a letter, digit or
// combining mark (no ASCII character is a mark).
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// isCapitalised reports whether tok starts with an upper- or title-case
// letter.
func isCapitalised(tok string) bool {
	r, _ := utf8.DecodeRuneInString(tok)
	return unicode.IsUpper(r) || unicode.IsTitle(r)
}

// hasLetter reports whether s contains a letter.
func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// sharesRune reports whether a and b have a character in common.
func sharesRune(a, b string) bool {
	for _, r := range a {
		if strings.ContainsRune(b, r) {
			return true
		}
	}
	return false
}

// appendLower appends the lower-case form of s to dst rune by rune, which
// keeps the rune count and matches strings.ToLower.
func appendLower(dst []byte, s string) []byte {
	for _, r := range s {
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	return dst
}

// upperFirst upper-cases the first rune of s.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// validUTF8 replaces each invalid byte sequence in s with U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// cleanText collapses runs of white space into one space and trims.
func cleanText(s string) string {
	clean := true
	prevSpace := true
	for _, r := range s {
		sp := unicode.IsSpace(r)
		if sp && (prevSpace || r != ' ') {
			clean = false
			break
		}
		prevSpace = sp
	}
	if clean && !prevSpace {
		return s
	}
	return collapseSpace(s)
}

// collapseSpace joins the fields of s with single spaces.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// stripMarker removes leading list, quote and heading markers ("- ",
// "* ", "• ", "> ", "## ") that carry no meaning in a fact.
func stripMarker(s string) string {
	for {
		t := strings.TrimLeft(s, "-*•>#")
		if t == s || t == "" || !strings.HasPrefix(t, " ") {
			return s
		}
		s = strings.TrimSpace(t)
	}
}

// endSentence appends a full stop (ideographic after Han text) to s unless
// it already ends with terminal punctuation, so that joined excerpts read
// as separate sentences.
func endSentence(s string) string {
	t := strings.TrimRight(s, "\"')]’”」』）】")
	r, _ := utf8.DecodeLastRuneInString(t)
	switch {
	case r == utf8.RuneError && t == "":
		return s
	case strings.ContainsRune(".!?…。！？", r):
		return s
	case isHan(r):
		return s + "。"
	default:
		return s + "."
	}
}

// truncate shortens s to at most max runes on a rune boundary, ending it
// with "…" when anything was cut. The result is trimmed.
func truncate(s string, max int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	cut, n := 0, 0
	for i := range s {
		if n == max-ellipsisRunes {
			cut = i
			break
		}
		n++
	}
	return strings.TrimSpace(s[:cut]) + ellipsis
}
