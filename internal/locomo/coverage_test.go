package locomo

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
)

func TestCardCoverage(t *testing.T) {
	c, m := loadMini(t)
	// The fixture's gold turns of categories 1–4, each once: D1:1, D1:2,
	// D2:1, D1:4, D2:2, D1:3. D9:9 names no turn and the malformed "D1-5"
	// does not resolve; the category-5 question's D1:4 is counted through
	// the category-4 one.
	const goldTurns = 6
	card := func(ids ...uint64) events.Card { return events.Card{SourceMessageIDs: ids} }
	tests := []struct {
		name    string
		cards   []events.Card
		covered int
	}{
		{"no cards", nil, 0},
		{"one card, one gold turn", []events.Card{card(101)}, 1},
		{"a card of two turns covers both", []events.Card{card(101, 106)}, 2},
		{"repeated sources count once", []events.Card{card(101), card(101), card(101, 101)}, 1},
		{"non-gold turn and another conversation's ids", []events.Card{card(108), card(9999)}, 0},
		{"every gold turn", []events.Card{card(101, 102, 103), card(104, 105), card(106, 107)}, goldTurns},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cov := CardCoverage(c, m, tc.cards)
			assert.Equal(t, goldTurns, cov.Turns)
			assert.Equal(t, tc.covered, cov.Covered)
			assert.InDelta(t, float64(tc.covered)/goldTurns, cov.Fraction(), 1e-9)
		})
	}
	assert.Zero(t, Coverage{}.Fraction(), "nothing counted")
	assert.Equal(t, "0.500 (1 of 2 gold turns)", Coverage{Turns: 2, Covered: 1}.String())
}

// Measure reads the cards of a real store and adds to what was counted.
func TestCoverageMeasure(t *testing.T) {
	convs, err := Load(miniFixture)
	require.NoError(t, err)
	c := &convs[0]
	ctx := context.Background()
	mem, err := stratagate.Open(filepath.Join(t.TempDir(), "sg.db"), &stratagate.Options{NoSync: true, BlockTurns: 1})
	require.NoError(t, err)
	defer mem.Close()
	m, err := Ingest(ctx, mem, c, c.ID, "global")
	require.NoError(t, err)
	require.NoError(t, mem.WaitIdle(ctx))
	cards, err := allCards(ctx, mem)
	require.NoError(t, err)
	require.NotEmpty(t, cards)
	want := CardCoverage(c, m, cards)
	require.Positive(t, want.Covered, "the fixture's first-person reports have cards")

	cov := Coverage{Turns: 3, Covered: 1}
	require.NoError(t, cov.Measure(ctx, mem, c, m))
	assert.Equal(t, Coverage{Turns: 3 + want.Turns, Covered: 1 + want.Covered}, cov)
}
