package extmem_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/extmem"
)

// doc is a v2 document holding the given memory objects.
func doc(mems ...string) string {
	return `{"format": "stratagate.external-memory.v2", "memories": [` + strings.Join(mems, ",") + `]}`
}

const (
	bakeMem   = `{"kind": "fact", "title": "Bakes sourdough", "summary": "Bakes sourdough bread on Sundays."}`
	celloMem  = `{"kind": "preference", "title": "Likes cello music", "summary": "Listens to cello music while working."}`
	formatKey = `"format": "stratagate.external-memory.v2"`
)

// parseCase is one document of the table: what Parse must return.
type parseCase struct {
	name   string
	text   string
	err    error    // the specific sentinel; nil = success
	msg    []string // substrings of the error message
	titles []string // the candidates' titles, in order
}

var parseCases = []parseCase{
	{name: "fenced json with prose around",
		text:   "Here is your export:\n\n```json\n" + doc(bakeMem, celloMem) + "\n```\n\nLet me know if you need more.",
		titles: []string{"Bakes sourdough", "Likes cello music"}},
	{name: "bare fence",
		text:   "```\n" + doc(bakeMem) + "\n```",
		titles: []string{"Bakes sourdough"}},
	{name: "tilde fence, upper-case info string",
		text:   "~~~JSON\n" + doc(celloMem) + "\n~~~\n",
		titles: []string{"Likes cello music"}},
	{name: "unclosed fence runs to the end",
		text:   "Sure!\n```json\n" + doc(bakeMem) + "\n",
		titles: []string{"Bakes sourdough"}},
	{name: "prose before and after, no fence",
		text:   "I exported it below. " + doc(bakeMem) + " That is all I remember {roughly}.",
		titles: []string{"Bakes sourdough"}},
	{name: "byte order mark",
		text:   "\uFEFF" + doc(bakeMem),
		titles: []string{"Bakes sourdough"}},
	{name: "a fence with another language first",
		text:   "```python\nprint({'format': 1})\n```\n```json\n" + doc(celloMem) + "\n```",
		titles: []string{"Likes cello music"}},
	{name: "braces and quotes inside strings",
		text:   "Note: {\n" + doc(`{"kind": "fact", "title": "Writes {braces} and \"}\" in notes", "original_text": "I type } and { all day"}`),
		titles: []string{`Writes {braces} and "}" in notes`}},
	{name: "two objects, only the second has format",
		text:   `Settings: {"theme": "dark", "size": {"w": 3}} and the export: ` + doc(bakeMem),
		titles: []string{"Bakes sourdough"}},
	{name: "unknown fields are ignored",
		text: `{"format": "stratagate.external-memory.v2", "version": 7, "extra": {"a": [1, 2]}, "memories": [` +
			`{"kind": "fact", "title": "Keeps bees", "mood": "happy", "temporal": {"weather": "sunny"}}]}`,
		titles: []string{"Keeps bees"}},
	{name: "kind is case-insensitive",
		text:   doc(`{"kind": " Instruction ", "title": "Reply in short lists"}`),
		titles: []string{"Reply in short lists"}},
	{name: "camelCase keys are read too",
		text:   doc(`{"kind": "fact", "originalText": "My flat has a green door."}`),
		titles: []string{"My flat has a green door"}},

	{name: "malformed json in a fence",
		text: "```json\n{" + formatKey + ", \"memories\": [" + bakeMem + ",]}\n```",
		err:  extmem.ErrSyntax, msg: []string{"invalid character", "line 2"}},
	{name: "malformed json in prose",
		text: "Here: {" + formatKey + ", \"memories\": [" + bakeMem + "] \"x\": 1} done",
		err:  extmem.ErrSyntax, msg: []string{"invalid character", "byte"}},
	{name: "truncated document",
		text: "Here: {" + formatKey + ", \"memories\": [" + bakeMem,
		err:  extmem.ErrSyntax, msg: []string{"unterminated"}},
	{name: "trailing text inside the fence",
		text: "```json\n" + doc(bakeMem) + "\nI hope this helps!\n```",
		err:  extmem.ErrSyntax, msg: []string{"after the document"}},
	{name: "wrong format",
		text: `{"format": "stratagate.external-memory.v1", "memories": [` + bakeMem + `]}`,
		err:  extmem.ErrFormat, msg: []string{`"stratagate.external-memory.v1"`}},
	{name: "format not a string",
		text: `{"format": 2, "memories": [` + bakeMem + `]}`,
		err:  extmem.ErrFormat},
	{name: "no document",
		text: "I do not remember anything about you.",
		err:  extmem.ErrNoDocument},
	{name: "objects without format",
		text: `{"memories": []} and {"a": "b"}`,
		err:  extmem.ErrNoDocument},
	{name: "201 memories",
		text: doc(slicesRepeat(bakeMem, 201)...),
		err:  extmem.ErrTooMany, msg: []string{"201", "200"}},
	{name: "zero memories",
		text: doc(),
		err:  extmem.ErrField, msg: []string{"empty"}},
	{name: "memories missing",
		text: `{"format": "stratagate.external-memory.v2"}`,
		err:  extmem.ErrField, msg: []string{"memories"}},
	{name: "memories not an array",
		text: `{"format": "stratagate.external-memory.v2", "memories": {"kind": "fact"}}`,
		err:  extmem.ErrField, msg: []string{"array"}},
	{name: "too large",
		text: doc(bakeMem) + strings.Repeat(" ", extmem.MaxDocumentBytes),
		err:  extmem.ErrTooLarge, msg: []string{"1048576"}},
	{name: "invalid UTF-8",
		text: doc("{\"kind\": \"fact\", \"title\": \"bad \xff byte\"}"),
		err:  extmem.ErrField, msg: []string{"UTF-8"}},
	{name: "unknown kind names the index",
		text: doc(bakeMem, `{"kind": "note", "title": "A note"}`),
		err:  extmem.ErrField, msg: []string{"memories[1].kind", `"note"`}},
	{name: "missing kind",
		text: doc(`{"title": "No kind"}`),
		err:  extmem.ErrField, msg: []string{"memories[0].kind", "missing"}},
	{name: "no text at all",
		text: doc(`{"kind": "fact", "title": "  ", "summary": ""}`),
		err:  extmem.ErrField, msg: []string{"memories[0]", "empty"}},
	{name: "memory not an object",
		text: doc(`"just a string"`),
		err:  extmem.ErrField, msg: []string{"memories[0]"}},
	{name: "title of the wrong type",
		text: doc(`{"kind": "fact", "title": 12}`),
		err:  extmem.ErrField, msg: []string{"memories[0].title"}},
	{name: "control character",
		text: doc(`{"kind": "fact", "title": "bell \u0007 here"}`),
		err:  extmem.ErrField, msg: []string{"memories[0].title", "U+0007"}},
	{name: "original_text over the limit",
		text: doc(bakeMem, `{"kind": "fact", "original_text": "`+strings.Repeat("a ", extmem.MaxOriginalRunes/2+1)+`"}`),
		err:  extmem.ErrField, msg: []string{"memories[1].original_text", "8000"}},
	{name: "scope over the limit",
		text: doc(`{"kind": "fact", "title": "x", "scope": "project:` + strings.Repeat("s", extmem.MaxScopeBytes) + `"}`),
		err:  extmem.ErrField, msg: []string{"memories[0].scope", "256"}},
	{name: "temporal not an object",
		text: doc(`{"kind": "event", "title": "x", "temporal": "yesterday"}`),
		err:  extmem.ErrField, msg: []string{"memories[0].temporal"}},
}

func slicesRepeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestParseTable(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := extmem.Parse(tc.text)
			if tc.err != nil {
				require.Error(t, err)
				assert.ErrorIs(t, err, extmem.ErrInvalidDocument)
				assert.ErrorIs(t, err, tc.err)
				for _, m := range tc.msg {
					assert.Contains(t, err.Error(), m)
				}
				assert.Nil(t, d)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, extmem.Format, d.Format)
			var titles []string
			for i, c := range d.Memories {
				assert.Equal(t, i, c.Index)
				titles = append(titles, c.Title)
				assertVerbatim(t, tc.text, c)
			}
			assert.Equal(t, tc.titles, titles)
		})
	}
}

// assertVerbatim checks that a candidate's verbatim texts occur in the
// pasted text, one per quote.
func assertVerbatim(t *testing.T, text string, c extmem.Candidate) {
	t.Helper()
	assert.Contains(t, text, c.Verbatim.OriginalText)
	assert.Equal(t, c.OriginalText == "", c.Verbatim.OriginalText == "")
	require.Len(t, c.Verbatim.Quotes, len(c.Quotes))
	for _, v := range c.Verbatim.Quotes {
		assert.NotEmpty(t, v)
		assert.Contains(t, text, v)
	}
}

// parseOne parses a document of one memory and returns its candidate.
func parseOne(t *testing.T, mem string) extmem.Candidate {
	t.Helper()
	d, err := extmem.Parse(doc(mem))
	require.NoError(t, err)
	require.Len(t, d.Memories, 1)
	return d.Memories[0]
}

