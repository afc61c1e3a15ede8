package gate_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/gate"
)

// Tests of the current-state, either-or, list, relation and plan/report
// rules (doc.go, "Current state, lists and relations"). All items are
// hand-built; none comes from the sample conversation.

func at(m time.Month, d int) time.Time { return time.Date(2023, m, d, 18, 0, 0, 0, time.UTC) }

func TestAnalyzeStateAndShape(t *testing.T) {
	for _, tc := range []struct {
		q            string
		current      bool
		past         bool
		alternatives []string // raw words
		head         []string // raw words
		topic        []string // raw words that must be Topic terms
		notTopic     []string // raw words that must not be Topic terms
		noTime       bool
	}{
		{q: "Does Tom drink beer or wine now?", current: true, alternatives: []string{"beer", "wine"}, topic: []string{"drink", "beer", "wine"}, notTopic: []string{"Tom", "now"}},
		{q: "Where does Nora live these days?", current: true, topic: []string{"live"}, notTopic: []string{"days"}},
		{q: "Which build tool does Orbit use?", current: true, head: []string{"build", "tool"}, topic: []string{"build", "tool", "use"}, notTopic: []string{"Orbit"}},
		{q: "Is Tom still at Globex?", current: true},
		{q: "Where does Nora work currently?", current: true, topic: []string{"work"}, notTopic: []string{"currently"}},
		{q: "Where does Nora live today?", current: true, noTime: true},
		{q: "Tom 现在住在哪里？", current: true},
		{q: "Which pets does Nora have?", current: true, head: []string{"pets"}},
		{q: "How many books has Tom read?", current: true, head: []string{"books"}},
		{q: "What kinds of music does Tom like?", head: []string{"music"}}, // a habit, not a current state
		{q: "List all the drinks Nora likes.", head: []string{"drinks"}},
		{q: "When did Tom move to Denver?", past: true, topic: []string{"move"}, notTopic: []string{"Denver"}},
		{q: "What did Tom use to drink?", past: true},
		{q: "Has Tom ever been to Oslo?", past: true},
		{q: "Where did Nora work in 2021?", past: true},
		{q: "Why does Tom drink wine?"},
		{q: "What is Tom's favourite city?", current: true},
		{q: "What did Tom say about Rust?", past: true, notTopic: []string{"say", "Rust"}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			q := gate.Analyze(tc.q, now)
			assert.Equal(t, tc.current, q.Current, "Current")
			assert.Equal(t, tc.past, q.Past, "Past")
			var alts []string
			for _, w := range tc.alternatives {
				alts = append(alts, terms(w)...)
			}
			assert.Equal(t, alts, q.Alternatives)
			var head []string
			for _, w := range tc.head {
				head = append(head, terms(w)...)
			}
			assert.Equal(t, head, q.Head)
			for _, w := range tc.topic {
				for _, term := range terms(w) {
					assert.Contains(t, q.Topic, term)
				}
			}
			for _, w := range tc.notTopic {
				for _, term := range terms(w) {
					assert.NotContains(t, q.Topic, term)
				}
			}
			if tc.noTime {
				assert.Nil(t, q.Time)
			}
			assert.Subset(t, q.Terms, q.Topic)
		})
	}
}

// runRounds drives a session with the heuristic assessor over scripted
// batches, one per round (the session's own steps are ignored), and
// returns every assessment.
func runRounds(t *testing.T, question string, budget gate.Budget, batches ...[]gate.Item) (*gate.Session, []gate.Assessment) {
	t.Helper()
	s := gate.NewSessionQuestion(gate.Analyze(question, now), budget)
	var out []gate.Assessment
	for _, items := range batches {
		_, ok := s.Next()
		require.True(t, ok)
		b := s.Observe(gate.Batch{Items: items})
		require.NotNil(t, b)
		a, err := gate.HeuristicAssessor{}.Assess(context.Background(), s.Question(), b, s.State())
		require.NoError(t, err)
		v, err := s.Record(a)
		require.NoError(t, err)
		assert.Equal(t, a.Verdict, v.Verdict)
		out = append(out, a)
	}
	return s, out
}

