package bm25

import (
	"strings"
	"unicode/utf8"
)

// MaxTermLen is the longest term, in bytes, that the tokenizer emits.
// Longer words are cut to the longest valid UTF-8 prefix that fits.
const MaxTermLen = 64

// Token is one term of a text together with its ordinal position, which
// snippet extraction uses to locate matches.
type Token struct {
	// Term is the normalised term as stored in the index.
	Term string
	// Pos is the ordinal of the token in the input, counting every word
	// (dropped stopwords included) and every CJK bigram or unigram.
	Pos int
}

// Tokenize splits text into normalised terms with their positions. It
// never panics, whatever the input; see the package doc for the rules.
func Tokenize(text string) []Token {
	var s scanner
	s.init(text)
	var out []Token
	for {
		term, pos, ok := s.next()
		if !ok {
			return out
		}
		if out == nil {
			// One word per ~6 bytes is typical for English prose.
			out = make([]Token, 0, len(text)/6+1)
		}
		out = append(out, Token{Term: term, Pos: pos})
	}
}

// AppendTerms appends the terms of text to dst and returns the extended
// slice; it yields exactly the terms of Tokenize, without positions. It is
// the indexing and querying hot path: a term that is a byte-for-byte
// substring of text is returned as such, and all other terms of one call
// share a single allocation (so retaining any of them retains that block).
func AppendTerms(dst []string, text string) []string {
	var s scanner
	s.init(text)
	for {
		term, _, ok := s.next()
		if !ok {
			return dst
		}
		dst = append(dst, term)
	}
}

// scanner walks a text once, producing terms on demand. It must not be
// copied after init (it embeds a strings.Builder).
type scanner struct {
	text string
	i    int // byte offset of the next rune to read
	pos  int // ordinal of the next token

	cjk       int  // offset of the previous rune of the current CJK run, or -1
	cjkPaired bool // whether that run has already emitted a bigram

	// arena backs the terms that differ from every substring of text. It
	// is sized once, so earlier terms (views of arena.String()) stay valid
	// and immutable while later ones are appended.
	arena strings.Builder

	buf [MaxTermLen]byte // the folded word being built
}

func (s *scanner) init(text string) {
	s.text = text
	s.cjk = -1
}

// next returns the next term and its position, or ok == false at the end.
func (s *scanner) next() (term string, pos int, ok bool) {
	for s.i < len(s.text) {
		r, size := decodeFold(s.text, s.i)
		if r >= 0x1100 && isCJK(r) {
			if s.cjk >= 0 {
				term = s.text[s.cjk : s.i+size]
				s.cjk, s.cjkPaired = s.i, true
				s.i += size
				return term, s.advance(), true
			}
			s.cjk, s.cjkPaired = s.i, false
			s.i += size
			continue
		}
		if s.cjk >= 0 {
			if term, ok = s.endCJK(); ok {
				return term, s.advance(), true
			}
		}
		if isWordRune(r) {
			if term, ok = s.word(); ok {
				return term, s.advance(), true
			}
			continue
		}
		s.i += size
	}
	if s.cjk >= 0 {
		if term, ok = s.endCJK(); ok {
			return term, s.advance(), true
		}
	}
	return "", 0, false
}

// advance hands out the current position and moves to the next one.
func (s *scanner) advance() int {
	p := s.pos
	s.pos++
	return p
}

// endCJK closes the current CJK run at s.i. A run of a single character
// never formed a bigram, so that character is emitted as a unigram.
func (s *scanner) endCJK() (string, bool) {
	start, paired := s.cjk, s.cjkPaired
	s.cjk = -1
	if paired {
		return "", false
	}
	return s.text[start:s.i], true
}

