package extmem_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/extmem"
)

// Invented memories the heuristic cases reuse.
var (
	editorVim = extmem.Existing{ID: 11, Title: "Code editor is Vim", Summary: "Uses Vim as the main code editor for work.",
		EventType: "preference", MentionedAt: day(2024, 1, 10)}
	standup = extmem.Existing{ID: 12, Title: "Daily team standup at 9:30", Summary: "The daily team standup starts at 9:30 every morning.",
		EventType: "fact", MentionedAt: day(2024, 1, 10)}
	eatsMeat = extmem.Existing{ID: 13, Title: "Eats meat", Summary: "Eats meat and fish regularly.", EventType: "preference"}
	jobStart = extmem.Existing{ID: 14, Title: "Starting a new job at the bakery", Summary: "Starts the new job at the bakery on 3 June.",
		EventType: "life_event", MentionedAt: day(2024, 5, 1), HappenedStart: day(2024, 6, 3), HappenedEnd: day(2024, 6, 4)}
	darkTheme = extmem.Existing{ID: 15, Title: "Prefers a dark theme", Summary: "Prefers a dark theme in the code editor.", EventType: "preference"}
	climbing  = extmem.Existing{ID: 16, Title: "Went climbing at the indoor gym", Summary: "Went bouldering at the indoor climbing gym with a friend.",
		EventType: "activity", HappenedStart: day(2024, 3, 4), HappenedEnd: day(2024, 3, 5)}
	syncMoved = extmem.Existing{ID: 17, Title: "Weekly planning call moved", Summary: "The weekly planning call now happens on Thursdays.", EventType: "change"}
	oven      = extmem.Existing{ID: 18, Title: "Bought a new oven", Summary: "Bought a new oven for the kitchen and baked on the weekend.", EventType: "activity"}
)