func TestHeuristicAssessorCurrentState(t *testing.T) {
	tests := []struct {
		name     string
		question string
		items    []gate.Item
		verdict  gate.Verdict
		strategy gate.Strategy
		first    string // first evidence ref (the pick)
		refs     []string
		missing  string
	}{
		{
			name:     "the latest statement of change comes first",
			question: "Does Tom drink beer or wine now?",
			items: []gate.Item{
				{Ref: "e1", Speaker: "Tom", Quote: "I'm a beer guy, wine gives me headaches.", MentionedAt: at(3, 1)},
				{Ref: "e2", Speaker: "Tom", Quote: "I've switched to wine, no more beer for me.", MentionedAt: at(5, 2)},
				{Ref: "e3", Speaker: "Tom", Quote: "Tom bought a bike.", MentionedAt: at(6, 1)},
			},
			verdict: gate.Sufficient, strategy: gate.Answer, refs: []string{"e2", "e1"},
		},
		{
			name:     "older and newer statements without a change cue ask the graph",
			question: "Where does Nora live now?",
			items: []gate.Item{
				{Ref: "e1", Speaker: "Nora", Quote: "I live in Denver, near the park.", MentionedAt: at(1, 10)},
				{Ref: "e2", Speaker: "Nora", Quote: "I live in Austin with my cousin.", MentionedAt: at(4, 3)},
			},
			verdict: gate.Partial, strategy: gate.SearchGraph, first: "e2", missing: "the current state (latest evidence)",
		},
		{
			name:     "a plan does not settle the current state",
			question: "Which build tool does Orbit use now?",
			items: []gate.Item{
				{Ref: "e1", Title: "Orbit is moving to use Bazel as its build tool next month", MentionedAt: at(4, 3)},
			},
			verdict: gate.Partial, strategy: gate.SearchGraph, first: "e1", missing: "the current state (latest evidence)",
		},
		{
			name:     "a single statement needs no further search",
			question: "Where does Nora work?",
			items: []gate.Item{
				{Ref: "e1", Speaker: "Nora", Quote: "I work at Globex as a designer.", MentionedAt: at(1, 10)},
				{Ref: "e2", Speaker: "Nora", Quote: "I had pizza with Tom.", MentionedAt: at(2, 10)},
			},
			verdict: gate.Sufficient, strategy: gate.Answer, refs: []string{"e1"},
		},
		{
			name:     "where: the relation cue of the entity beats someone else's and newer chatter",
			question: "Where does Tom live?",
			items: []gate.Item{
				{Ref: "m1", Speaker: "Nora", Text: "I live in Denver, so Tom and I rarely meet.", MentionedAt: at(5, 1)},
				{Ref: "m2", Speaker: "Tom", Text: "I moved to Austin last year.", MentionedAt: at(2, 1)},
				{Ref: "m3", Speaker: "Tom", Text: "Moving boxes everywhere, I live on pizza.", MentionedAt: at(6, 1)},
			},
			verdict: gate.Sufficient, strategy: gate.Answer, first: "m2",
		},
		{
			name:     "a graph node covering the topic is the current state",
			question: "Where does Tom live now?",
			items: []gate.Item{
				{Ref: "n4", Title: "Tom", Facts: []string{"lives_in: Austin", "works_at: Globex"}},
				{Ref: "e1", Speaker: "Tom", Quote: "I live in Denver.", MentionedAt: at(1, 10)},
			},
			verdict: gate.Sufficient, strategy: gate.Answer, first: "n4",
		},
		{
			name:     "an item naming only the entity is not evidence",
			question: "What is the name of Tom's dog?",
			items: []gate.Item{
				{Ref: "e1", Speaker: "Tom", Quote: "Tom went hiking near Denver."},
				{Ref: "e2", Speaker: "Nora", Quote: "Our dog is called Rex."},
			},
			verdict: gate.Wrong, strategy: gate.SearchRawMemory, missing: "events about Tom, name, dog",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := assess(t, tc.question, gate.SearchEvents, tc.items...)
			assert.Equal(t, tc.verdict, a.Verdict, a.Fit)
			assert.Equal(t, tc.strategy, a.NextStrategy)
			if tc.refs != nil {
				assert.Equal(t, tc.refs, a.EvidenceRefs)
			}
			if tc.first != "" && assert.NotEmpty(t, a.EvidenceRefs) {
				assert.Equal(t, tc.first, a.EvidenceRefs[0])
			}
			if tc.missing != "" {
				assert.Equal(t, tc.missing, a.Missing)
			}
		})
	}
}

