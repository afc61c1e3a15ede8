package gate_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/events/temporal"
	"github.com/stratagate/stratagate/gate"
)

// retrieverFunc adapts a function to gate.Retriever and counts calls.
type retrieverFunc struct {
	mu    sync.Mutex
	fn    func(gate.Step) []gate.Item
	steps []gate.Step
}

func (r *retrieverFunc) Retrieve(_ context.Context, s gate.Step) (gate.Batch, error) {
	r.mu.Lock()
	r.steps = append(r.steps, s)
	r.mu.Unlock()
	return gate.Batch{Strategy: s.Strategy, Query: s.Query, Target: s.Target, Items: r.fn(s)}, nil
}

// assessorFunc adapts a function to gate.Assessor.
type assessorFunc func(q *gate.Question, b *gate.Batch, st *gate.State) gate.Assessment

func (f assessorFunc) Assess(_ context.Context, q *gate.Question, b *gate.Batch, st *gate.State) (gate.Assessment, error) {
	return f(q, b, st), nil
}

// answererSpy records its calls and answers with a fixed text.
type answererSpy struct {
	calls    int
	evidence []gate.Item
	text     string
	used     []string
}

func (a *answererSpy) Answer(_ context.Context, _ *gate.Question, ev []gate.Item) (string, []string, error) {
	a.calls++
	a.evidence = ev
	return a.text, a.used, nil
}

func refsOf(items []gate.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Ref)
	}
	return out
}

// stepKey mirrors the documented no-repeat key: strategy + sorted unique
// bm25 terms of the query, or the target for expansions.
func stepKey(s gate.TraceStep) string {
	if s.Target != "" {
		return string(s.Strategy) + "|" + s.Target
	}
	ts := terms(s.Query)
	sort.Strings(ts)
	var uniq []string
	for i, t := range ts {
		if i == 0 || t != ts[i-1] {
			uniq = append(uniq, t)
		}
	}
	return string(s.Strategy) + "|" + strings.Join(uniq, " ")
}

func strategies(trace []gate.TraceStep) []gate.Strategy {
	var out []gate.Strategy
	for _, s := range trace {
		out = append(out, s.Strategy)
	}
	return out
}

func TestSessionNeverRepeatsAnIdenticalSearch(t *testing.T) {
	r := &retrieverFunc{fn: func(s gate.Step) []gate.Item {
		return []gate.Item{{Ref: "e1", Title: "Mia adopted a cat"}, {Ref: "m2", Text: "my cat Luna", BlockID: 9}}
	}}
	// The assessor keeps asking for the very same search, with the words
	// in another order and case each time.
	queries := []string{"Mia pets", "pets mia", "PETS, Mia!", "mia's pets"}
	n := 0
	a := assessorFunc(func(_ *gate.Question, b *gate.Batch, _ *gate.State) gate.Assessment {
		n++
		return gate.Assessment{BatchID: b.ID, Verdict: gate.Partial, EvidenceRefs: []string{"e1"},
			NextStrategy: gate.SearchEvents, NextQuery: queries[n%len(queries)], Missing: "more pets"}
	})
	ans := &answererSpy{}
	res, err := gate.RunQuestion(context.Background(), gate.Analyze("Which pets does Mia have?", now), r, a, ans, gate.Budget{Rounds: 8})
	require.NoError(t, err)

	seen := map[string]bool{}
	for _, s := range res.Trace {
		k := stepKey(s)
		assert.False(t, seen[k], "repeated step %s", k)
		seen[k] = true
	}
	assert.Equal(t, gate.SearchEvents, res.Trace[0].Strategy)
	assert.Equal(t, gate.SearchEvents, res.Trace[1].Strategy, "a new query is honoured")
	assert.Equal(t, "pets mia", res.Trace[1].Query)
	for _, s := range res.Trace[2:] {
		if s.Strategy == gate.SearchEvents {
			assert.NotEqual(t, stepKey(gate.TraceStep{Strategy: gate.SearchEvents, Query: "mia pets"}), stepKey(s))
		}
	}
	assert.Equal(t, 0, ans.calls)
	assert.Equal(t, gate.Partial, res.Verdict)
	assert.Equal(t, "not enough evidence: missing more pets", res.Text)
}