// word consumes the word starting at s.i (whose first rune is a word rune)
// and returns its term, or ok == false for a stopword. Either way the word
// takes one position.
func (s *scanner) word() (string, bool) {
	start := s.i
	n := 0             // bytes of s.buf in use
	truncated := false // some rune did not fit in s.buf
	stemmable := true  // s.buf holds only ASCII a-z
	prevDigit := false // the last word rune was an ASCII digit
	j := start
scan:
	for j < len(s.text) {
		if c := asciiWord[s.text[j]&0x7F]; c != 0 && s.text[j] < utf8.RuneSelf {
			// Fast path for ASCII letters and digits, most of any text.
			j++
			prevDigit = c <= '9'
			switch {
			case truncated:
			case n == MaxTermLen:
				truncated = true
			default:
				s.buf[n] = c
				n++
				stemmable = stemmable && c >= 'a'
			}
			continue
		}
		r, size := decodeFold(s.text, j)
		switch {
		case isWordRune(r):
			j += size
			prevDigit = '0' <= r && r <= '9'
			if truncated {
				continue
			}
			var w int
			w, stemmable = s.put(n, r, stemmable)
			if w < 0 {
				truncated = true
				continue
			}
			n += w
		case isCombiningDiacritic(r):
			j += size
		case isApostrophe(r):
			r2, size2 := decodeFold(s.text, j+size)
			if !isWordRune(r2) {
				break scan // a leading or trailing quote, not an apostrophe
			}
			if r2 == 's' {
				if r3, _ := decodeFold(s.text, j+size+size2); !isWordRune(r3) && !isCombiningDiacritic(r3) {
					j += size + size2 // possessive 's is dropped
					break scan
				}
			}
			j += size // an inner apostrophe is dropped: don't -> dont
		case r == '.' && prevDigit:
			r2, _ := decodeFold(s.text, j+size)
			if r2 < '0' || r2 > '9' {
				break scan
			}
			j += size
			prevDigit = false
			stemmable = false
			if !truncated {
				if n+1 > MaxTermLen {
					truncated = true
					continue
				}
				s.buf[n] = '.'
				n++
			}
		default:
			break scan
		}
	}
	s.i = j

	if !truncated && isStopwordBytes(s.buf[:n]) {
		s.pos++ // stopwords keep their position so Pos stays an input ordinal
		return "", false
	}
	if stemmable && !truncated {
		n = stem(s.buf[:n])
	}
	return s.intern(start, n), true
}

// asciiWord maps an ASCII letter or digit to its folded byte, anything
// else to 0.
var asciiWord = func() (t [128]byte) {
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c] = c
		t[c-'a'+'A'] = c
	}
	return t
}()

// put writes the folded form of the word rune r at s.buf[n:] and returns
// the bytes written (-1 when it does not fit) and the updated stemmable flag.
func (s *scanner) put(n int, r rune, stemmable bool) (int, bool) {
	if r < utf8.RuneSelf {
		if n+1 > MaxTermLen {
			return -1, stemmable
		}
		s.buf[n] = byte(r)
		return 1, stemmable && 'a' <= r && r <= 'z'
	}
	if f, ok := latinFold(r); ok {
		if n+len(f) > MaxTermLen {
			return -1, stemmable
		}
		return copy(s.buf[n:], f), stemmable
	}
	if n+utf8.RuneLen(r) > MaxTermLen {
		return -1, false
	}
	return utf8.EncodeRune(s.buf[n:], r), false
}

// intern returns s.buf[:n] as a string: a substring of the input when the
// bytes match there (no allocation), otherwise a view of the arena.
func (s *scanner) intern(start, n int) string {
	b := s.buf[:n]
	if end := start + n; end <= len(s.text) && s.text[start:end] == string(b) {
		return s.text[start:end]
	}
	if s.arena.Cap()-s.arena.Len() < n {
		if s.arena.Cap() > 0 {
			// Growing would move the bytes under earlier terms; this
			// term gets its own allocation instead. Folding rarely
			// lengthens text, so this is the exception.
			return string(b)
		}
		// Folded terms are at most as long as the rest of the text, bar
		// rare lower-casings that grow a rune by a byte.
		s.arena.Grow(len(s.text) - start + MaxTermLen)
	}
	off := s.arena.Len()
	s.arena.Write(b)
	return s.arena.String()[off:]
}