func TestHeuristicAssessorCurrentStateEscalation(t *testing.T) {
	old := gate.Item{Ref: "e1", Speaker: "Nora", Quote: "I live in Denver, near the park.", MentionedAt: at(1, 10)}
	newer := gate.Item{Ref: "e2", Speaker: "Nora", Quote: "I live in Austin with my cousin.", MentionedAt: at(4, 3)}
	msg := gate.Item{Ref: "m9", Speaker: "Nora", Text: "Our new apartment in Austin has a garden.", MentionedAt: at(4, 5)}

	// events (unsettled) → graph (dry) → raw source.
	_, as := runRounds(t, "Where does Nora live now?", gate.Budget{}, []gate.Item{old, newer}, nil)
	assert.Equal(t, gate.SearchGraph, as[0].NextStrategy)
	assert.Equal(t, gate.Wrong, as[1].Verdict)
	assert.Equal(t, gate.SearchRawMemory, as[1].NextStrategy, "a dry graph sends a current-state question to the raw source")

	// Once the graph and the raw source were searched, the latest item is
	// accepted.
	_, as = runRounds(t, "Where does Nora live now?", gate.Budget{}, []gate.Item{old, newer}, nil, []gate.Item{old, msg})
	assert.Equal(t, gate.Sufficient, as[2].Verdict, as[2].Fit)
	assert.Equal(t, "m9", as[2].EvidenceRefs[0])

	// In the last round, too.
	_, as = runRounds(t, "Where does Nora live now?", gate.Budget{Rounds: 1}, []gate.Item{old, newer})
	assert.Equal(t, gate.Sufficient, as[0].Verdict)
	assert.Equal(t, "e2", as[0].EvidenceRefs[0])
}

func TestHeuristicAssessorLists(t *testing.T) {
	kitten := gate.Item{Ref: "e1", Title: "Nora adopted a kitten named Miso"}
	trip := gate.Item{Ref: "e2", Title: "Nora went to Oslo"}
	sister := gate.Item{Ref: "e3", Title: "Nora's sister visited"}
	rabbit := gate.Item{Ref: "m4", Speaker: "Nora", Text: "my rabbit Dot chewed the cable"}

	a := assess(t, "Which pets does Nora have?", gate.SearchEvents, kitten, trip, sister)
	assert.Equal(t, gate.Partial, a.Verdict)
	assert.Equal(t, []string{"e1"}, a.EvidenceRefs, "items naming only the entity are no list items")
	assert.Equal(t, "other items of the list", a.Missing)
	assert.Equal(t, gate.SearchRawMemory, a.NextStrategy)

	// Two events of one message are one finding.
	parrot := gate.Item{Ref: "e5", MessageIDs: []uint64{8}, Title: "Nora adopted a parrot"}
	conure := gate.Item{Ref: "e6", MessageIDs: []uint64{8}, Title: "Nora's conure is called Pip"}
	a = assess(t, "Which pets does Nora have?", gate.SearchEvents, parrot, conure)
	assert.Equal(t, gate.Partial, a.Verdict)
	assert.Equal(t, "other items of the list", a.Missing)

	// Still one item after the raw source: keep searching (block
	// expansion) …
	_, as := runRounds(t, "Which pets does Nora have?", gate.Budget{Rounds: 6}, []gate.Item{kitten, trip}, []gate.Item{kitten, trip, rabbit})
	assert.Equal(t, gate.Sufficient, as[1].Verdict, "two pets: sufficient")
	assert.Equal(t, []string{"e1", "m4"}, as[1].EvidenceRefs)

	_, as = runRounds(t, "Which pets does Nora have?", gate.Budget{Rounds: 6},
		[]gate.Item{kitten, trip}, []gate.Item{kitten, sister}, []gate.Item{kitten})
	assert.Equal(t, gate.Partial, as[1].Verdict)
	assert.Equal(t, "other items of the list", as[1].Missing)
	assert.Equal(t, gate.Partial, as[2].Verdict, "one item: the block expansion was not searched yet")
}