func TestSessionSwitchesChannelWhenNothingNew(t *testing.T) {
	// Every step returns the same two items: only the first adds evidence.
	r := &retrieverFunc{fn: func(gate.Step) []gate.Item {
		return []gate.Item{{Ref: "e1", Title: "Mia adopted a cat", Score: 2}, {Ref: "m2", Text: "my cat Luna", BlockID: 9, Score: 1}}
	}}
	n := 0
	a := assessorFunc(func(_ *gate.Question, b *gate.Batch, _ *gate.State) gate.Assessment {
		n++
		// Always asks for another events search with a fresh query.
		return gate.Assessment{BatchID: b.ID, Verdict: gate.Partial, EvidenceRefs: []string{"e1"},
			NextStrategy: gate.SearchEvents, NextQuery: fmt.Sprintf("query number%d", n)}
	})
	res, err := gate.RunQuestion(context.Background(), gate.Analyze("Which pets does Mia have?", now), r, a, &answererSpy{}, gate.Budget{Rounds: 6})
	require.NoError(t, err)
	require.Len(t, res.Trace, 6)
	assert.Equal(t, []gate.Strategy{
		gate.SearchEvents,    // first step
		gate.SearchEvents,    // batch 1 added items: the request is honoured
		gate.SearchRawMemory, // batch 2 added nothing: switch to the raw source
		gate.ExpandBlock,     // then block expansion of the best message
		gate.SearchGraph,     // then the graph
		gate.SearchEvents,    // then back to events, with a query never used
	}, strategies(res.Trace))
	assert.Equal(t, "m2", res.Trace[3].Target)
	assert.Equal(t, "query number1", res.Trace[1].Query)
	assert.Equal(t, "query number5", res.Trace[5].Query)
	assert.Equal(t, []int{2, 0, 0, 0, 0, 0}, newCounts(res.Trace))
}

func newCounts(trace []gate.TraceStep) []int {
	var out []int
	for _, s := range trace {
		out = append(out, s.NewItems)
	}
	return out
}

func TestSessionHonoursRequestsWithNewEvidence(t *testing.T) {
	k := 0
	r := &retrieverFunc{fn: func(gate.Step) []gate.Item {
		k++
		return []gate.Item{{Ref: fmt.Sprintf("e%d", k), Title: "x"}, {Ref: fmt.Sprintf("n%d", k)}}
	}}
	script := []gate.Assessment{
		{Verdict: gate.Partial, EvidenceRefs: []string{"e1"}, NextStrategy: gate.ExpandEvent, NextTarget: "e1"},
		{Verdict: gate.Partial, NextStrategy: gate.ExpandGraphNode, NextTarget: "n2"},
		{Verdict: gate.Partial, NextStrategy: gate.SearchGraph, NextQuery: "graph query"},
		{Verdict: gate.Partial, NextStrategy: gate.SearchRawMemory},
		{Verdict: gate.Partial, NextStrategy: gate.SearchGraph},
	}
	i := 0
	a := assessorFunc(func(_ *gate.Question, b *gate.Batch, _ *gate.State) gate.Assessment {
		as := script[i]
		i++
		as.BatchID = b.ID
		return as
	})
	res, err := gate.RunQuestion(context.Background(), gate.Analyze("What did Mia say?", now), r, a, &answererSpy{}, gate.Budget{Rounds: 5})
	require.NoError(t, err)
	assert.Equal(t, []gate.Strategy{gate.SearchEvents, gate.ExpandEvent, gate.ExpandGraphNode, gate.SearchGraph, gate.SearchRawMemory}, strategies(res.Trace))
	assert.Equal(t, "e1", res.Trace[1].Target)
	assert.Equal(t, "n2", res.Trace[2].Target)
	assert.Equal(t, "graph query", res.Trace[3].Query)
	assert.Equal(t, res.Trace[0].Query, res.Trace[4].Query, "an empty NextQuery means the question's query")
}

