package stratagate_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// extractModel derives blocks with the heuristic model and answers
// extraction with fn (the heuristic model when fn returns "").
type extractModel struct {
	mu sync.Mutex
	fn func(in *model.ExtractInput) string
}

func (e *extractModel) Name() string { return "extract-script" }

func (e *extractModel) Complete(ctx context.Context, req model.Request) (string, error) {
	if req.Task == model.TaskExtractEvents {
		e.mu.Lock()
		fn := e.fn
		e.mu.Unlock()
		if fn != nil {
			if out := fn(req.Input.(*model.ExtractInput)); out != "" {
				return out, nil
			}
		}
	}
	return heuristic.New().Complete(ctx, req)
}

func extractJSON(evs ...model.ExtractedEvent) string {
	b, _ := json.Marshal(model.ExtractOutput{Events: evs})
	return string(b)
}

// findCard returns the first card whose quotes contain s.
func findCard(t *testing.T, mem *stratagate.Memory, query, quote string) stratagate.EventDetail {
	t.Helper()
	hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: query, Scopes: atlasScopes, Limit: 50})
	require.NoError(t, err)
	for _, h := range hits {
		d, err := mem.ExpandEvent(ctx, h.ID)
		require.NoError(t, err)
		for _, q := range d.Card.Quotes {
			if strings.Contains(q, quote) {
				return d
			}
		}
	}
	t.Fatalf("no card quoting %q among %d hits for %q", quote, len(hits), query)
	return stratagate.EventDetail{}
}

func TestEventsFromSampleHaveTwoClocks(t *testing.T) {
	mem, _ := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	s, err := mem.Stats(ctx)
	require.NoError(t, err)
	require.Zero(t, s.JobsFailed)

	cases := []struct {
		query, quote string
		mentioned    string // date of the message, in its own offset
		happened     string // resolved day
	}{
		{"Leo moved Seattle", "I moved last Saturday", "2024-05-08", "2024-05-04"},
		{"Kiwi parrot adopted", "We picked up Kiwi yesterday", "2024-05-08", "2024-05-07"},
		{"Docker Compose Postgres", "the day before yesterday I set up Docker Compose", "2024-03-19", "2024-03-17"},
	}
	for _, c := range cases {
		t.Run(c.quote, func(t *testing.T) {
			d := findCard(t, mem, c.query, c.quote)
			tm := d.Card.Temporal
			assert.Equal(t, c.mentioned, tm.MentionedAt.Format("2006-01-02"))
			assert.Equal(t, c.happened, tm.HappenedStart.Format("2006-01-02"), "happened ≠ mentioned")
			assert.Equal(t, "day", tm.Precision)
			assert.True(t, tm.HappenedEnd.After(tm.HappenedStart))
			require.NotEmpty(t, d.Sources)
			assert.Contains(t, d.Sources[0].Content, c.quote, "the source is the verbatim message")
			assert.NotEmpty(t, d.BlockSummary)
		})
	}
}

func TestExtractionRejectsInvalidCards(t *testing.T) {
	em := &extractModel{}
	em.fn = func(in *model.ExtractInput) string {
		first := in.Messages[0]
		good := model.ExtractedEvent{Title: "good", Summary: "a valid card", Quotes: []string{first.Content[:10]}, MessageIDs: []uint64{first.ID}, EventType: "decided", Status: "done"}
		foreign := good
		foreign.Title, foreign.MessageIDs = "foreign", []uint64{first.ID + 1000}
		fabricated := good
		fabricated.Title, fabricated.Quotes = "fabricated", []string{"words nobody ever said"}
		stranger := good
		stranger.Title, stranger.Participants = "stranger", []string{"Zorro"}
		badLink := good
		badLink.Title, badLink.Supersedes = "bad link", []uint64{424242}
		return extractJSON(good, foreign, fabricated, stranger, badLink)
	}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 2, Model: em})
	appendN(t, mem, "t", 1, 3)
	waitIdle(t, mem)
	hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: "good foreign fabricated stranger link valid card"})
	require.NoError(t, err)
	require.Len(t, hits, 1, "only the valid card is stored")
	assert.Equal(t, "good", hits[0].Title)
	assert.Equal(t, "decision", hits[0].EventType, "types are normalised")
	assert.Equal(t, "completed", hits[0].Status)
}

