package temporal

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies a token.
type tokKind uint8

const (
	tWord  tokKind = iota // a run of (non-Han) letters
	tNum                  // a run of ASCII digits
	tHan                  // a single Han character (CJK text has no spaces)
	tPunct                // any other single rune, or one invalid byte
)

// token is one lexical unit of the scanned text with its byte span.
type token struct {
	s     string // lower-cased text
	start int    // byte offset of the first byte
	end   int    // byte offset just past the last byte
	kind  tokKind
	lower bool // the original text was already all lower-case
	val   int  // numeric value for tNum tokens of at most 9 digits, else -1
}

// tokenize splits text into tokens. Whitespace separates tokens and is
// dropped; a digit run and a letter run are separate tokens even when they
// touch ("7th" is "7" + "th", "3pm" is "3" + "pm"), and adjacency is kept
// through the byte offsets. It never fails: invalid UTF-8 becomes
// single-byte punctuation tokens.
func tokenize(text string) []token {
	toks := make([]token, 0, len(text)/4+1)
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= '0' && c <= '9':
				j := i + 1
				for j < len(text) && text[j] >= '0' && text[j] <= '9' {
					j++
				}
				toks = append(toks, token{s: text[i:j], start: i, end: j, kind: tNum, val: digitsValue(text[i:j])})
				i = j
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
				i++
			case (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
				j := scanLetters(text, i)
				toks = append(toks, wordToken(text, i, j))
				i = j
			default:
				toks = append(toks, token{s: text[i : i+1], start: i, end: i + 1, kind: tPunct, val: -1})
				i++
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			toks = append(toks, token{s: text[i : i+1], start: i, end: i + 1, kind: tPunct, val: -1})
		case unicode.IsSpace(r):
		case unicode.Is(unicode.Han, r):
			toks = append(toks, token{s: text[i : i+size], start: i, end: i + size, kind: tHan, val: -1})
		case unicode.IsLetter(r):
			j := scanLetters(text, i)
			toks = append(toks, wordToken(text, i, j))
			i = j
			continue
		default:
			toks = append(toks, token{s: text[i : i+size], start: i, end: i + size, kind: tPunct, val: -1})
		}
		i += size
	}
	return toks
}

// scanLetters returns the end of the run of non-Han letters starting at i.
func scanLetters(text string, i int) int {
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if (r == utf8.RuneError && size <= 1) || !unicode.IsLetter(r) || unicode.Is(unicode.Han, r) {
			return i
		}
		i += size
	}
	return i
}

// wordToken builds a tWord token for text[i:j].
func wordToken(text string, i, j int) token {
	raw := text[i:j]
	low := strings.ToLower(raw)
	return token{s: low, start: i, end: j, kind: tWord, lower: low == raw, val: -1}
}

// digitsValue parses an ASCII digit string of at most 9 digits; longer
// strings yield -1.
func digitsValue(s string) int {
	if len(s) > 9 {
		return -1
	}
	v := 0
	for i := 0; i < len(s); i++ {
		v = v*10 + int(s[i]-'0')
	}
	return v
}

// alnum reports whether a token kind is a letter or digit run.
func alnum(k tokKind) bool { return k == tWord || k == tNum }