func TestHeuristicDecide(t *testing.T) {
	tests := []struct {
		name     string
		c        extmem.Candidate
		existing []extmem.Existing
		action   extmem.Action
		targets  []uint64
		minConf  float64 // inclusive
		maxConf  float64 // exclusive
	}{
		{"no existing: add", extmem.Candidate{Kind: extmem.KindFact, Title: "Allergic to peanuts", Summary: "The user is allergic to peanuts."},
			nil, extmem.ActionAdd, []uint64{}, 0.9, 1.01},
		{"unrelated: add, sure", extmem.Candidate{Kind: extmem.KindFact, Title: "Allergic to peanuts", Summary: "The user is allergic to peanuts."},
			[]extmem.Existing{syncMoved, editorVim}, extmem.ActionAdd, []uint64{}, 0.9, 1.01},
		{"weak match: add, a person confirms", extmem.Candidate{Kind: extmem.KindPreference, Title: "Enjoys baking sourdough bread",
			Summary: "The user enjoys baking sourdough bread in the kitchen on the weekend."},
			[]extmem.Existing{oven}, extmem.ActionAdd, []uint64{}, 0.5, extmem.AutoConfidence},
		{"the same job start stated twice: ignore", extmem.Candidate{Kind: extmem.KindEvent, Title: "Starts a new job at the bakery",
			Summary: "The user starts the new job at the bakery on 3 June.", OriginalText: "Finally, my first day at the bakery is the 3rd of June!",
			Temporal: extmem.Temporal{HappenedStart: day(2024, 6, 3), HappenedEnd: day(2024, 6, 4), EventType: "life_event"}},
			[]extmem.Existing{editorVim, jobStart}, extmem.ActionIgnore, []uint64{14}, extmem.AutoConfidence, 1.01},
		{"extra compatible detail: merge", extmem.Candidate{Kind: extmem.KindPreference, Title: "Prefers a dark editor theme",
			Summary: "The user prefers a dark theme with a large font in the code editor."},
			[]extmem.Existing{darkTheme, oven}, extmem.ActionMerge, []uint64{15}, 0.6, 1.01},
		{"editor switched: supersede", extmem.Candidate{Kind: extmem.KindPreference, Title: "Switched code editor to Helix",
			Summary:  "The user switched from Vim to Helix and now uses Helix as the main code editor.",
			Temporal: extmem.Temporal{MentionedAt: day(2024, 6, 1)}},
			[]extmem.Existing{editorVim, darkTheme}, extmem.ActionSupersede, []uint64{11}, extmem.AutoConfidence, 1.01},
		{"no longer is a change, not a negation: supersede", extmem.Candidate{Kind: extmem.KindPreference, Title: "No longer eats meat",
			Summary: "The user no longer eats meat or fish."},
			[]extmem.Existing{eatsMeat}, extmem.ActionSupersede, []uint64{13}, 0.7, 1.01},
		{"later mention, other value: supersede", extmem.Candidate{Kind: extmem.KindFact, Title: "Daily team standup at 10:15",
			Summary: "The daily team standup starts at 10:15 every morning.", Temporal: extmem.Temporal{MentionedAt: day(2024, 4, 2)}},
			[]extmem.Existing{standup}, extmem.ActionSupersede, []uint64{12}, 0.7, extmem.AutoConfidence},
		{"contradictory diet: conflict", extmem.Candidate{Kind: extmem.KindPreference, Title: "Does not eat meat",
			Summary: "The user does not eat meat or fish."},
			[]extmem.Existing{eatsMeat}, extmem.ActionConflict, []uint64{13}, 0.5, extmem.AutoConfidence},
		{"another start date, said at the same time: conflict", extmem.Candidate{Kind: extmem.KindEvent, Title: "Starts a new job at the bakery",
			Summary:  "The user starts the new job at the bakery on 27 May.",
			Temporal: extmem.Temporal{MentionedAt: day(2024, 5, 1), HappenedStart: day(2024, 5, 27), HappenedEnd: day(2024, 5, 28), EventType: "life_event"}},
			[]extmem.Existing{jobStart}, extmem.ActionConflict, []uint64{14}, 0.5, extmem.AutoConfidence},
		{"a later start date mentioned later: supersede", extmem.Candidate{Kind: extmem.KindEvent, Title: "Starts a new job at the bakery",
			Summary:  "The user starts the new job at the bakery on 10 June.",
			Temporal: extmem.Temporal{MentionedAt: day(2024, 5, 20), HappenedStart: day(2024, 6, 10), HappenedEnd: day(2024, 6, 11), EventType: "life_event"}},
			[]extmem.Existing{jobStart}, extmem.ActionSupersede, []uint64{14}, 0.7, extmem.AutoConfidence},
		{"a repeated activity on another day: add", extmem.Candidate{Kind: extmem.KindEvent, Title: "Went climbing at the indoor gym",
			Summary:  "The user went bouldering at the indoor climbing gym with a friend.",
			Temporal: extmem.Temporal{HappenedStart: day(2024, 3, 18), HappenedEnd: day(2024, 3, 19), EventType: "activity"}},
			[]extmem.Existing{climbing}, extmem.ActionAdd, []uint64{}, 0.5, extmem.AutoConfidence},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := extmem.NewHeuristic().Decide(context.Background(), &tt.c, tt.existing)
			require.NoError(t, err)
			assert.Equal(t, tt.action, d.Action, "reason: %s", d.Reason)
			assert.Equal(t, tt.targets, d.Targets)
			assert.GreaterOrEqual(t, d.Confidence, tt.minConf, "reason: %s", d.Reason)
			assert.Less(t, d.Confidence, tt.maxConf, "reason: %s", d.Reason)
			assert.Equal(t, "heuristic", d.Decider)
			assert.NotEmpty(t, d.Reason)
		})
	}
}

func TestHeuristicRestatedChangeIsNoChange(t *testing.T) {
	// "now" beside the same value restates it: nothing is replaced.
	c := extmem.Candidate{Kind: extmem.KindPreference, Title: "Code editor is Vim", Summary: "Now uses Vim as the main code editor for work."}
	d, err := extmem.NewHeuristic().Decide(context.Background(), &c, []extmem.Existing{editorVim})
	require.NoError(t, err)
	assert.Equal(t, extmem.ActionIgnore, d.Action, d.Reason)
	// A card that already records the switch is not superseded by the
	// same switch told again.
	switched := extmem.Existing{ID: 21, Title: "Switched code editor to Helix", Summary: "Switched from Vim to Helix as the main code editor.", EventType: "change"}
	c = extmem.Candidate{Kind: extmem.KindEvent, Title: "Switched to Helix", Summary: "The user switched from Vim to Helix as the code editor."}
	d, err = extmem.NewHeuristic().Decide(context.Background(), &c, []extmem.Existing{switched})
	require.NoError(t, err)
	assert.Equal(t, extmem.ActionIgnore, d.Action, d.Reason)
	assert.Equal(t, []uint64{21}, d.Targets)
}

