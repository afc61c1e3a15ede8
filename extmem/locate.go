package extmem

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// span is where the document sits in the pasted text: text[start:end].
type span struct{ start, end int }

// fence is one fenced code block's content, as a span of the text.
type fence struct{ span }

// locate finds the document in text: the first fenced block (``` or ~~~,
// any info string) whose content is an object naming "format", else the
// first balanced top-level {…} that decodes and has a "format" key. It
// returns the document's span, or ErrNoDocument / ErrSyntax.
func locate(text string) (span, error) {
	var fenceErr error
	for _, f := range fences(text) {
		body := text[f.start:f.end]
		trimmed := strings.TrimSpace(body)
		if !strings.HasPrefix(trimmed, "{") || !strings.Contains(trimmed, `"format"`) {
			continue
		}
		s := span{f.start + strings.Index(body, trimmed), 0}
		s.end = s.start + len(trimmed)
		// Only the first failure is reported, so only it is described
		// (naming a line costs a pass over the text).
		err := strictObject(text, s, fenceErr == nil)
		if err == nil {
			return s, nil
		}
		if fenceErr == nil {
			fenceErr = err
		}
	}
	if fenceErr != nil {
		// The fenced block is clearly meant as the document: report why
		// it fails rather than guess at another object in the prose.
		return span{}, fenceErr
	}
	return scanObjects(text)
}

// strictObject checks that text[s.start:s.end] is exactly one JSON object
// and nothing else but white space; describe asks for an error that
// says where it fails (else any ErrSyntax will do).
func strictObject(text string, s span, describe bool) error {
	body := text[s.start:s.end]
	dec := json.NewDecoder(strings.NewReader(body))
	var raw json.RawMessage
	err := dec.Decode(&raw)
	rest := ""
	if err == nil {
		rest = strings.TrimSpace(body[dec.InputOffset():])
	}
	switch {
	case err == nil && rest == "":
		return nil
	case !describe:
		return ErrSyntax
	case err != nil:
		return syntaxError(text, s.start, err)
	default:
		at := s.start + int(dec.InputOffset()) + strings.Index(body[dec.InputOffset():], rest)
		return invalid(ErrSyntax, "unexpected text after the document at %s", position(text, at))
	}
}

// syntaxError turns a decoder error for the object starting at base into
// ErrSyntax naming where in the pasted text it went wrong.
func syntaxError(text string, base int, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return invalid(ErrSyntax, "%s at %s", se.Error(), position(text, base+int(se.Offset)))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return invalid(ErrSyntax, "unexpected end of the document starting at %s", position(text, base))
	}
	return invalid(ErrSyntax, "%s", err.Error())
}

// position names a byte offset of text as "byte N (line L, column C)".
func position(text string, off int) string {
	off = min(max(off, 0), len(text))
	line := strings.Count(text[:off], "\n") + 1
	col := off - strings.LastIndexByte(text[:off], '\n')
	return fmt.Sprintf("byte %d (line %d, column %d)", off, line, col)
}

// fences lists the fenced code blocks of text in order. A fence opens on
// a line whose first non-blank characters (at most three spaces in) are
// three or more backticks or tildes, and closes on a line of at least as
// many of the same character; an unclosed fence runs to the end, since a
// reply cut short still holds what was written.
func fences(text string) []fence {
	var out []fence
	open := false
	var mark byte
	var width, bodyStart int
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		next := len(text)
		if end >= 0 {
			end += pos
			next = end + 1
		} else {
			end = len(text)
		}
		line := text[pos:end]
		if !open {
			if c, n, ok := fenceRun(line); ok && (c == '~' || !strings.ContainsRune(line[fenceIndent(line)+n:], '`')) {
				open, mark, width, bodyStart = true, c, n, next
			}
		} else if c, n, ok := fenceRun(line); ok && c == mark && n >= width &&
			strings.TrimSpace(line[fenceIndent(line)+n:]) == "" {
			out = append(out, fence{span{bodyStart, max(pos, bodyStart)}})
			open = false
		}
		pos = next
	}
	if open {
		out = append(out, fence{span{min(bodyStart, len(text)), len(text)}})
	}
	return out
}

// fenceIndent is the number of leading spaces of line, or 4 (too many
// for a fence) when there are more than three.
func fenceIndent(line string) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return min(n, 4)
}

// fenceRun reports the fence character and run length at line's start.
func fenceRun(line string) (byte, int, bool) {
	i := fenceIndent(line)
	if i > 3 || i >= len(line) || (line[i] != '`' && line[i] != '~') {
		return 0, 0, false
	}
	c, n := line[i], 0
	for i+n < len(line) && line[i+n] == c {
		n++
	}
	return c, n, n >= 3
}

// scanBudget bounds the bytes scanBalanced may look at in total, as a
// multiple of the text's length, so that prose full of braces cannot make
// the search quadratic.
const scanBudget = 8

// scanObjects looks for the first balanced top-level {…} with a "format"
// key. A candidate starts at a '{' followed (after white space) by '"' or
// '}', as every JSON object does; one that decodes without "format" is
// skipped whole, one that fails to decode is retried from the next '{'.
// The first failure of a candidate that names "format" is the ErrSyntax
// reported when nothing valid is found.
func scanObjects(text string) (span, error) {
	var firstErr error
	budget := scanBudget*len(text) + 1024
	for i := 0; i < len(text); i++ {
		if text[i] != '{' || !objectStart(text[i+1:]) {
			continue
		}
		end, used := scanBalanced(text[i:], budget)
		budget -= used
		if end < 0 {
			if firstErr == nil && strings.Contains(text[i:], `"format"`) {
				firstErr = invalid(ErrSyntax, "unterminated object starting at %s", position(text, i))
			}
			if budget <= 0 {
				break
			}
			continue
		}
		s := span{i, i + end}
		body := text[s.start:s.end]
		var keys map[string]json.RawMessage
		err := json.Unmarshal([]byte(body), &keys)
		switch {
		case err == nil && keys["format"] != nil:
			return s, nil
		case err == nil:
			i = s.end - 1 // a top-level object that is not ours
		case firstErr == nil && strings.Contains(body, `"format"`):
			firstErr = syntaxError(text, s.start, err)
		}
		if budget <= 0 {
			break
		}
	}
	if firstErr != nil {
		return span{}, firstErr
	}
	return span{}, invalid(ErrNoDocument, "no fenced block or {…} object with a \"format\" key")
}

// objectStart reports whether rest (what follows a '{') can continue a
// JSON object: white space, then a key's quote or the closing brace.
func objectStart(rest string) bool {
	t := strings.TrimLeft(rest, " \t\r\n")
	return t != "" && (t[0] == '"' || t[0] == '}')
}

// scanBalanced returns the length of the balanced {…} at s's start,
// counting braces outside JSON strings only, or -1 when it does not close
// (or the budget runs out); used is how many bytes it looked at.
func scanBalanced(s string, budget int) (end, used int) {
	depth, inString, escaped := 0, false, false
	for i := 0; i < len(s); i++ {
		if i >= budget {
			return -1, i
		}
		c := s[i]
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1, i + 1
			}
		}
	}
	return -1, len(s)
}