func TestHeuristicAssessorPlanAndReport(t *testing.T) {
	// Said on 2 May: "next month" (a plan) and, on 8 June, "last Saturday"
	// (a report) that lacks the city.
	plan := gate.Item{Ref: "e1", Speaker: "Tom", Quote: "I'm moving to Austin next month.", MentionedAt: at(5, 2),
		HappenedStart: time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC), HappenedEnd: time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC), Precision: "month"}
	report := gate.Item{Ref: "e2", Speaker: "Tom", Quote: "I moved last Saturday.", MentionedAt: at(6, 8),
		HappenedStart: time.Date(2023, 6, 3, 0, 0, 0, 0, time.UTC), HappenedEnd: time.Date(2023, 6, 4, 0, 0, 0, 0, time.UTC), Precision: "day"}
	a := assess(t, "When did Tom move to Austin?", gate.SearchEvents, plan, report)
	assert.Equal(t, gate.Partial, a.Verdict)
	assert.Equal(t, "a report of the occurrence (only a plan found)", a.Missing)
	assert.Equal(t, gate.SearchRawMemory, a.NextStrategy)
	for _, w := range []string{"tom", "austin", "moved", "saturday"} {
		assert.Contains(t, a.NextQuery, terms(w)[0], "the report's own words and the entities")
	}

	// The source message of the report, with every word: a report beats
	// the plan.
	src := gate.Item{Ref: "m7", Speaker: "Tom", Text: "Hello from Austin! I moved last Saturday.", MentionedAt: at(6, 8),
		HappenedStart: report.HappenedStart, HappenedEnd: report.HappenedEnd, Precision: "day", TimeText: "last Saturday"}
	planMsg := gate.Item{Ref: "m3", Speaker: "Tom", Text: "I'm moving to Austin next month.", MentionedAt: at(5, 2),
		HappenedStart: plan.HappenedStart, HappenedEnd: plan.HappenedEnd, Precision: "month", TimeText: "next month"}
	_, as := runRounds(t, "When did Tom move to Austin?", gate.Budget{}, []gate.Item{plan, report}, []gate.Item{planMsg, src})
	assert.Equal(t, gate.Sufficient, as[1].Verdict, as[1].Fit)
	assert.Equal(t, "m7", as[1].EvidenceRefs[0])

	// Only a plan after the first round: accepted.
	_, as = runRounds(t, "When did Tom move to Austin?", gate.Budget{}, []gate.Item{plan}, []gate.Item{planMsg})
	assert.Equal(t, gate.Sufficient, as[1].Verdict)
}

func TestHeuristicAssessorMessageDateNeedsItsSentence(t *testing.T) {
	// The first time expression of the message ("tonight") dates the
	// summary, not the move: the message is no date source.
	summary := gate.Item{Ref: "m1", Speaker: "assistant", Text: "Summary for tonight: Tom has moved to Austin, Nora got a job.",
		MentionedAt: at(6, 8), HappenedStart: time.Date(2023, 6, 8, 0, 0, 0, 0, time.UTC), HappenedEnd: time.Date(2023, 6, 9, 0, 0, 0, 0, time.UTC),
		Precision: "day", TimeText: "tonight"}
	a := assess(t, "When did Tom move to Austin?", gate.SearchRawMemory, summary)
	assert.Equal(t, gate.Partial, a.Verdict)
	assert.Equal(t, "occurrence date", a.Missing)

	// A dated message lacking the city dates something else when another
	// item names it.
	other := gate.Item{Ref: "m2", Speaker: "Nora", Text: "The launch moved to Friday.", MentionedAt: at(6, 5),
		HappenedStart: time.Date(2023, 6, 9, 0, 0, 0, 0, time.UTC), HappenedEnd: time.Date(2023, 6, 10, 0, 0, 0, 0, time.UTC),
		Precision: "day", TimeText: "Friday"}
	a = assess(t, "When did Nora move to Austin?", gate.SearchRawMemory, other,
		gate.Item{Ref: "m3", Speaker: "Nora", Text: "Nora moved to Austin, finally."})
	assert.Equal(t, "occurrence date", a.Missing)
}