func TestBudgetIsNeverExceeded(t *testing.T) {
	for _, tc := range []struct {
		budget gate.Budget
		rounds int
	}{
		{gate.Budget{}, gate.DefaultRounds},
		{gate.Budget{Rounds: 1}, 1},
		{gate.Budget{Rounds: 3}, 3},
		{gate.Budget{Rounds: 50}, gate.MaxRounds},
	} {
		t.Run(fmt.Sprint(tc.budget.Rounds), func(t *testing.T) {
			k := 0
			r := &retrieverFunc{fn: func(gate.Step) []gate.Item {
				k++ // always something new, so the session never runs dry
				return []gate.Item{{Ref: fmt.Sprintf("e%d", k)}, {Ref: fmt.Sprintf("m%d", k)}, {Ref: fmt.Sprintf("n%d", k)}}
			}}
			a := assessorFunc(func(_ *gate.Question, b *gate.Batch, _ *gate.State) gate.Assessment {
				return gate.Assessment{BatchID: b.ID, Verdict: gate.Partial, NextStrategy: gate.SearchEvents,
					NextQuery: fmt.Sprintf("query%d", k), Missing: "the answer"}
			})
			res, err := gate.RunQuestion(context.Background(), gate.Analyze("Which pets does Mia have?", now), r, a, &answererSpy{}, tc.budget)
			require.NoError(t, err)
			assert.Equal(t, tc.rounds, res.Rounds)
			assert.Len(t, res.Trace, tc.rounds)
			assert.Len(t, r.steps, tc.rounds)
			assert.Equal(t, gate.Partial, res.Verdict)
			assert.Equal(t, "not enough evidence: missing the answer", res.Text)
		})
	}
}

func TestUnanswerable(t *testing.T) {
	r := &retrieverFunc{fn: func(gate.Step) []gate.Item { return nil }}
	ans := &answererSpy{text: "an invented answer"}
	res, err := gate.RunQuestion(context.Background(), gate.Analyze("Which pets does Mia have?", now), r, gate.HeuristicAssessor{}, ans, gate.Budget{})
	require.NoError(t, err)
	assert.Equal(t, gate.Partial, res.Verdict)
	assert.True(t, strings.HasPrefix(res.Text, "not enough evidence: missing "), res.Text)
	assert.Contains(t, res.Missing, "Mia")
	assert.Empty(t, res.Evidence)
	assert.Empty(t, res.SufficientAssessmentID)
	assert.Equal(t, 0, ans.calls, "the answerer is never asked without sufficient evidence")
	assert.LessOrEqual(t, res.Rounds, gate.DefaultRounds)
	for _, s := range res.Trace {
		assert.Equal(t, gate.Wrong, s.Verdict)
	}

	// Unrelated evidence is not enough either.
	r2 := &retrieverFunc{fn: func(gate.Step) []gate.Item {
		return []gate.Item{{Ref: "e1", Title: "Tom bought a bike"}}
	}}
	res, err = gate.RunQuestion(context.Background(), gate.Analyze("Which pets does Mia have?", now), r2, gate.HeuristicAssessor{}, ans, gate.Budget{Rounds: 2})
	require.NoError(t, err)
	assert.Equal(t, gate.Partial, res.Verdict)
	assert.True(t, strings.HasPrefix(res.Text, "not enough evidence: missing "))
	assert.Empty(t, res.Evidence)
	assert.Equal(t, 0, ans.calls)
}

// speechRetriever serves the "school speech" path: the event card has no
// date; its source message, written on Friday 9 June 2023, says "last
// week". expandGivesMessage selects whether expand_event already returns
// the source message or only the card again.
func speechRetriever(expandGivesMessage bool) *retrieverFunc {
	msgTime := time.Date(2023, 6, 9, 18, 30, 0, 0, time.UTC)
	msgText := "I gave a talk at the school last week, it went great"
	rel := temporal.Find(msgText, msgTime)[0]
	event := gate.Item{Ref: "e7", EventID: 7, MessageIDs: []uint64{45}, Title: "Caroline gave a speech at a school",
		Text: "Caroline gave a speech at a school about her journey", MentionedAt: msgTime, Precision: "unknown", Score: 3}
	message := gate.Item{Ref: "m45", MessageIDs: []uint64{45}, BlockID: 3, Speaker: "Caroline", Text: msgText,
		MentionedAt: msgTime, HappenedStart: rel.Start, HappenedEnd: rel.End, Precision: string(rel.Precision), TimeText: rel.Text, Score: 1}
	other := gate.Item{Ref: "e8", EventID: 8, Title: "Melanie painted a sunrise", Precision: "unknown"}
	return &retrieverFunc{fn: func(s gate.Step) []gate.Item {
		switch s.Strategy {
		case gate.SearchEvents:
			return []gate.Item{event, other}
		case gate.ExpandEvent:
			if expandGivesMessage {
				return []gate.Item{event, message}
			}
			return []gate.Item{event}
		case gate.SearchRawMemory:
			return []gate.Item{message}
		}
		return nil
	}}
}

