package extmem

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// rawDocument is the document as JSON holds it; every field stays raw so
// that a wrong type is reported per field and strings keep their literal.
// Multi-word keys are also read in camelCase (snake_case wins), since
// exporters drift between the two.
type rawDocument struct {
	Format        json.RawMessage `json:"format"`
	ExportedAt    json.RawMessage `json:"exported_at"`
	ExportedAtAlt json.RawMessage `json:"exportedAt"`
	Source        json.RawMessage `json:"source"`
	Memories      json.RawMessage `json:"memories"`
}

type rawMemory struct {
	Kind            json.RawMessage `json:"kind"`
	Category        json.RawMessage `json:"category"`
	Title           json.RawMessage `json:"title"`
	Summary         json.RawMessage `json:"summary"`
	Quotes          json.RawMessage `json:"quotes"`
	OriginalText    json.RawMessage `json:"original_text"`
	OriginalTextAlt json.RawMessage `json:"originalText"`
	Scope           json.RawMessage `json:"scope"`
	Criticality     json.RawMessage `json:"criticality"`
	Confidence      json.RawMessage `json:"confidence"`
	Temporal        json.RawMessage `json:"temporal"`
	Participants    json.RawMessage `json:"participants"` // read when temporal has none
}

// Parse reads a stratagate.external-memory.v2 document out of pasted
// text: the reply of another AI, with prose and code fences around the
// JSON (see docs/IMPORT.md). Outside the document it is tolerant; the
// document itself must be strict JSON with the right format and at most
// MaxCandidates memories. Over-long texts are clipped and extra quotes or
// names dropped, each with a warning on the candidate; a memory that
// cannot be used as given (no kind, no text, control characters, an
// over-long original_text or scope) fails the whole document, so that a
// user re-exports rather than imports half of it. Every error wraps
// ErrInvalidDocument and one of ErrNoDocument, ErrSyntax, ErrFormat,
// ErrTooLarge, ErrTooMany or ErrField. Parse never panics.
func Parse(text string) (*Document, error) {
	if len(text) > MaxDocumentBytes {
		return nil, invalid(ErrTooLarge, "%d bytes, the limit is %d", len(text), MaxDocumentBytes)
	}
	if !utf8.ValidString(text) {
		return nil, invalid(ErrField, "the text is not valid UTF-8 at %s", position(text, firstInvalid(text)))
	}
	text = strings.TrimPrefix(text, "\uFEFF")
	s, err := locate(text)
	if err != nil {
		return nil, err
	}
	var raw rawDocument
	if err := json.Unmarshal([]byte(text[s.start:s.end]), &raw); err != nil {
		return nil, syntaxError(text, s.start, err)
	}
	p := parser{text: text}
	format, err := p.str("format", raw.Format)
	if err != nil {
		return nil, invalid(ErrFormat, "format is not a string")
	}
	if format != Format {
		if isNull(raw.Format) {
			return nil, invalid(ErrFormat, "no format field, want %q", Format)
		}
		return nil, invalid(ErrFormat, "format %q, want %q", clip(format, MaxSourceRunes), Format)
	}
	doc := &Document{Format: Format}
	doc.ExportedAt, doc.Warnings = p.date("exported_at", pick(raw.ExportedAt, raw.ExportedAtAlt), doc.Warnings)
	if doc.Source, err = p.line("source", raw.Source, MaxSourceRunes, &doc.Warnings); err != nil {
		return nil, err
	}
	if isNull(raw.Memories) {
		return nil, invalid(ErrField, "memories: missing")
	}
	var mems []json.RawMessage
	if err := json.Unmarshal(raw.Memories, &mems); err != nil {
		return nil, invalid(ErrField, "memories: want an array")
	}
	switch {
	case len(mems) > MaxCandidates:
		return nil, invalid(ErrTooMany, "%d memories, the limit is %d", len(mems), MaxCandidates)
	case len(mems) == 0:
		return nil, invalid(ErrField, "memories: the array is empty")
	}
	doc.Memories = make([]Candidate, 0, len(mems))
	for i, m := range mems {
		c, err := p.candidate(i, m)
		if err != nil {
			return nil, err
		}
		doc.Memories = append(doc.Memories, c)
	}
	return doc, nil
}