func TestHeuristicAnswererState(t *testing.T) {
	ctx := context.Background()
	ans := gate.HeuristicAnswerer{}
	for _, tc := range []struct {
		name     string
		question string
		items    []gate.Item
		want     string
		used     []string
	}{
		{
			name:     "either-or names the alternative of the latest evidence",
			question: "Does Tom drink beer or wine now?",
			items: []gate.Item{
				{Ref: "e1", Speaker: "Tom", Quote: "I'm a beer guy, wine gives me headaches.", MentionedAt: at(3, 1)},
				{Ref: "e2", Speaker: "Tom", Quote: "I know, I used to be a beer guy.", MentionedAt: at(5, 2)},
			},
			want: `wine ("I know, I used to be a beer guy."; said on 2 May 2023; earlier: "I'm a beer guy, wine gives me headaches." on 1 March 2023)`,
			used: []string{"e2", "e1"},
		},
		{
			name:     "switched from A to B",
			question: "Which editor does Tom use now: Vim or Emacs?",
			items: []gate.Item{
				{Ref: "e1", Speaker: "Tom", Quote: "Tom switched from Vim to Emacs.", MentionedAt: at(5, 2)},
			},
			want: `Emacs ("Tom switched from Vim to Emacs."; said on 2 May 2023)`,
			used: []string{"e1"},
		},
		{
			name:     "current state with the former one",
			question: "Which build tool does Orbit use now?",
			items: []gate.Item{
				{Ref: "e1", Title: "Orbit uses Make as its build tool", MentionedAt: at(1, 5)},
				{Ref: "e2", Title: "Orbit replaced Make with Bazel as its build tool", MentionedAt: at(4, 3)},
				{Ref: "e3", Title: "Orbit has a logo", MentionedAt: at(6, 3)},
			},
			want: `Orbit replaced Make with Bazel as its build tool (said on 3 April 2023; earlier: "Orbit uses Make as its build tool" on 5 January 2023)`,
			used: []string{"e2", "e1"},
		},
		{
			name:     "a graph node answers with the fact's value",
			question: "Where does Tom live now?",
			items: []gate.Item{
				{Ref: "e1", Speaker: "Tom", Quote: "I live in Denver.", MentionedAt: at(1, 10)},
				{Ref: "n4", Title: "Tom", Facts: []string{"lives_in: Austin", "works_at: Globex"}},
			},
			want: "Austin (Tom — lives_in: Austin)",
			used: []string{"n4"},
		},
		{
			name:     "where without a living/working topic: no relation tier",
			question: "Where did Tom go camping?",
			items: []gate.Item{
				{Ref: "m1", Speaker: "Tom", Text: "I live in Denver and went camping twice.", Score: 1},
				{Ref: "m2", Speaker: "Tom", Text: "We went camping at Lake Moss, great stars.", Score: 2},
			},
			want: "We went camping at Lake Moss, great stars.",
			used: []string{"m2"},
		},
		{
			name:     "where: the entity's relation cue",
			question: "Where did Tom work in spring?",
			items: []gate.Item{
				{Ref: "m1", Speaker: "Nora", Text: "I work at Initech, Tom visited us."},
				{Ref: "m2", Speaker: "Tom", Text: "Long week. I started at Globex on Monday."},
			},
			want: "Long week. I started at Globex on Monday.",
			used: []string{"m2"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, used, err := ans.Answer(ctx, gate.Analyze(tc.question, now), tc.items)
			require.NoError(t, err)
			assert.Equal(t, tc.want, text)
			assert.Equal(t, tc.used, used)
		})
	}
}

func TestHeuristicAnswererListKeepsListItemsOnly(t *testing.T) {
	text, used, err := gate.HeuristicAnswerer{}.Answer(context.Background(), gate.Analyze("Which pets does Nora have?", now), []gate.Item{
		{Ref: "e1", Title: "Nora adopted a kitten named Miso"},
		{Ref: "e2", Title: "Nora went to Oslo with Tom"},
		{Ref: "m3", Speaker: "Nora", Text: "I'm thinking about adopting a parrot too."},
		{Ref: "m4", Speaker: "Nora", Text: "My rabbit Dot chewed the cable."},
	})
	require.NoError(t, err)
	assert.Equal(t, "Nora adopted a kitten named Miso; My rabbit Dot chewed the cable.", text, "no entity-only item, no wish")
	assert.Equal(t, []string{"e1", "m4"}, used)
}