func TestSupersedeAndConflictKeepBothCards(t *testing.T) {
	em := &extractModel{}
	em.fn = func(in *model.ExtractInput) string {
		m := in.Messages[0]
		ev := model.ExtractedEvent{Title: "card " + m.Content[:10], Summary: "s", Quotes: []string{m.Content[:12]}, MessageIDs: []uint64{m.ID}, EventType: "fact"}
		if len(in.Existing) > 0 && strings.HasPrefix(m.Content, "Message 3") {
			ev.Supersedes = []uint64{in.Existing[len(in.Existing)-1].ID}
		}
		if len(in.Existing) > 0 && strings.HasPrefix(m.Content, "Message 5") {
			ev.ConflictsWith = []uint64{in.Existing[0].ID}
		}
		return extractJSON(ev)
	}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 2, Model: em})
	appendN(t, mem, "t", 1, 7) // blocks of turns 1–2, 3–4, 5–6
	waitIdle(t, mem)
	hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: "card message", Limit: 10})
	require.NoError(t, err)
	require.Len(t, hits, 3, "superseded cards stay searchable as history")
	byTitle := map[string]stratagate.EventDetail{}
	for _, h := range hits {
		d, err := mem.ExpandEvent(ctx, h.ID)
		require.NoError(t, err)
		byTitle[d.Card.Title[:14]] = d
	}
	first, second, third := byTitle["card Message 1"], byTitle["card Message 3"], byTitle["card Message 5"]
	assert.Equal(t, events.LifecycleSuperseded, first.Card.Lifecycle)
	require.NotNil(t, first.SupersededBy)
	assert.Equal(t, second.Card.ID, first.SupersededBy.ID)
	assert.Equal(t, []uint64{first.Card.ID}, second.Card.SupersedesEventIDs)
	require.Len(t, second.Supersedes, 1)
	assert.Equal(t, "card Message 1", second.Supersedes[0].Title[:14], "the old card's text is intact")
	assert.Contains(t, third.Card.ConflictsWithEventIDs, second.Card.ID)
	assert.Contains(t, second.Card.ConflictsWithEventIDs, third.Card.ID, "conflicts link both ways")
	assert.NotEmpty(t, first.Sources, "the superseded card keeps its provenance")
	assert.LessOrEqual(t, first.Weight, events.SupersededCap)
	require.NoError(t, mem.CheckIndexes(ctx))
}

func TestForgetAndRestore(t *testing.T) {
	mem, _ := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	d := findCard(t, mem, "Leo moved Seattle", "I moved last Saturday")
	require.NoError(t, mem.Forget(ctx, d.Card.ID))
	require.NoError(t, mem.Forget(ctx, d.Card.ID), "forgetting twice is a no-op")
	for _, q := range []string{"Leo moved Seattle", "last Saturday", "moved"} {
		hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: q, Scopes: atlasScopes, Limit: 200})
		require.NoError(t, err)
		for _, h := range hits {
			assert.NotEqual(t, d.Card.ID, h.ID, "a forgotten card is never returned")
		}
	}
	got, err := mem.ExpandEvent(ctx, d.Card.ID)
	require.NoError(t, err)
	assert.Equal(t, events.LifecycleForgotten, got.Card.Lifecycle)
	assert.Equal(t, d.Sources, got.Sources, "provenance still expands")
	assert.Zero(t, got.Weight)
	require.NoError(t, mem.CheckIndexes(ctx))

	require.NoError(t, mem.Restore(ctx, d.Card.ID))
	back := findCard(t, mem, "Leo moved Seattle", "I moved last Saturday")
	assert.Equal(t, d.Card.ID, back.Card.ID)
	assert.Equal(t, d.Card.Lifecycle, back.Card.Lifecycle)
	require.NoError(t, mem.CheckIndexes(ctx))
	assert.ErrorIs(t, mem.Forget(ctx, 999999), stratagate.ErrNotFound)
}

