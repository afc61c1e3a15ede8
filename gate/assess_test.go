package gate_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/gate"
)

// assess observes items in a fresh session (after the given earlier
// rounds) and returns the heuristic assessment, validated.
func assess(t *testing.T, question string, st gate.Strategy, items ...gate.Item) gate.Assessment {
	t.Helper()
	s := gate.NewSessionQuestion(gate.Analyze(question, now), gate.Budget{})
	if st == gate.SearchEvents {
		_, ok := s.Next() // the first step; otherwise the batch names its own step
		require.True(t, ok)
	}
	b := s.Observe(gate.Batch{Strategy: st, Items: items})
	require.NotNil(t, b)
	require.Equal(t, st, b.Strategy)
	require.NotNil(t, b)
	a, err := gate.HeuristicAssessor{}.Assess(context.Background(), s.Question(), b, s.State())
	require.NoError(t, err)
	v, err := s.Record(a)
	require.NoError(t, err)
	assert.Equal(t, a.Verdict, v.Verdict, "the heuristic assessment needs no normalisation")
	assert.Equal(t, a.NextStrategy, v.NextStrategy)
	assert.Empty(t, v.RejectedRefs)
	assert.LessOrEqual(t, len([]rune(a.Fit)), gate.MaxTextLen)
	return a
}

func TestHeuristicAssessor(t *testing.T) {
	day := func(d int) (time.Time, time.Time) {
		s := time.Date(2023, 5, d, 0, 0, 0, 0, time.UTC)
		return s, s.AddDate(0, 0, 1)
	}
	s7, e7 := day(7)
	tests := []struct {
		name     string
		question string
		items    []gate.Item
		verdict  gate.Verdict
		strategy gate.Strategy
		refs     []string
		missing  string
		target   string
	}{
		{
			name:     "list with two matching items is sufficient",
			question: "Which pets does Mia have?",
			items: []gate.Item{
				{Ref: "e1", Title: "Mia adopted a kitten named Luna"},
				{Ref: "e2", Title: "Tom walks his dog"},
				{Ref: "e3", Title: "Mia's parrot Kiwi learned a word"},
			},
			verdict: gate.Sufficient, strategy: gate.Answer, refs: []string{"e1", "e3"},
		},
		{
			name:     "a list from cards alone waits for the raw source",
			question: "Which pets does Mia have?",
			items: []gate.Item{
				{Ref: "e1", Title: "Mia adopted a kitten named Luna"},
				{Ref: "e3", Title: "Mia's parrot Kiwi learned a word"},
			},
			verdict: gate.Partial, strategy: gate.SearchRawMemory, refs: []string{"e1", "e3"}, missing: "other items of the list",
		},
		{
			name:     "list with one item on the first round is partial",
			question: "Which pets does Mia have?",
			items:    []gate.Item{{Ref: "e1", Title: "Mia adopted a kitten named Luna"}},
			verdict:  gate.Partial, strategy: gate.SearchRawMemory, refs: []string{"e1"}, missing: "other items of the list",
		},
		{
			name:     "missing entity is partial",
			question: "Which city did Mia move to with Tom?",
			items:    []gate.Item{{Ref: "e1", Title: "Mia moved to Lisbon, a sunny city"}},
			verdict:  gate.Partial, strategy: gate.SearchRawMemory, refs: []string{"e1"}, missing: "evidence mentioning Tom",
		},
		{
			name:     "entity found through the speaker",
			question: "Where does Mia work?",
			items:    []gate.Item{{Ref: "m4", Speaker: "Mia", Text: "I started at the bakery office downtown, great job"}},
			verdict:  gate.Sufficient, strategy: gate.Answer, refs: []string{"m4"},
		},
		{
			name:     "unrelated evidence is wrong",
			question: "Which pets does Mia have?",
			items:    []gate.Item{{Ref: "e1", Title: "Tom bought a bike"}},
			verdict:  gate.Wrong, strategy: gate.SearchRawMemory, missing: "events about Mia, pets",
		},
		{
			name:     "empty batch is wrong",
			question: "When did Caroline give a speech at a school?",
			verdict:  gate.Wrong, strategy: gate.SearchRawMemory, missing: "events about Caroline, give, speech, school",
		},
		{
			name:     "low coverage is partial naming the uncovered words",
			question: "Did Mia enjoy the jazz concert in Oslo with her sister?",
			items:    []gate.Item{{Ref: "e1", Title: "Mia went to a concert in Oslo"}},
			verdict:  gate.Partial, strategy: gate.SearchRawMemory, refs: []string{"e1"}, missing: "evidence about enjoy, jazz, sister",
		},
		{
			name:     "time question without a date expands the event",
			question: "When did Caroline give a speech at a school?",
			items:    []gate.Item{{Ref: "e7", EventID: 7, Title: "Caroline gave a speech at a school", Precision: "unknown"}},
			verdict:  gate.Partial, strategy: gate.ExpandEvent, refs: []string{"e7"}, missing: "occurrence date", target: "e7",
		},
		{
			name:     "time question with a dated item is sufficient, dated first",
			question: "When did Caroline give a speech at a school?",
			items: []gate.Item{
				{Ref: "e7", Title: "Caroline gave a speech at a school", Precision: "unknown", Score: 9},
				{Ref: "e9", Title: "Caroline gave a talk at the school", HappenedStart: s7, HappenedEnd: e7, Precision: "day"},
			},
			verdict: gate.Sufficient, strategy: gate.Answer, refs: []string{"e9", "e7"},
		},
		{
			name:     "items dated outside the question's time are not evidence",
			question: "What did Mia cook on 7 May 2023?",
			items: []gate.Item{
				{Ref: "m1", Speaker: "Mia", Text: "I cooked ramen", HappenedStart: s7.AddDate(0, 0, 3), HappenedEnd: e7.AddDate(0, 0, 3), Precision: "day"},
				{Ref: "m2", Speaker: "Mia", Text: "I cooked paella", HappenedStart: s7, HappenedEnd: e7, Precision: "day"},
			},
			verdict: gate.Sufficient, strategy: gate.Answer, refs: []string{"m2"},
		},
		{
			name:     "a content answer from cards alone checks the source messages",
			question: "What did Mia cook on 7 May 2023?",
			items: []gate.Item{
				{Ref: "e2", Title: "Mia cooked paella", HappenedStart: s7, HappenedEnd: e7, Precision: "day"},
			},
			verdict: gate.Partial, strategy: gate.SearchRawMemory, refs: []string{"e2"}, missing: "the source messages (only event cards found)",
		},
		{
			name:     "raw search without enough: expand the block of the message",
			question: "Did Mia enjoy the jazz concert in Oslo with her sister?",
			items:    []gate.Item{{Ref: "m3", Speaker: "Mia", Text: "the concert in Oslo"}},
			verdict:  gate.Partial, strategy: gate.ExpandBlock, refs: []string{"m3"}, target: "m3",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := gate.SearchEvents
			if tc.name == "raw search without enough: expand the block of the message" || tc.name == "list with two matching items is sufficient" {
				st = gate.SearchRawMemory
			}
			a := assess(t, tc.question, st, tc.items...)
			assert.Equal(t, tc.verdict, a.Verdict, a.Fit)
			assert.Equal(t, tc.strategy, a.NextStrategy)
			assert.Equal(t, tc.refs, a.EvidenceRefs)
			if tc.missing != "" {
				assert.Equal(t, tc.missing, a.Missing)
			}
			assert.Equal(t, tc.target, a.NextTarget)
			assert.NotEmpty(t, a.Fit)
		})
	}
}