// parser carries the pasted text (for Verbatim) through field decoding.
type parser struct{ text string }

// candidate validates and bounds memories[i].
func (p *parser) candidate(i int, data json.RawMessage) (Candidate, error) {
	c := Candidate{Index: i}
	at := func(field string) string { return fmt.Sprintf("memories[%d].%s", i, field) }
	var m rawMemory
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		if err := json.Unmarshal(data, &m); err != nil {
			return c, invalid(ErrField, "memories[%d]: %s", i, err.Error())
		}
	} else {
		return c, invalid(ErrField, "memories[%d]: want an object", i)
	}
	kind, err := p.str(at("kind"), m.Kind)
	if err != nil {
		return c, err
	}
	switch k := Kind(strings.ToLower(strings.TrimSpace(kind))); k {
	case KindInstruction, KindPreference, KindFact, KindEvent:
		c.Kind = k
	case "":
		return c, invalid(ErrField, "%s: missing, want instruction, preference, fact or event", at("kind"))
	default:
		return c, invalid(ErrField, "%s: %q, want instruction, preference, fact or event", at("kind"), clip(kind, MaxCategoryRunes))
	}
	if c.Category, err = p.line(at("category"), m.Category, MaxCategoryRunes, &c.Warnings); err != nil {
		return c, err
	}
	original := pick(m.OriginalText, m.OriginalTextAlt)
	origDecoded, err := p.str(at("original_text"), original)
	if err != nil {
		return c, err
	}
	c.OriginalText = strings.TrimSpace(origDecoded)
	if n := utf8.RuneCountInString(c.OriginalText); n > MaxOriginalRunes {
		return c, invalid(ErrField, "%s: %d runes, the limit is %d", at("original_text"), n, MaxOriginalRunes)
	}
	c.Verbatim.OriginalText = verbatim(p.text, string(original), origDecoded, c.OriginalText)
	if c.Title, err = p.line(at("title"), m.Title, MaxTitleRunes, &c.Warnings); err != nil {
		return c, err
	}
	summary, err := p.str(at("summary"), m.Summary)
	if err != nil {
		return c, err
	}
	c.Summary = p.bounded("summary", strings.TrimSpace(summary), MaxSummaryRunes, &c.Warnings)
	if err := p.texts(&c); err != nil {
		return c, invalid(ErrField, "memories[%d]: %s", i, err.Error())
	}
	if err := p.quotes(at("quotes"), m.Quotes, &c); err != nil {
		return c, err
	}
	scope, err := p.str(at("scope"), m.Scope)
	if err != nil {
		return c, err
	}
	if c.Scope = strings.TrimSpace(scope); len(c.Scope) > MaxScopeBytes {
		// Clipping a scope would file the memory somewhere else.
		return c, invalid(ErrField, "%s: %d bytes, the limit is %d", at("scope"), len(c.Scope), MaxScopeBytes)
	}
	crit, err := p.str(at("criticality"), m.Criticality)
	if err != nil {
		return c, err
	}
	switch v := strings.ToLower(strings.TrimSpace(crit)); v {
	case "", "routine", "preference", "identity", "safety":
		c.Criticality = v
	default:
		c.Warnings = append(c.Warnings, fmt.Sprintf("criticality %q unknown, left to the kind", clip(crit, MaxCategoryRunes)))
	}
	if c.Confidence, err = p.confidence(at("confidence"), m.Confidence, &c.Warnings); err != nil {
		return c, err
	}
	if c.Temporal, err = p.temporal(i, m.Temporal, m.Participants, &c.Warnings); err != nil {
		return c, err
	}
	return c, nil
}