func TestOnlyUseChangesWeights(t *testing.T) {
	mem, _ := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	queries := []string{"Leo moved Seattle", "coffee tea", "launch date", "Postgres decision", "Kiwi parrot"}
	snapshot := func() ([][]stratagate.EventHit, map[uint64]float64) {
		var ranks [][]stratagate.EventHit
		weights := map[uint64]float64{}
		for _, q := range queries {
			hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: q, Scopes: atlasScopes})
			require.NoError(t, err)
			ranks = append(ranks, hits)
			for _, h := range hits {
				d, err := mem.ExpandEvent(ctx, h.ID)
				require.NoError(t, err)
				weights[h.ID] = d.Weight
			}
		}
		return ranks, weights
	}
	ranks, weights := snapshot()
	for i := range 1000 {
		_, err := mem.SearchEvents(ctx, stratagate.Query{Text: queries[i%len(queries)], Scopes: atlasScopes})
		require.NoError(t, err)
	}
	ranks2, weights2 := snapshot()
	assert.Equal(t, ranks, ranks2, "1,000 searches change no ranking")
	assert.Equal(t, weights, weights2, "1,000 searches change no weight")

	target := ranks[0][len(ranks[0])-1].ID
	a1 := sufficientAssessment(t, mem, []uint64{target, ranks[1][0].ID}, nil)
	require.NoError(t, mem.RecordMemoryUse(ctx, stratagate.Use{ReceiptID: "answer-1", AssessmentID: a1, EventIDs: []uint64{target}}))
	_, weights3 := snapshot()
	for id, w := range weights {
		if id == target {
			assert.Greater(t, weights3[id], w, "the used card gained weight")
		} else {
			assert.Equal(t, w, weights3[id], "card %d unchanged", id)
		}
	}
	// Idempotent by receipt; the same receipt with other ids is an error.
	require.NoError(t, mem.RecordMemoryUse(ctx, stratagate.Use{ReceiptID: "answer-1", AssessmentID: a1, EventIDs: []uint64{target}}))
	_, weights4 := snapshot()
	assert.Equal(t, weights3, weights4)
	err := mem.RecordMemoryUse(ctx, stratagate.Use{ReceiptID: "answer-1", AssessmentID: a1, EventIDs: []uint64{target, ranks[1][0].ID}})
	assert.ErrorIs(t, err, stratagate.ErrReceiptConflict)
	err = mem.RecordMemoryUse(ctx, stratagate.Use{ReceiptID: "answer-2", AssessmentID: a1, EventIDs: []uint64{target, 987654}})
	assert.ErrorIs(t, err, stratagate.ErrAssessment, "an id the assessment does not cite")
	_, weights5 := snapshot()
	assert.Equal(t, weights3, weights5, "a rejected use writes nothing")
	assert.ErrorIs(t, mem.RecordMemoryUse(ctx, stratagate.Use{EventIDs: []uint64{target}}), stratagate.ErrEmpty)
}

func TestWeightFormula(t *testing.T) {
	c := events.Card{Criticality: events.CriticalityRoutine, Lifecycle: events.LifecycleActive}
	assert.Zero(t, events.WeightFor(&c, events.Use{}, false, 10), "never adopted: the floor")
	u := events.Use{Adoptions: 1, LastTurn: 10}
	assert.InDelta(t, 1.0, events.WeightFor(&c, u, true, 10), 1e-12)
	assert.InDelta(t, mathExp(-0.15*20), events.WeightFor(&c, u, true, 30), 1e-12)
	u.Adoptions = 3
	lambda := 0.15 / (1 + 1.5*mathLog(3))
	assert.InDelta(t, mathExp(-lambda*20), events.WeightFor(&c, u, true, 30), 1e-12, "more adoptions decay slower")
	c.Criticality = events.CriticalityIdentity
	assert.InDelta(t, 0.9, events.WeightFor(&c, u, true, 1000), 1e-12, "identity floor")
	c.Lifecycle = events.LifecycleSuperseded
	assert.InDelta(t, 0.1, events.WeightFor(&c, u, true, 10), 1e-12, "superseded cap")
	c.Lifecycle = events.LifecycleForgotten
	assert.Zero(t, events.WeightFor(&c, u, true, 10))
}

func TestSearchEventsStructuredAndZeroMatch(t *testing.T) {
	mem, _ := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: "zzzz qqqq", Scopes: atlasScopes})
	require.NoError(t, err)
	assert.Empty(t, hits, "no lexical or structured match: no result")
	// A participant named in the query is a structured match.
	hits, err = mem.SearchEvents(ctx, stratagate.Query{Text: "what did Leo do", Scopes: atlasScopes, Limit: 20})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	leo := 0
	for _, h := range hits {
		for _, p := range h.Participants {
			if strings.Contains(p, "Leo") {
				leo++
				break
			}
		}
	}
	assert.Greater(t, leo, len(hits)/2, "mostly Leo's events")
	// A time expression in the query ranks events that happened then.
	hits, err = mem.SearchEvents(ctx, stratagate.Query{Text: "what happened on 4 May 2024", Scopes: atlasScopes, Limit: 5})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	assert.Equal(t, "2024-05-04", hits[0].HappenedStart.Format("2006-01-02"))
	// Scope isolation: the personal thread is global, the team thread project:atlas.
	hits, err = mem.SearchEvents(ctx, stratagate.Query{Text: "Postgres", Scopes: []string{"global"}, Limit: 50})
	require.NoError(t, err)
	for _, h := range hits {
		d, err := mem.ExpandEvent(ctx, h.ID)
		require.NoError(t, err)
		assert.Equal(t, "global", d.Card.Scope)
	}
	_, err = mem.SearchEvents(ctx, stratagate.Query{Text: "x", Scopes: []string{"bad scope"}})
	assert.ErrorIs(t, err, stratagate.ErrScope)
}
