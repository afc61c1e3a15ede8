package gate_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/gate"
)

func TestAnalyzeDurationQuestions(t *testing.T) {
	for _, tc := range []struct {
		q       string
		ago     bool
		between bool
		unit    string
	}{
		{"How many days ago did Ana move to Lisbon?", true, false, "day"},
		{"How long ago did Ana move to Lisbon?", true, false, ""},
		{"How many weeks passed between Ana's move and her first marathon?", false, true, "week"},
		{"How long was it between the wedding and the move?", false, true, ""},
		{"How many books did Ana read?", false, false, ""},
		{"How long has Ana played the cello?", false, false, ""},
	} {
		q := gate.Analyze(tc.q, now)
		assert.Equal(t, tc.ago, q.Ago, tc.q)
		assert.Equal(t, tc.between, len(q.Between[0]) > 0, tc.q)
		assert.Equal(t, tc.unit, q.DurationUnit, tc.q)
		if tc.ago || tc.between {
			assert.True(t, q.WantsTime, tc.q)
			assert.False(t, q.WantsList, tc.q)
		}
	}
}

func dayItem(ref string, id uint64, speaker, text string, y int, m time.Month, d int) gate.Item {
	s := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return gate.Item{Ref: ref, MessageIDs: []uint64{id}, Speaker: speaker, Text: text, MentionedAt: s.Add(20 * time.Hour),
		HappenedStart: s, HappenedEnd: s.AddDate(0, 0, 1), Precision: "day", TimeText: "on this day"}
}

// A duration between two events is computed from their dates, both cited.
func TestDurationBetweenTwoCitedEvents(t *testing.T) {
	move := dayItem("m1", 1, "Ana", "We finally finished the move to Lisbon on this day!", 2023, 3, 4)
	race := dayItem("m2", 2, "Ana", "I ran my first marathon on this day, so tired.", 2023, 4, 15)
	other := gate.Item{Ref: "m3", MessageIDs: []uint64{3}, Speaker: "Ana", Text: "Lisbon is sunny and I love the move."}
	q := "How many weeks passed between Ana's move to Lisbon and her first marathon?"
	r := &retrieverFunc{fn: func(gate.Step) []gate.Item { return []gate.Item{other, move, race} }}
	res, err := gate.RunQuestion(t.Context(), gate.Analyze(q, now), r, gate.HeuristicAssessor{}, gate.HeuristicAnswerer{}, gate.Budget{})
	require.NoError(t, err)
	require.Equal(t, gate.Sufficient, res.Verdict, res.Missing)
	assert.Equal(t, "6 weeks (between 4 March 2023 and 15 April 2023)", res.Text)
	assert.Equal(t, []string{"m1", "m2"}, refsOf(res.Evidence)[:2], "both ends cited first")
	assert.Contains(t, res.SufficientRefs, "m1")
	assert.Contains(t, res.SufficientRefs, "m2")

	// With one end undated there is no length to give.
	r = &retrieverFunc{fn: func(gate.Step) []gate.Item { return []gate.Item{other, move} }}
	res, err = gate.RunQuestion(t.Context(), gate.Analyze(q, now), r, gate.HeuristicAssessor{}, gate.HeuristicAnswerer{}, gate.Budget{})
	require.NoError(t, err)
	assert.Equal(t, gate.Partial, res.Verdict)
	assert.Equal(t, "the dates of both events", res.Missing)
}

func TestDurationAgo(t *testing.T) {
	asked := time.Date(2023, 5, 1, 12, 0, 0, 0, time.UTC)
	move := dayItem("m1", 1, "Ana", "We finally finished the move to Lisbon on this day!", 2023, 4, 17)
	r := &retrieverFunc{fn: func(gate.Step) []gate.Item { return []gate.Item{move} }}
	res, err := gate.RunQuestion(t.Context(), gate.Analyze("How many days ago did Ana move to Lisbon?", asked), r,
		gate.HeuristicAssessor{}, gate.HeuristicAnswerer{}, gate.Budget{})
	require.NoError(t, err)
	require.Equal(t, gate.Sufficient, res.Verdict, res.Missing)
	assert.Contains(t, res.Text, "14 days ago (17 April 2023")
}
