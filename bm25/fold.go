package bm25

import (
	"unicode"
	"unicode/utf8"
)

// latin1Fold maps U+00C0..U+00FF to a lower-case ASCII letter. '.' marks a
// non-letter (× and ÷, which never reach the table); '*' marks a letter
// whose folding is two letters (see latinFold).
const latin1Fold = "" +
	"aaaaaa*ceeeeiiii" + // U+00C0..U+00CF
	"dnooooo.ouuuuy**" + // U+00D0..U+00DF
	"aaaaaa*ceeeeiiii" + // U+00E0..U+00EF
	"dnooooo.ouuuuy*y" //   U+00F0..U+00FF

// latinExtAFold maps U+0100..U+017F the same way.
const latinExtAFold = "" +
	"aaaaaaccccccccdd" + // U+0100..U+010F
	"ddeeeeeeeeeegggg" + // U+0110..U+011F
	"gggghhhhiiiiiiii" + // U+0120..U+012F
	"ii**jjkkklllllll" + // U+0130..U+013F
	"lllnnnnnnnnnoooo" + // U+0140..U+014F
	"oo**rrrrrrssssss" + // U+0150..U+015F
	"ssttttttuuuuuuuu" + // U+0160..U+016F
	"uuuuwwyyyzzzzzzs" //   U+0170..U+017F

// latinFold returns the ASCII folding of a Latin-1 Supplement or Latin
// Extended-A letter, and false for any other rune. The result is a
// constant string, so callers copy bytes without allocating.
func latinFold(r rune) (string, bool) {
	var c byte
	switch {
	case r >= 0xC0 && r < 0x100:
		c = latin1Fold[r-0xC0]
	case r >= 0x100 && r < 0x180:
		c = latinExtAFold[r-0x100]
	default:
		return "", false
	}
	if c == '.' {
		return "", false
	}
	if c != '*' {
		// Slicing a constant string of single letters avoids a 256-entry
		// string table.
		return asciiLetters[c-'a' : c-'a'+1], true
	}
	switch r {
	case 0xC6, 0xE6: // Æ æ
		return "ae", true
	case 0xDE, 0xFE: // Þ þ
		return "th", true
	case 0xDF: // ß
		return "ss", true
	case 0x132, 0x133: // Ĳ ĳ
		return "ij", true
	case 0x152, 0x153: // Œ œ
		return "oe", true
	}
	return "", false
}

const asciiLetters = "abcdefghijklmnopqrstuvwxyz"

// foldWidth applies the NFKC width folding StrataGate needs: fullwidth
// ASCII (U+FF01..U+FF5E) to ASCII and the ideographic space to a space.
func foldWidth(r rune) rune {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return r - 0xFEE0
	case r == 0x3000:
		return ' '
	}
	return r
}

// decodeFold decodes the rune at text[i:], width-folds and lower-cases it.
// It returns -1 at the end of text and utf8.RuneError (a separator) for an
// invalid byte, so malformed input can never panic or join words.
func decodeFold(text string, i int) (rune, int) {
	if i >= len(text) {
		return -1, 0
	}
	if c := text[i]; c < utf8.RuneSelf {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return rune(c), 1
	}
	r, size := utf8.DecodeRuneInString(text[i:])
	if r == utf8.RuneError {
		return utf8.RuneError, size
	}
	return unicode.ToLower(foldWidth(r)), size
}

// isCJK reports whether r is bigrammed rather than word-split: Han,
// Hiragana, Katakana and Hangul, plus the prolonged-sound mark and the
// iteration mark (script Common) that only occur inside such runs.
func isCJK(r rune) bool {
	if r < 0x1100 {
		return false // fast path: nothing below Hangul Jamo qualifies
	}
	switch {
	case r >= 0x4E00 && r <= 0x9FFF, // CJK Unified Ideographs
		r >= 0x3041 && r <= 0x3096, // Hiragana letters
		r >= 0x30A1 && r <= 0x30FA, // Katakana letters
		r >= 0xAC00 && r <= 0xD7A3, // Hangul syllables
		r == 0x30FC || r == 0x3005: // ー 々
		return true // fast path for the common blocks
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// isWordRune reports whether a folded rune can start or continue a word:
// a letter or digit that is not CJK.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z'
	}
	if r == utf8.RuneError {
		return false
	}
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !isCJK(r)
}

// isCombiningDiacritic reports whether r is in Combining Diacritical Marks
// (U+0300..U+036F). Such marks are dropped without splitting the word, so
// decomposed "cafe\u0301" folds like precomposed "café".
func isCombiningDiacritic(r rune) bool { return r >= 0x300 && r <= 0x36F }

// isApostrophe reports whether r is an apostrophe that may sit inside a
// word: ASCII ' (fullwidth ＇ is width-folded to it), ’ and ʼ.
func isApostrophe(r rune) bool { return r == '\'' || r == 0x2019 || r == 0x02BC }