func TestHeuristicAssessorFit(t *testing.T) {
	a := assess(t, "When did Caroline give a speech at a school?", gate.SearchEvents,
		gate.Item{Ref: "e12", Title: "Caroline gave a speech at a school", Precision: "unknown"})
	assert.Equal(t, "4/4 question terms and all entities covered by e12; no date", a.Fit)
	a = assess(t, "Which pets does Mia have?", gate.SearchEvents)
	assert.Equal(t, "no item covers the question (0/2 question terms)", a.Fit)
}

func TestHeuristicAssessorDateFromSourceMessage(t *testing.T) {
	// Round 1 cites the undated event; after its expansion returned
	// nothing new, the assessor asks for the raw source with the event's
	// own words; the source message, linked by its message id, then
	// resolves the date even though it says "talk", not "speech".
	q := gate.Analyze("When did Caroline give a speech at a school?", now)
	s := gate.NewSessionQuestion(q, gate.Budget{})
	event := gate.Item{Ref: "e7", EventID: 7, MessageIDs: []uint64{45}, Title: "Caroline gave a speech at a school", Precision: "unknown"}

	step := func(items ...gate.Item) gate.Assessment {
		_, ok := s.Next()
		require.True(t, ok)
		b := s.Observe(gate.Batch{Items: items})
		a, err := gate.HeuristicAssessor{}.Assess(context.Background(), q, b, s.State())
		require.NoError(t, err)
		_, err = s.Record(a)
		require.NoError(t, err)
		return a
	}
	a := step(event)
	assert.Equal(t, gate.ExpandEvent, a.NextStrategy)
	a = step(event)
	assert.Equal(t, gate.SearchRawMemory, a.NextStrategy)
	assert.Equal(t, "occurrence date", a.Missing)
	assert.Equal(t, terms("Caroline gave a speech at a school"), terms(a.NextQuery))

	start := time.Date(2023, 5, 29, 0, 0, 0, 0, time.UTC)
	msg := gate.Item{Ref: "m45", MessageIDs: []uint64{45}, Text: "I did a talk there last week",
		HappenedStart: start, HappenedEnd: start.AddDate(0, 0, 7), Precision: "week"}
	a = step(msg)
	assert.Equal(t, gate.Sufficient, a.Verdict, a.Fit)
	assert.Equal(t, []string{"m45"}, a.EvidenceRefs)
}