func TestHeuristicTargets(t *testing.T) {
	// Several cards about the same preference: the merge names the best
	// ones first, at most three, whatever order they were offered in.
	theme := func(id uint64, summary string) extmem.Existing {
		return extmem.Existing{ID: id, Title: "Dark theme in the code editor", Summary: summary, EventType: "preference"}
	}
	existing := []extmem.Existing{
		oven,
		theme(31, "Likes a dark theme."),
		theme(32, "Prefers a dark theme in the code editor at work."),
		theme(33, "Prefers a dark theme in the code editor."),
		theme(34, "Uses a dark theme in the code editor."),
	}
	c := extmem.Candidate{Kind: extmem.KindPreference, Title: "Dark theme in the code editor",
		Summary: "The user prefers a dark theme with a large font in the code editor."}
	d, err := extmem.NewHeuristic().Decide(context.Background(), &c, existing)
	require.NoError(t, err)
	assert.Equal(t, extmem.ActionMerge, d.Action, d.Reason)
	require.Len(t, d.Targets, 3)
	assert.Equal(t, uint64(33), d.Targets[0], "the closest card first")
	assert.NotContains(t, d.Targets, uint64(18))
}

func TestHeuristicSignalsMoveTheScore(t *testing.T) {
	// Two texts with a middling overlap: the same participant lifts the
	// match over the strong threshold, another participant keeps it weak.
	e := extmem.Existing{ID: 41, Title: "Piano lessons on Tuesdays", Summary: "Takes piano lessons every Tuesday evening.",
		Participants: []string{"Ilse"}, EventType: "plan"}
	c := extmem.Candidate{Kind: extmem.KindEvent, Title: "Piano lessons with a new teacher",
		Summary: "Piano lessons continue with a new teacher from the music school in the evening.", Temporal: extmem.Temporal{Participants: []string{"ilse"}}}
	with, err := extmem.NewHeuristic().Decide(context.Background(), &c, []extmem.Existing{e})
	require.NoError(t, err)
	c.Temporal.Participants = []string{"Noor"}
	without, err := extmem.NewHeuristic().Decide(context.Background(), &c, []extmem.Existing{e})
	require.NoError(t, err)
	assert.Equal(t, extmem.ActionMerge, with.Action, with.Reason)
	assert.Equal(t, extmem.ActionAdd, without.Action, without.Reason)
	assert.Less(t, without.Confidence, extmem.AutoConfidence, "a weak match is confirmed by a person")
}

func TestHeuristicDeterministic(t *testing.T) {
	c := extmem.Candidate{Kind: extmem.KindPreference, Title: "Switched code editor to Helix",
		Summary: "The user switched from Vim to Helix and now uses Helix as the main code editor.",
		Quotes:  []string{"I moved to Helix last month"}, OriginalText: "I moved to Helix last month and I love it."}
	existing := []extmem.Existing{editorVim, darkTheme, standup, eatsMeat, jobStart, climbing, syncMoved, oven}
	first, err := extmem.NewHeuristic().Decide(context.Background(), &c, existing)
	require.NoError(t, err)
	for range 50 {
		d, err := extmem.NewHeuristic().Decide(context.Background(), &c, existing)
		require.NoError(t, err)
		require.Equal(t, first, d)
	}
}

func TestHeuristicBoundsAndErrors(t *testing.T) {
	h := extmem.NewHeuristic()
	assert.Equal(t, "heuristic", h.Name())
	_, err := h.Decide(context.Background(), nil, nil)
	assert.ErrorIs(t, err, extmem.ErrNoCandidate)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = h.Decide(ctx, &extmem.Candidate{Title: "x"}, nil)
	assert.ErrorIs(t, err, context.Canceled)

	// Matches past MaxTopK are not looked at: the 21st card, identical to
	// the candidate, is never named.
	var existing []extmem.Existing
	for i := range extmem.MaxTopK {
		existing = append(existing, extmem.Existing{ID: uint64(100 + i), Title: "Weekly planning call", Summary: "Unrelated filler text number."})
	}
	existing = append(existing, extmem.Existing{ID: 999, Title: "Allergic to peanuts", Summary: "Allergic to peanuts."})
	c := extmem.Candidate{Kind: extmem.KindFact, Title: "Allergic to peanuts", Summary: "The user is allergic to peanuts."}
	d, err := h.Decide(context.Background(), &c, existing)
	require.NoError(t, err)
	assert.Equal(t, extmem.ActionAdd, d.Action)

	// An empty candidate is unrelated to anything.
	d, err = h.Decide(context.Background(), &extmem.Candidate{}, []extmem.Existing{editorVim})
	require.NoError(t, err)
	assert.Equal(t, extmem.ActionAdd, d.Action)
}