func TestSchoolSpeechPath(t *testing.T) {
	for _, tc := range []struct {
		name       string
		expandMsg  bool
		strategies []gate.Strategy
	}{
		{"expand_event reaches the source", true, []gate.Strategy{gate.SearchEvents, gate.ExpandEvent}},
		{"raw source after the expansion", false, []gate.Strategy{gate.SearchEvents, gate.ExpandEvent, gate.SearchRawMemory}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := gate.Analyze("When did Caroline give a speech at a school?", now)
			res, err := gate.RunQuestion(context.Background(), q, speechRetriever(tc.expandMsg), gate.HeuristicAssessor{}, gate.HeuristicAnswerer{}, gate.Budget{})
			require.NoError(t, err)
			assert.Equal(t, tc.strategies, strategies(res.Trace))
			assert.Equal(t, gate.Sufficient, res.Verdict)
			assert.Equal(t, gate.Partial, res.Trace[0].Verdict)
			assert.Equal(t, "occurrence date", res.Trace[0].Missing)
			assert.Equal(t, "e7", res.Trace[1].Target)
			last := res.Trace[len(res.Trace)-1]
			assert.Equal(t, gate.Sufficient, last.Verdict)
			assert.Equal(t, last.BatchID+"-a1", res.SufficientAssessmentID)
			assert.Contains(t, res.Text, "the week of 29 May 2023")
			assert.Contains(t, res.Text, "said on 9 June 2023")
			assert.Contains(t, res.Text, "I gave a talk at the school last week")
			assert.Equal(t, `the week of 29 May 2023 ("I gave a talk at the school last week, it went great", said on 9 June 2023)`, res.Text)
			if tc.expandMsg {
				assert.Equal(t, []string{"m45", "e7"}, refsOf(res.Evidence), "the message dates the event: both used")
			} else {
				assert.Equal(t, []string{"m45", "e7"}, refsOf(res.Evidence), "the quoted message first, then the event cited in the earlier rounds")
				assert.Contains(t, strings.ToLower(res.Trace[2].Query), "school")
			}
		})
	}
}

func TestRunUsesOnlyEvidenceOfTheSufficientAssessment(t *testing.T) {
	r := &retrieverFunc{fn: func(gate.Step) []gate.Item {
		return []gate.Item{{Ref: "e1", Title: "a"}, {Ref: "e2", Title: "b"}, {Ref: "e3", Title: "c"}}
	}}
	a := assessorFunc(func(_ *gate.Question, b *gate.Batch, _ *gate.State) gate.Assessment {
		return gate.Assessment{BatchID: b.ID, Verdict: gate.Sufficient, EvidenceRefs: []string{"e3", "e1", "e404"}, NextStrategy: gate.Answer}
	})
	ans := &answererSpy{text: "answer", used: []string{"e1", "e2", "e1"}}
	res, err := gate.RunQuestion(context.Background(), gate.Analyze("What is it?", now), r, a, ans, gate.Budget{})
	require.NoError(t, err)
	assert.Equal(t, []string{"e3", "e1"}, refsOf(ans.evidence), "only cited items reach the answerer")
	assert.Equal(t, []string{"e1", "e3"}, refsOf(res.Evidence), "the cited set, the used item first; uncited e2 is not evidence")
	assert.Equal(t, []string{"e3", "e1"}, res.SufficientRefs)
	assert.Equal(t, "answer", res.Text)
	assert.Equal(t, gate.Sufficient, res.Verdict)
	assert.Equal(t, 1, res.Rounds)

	// No used refs reported: every cited item counts.
	ans = &answererSpy{text: "answer"}
	res, err = gate.RunQuestion(context.Background(), gate.Analyze("What is it?", now), r, a, ans, gate.Budget{})
	require.NoError(t, err)
	assert.Equal(t, []string{"e3", "e1"}, refsOf(res.Evidence))

	// An empty answer is not an answer.
	ans = &answererSpy{text: "  "}
	res, err = gate.RunQuestion(context.Background(), gate.Analyze("What is it?", now), r, a, ans, gate.Budget{})
	require.NoError(t, err)
	assert.Equal(t, gate.Partial, res.Verdict)
	assert.True(t, strings.HasPrefix(res.Text, "not enough evidence: missing "))
	assert.Equal(t, []string{"e3", "e1"}, refsOf(res.Evidence), "what was found stays, unanswered")
	assert.Empty(t, res.SufficientAssessmentID)
	assert.Empty(t, res.SufficientRefs)
}