// assessWeighted assesses one raw batch of items for question, with the
// question's terms weighted by weights (nil: unweighted; a term missing
// from weights weighs 0) or by raw, when set, as the Weights slice itself.
func assessWeighted(t *testing.T, question string, items []gate.Item, weights map[string]float64, raw []float64) gate.Assessment {
	t.Helper()
	q := gate.Analyze(question, now)
	if weights != nil {
		q.Weights = make([]float64, len(q.Terms))
		for i, term := range q.Terms {
			q.Weights[i] = weights[term]
		}
	}
	if raw != nil {
		q.Weights = raw
	}
	s := gate.NewSessionQuestion(q, gate.Budget{})
	b := s.Observe(gate.Batch{Strategy: gate.SearchRawMemory, Items: items})
	require.NotNil(t, b)
	a, err := gate.HeuristicAssessor{}.Assess(context.Background(), s.Question(), b, s.State())
	require.NoError(t, err)
	return a
}

// weekItem is a message item dated to the week before mentioned.
func weekItem(speaker, text string, mentioned time.Time) gate.Item {
	return gate.Item{Ref: "m1", Speaker: speaker, Text: text, MentionedAt: mentioned,
		HappenedStart: mentioned.AddDate(0, 0, -7), HappenedEnd: mentioned, Precision: "week", TimeText: "last week"}
}

// With corpus weights, covering the common words of a question is not
// covering the question: the rare word it is about weighs more.
func TestHeuristicAssessorWeightedCoverage(t *testing.T) {
	question := "When did Melanie go to the museum?"
	items := []gate.Item{weekItem("Melanie", "We went camping with the kids last week.", time.Date(2023, 7, 10, 0, 0, 0, 0, time.UTC))}
	for _, term := range gate.Analyze(question, now).Terms {
		require.Contains(t, []string{"melani", "go", "museum"}, term)
	}
	// Unweighted, two of three terms (the name, "go" through "went") pass
	// the coverage bar.
	assert.Equal(t, gate.Sufficient, assessWeighted(t, question, items, nil, nil).Verdict)
	// Weighted by rarity, the missing "museum" is most of the question.
	a := assessWeighted(t, question, items, map[string]float64{"melani": 1.4, "go": 1.9, "museum": 4.8}, nil)
	assert.Equal(t, gate.Partial, a.Verdict)
	// Weights that do not fit the terms are ignored.
	assert.Equal(t, gate.Sufficient, assessWeighted(t, question, items, nil, []float64{1}).Verdict)
}

// With weights, the rarest topic term must be covered: the rest of the
// question is not the question.
func TestHeuristicAssessorKeyTerm(t *testing.T) {
	question := "When was Leo's onsite interview at Cascadia?"
	items := []gate.Item{weekItem("Leo", "A recruiter from Cascadia called me last week about an interview.", time.Date(2024, 3, 18, 0, 0, 0, 0, time.UTC))}
	require.Contains(t, gate.Analyze(question, now).Topic, "onsit")
	// Covering leo, interview and cascadia is enough by count (and by
	// weight: 6 of 9), not when the key word is missing.
	assert.Equal(t, gate.Sufficient, assessWeighted(t, question, items, nil, nil).Verdict)
	a := assessWeighted(t, question, items, map[string]float64{"leo": 1, "onsit": 3, "interview": 2.5, "cascadia": 2.5}, nil)
	assert.Equal(t, gate.Partial, a.Verdict)
	assert.Contains(t, a.Missing, "onsite")
}
