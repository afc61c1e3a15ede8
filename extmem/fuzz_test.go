package extmem_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stratagate/stratagate/extmem"
)

// FuzzParse: for any text, Parse does not panic; an error wraps
// ErrInvalidDocument; a document holds 1–200 candidates whose strings are
// within bounds, whose verbatim texts occur in the input, and which carry
// no dates where the precision or basis is unknown.
func FuzzParse(f *testing.F) {
	for _, tc := range parseCases {
		if len(tc.text) < 1<<16 {
			f.Add(tc.text)
		}
	}
	f.Add(extmem.ExportPrompt())
	f.Add(doc(`{"kind": "fact", "original_text": "a \"b\" \\ \u00e9 \ud83c\udfbb \ud800\n", "quotes": ["\"q\"", " \t", "x"]}`))
	f.Add(doc(`{"kind": "event", "title": "t", "temporal": {"original_text": "last week", "mentioned_at": "2261-12-30", "precision": "week", "basis": "relative"}}`))
	f.Add(doc(`{"kind": "event", "title": "t", "temporal": {"happened_start": "2261-12", "precision": "season", "basis": "explicit"}}`))
	f.Add("```json\n{\"format\": \"x\"}\n```\n" + doc(bakeMem))
	f.Fuzz(func(t *testing.T, text string) {
		d, err := extmem.Parse(text)
		if err != nil {
			if !errors.Is(err, extmem.ErrInvalidDocument) {
				t.Fatalf("error %v does not wrap ErrInvalidDocument", err)
			}
			if d != nil {
				t.Fatal("a document with an error")
			}
			return
		}
		if d.Format != extmem.Format || len(d.Memories) == 0 || len(d.Memories) > extmem.MaxCandidates {
			t.Fatalf("format %q, %d memories", d.Format, len(d.Memories))
		}
		checkText(t, "source", d.Source, 0, extmem.MaxSourceRunes)
		for i, c := range d.Memories {
			checkCandidate(t, text, i, c)
		}
	})
}

func checkCandidate(t *testing.T, text string, i int, c extmem.Candidate) {
	t.Helper()
	if c.Index != i || !slices.Contains([]extmem.Kind{extmem.KindInstruction, extmem.KindPreference, extmem.KindFact, extmem.KindEvent}, c.Kind) {
		t.Fatalf("memory %d: index %d, kind %q", i, c.Index, c.Kind)
	}
	checkText(t, "title", c.Title, 1, extmem.MaxTitleRunes)
	checkText(t, "summary", c.Summary, 1, extmem.MaxSummaryRunes)
	checkText(t, "category", c.Category, 0, extmem.MaxCategoryRunes)
	checkText(t, "original_text", c.OriginalText, 0, extmem.MaxOriginalRunes)
	checkText(t, "scope", c.Scope, 0, extmem.MaxScopeBytes)
	if len(c.Quotes) > extmem.MaxQuotes || len(c.Verbatim.Quotes) != len(c.Quotes) {
		t.Fatalf("%d quotes, %d verbatim", len(c.Quotes), len(c.Verbatim.Quotes))
	}
	for k, q := range c.Quotes {
		checkText(t, "quote", q, 1, extmem.MaxQuoteRunes)
		if v := c.Verbatim.Quotes[k]; v == "" || !strings.Contains(text, v) {
			t.Fatalf("verbatim quote %q not in the text", v)
		}
	}
	if v := c.Verbatim.OriginalText; (v == "") != (c.OriginalText == "") || !strings.Contains(text, v) {
		t.Fatalf("verbatim original %q not in the text", v)
	}
	if !slices.Contains([]string{"", "routine", "preference", "identity", "safety"}, c.Criticality) {
		t.Fatalf("criticality %q", c.Criticality)
	}
	if !(c.Confidence >= 0 && c.Confidence <= 1) {
		t.Fatalf("confidence %v", c.Confidence)
	}
	tm := c.Temporal
	checkText(t, "time text", tm.OriginalText, 0, extmem.MaxTimeTextRunes)
	checkText(t, "event type", tm.EventType, 0, extmem.MaxNameRunes)
	if len(tm.Participants) > extmem.MaxNames {
		t.Fatalf("%d participants", len(tm.Participants))
	}
	for _, n := range tm.Participants {
		checkText(t, "participant", n, 1, extmem.MaxNameRunes)
	}
	if !slices.Contains([]string{"instant", "day", "week", "month", "season", "year", "range", "unknown"}, tm.Precision) ||
		!slices.Contains([]string{"explicit", "relative", "inferred", "said", "unknown"}, tm.Basis) ||
		!slices.Contains([]string{"completed", "planned", "cancelled", "ongoing", "unknown"}, tm.Status) {
		t.Fatalf("temporal words %q %q %q", tm.Precision, tm.Basis, tm.Status)
	}
	if tm.Precision == "unknown" || tm.Basis == "unknown" {
		if !tm.HappenedStart.IsZero() || !tm.HappenedEnd.IsZero() {
			t.Fatalf("unknown precision or basis with dates %+v", tm)
		}
	} else if !tm.HappenedStart.IsZero() && !tm.HappenedEnd.After(tm.HappenedStart) {
		t.Fatalf("empty interval %+v", tm)
	}
	for _, at := range []int{tm.HappenedStart.Year(), tm.HappenedEnd.Year(), tm.MentionedAt.Year()} {
		if at != 1 && (at < 1678 || at > 2262) {
			t.Fatalf("a date out of the encoding's range: %+v", tm)
		}
	}
}

// checkText fails unless s is valid UTF-8 without control characters
// (but newline and tab), trimmed, with a length in [lo, hi] (runes; bytes
// for the scope).
func checkText(t *testing.T, name, s string, lo, hi int) {
	t.Helper()
	n := utf8.RuneCountInString(s)
	if name == "scope" {
		n = len(s)
	}
	if n < lo || n > hi || !utf8.ValidString(s) || strings.TrimSpace(s) != s {
		t.Fatalf("%s %q: %d, want %d–%d, trimmed UTF-8", name, s, n, lo, hi)
	}
	for _, r := range s {
		if r != '\n' && r != '\t' && unicode.IsControl(r) {
			t.Fatalf("%s %q: control character %U", name, s, r)
		}
	}
}
