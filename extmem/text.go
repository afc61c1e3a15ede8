package extmem

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// docError is what Parse returns: it wraps ErrInvalidDocument and one
// specific sentinel, and reads as that sentinel plus the detail.
type docError struct {
	kind error
	msg  string
}

func (e *docError) Error() string   { return e.kind.Error() + ": " + e.msg }
func (e *docError) Unwrap() []error { return []error{ErrInvalidDocument, e.kind} }

// invalid builds a Parse error of the given kind (ErrSyntax, ErrField…).
func invalid(kind error, format string, a ...any) error {
	return &docError{kind: kind, msg: fmt.Sprintf(format, a...)}
}

// badControl returns the first control character of s other than newline
// and tab, and whether there is one: such characters have no place in a
// memory and may hide text from a reader.
func badControl(s string) (rune, bool) {
	for _, r := range s {
		if r != '\n' && r != '\t' && unicode.IsControl(r) {
			return r, true
		}
	}
	return 0, false
}

// oneLine collapses every run of white space to one space: titles,
// categories and names are single lines.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip shortens s to at most n runes, at the last space within the limit
// when there is one in its second half (so a word is not cut), else at
// exactly n runes. The result is always a prefix of s, trimmed at the
// right.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut, count := len(s), 0
	for i := range s {
		if count == n {
			cut = i
			break
		}
		count++
	}
	head := s[:cut]
	if next, _ := utf8.DecodeRuneInString(s[cut:]); !unicode.IsSpace(next) {
		if sp := strings.LastIndexFunc(head, unicode.IsSpace); sp > 0 && utf8.RuneCountInString(head[:sp]) >= n/2 {
			head = head[:sp]
		}
	}
	return strings.TrimRightFunc(head, unicode.IsSpace)
}

// firstSentence is text up to its first sentence end (". ", "! ", "? ",
// or a line break), without the closing period, on one line.
func firstSentence(text string) string {
	end := len(text)
scan:
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			end = i
			break scan
		case '.', '!', '?':
			if i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n' || text[i+1] == '\t' {
				end = i + 1
				break scan
			}
		}
	}
	return oneLine(strings.TrimSuffix(text[:end], "."))
}

// verbatim returns how a decoded and then trimmed and clipped string (got,
// a substring of decoded starting after its leading white space) occurs
// in the pasted text: got itself when the text holds it, else the part of
// the JSON string literal lit (quotes included, as in the text) that
// encodes it, escapes and all. Either way the result is a substring of
// text; "" when it cannot be found, which never happens for a literal
// taken from text.
func verbatim(text, lit, decoded, got string) string {
	if got == "" || strings.Contains(text, got) {
		return got
	}
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return ""
	}
	interior := lit[1 : len(lit)-1]
	lead := utf8.RuneCountInString(decoded) - utf8.RuneCountInString(strings.TrimLeftFunc(decoded, unicode.IsSpace))
	from, to := literalOffset(interior, lead), literalOffset(interior, lead+utf8.RuneCountInString(got))
	if from < 0 || to < from {
		return ""
	}
	out := interior[from:to]
	if !strings.Contains(text, out) {
		return ""
	}
	return out
}

// literalOffset is the byte offset in a JSON string literal's interior
// where the n-th decoded rune starts (len(interior) for the end), or -1.
// It follows encoding/json: a \u escape is one rune, a surrogate pair of
// them is one rune, a lone surrogate is one U+FFFD.
func literalOffset(interior string, n int) int {
	i := 0
	for k := 0; k < n; k++ {
		if i >= len(interior) {
			return -1
		}
		if interior[i] != '\\' {
			_, size := utf8.DecodeRuneInString(interior[i:])
			i += size
			continue
		}
		if i+1 < len(interior) && interior[i+1] == 'u' {
			r, ok := hex4(interior, i+2)
			i += 6
			if ok && utf16.IsSurrogate(r) && r < 0xdc00 && i+1 < len(interior) && interior[i] == '\\' && interior[i+1] == 'u' {
				if r2, ok2 := hex4(interior, i+2); ok2 && r2 >= 0xdc00 && r2 <= 0xdfff {
					i += 6
				}
			}
			continue
		}
		i += 2
	}
	if i > len(interior) {
		return -1
	}
	return i
}

// hex4 decodes the four hex digits at s[i:].
func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[i:i+4], 16, 16)
	return rune(v), err == nil
}
