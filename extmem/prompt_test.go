package extmem_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/extmem"
)

// The prompt's own example is a valid document: pasting the prompt back
// yields its four memories, dated by the rules it states.
func TestExportPromptExampleParses(t *testing.T) {
	p := extmem.ExportPrompt()
	d, err := extmem.Parse(p)
	require.NoError(t, err)
	assert.Equal(t, "Example Assistant", d.Source)
	assert.Equal(t, time.Date(2024, 10, 2, 18, 30, 0, 0, time.UTC), d.ExportedAt)
	assert.Empty(t, d.Warnings)
	require.Len(t, d.Memories, 4)
	for _, c := range d.Memories {
		assert.Empty(t, c.Warnings, c.Title)
		assertVerbatim(t, p, c)
	}

	ins, cello, move, run := d.Memories[0], d.Memories[1], d.Memories[2], d.Memories[3]
	assert.Equal(t, extmem.KindInstruction, ins.Kind)
	assert.Equal(t, "Distances in kilometres", ins.Title)
	assert.Equal(t, []string{"always give me distances in kilometres"}, ins.Quotes)
	assert.Equal(t, "preference", ins.Criticality)
	assert.InDelta(t, 0.95, ins.Confidence, 1e-9)
	assert.True(t, ins.Temporal.HappenedStart.IsZero())

	// Relative, resolved against the day it was said.
	assert.Equal(t, extmem.KindEvent, cello.Kind)
	assert.Equal(t, "last spring", cello.Temporal.OriginalText)
	assert.Equal(t, time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), cello.Temporal.HappenedStart)
	assert.Equal(t, time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), cello.Temporal.HappenedEnd)
	assert.Equal(t, "season", cello.Temporal.Precision)
	assert.Equal(t, "ongoing", cello.Temporal.Status)

	// Explicit month.
	assert.Equal(t, extmem.KindFact, move.Kind)
	assert.Equal(t, time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC), move.Temporal.HappenedStart)
	assert.Equal(t, time.Date(2021, 4, 1, 0, 0, 0, 0, time.UTC), move.Temporal.HappenedEnd)
	assert.Equal(t, []string{"Jonas"}, move.Temporal.Participants)
	assert.Equal(t, "life_event", move.Temporal.EventType)

	// Unknown: no dates.
	assert.Equal(t, "ages ago", run.Temporal.OriginalText)
	assert.True(t, run.Temporal.HappenedStart.IsZero())
	assert.Equal(t, "unknown", run.Temporal.Precision)
	assert.Equal(t, "unknown", run.Temporal.Basis)
}

// The prompt asks for a fenced object, names every field, states every
// bound and the date rules.
func TestExportPromptContent(t *testing.T) {
	p := extmem.ExportPrompt()
	assert.Contains(t, p, "```json\n{")
	assert.Contains(t, p, extmem.Format)
	for _, field := range []string{"format", "exported_at", "source", "memories", "kind", "category", "title", "summary",
		"original_text", "quotes", "scope", "criticality", "confidence", "temporal", "mentioned_at", "happened_start",
		"happened_end", "precision", "basis", "status", "participants", "event_type"} {
		assert.Contains(t, p, `"`+field+`"`)
	}
	for _, w := range []string{"instruction", "preference", "fact", "event", "instant", "day", "week", "month", "season",
		"year", "range", "explicit", "relative", "inferred", "said", "completed", "planned", "cancelled", "ongoing",
		"routine", "identity", "safety"} {
		assert.Contains(t, p, `"`+w+`"`)
	}
	for _, n := range []int{extmem.MaxCandidates, extmem.MaxTitleRunes, extmem.MaxSummaryRunes, extmem.MaxCategoryRunes,
		extmem.MaxQuotes, extmem.MaxQuoteRunes, extmem.MaxOriginalRunes, extmem.MaxNames, extmem.MaxNameRunes,
		extmem.MaxTimeTextRunes, extmem.MaxScopeBytes, extmem.MaxSourceRunes} {
		assert.Contains(t, p, " "+strconv.Itoa(n)+" ", "bound %d", n)
	}
	for _, rule := range []string{"NEVER invent a date", `"precision": "unknown" and "basis": "unknown"`,
		`"basis": "relative"`, "Never use today's date or the export date", "word for word"} {
		assert.Contains(t, p, rule)
	}
	assert.Equal(t, 2, strings.Count("\n"+p, "\n```"), "one fenced block only: the example")
}