func TestHeuristicAnswererFocusAndChangedDate(t *testing.T) {
	ctx := context.Background()
	ans := gate.HeuristicAnswerer{}

	// A long message is quoted by its sentence holding the date.
	long := "Quick update on a lot of things before I forget them again, sorry for the wall of text. " +
		"The bakery opened two weeks ago and the queue was around the block. Also the van broke down, again."
	start := time.Date(2023, 5, 29, 0, 0, 0, 0, time.UTC)
	text, _, err := ans.Answer(ctx, gate.Analyze("When did Nora's bakery open?", now), []gate.Item{{
		Ref: "m1", Speaker: "Nora", Text: long, Quote: long, MentionedAt: at(6, 12),
		HappenedStart: start, HappenedEnd: start.AddDate(0, 0, 7), Precision: "week", TimeText: "two weeks ago",
	}})
	require.NoError(t, err)
	assert.Equal(t, `the week of 29 May 2023 ("The bakery opened two weeks ago and the queue was around the block.", said on 12 June 2023)`, text)

	// "moves from A to B" is a change of date: B, moved from A.
	msg := "Correction: the Orbit release moves from Friday 9 June 2023 to Monday 19 June 2023."
	rs := time.Date(2023, 6, 9, 0, 0, 0, 0, time.UTC)
	text, _, err = ans.Answer(ctx, gate.Analyze("When was the Orbit release?", now), []gate.Item{{
		Ref: "m2", Text: msg, Quote: msg, MentionedAt: at(5, 30), HappenedStart: rs, HappenedEnd: rs.AddDate(0, 0, 11),
		Precision: "range", TimeText: "from Friday 9 June 2023 to Monday 19 June 2023",
	}})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text, "19 June 2023 (moved from 9 June 2023, "), text)
}

func TestRunCurrentStateReachesTheGraph(t *testing.T) {
	old := gate.Item{Ref: "e1", Speaker: "Nora", Quote: "I live in Denver, near the park.", MentionedAt: at(1, 10)}
	newer := gate.Item{Ref: "e2", Speaker: "Nora", Quote: "I live in Austin with my cousin.", MentionedAt: at(4, 3)}
	node := gate.Item{Ref: "n5", Title: "Nora", Facts: []string{"lives_in: Austin", "likes: gardening"}}
	r := &retrieverFunc{fn: func(s gate.Step) []gate.Item {
		switch s.Strategy {
		case gate.SearchEvents:
			return []gate.Item{old, newer}
		case gate.SearchGraph:
			return []gate.Item{node}
		}
		return nil
	}}
	res, err := gate.RunQuestion(context.Background(), gate.Analyze("Where does Nora live now?", now), r, gate.HeuristicAssessor{}, gate.HeuristicAnswerer{}, gate.Budget{})
	require.NoError(t, err)
	assert.Equal(t, []gate.Strategy{gate.SearchEvents, gate.SearchGraph}, strategies(res.Trace))
	assert.Equal(t, gate.Sufficient, res.Verdict)
	assert.Equal(t, "Austin (Nora — lives_in: Austin)", res.Text)
	assert.Equal(t, []string{"n5", "e2", "e1"}, refsOf(res.Evidence), "the node that answers, then the events cited in round 1")
	assert.Equal(t, []string{"n5"}, res.SufficientRefs)
}

func TestUnanswerableStaysPartial(t *testing.T) {
	// Items about the entity but not the question's concept never make an
	// answer.
	r := &retrieverFunc{fn: func(gate.Step) []gate.Item {
		return []gate.Item{
			{Ref: "e1", Speaker: "Tom", Quote: "I moved to Austin last year."},
			{Ref: "m2", Speaker: "Nora", Text: "Rex is a great name for a dog."},
		}
	}}
	res, err := gate.RunQuestion(context.Background(), gate.Analyze("What is the name of Tom's dog?", now), r, gate.HeuristicAssessor{}, gate.HeuristicAnswerer{}, gate.Budget{})
	require.NoError(t, err)
	assert.Equal(t, gate.Partial, res.Verdict)
	assert.Equal(t, "not enough evidence: missing events about Tom, name, dog", res.Text)
	assert.Empty(t, res.Evidence)
}