type failing struct{ err error }

func (f failing) Retrieve(context.Context, gate.Step) (gate.Batch, error) { return gate.Batch{}, f.err }
func (f failing) Assess(context.Context, *gate.Question, *gate.Batch, *gate.State) (gate.Assessment, error) {
	return gate.Assessment{}, f.err
}

func TestRunErrors(t *testing.T) {
	boom := errors.New("boom")
	q := gate.Analyze("Which pets does Mia have?", now)
	ok := &retrieverFunc{fn: func(gate.Step) []gate.Item { return []gate.Item{{Ref: "e1"}} }}

	_, err := gate.RunQuestion(context.Background(), q, failing{boom}, gate.HeuristicAssessor{}, gate.HeuristicAnswerer{}, gate.Budget{})
	assert.ErrorIs(t, err, boom)
	_, err = gate.RunQuestion(context.Background(), q, ok, failing{boom}, gate.HeuristicAnswerer{}, gate.Budget{})
	assert.ErrorIs(t, err, boom)

	bad := assessorFunc(func(_ *gate.Question, b *gate.Batch, _ *gate.State) gate.Assessment {
		return gate.Assessment{BatchID: b.ID, Verdict: "great", NextStrategy: gate.Answer}
	})
	_, err = gate.RunQuestion(context.Background(), q, ok, bad, gate.HeuristicAnswerer{}, gate.Budget{})
	assert.ErrorIs(t, err, gate.ErrInvalidAssessment)

	other := assessorFunc(func(_ *gate.Question, b *gate.Batch, _ *gate.State) gate.Assessment {
		return gate.Assessment{BatchID: b.ID + "x", Verdict: gate.Partial, NextStrategy: gate.SearchGraph}
	})
	_, err = gate.RunQuestion(context.Background(), q, ok, other, gate.HeuristicAnswerer{}, gate.Budget{})
	assert.ErrorIs(t, err, gate.ErrWrongBatch)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = gate.RunQuestion(ctx, q, ok, gate.HeuristicAssessor{}, gate.HeuristicAnswerer{}, gate.Budget{})
	assert.ErrorIs(t, err, context.Canceled)

	_, err = gate.Run(context.Background(), "x", nil, gate.HeuristicAssessor{}, gate.HeuristicAnswerer{}, gate.Budget{})
	assert.Error(t, err)
}