// Missing texts are filled from the others; a warning says so.
func TestParseDerivesTexts(t *testing.T) {
	tests := []struct {
		name, mem, title, summary string
	}{
		{"title from the summary's first sentence",
			`{"kind": "fact", "summary": "Grows tomatoes on the balcony. They rarely ripen."}`,
			"Grows tomatoes on the balcony", "Grows tomatoes on the balcony. They rarely ripen."},
		{"title and summary from the original text",
			`{"kind": "fact", "original_text": "I finally fixed my bike!\nIt took a week."}`,
			"I finally fixed my bike!", "I finally fixed my bike!\nIt took a week."},
		{"summary from the title",
			`{"kind": "instruction", "title": "Use British spelling"}`,
			"Use British spelling", "Use British spelling"},
		{"a decimal point is no sentence end",
			`{"kind": "fact", "summary": "Runs 5.5 km each morning. Rain or shine."}`,
			"Runs 5.5 km each morning", "Runs 5.5 km each morning. Rain or shine."},
		{"title on one line",
			`{"kind": "fact", "title": "Owns\n  two   cats"}`,
			"Owns two cats", "Owns two cats"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseOne(t, tt.mem)
			assert.Equal(t, tt.title, c.Title)
			assert.Equal(t, tt.summary, c.Summary)
			assert.NotEmpty(t, c.Warnings)
		})
	}
}

// Over-long or extra values are clipped or dropped with a warning, never
// refused.
func TestParseBounds(t *testing.T) {
	long := strings.Repeat("word ", 200)
	t.Run("title, summary and category clipped at a word", func(t *testing.T) {
		c := parseOne(t, fmt.Sprintf(`{"kind": "fact", "title": %q, "summary": %q, "category": %q}`, long, long, long))
		assert.LessOrEqual(t, len([]rune(c.Title)), extmem.MaxTitleRunes)
		assert.LessOrEqual(t, len([]rune(c.Summary)), extmem.MaxSummaryRunes)
		assert.LessOrEqual(t, len([]rune(c.Category)), extmem.MaxCategoryRunes)
		for _, s := range []string{c.Title, c.Summary, c.Category} {
			assert.True(t, strings.HasSuffix(s, "word"), "cut between words: %q", s)
		}
		assert.Contains(t, c.Warnings, "title clipped to 120 runes")
		assert.Contains(t, c.Warnings, "summary clipped to 600 runes")
		assert.Contains(t, c.Warnings, "category clipped to 64 runes")
	})
	t.Run("quotes beyond four dropped, long ones clipped", func(t *testing.T) {
		longQuote := strings.Repeat("na", 400)
		c := parseOne(t, fmt.Sprintf(`{"kind": "fact", "title": "x", "quotes": ["one", "", %q, "three", "four", "five", "six"]}`, longQuote))
		require.Len(t, c.Quotes, extmem.MaxQuotes)
		assert.Equal(t, []string{"one", longQuote[:extmem.MaxQuoteRunes], "three", "four"}, c.Quotes)
		assert.Equal(t, c.Quotes, c.Verbatim.Quotes)
		assert.Contains(t, c.Warnings, "2 quotes dropped beyond the limit of 4")
		assert.Contains(t, c.Warnings, "quote 2 clipped to 500 runes")
	})
	t.Run("a lone string is one quote", func(t *testing.T) {
		c := parseOne(t, `{"kind": "fact", "title": "x", "quotes": "  my words  "}`)
		assert.Equal(t, []string{"my words"}, c.Quotes)
	})
	t.Run("participants: long, repeated and extra names", func(t *testing.T) {
		names := []string{`"` + strings.Repeat("N", extmem.MaxNameRunes+1) + `"`, `"Marta"`, `"Marta"`, `" "`}
		for i := range extmem.MaxNames + 2 {
			names = append(names, fmt.Sprintf(`"Friend %d"`, i))
		}
		c := parseOne(t, `{"kind": "event", "title": "x", "temporal": {"participants": [`+strings.Join(names, ",")+`]}}`)
		require.Len(t, c.Temporal.Participants, extmem.MaxNames)
		assert.Equal(t, "Marta", c.Temporal.Participants[0])
		assert.Equal(t, "Friend 10", c.Temporal.Participants[11])
		assert.Contains(t, c.Warnings, "1 participant names over 64 runes dropped")
		assert.Contains(t, c.Warnings, "3 participant names dropped beyond the limit of 12")
	})
	t.Run("participants on the memory itself", func(t *testing.T) {
		c := parseOne(t, `{"kind": "event", "title": "x", "participants": ["Tomasz"]}`)
		assert.Equal(t, []string{"Tomasz"}, c.Temporal.Participants)
	})
	t.Run("confidence clipped into 0..1", func(t *testing.T) {
		assert.InDelta(t, 1.0, parseOne(t, `{"kind": "fact", "title": "x", "confidence": 1.5}`).Confidence, 0)
		c := parseOne(t, `{"kind": "fact", "title": "x", "confidence": -2}`)
		assert.InDelta(t, 0.0, c.Confidence, 0)
		assert.Contains(t, c.Warnings, "confidence -2 clipped to [0, 1]")
		assert.InDelta(t, 0.4, parseOne(t, `{"kind": "fact", "title": "x", "confidence": 0.4}`).Confidence, 1e-9)
	})
	t.Run("criticality normalised", func(t *testing.T) {
		assert.Equal(t, "safety", parseOne(t, `{"kind": "fact", "title": "x", "criticality": "SAFETY"}`).Criticality)
		c := parseOne(t, `{"kind": "fact", "title": "x", "criticality": "urgent"}`)
		assert.Empty(t, c.Criticality)
		assert.Contains(t, c.Warnings, `criticality "urgent" unknown, left to the kind`)
	})
	t.Run("scope trimmed and kept", func(t *testing.T) {
		assert.Equal(t, "project:garden", parseOne(t, `{"kind": "fact", "title": "x", "scope": " project:garden "}`).Scope)
	})
	t.Run("source clipped", func(t *testing.T) {
		d, err := extmem.Parse(`{"format": "stratagate.external-memory.v2", "source": "` + strings.Repeat("bot ", 60) + `", "memories": [` + bakeMem + `]}`)
		require.NoError(t, err)
		assert.LessOrEqual(t, len([]rune(d.Source)), extmem.MaxSourceRunes)
		assert.Contains(t, d.Warnings, "source clipped to 200 runes")
	})
	t.Run("newlines and tabs are allowed", func(t *testing.T) {
		c := parseOne(t, `{"kind": "fact", "title": "x", "original_text": "line one\n\tline two"}`)
		assert.Equal(t, "line one\n\tline two", c.OriginalText)
	})
}

