package extmem

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fence rules, each on a reply written for it.
func TestFences(t *testing.T) {
	bodies := func(text string) []string {
		var out []string
		for _, f := range fences(text) {
			out = append(out, text[f.start:f.end])
		}
		return out
	}
	tests := []struct {
		name, text string
		want       []string
	}{
		{"backticks with an info string", "Here:\n```json\n{}\n```\nbye", []string{"{}\n"}},
		{"tildes", "~~~\n{}\n~~~", []string{"{}\n"}},
		{"up to three spaces of indent", "   ```\nx\n   ```", []string{"x\n"}},
		{"four spaces is code, not a fence", "    ```\nx\n    ```", nil},
		{"the closing run may be longer", "```\nx\n`````\n", []string{"x\n"}},
		{"a shorter run does not close", "````\nx\n```\ny\n````", []string{"x\n```\ny\n"}},
		{"the other character does not close", "```\nx\n~~~\ny\n```", []string{"x\n~~~\ny\n"}},
		{"inline backticks open nothing", "use ```json fences``` please\n{}", nil},
		{"text after a closing run keeps it open", "```\nx\n``` not yet\n```", []string{"x\n``` not yet\n"}},
		{"an unclosed fence runs to the end", "```json\n{\"a\": 1}", []string{"{\"a\": 1}"}},
		{"an empty block", "```\n```", []string{""}},
		{"two blocks", "```\na\n```\ntext\n~~~\nb\n~~~", []string{"a\n", "b\n"}},
		{"CRLF lines", "```json\r\n{}\r\n```\r\n", []string{"{}\r\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, bodies(tt.text))
		})
	}
}

// A candidate object starts at a '{' that a JSON object can follow;
// braces in prose ("{roughly}") are not tried.
func TestObjectStart(t *testing.T) {
	assert.True(t, objectStart(`"format": 1}`))
	assert.True(t, objectStart("\n  \"a\": 1}"))
	assert.True(t, objectStart("}"))
	assert.False(t, objectStart("roughly}"))
	assert.False(t, objectStart(" "))
	assert.False(t, objectStart(""))
}

// Brace matching skips braces inside strings, escaped quotes included.
func TestScanBalanced(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{`{}`, 2},
		{`{"a": "}"} tail`, 10},
		{`{"a": "\"}"}`, 12},
		{`{"a": "\\"} x`, 11},
		{`{"a": {"b": {}}}`, 16},
		{`{"a": "{"`, -1},
		{`{"a": 1`, -1},
	}
	for _, tt := range tests {
		end, _ := scanBalanced(tt.s, len(tt.s)+1)
		assert.Equal(t, tt.want, end, tt.s)
	}
	end, used := scanBalanced(`{"a": 1}`, 3)
	assert.Equal(t, -1, end, "out of budget")
	assert.Equal(t, 3, used)
}

// Prose full of braces does not make the search quadratic: it ends
// quickly, with no document.
func TestScanObjectsBudget(t *testing.T) {
	text := strings.Repeat(`{"`, MaxDocumentBytes/4)
	_, err := scanObjects(text)
	require.ErrorIs(t, err, ErrNoDocument)

	// Under the budget, a document after a few unclosed braces is found.
	text = strings.Repeat(`{"x `, 5) + `{"format": "f"}`
	s, err := scanObjects(text)
	require.NoError(t, err)
	assert.Equal(t, `{"format": "f"}`, text[s.start:s.end])
}

// clip cuts at a word when one ends in the second half of the limit.
func TestClip(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"one two three", 9, "one two"},
		{"one two three", 7, "one two"},
		{"one two three", 8, "one two"},
		{"abcdefghij", 4, "abcd"},
		{"a bcdefghij", 6, "a bcde"},
		{"héllo wörld", 7, "héllo"},
		{"trailing   ", 9, "trailing"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, clip(tt.s, tt.n), "%q %d", tt.s, tt.n)
	}
}

// firstSentence ends at ". ", "! ", "? " or a line break.
func TestFirstSentence(t *testing.T) {
	tests := []struct{ s, want string }{
		{"Grows basil. Also mint.", "Grows basil"},
		{"Is it done? Not yet.", "Is it done?"},
		{"Version 2.1 is out", "Version 2.1 is out"},
		{"First line\nsecond line", "First line"},
		{"Ends here.", "Ends here"},
		{"...", ".."},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, firstSentence(tt.s), tt.s)
	}
}