func TestSessionStepAPI(t *testing.T) {
	s := gate.NewSessionQuestion(gate.Analyze("Which pets does Mia have?", now), gate.Budget{Rounds: 2, MaxItems: 3})
	_, err := s.Record(gate.Assessment{BatchID: "x", Verdict: gate.Partial, NextStrategy: gate.SearchGraph})
	assert.ErrorIs(t, err, gate.ErrWrongBatch, "nothing observed yet")

	step, ok := s.Next()
	require.True(t, ok)
	again, ok := s.Next()
	require.True(t, ok)
	assert.Equal(t, step, again, "Next is idempotent until Observe")
	assert.Equal(t, gate.SearchEvents, step.Strategy)
	assert.Equal(t, s.Question().Query, step.Query)

	b := s.Observe(gate.Batch{ID: "forged", Strategy: gate.SearchGraph, Items: []gate.Item{
		{Ref: "e1", Kind: "message"}, {Ref: "bogus"}, {Ref: "e1"}, {Ref: "m2"}, {Ref: "n3"}, {Ref: "b4"},
	}})
	require.NotNil(t, b)
	assert.Equal(t, s.ID()+"-b1", b.ID)
	assert.Equal(t, gate.SearchEvents, b.Strategy, "the step, not the retriever, names the batch")
	assert.Equal(t, []string{"e1", "m2", "n3"}, refsOf(b.Items), "malformed and repeated refs dropped, MaxItems kept")
	assert.Equal(t, gate.KindEvent, b.Items[0].Kind)
	assert.Equal(t, gate.KindMessage, b.Items[1].Kind)
	for _, it := range b.Items {
		assert.True(t, it.New)
	}
	b.Items[0].Ref = "e999" // the caller's copy does not alias the session's

	rec, err := s.Record(gate.Assessment{BatchID: b.ID, Verdict: gate.Partial, EvidenceRefs: []string{"e1", "e999"},
		NextStrategy: gate.ExpandEvent, NextTarget: "e1"})
	require.NoError(t, err)
	assert.Equal(t, b.ID+"-a1", rec.ID)
	assert.Equal(t, []string{"e1"}, rec.EvidenceRefs)
	assert.Equal(t, []gate.Rejected{{"e999", gate.ReasonNotInBatch}}, rec.RejectedRefs)
	_, err = s.Record(gate.Assessment{BatchID: b.ID, Verdict: gate.Partial, NextStrategy: gate.SearchGraph})
	assert.ErrorIs(t, err, gate.ErrWrongBatch, "one assessment per batch")

	st := s.State()
	assert.Equal(t, 1, st.Round)
	assert.Equal(t, 1, st.RoundsLeft)
	assert.Equal(t, []string{"e1"}, refsOf(st.Cited()))

	step, ok = s.Next()
	require.True(t, ok)
	assert.Equal(t, gate.Step{Strategy: gate.ExpandEvent, Target: "e1"}, step)
	b2 := s.Observe(gate.Batch{Items: []gate.Item{{Ref: "e1"}, {Ref: "m5"}}})
	require.NotNil(t, b2)
	assert.Equal(t, s.ID()+"-b2", b2.ID)
	assert.Equal(t, "e1", b2.Target)
	assert.False(t, b2.Items[0].New)
	assert.True(t, b2.Items[1].New)
	_, err = s.Record(gate.Assessment{BatchID: b.ID, Verdict: gate.Partial, NextStrategy: gate.SearchGraph})
	assert.ErrorIs(t, err, gate.ErrWrongBatch, "an earlier batch cannot be assessed any more")
	_, err = s.Record(gate.Assessment{BatchID: b2.ID, Verdict: gate.Partial, NextStrategy: gate.SearchGraph, Missing: "the pets"})
	require.NoError(t, err)
	assert.True(t, s.State().WasExpanded("e1"))

	_, ok = s.Next()
	assert.False(t, ok, "two rounds spent")
	assert.Nil(t, s.Observe(gate.Batch{Items: []gate.Item{{Ref: "e9"}}}), "no batch beyond the budget")
	res := s.Result()
	assert.Equal(t, 2, res.Rounds)
	assert.Equal(t, gate.Partial, res.Verdict)
	assert.Equal(t, "the pets", res.Missing)
	assert.Equal(t, "not enough evidence: missing the pets", res.Text)
	assert.Equal(t, []int{3, 1}, newCounts(res.Trace))
}

func TestSessionSufficientStops(t *testing.T) {
	s := gate.NewSessionQuestion(gate.Analyze("What is it?", now), gate.Budget{})
	_, ok := s.Next()
	require.True(t, ok)
	b := s.Observe(gate.Batch{Items: []gate.Item{{Ref: "e1", Title: "it"}}})
	_, err := s.Record(gate.Assessment{BatchID: b.ID, Verdict: gate.Sufficient, EvidenceRefs: []string{"e1"}, NextStrategy: gate.Answer})
	require.NoError(t, err)
	_, ok = s.Next()
	assert.False(t, ok)
	assert.Nil(t, s.Observe(gate.Batch{}))
	res := s.Result()
	assert.Equal(t, gate.Sufficient, res.Verdict)
	assert.Equal(t, b.ID+"-a1", res.SufficientAssessmentID)
	assert.Equal(t, []string{"e1"}, refsOf(res.Evidence))
	assert.Empty(t, res.Text, "the answer is the answerer's")
}

