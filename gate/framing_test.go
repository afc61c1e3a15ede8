package gate_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/gate"
)

func TestAnalyzeFramingWordsAreNotTopic(t *testing.T) {
	for _, tc := range []struct {
		q       string
		framing []string // raw words that must not be terms
		topic   []string // raw words that must stay Topic terms
	}{
		{"What type of bike does Ana ride?", []string{"type"}, []string{"bike", "ride"}},
		{"Describe the cabin Ana rented.", []string{"describe"}, []string{"cabin", "rented"}},
		{"Besides knitting, what hobby does Ana have?", []string{"besides"}, []string{"knitting", "hobby"}},
		{"What specific kind of tea does Ana brew?", []string{"specific", "kind"}, []string{"tea", "brew"}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			q := gate.Analyze(tc.q, now)
			for _, w := range tc.framing {
				for _, term := range terms(w) {
					assert.NotContains(t, q.Terms, term)
				}
			}
			for _, w := range tc.topic {
				for _, term := range terms(w) {
					assert.Contains(t, q.Topic, term)
				}
			}
		})
	}
	// A framing word does not block an answer that never repeats it.
	items := []gate.Item{{Ref: "m1", Speaker: "Ana", Text: "My new road bike arrived, I ride it to work every day now."}}
	a := assessWeighted(t, "What type of bike does Ana ride?", items,
		map[string]float64{"ana": 1, "bike": 3, "ride": 2}, nil)
	assert.Equal(t, gate.Sufficient, a.Verdict, a.Fit)
}

func TestAnalyzeSentenceInitialCapitals(t *testing.T) {
	for _, tc := range []struct {
		q        string
		entities []string
	}{
		{"According to Ana, what made the trip special?", []string{"Ana"}},
		{"Recently, what did Ana bake?", []string{"Ana"}},
		{"Considering her move, where does Ana work?", []string{"Ana"}},
		{"Ana gave a talk when?", []string{"Ana"}}, // a name may start the sentence
	} {
		assert.Equal(t, tc.entities, gate.Analyze(tc.q, now).Entities, tc.q)
	}
}

func TestAnalyzeHabitIsNotCurrentState(t *testing.T) {
	for _, tc := range []struct {
		q       string
		current bool
	}{
		{"What does Ana do to relax?", false},
		{"What does Ana like to cook?", false},
		{"What does Ana do to relax these days?", true}, // an explicit marker
		{"Where does Ana live?", true},
		{"Which editor does Ana use?", true},
		{"What is Ana's job?", true},
	} {
		assert.Equal(t, tc.current, gate.Analyze(tc.q, now).Current, tc.q)
	}
}

// A purpose clause says why, in words the evidence rarely repeats: its
// rare word is not the key term while the main clause has one.
func TestPurposeClauseIsNotTheKeyTerm(t *testing.T) {
	said := time.Date(2024, 4, 25, 10, 0, 0, 0, time.UTC)
	item := gate.Item{Ref: "m1", Speaker: "Ana", Text: "Yesterday, I went to a craft fair to show off my bakery, so tiring!",
		MentionedAt: said, HappenedStart: said.AddDate(0, 0, -1).Truncate(24 * time.Hour), HappenedEnd: said.Truncate(24 * time.Hour),
		Precision: "day", TimeText: "Yesterday"}
	weights := map[string]float64{"ana": 1, "go": 1.5, "fair": 5, "get": 1.2, "exposur": 6.6, "bakeri": 2}
	q := "When did Ana go to a fair to get more exposure for her bakery?"
	require.Contains(t, gate.Analyze(q, now).Topic, "exposur")
	a := assessWeighted(t, q, []gate.Item{item}, weights, nil)
	assert.Equal(t, gate.Sufficient, a.Verdict, a.Fit)
	// Without the purpose clause's cue, the same rare word is the key term.
	a = assessWeighted(t, "When did Ana get exposure for her bakery at a fair?", []gate.Item{item}, weights, nil)
	assert.Equal(t, gate.Partial, a.Verdict)
	assert.Contains(t, a.Missing, "exposure")
}