// texts fills in a missing title or summary from the other texts: the
// title from the summary's or original text's first sentence, the
// summary from the original text or the title.
func (p *parser) texts(c *Candidate) error {
	if c.Title == "" && c.Summary == "" && c.OriginalText == "" {
		return fmt.Errorf("title, summary and original_text are all empty")
	}
	if c.Title == "" {
		from, src := "summary", c.Summary
		if src == "" {
			from, src = "original_text", c.OriginalText
		}
		c.Title = clip(firstSentence(src), MaxTitleRunes)
		if c.Title == "" { // a first "sentence" of punctuation only
			c.Title = clip(oneLine(src), MaxTitleRunes)
		}
		c.Warnings = append(c.Warnings, "title derived from "+from)
	}
	if c.Summary == "" {
		from, src := "original_text", c.OriginalText
		if src == "" {
			from, src = "title", c.Title
		}
		c.Summary = clip(src, MaxSummaryRunes)
		c.Warnings = append(c.Warnings, "summary derived from "+from)
	}
	return nil
}

// quotes reads up to MaxQuotes non-empty quotes (a lone string counts as
// one), each clipped to MaxQuoteRunes, with their verbatim form.
func (p *parser) quotes(field string, data json.RawMessage, c *Candidate) error {
	if isNull(data) {
		return nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(data, &list); err != nil {
		if bytes.HasPrefix(bytes.TrimSpace(data), []byte(`"`)) {
			list = []json.RawMessage{data}
		} else {
			return invalid(ErrField, "%s: want an array of strings", field)
		}
	}
	dropped := 0
	for k, lit := range list {
		decoded, err := p.str(fmt.Sprintf("%s[%d]", field, k), lit)
		if err != nil {
			return err
		}
		q := strings.TrimSpace(decoded)
		switch {
		case q == "":
			continue
		case len(c.Quotes) == MaxQuotes:
			dropped++
			continue
		}
		if clipped := clip(q, MaxQuoteRunes); clipped != q {
			c.Warnings = append(c.Warnings, fmt.Sprintf("quote %d clipped to %d runes", k, MaxQuoteRunes))
			q = clipped
		}
		c.Quotes = append(c.Quotes, q)
		c.Verbatim.Quotes = append(c.Verbatim.Quotes, verbatim(p.text, string(lit), decoded, q))
	}
	if dropped > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%d quotes dropped beyond the limit of %d", dropped, MaxQuotes))
	}
	return nil
}

// confidence reads a number, clipped into [0, 1].
func (p *parser) confidence(field string, data json.RawMessage, warnings *[]string) (float64, error) {
	if isNull(data) {
		return 0, nil
	}
	var v float64
	if err := json.Unmarshal(data, &v); err != nil {
		return 0, invalid(ErrField, "%s: want a number from 0 to 1", field)
	}
	if v < 0 || v > 1 {
		*warnings = append(*warnings, fmt.Sprintf("confidence %g clipped to [0, 1]", v))
		v = min(max(v, 0), 1)
	}
	return v, nil
}

// str decodes an optional JSON string (absent or null → ""), refusing
// other types and control characters other than newline and tab.
func (p *parser) str(field string, data json.RawMessage) (string, error) {
	if isNull(data) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return "", invalid(ErrField, "%s: want a string", field)
	}
	if r, bad := badControl(s); bad {
		return "", invalid(ErrField, "%s: control character %U", field, r)
	}
	return s, nil
}

// line decodes a one-line string field (white space collapsed) clipped to
// n runes with a warning.
func (p *parser) line(field string, data json.RawMessage, n int, warnings *[]string) (string, error) {
	s, err := p.str(field, data)
	if err != nil {
		return "", err
	}
	name := field[strings.LastIndexByte(field, '.')+1:]
	return p.bounded(name, oneLine(s), n, warnings), nil
}

// bounded clips s to n runes, noting it in warnings.
func (p *parser) bounded(name, s string, n int, warnings *[]string) string {
	if c := clip(s, n); c != s {
		*warnings = append(*warnings, fmt.Sprintf("%s clipped to %d runes", name, n))
		return c
	}
	return s
}

// isNull reports an absent or null JSON value.
func isNull(data json.RawMessage) bool {
	t := bytes.TrimSpace(data)
	return len(t) == 0 || string(t) == "null"
}

// pick returns the first value that is present and not null.
func pick(a, b json.RawMessage) json.RawMessage {
	if isNull(a) {
		return b
	}
	return a
}

// firstInvalid is the offset of text's first invalid UTF-8 byte.
func firstInvalid(text string) int {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(text)
}