func TestSessionEndsWhenNothingIsLeft(t *testing.T) {
	// A question without terms: after the first search, every channel's
	// candidates are exhausted quickly, and the session ends by itself.
	r := &retrieverFunc{fn: func(gate.Step) []gate.Item { return nil }}
	a := assessorFunc(func(_ *gate.Question, b *gate.Batch, _ *gate.State) gate.Assessment {
		return gate.Assessment{BatchID: b.ID, Verdict: gate.Wrong, NextStrategy: b.Strategy, NextQuery: b.Query}
	})
	res, err := gate.RunQuestion(context.Background(), gate.Analyze("Mia?", now), r, a, &answererSpy{}, gate.Budget{Rounds: 12})
	require.NoError(t, err)
	assert.Less(t, res.Rounds, 12)
	seen := map[string]bool{}
	for _, s := range res.Trace {
		assert.False(t, seen[stepKey(s)])
		seen[stepKey(s)] = true
	}
	assert.Equal(t, gate.Partial, res.Verdict)
}

func TestConcurrentSessionsAreIsolated(t *testing.T) {
	const n = 8
	var mu sync.Mutex
	ids := map[string]int{}
	batches := make([]*gate.Batch, n)
	var wg sync.WaitGroup
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			s := gate.NewSessionQuestion(gate.Analyze("Which pets does Mia have?", now), gate.Budget{Rounds: 3})
			for round := 1; ; round++ {
				if _, ok := s.Next(); !ok {
					break
				}
				ref := fmt.Sprintf("e%d", g*100+round)
				b := s.Observe(gate.Batch{Items: []gate.Item{{Ref: ref, Title: "Mia's cat"}}})
				if !assert.NotNil(t, b) {
					return
				}
				mu.Lock()
				ids[b.ID]++
				mu.Unlock()
				batches[g] = b
				_, err := s.Record(gate.Assessment{BatchID: b.ID, Verdict: gate.Partial, EvidenceRefs: []string{ref},
					NextStrategy: gate.SearchEvents, NextQuery: fmt.Sprintf("q%d", round)})
				if !assert.NoError(t, err) {
					return
				}
			}
		}(g)
	}
	wg.Wait()
	assert.Len(t, ids, n*3)
	for id, c := range ids {
		assert.Equal(t, 1, c, "batch id %s used twice", id)
	}

	// Each session refuses the others' batches and refs.
	wg = sync.WaitGroup{}
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			other := batches[(g+1)%n]
			s := gate.NewSessionQuestion(gate.Analyze("Which pets does Mia have?", now), gate.Budget{})
			_, ok := s.Next()
			assert.True(t, ok)
			mine := s.Observe(gate.Batch{Items: []gate.Item{{Ref: fmt.Sprintf("e%d", 5000+g), Title: "Mia's cat"}}})
			if !assert.NotNil(t, mine) {
				return
			}
			_, err := s.Record(gate.Assessment{BatchID: other.ID, Verdict: gate.Sufficient, EvidenceRefs: []string{other.Items[0].Ref}, NextStrategy: gate.Answer})
			assert.ErrorIs(t, err, gate.ErrWrongBatch)
			got, err := s.Record(gate.Assessment{BatchID: mine.ID, Verdict: gate.Sufficient, EvidenceRefs: []string{other.Items[0].Ref}, NextStrategy: gate.Answer})
			assert.NoError(t, err)
			assert.Equal(t, gate.Partial, got.Verdict, "another session's ref cannot make a batch sufficient")
			assert.Equal(t, []gate.Rejected{{other.Items[0].Ref, gate.ReasonNotInBatch}}, got.RejectedRefs)
			_, err = gate.Validate(other, gate.Assessment{BatchID: mine.ID, Verdict: gate.Partial, NextStrategy: gate.SearchGraph})
			assert.ErrorIs(t, err, gate.ErrWrongBatch)
		}(g)
	}
	wg.Wait()
}

func TestConcurrentRuns(t *testing.T) {
	var wg sync.WaitGroup
	results := make([]gate.Result, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			q := gate.Analyze("When did Caroline give a speech at a school?", now)
			res, err := gate.RunQuestion(context.Background(), q, speechRetriever(g%2 == 0), gate.HeuristicAssessor{}, gate.HeuristicAnswerer{}, gate.Budget{})
			assert.NoError(t, err)
			results[g] = res
		}(g)
	}
	wg.Wait()
	ids := map[string]bool{}
	for _, r := range results {
		assert.Equal(t, gate.Sufficient, r.Verdict)
		assert.Contains(t, r.Text, "the week of 29 May 2023")
		for _, s := range r.Trace {
			assert.False(t, ids[s.BatchID])
			ids[s.BatchID] = true
		}
	}
}