// The verbatim texts are substrings of the pasted text whatever escapes
// the exporter used.
func TestParseVerbatim(t *testing.T) {
	tests := []struct {
		name, literal, decoded, verbatim string
	}{
		{"plain", `"I like rain"`, "I like rain", "I like rain"},
		{"trimmed", `"  I like rain \n"`, "I like rain", "I like rain"},
		{"double quotes", `"she said \"go\" twice"`, `she said "go" twice`, `she said \"go\" twice`},
		{"backslash", `"a path C:\\tmp here"`, `a path C:\tmp here`, `a path C:\\tmp here`},
		{"newline", `"first\nsecond"`, "first\nsecond", `first\nsecond`},
		{"leading escaped space", `"\n  kept \"x\"\t"`, `kept "x"`, `kept \"x\"`},
		{"unicode escape", `"caf\u00e9 au lait"`, "café au lait", `caf\u00e9 au lait`},
		{"surrogate pair", `"a \ud83c\udfbb b \"c\""`, "a 🎻 b \"c\"", `a \ud83c\udfbb b \"c\"`},
		{"lone surrogate", `"x \ud800 y \"z\""`, "x \uFFFD y \"z\"", `x \ud800 y \"z\"`},
		{"solidus escape", `"and\/or \"both\""`, `and/or "both"`, `and\/or \"both\"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := "```json\n" + doc(`{"kind": "fact", "original_text": `+tt.literal+`, "quotes": [`+tt.literal+`]}`) + "\n```"
			d, err := extmem.Parse(text)
			require.NoError(t, err)
			c := d.Memories[0]
			assert.Equal(t, tt.decoded, c.OriginalText)
			assert.Equal(t, []string{tt.decoded}, c.Quotes)
			assert.Equal(t, tt.verbatim, c.Verbatim.OriginalText)
			assert.Equal(t, []string{tt.verbatim}, c.Verbatim.Quotes)
			assertVerbatim(t, text, c)
		})
	}
	t.Run("a clipped quote keeps its escapes", func(t *testing.T) {
		lit := `"` + strings.Repeat(`\"ab\" `, 120) + `"`
		text := doc(`{"kind": "fact", "title": "x", "quotes": [` + lit + `]}`)
		d, err := extmem.Parse(text)
		require.NoError(t, err)
		c := d.Memories[0]
		require.Len(t, c.Quotes, 1)
		assert.LessOrEqual(t, len([]rune(c.Quotes[0])), extmem.MaxQuoteRunes)
		assert.True(t, strings.HasPrefix(c.Verbatim.Quotes[0], `\"ab\" \"ab\"`))
		assert.Equal(t, strings.Count(c.Quotes[0], `"`), strings.Count(c.Verbatim.Quotes[0], `\"`))
		assertVerbatim(t, text, c)
	})
}
