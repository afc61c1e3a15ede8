package stratagate_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// A plan with a bare weekday is dated to the coming weekday, a report to
// the last one: the card's time is resolved in its sentence.
func TestEventTimeFollowsTense(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 1})
	mon := time.Date(2024, 5, 6, 10, 0, 0, 0, time.UTC) // a Monday
	_, err := mem.Append(ctx, stratagate.Turn{Thread: "t", Messages: []stratagate.Message{
		{Role: "user", Speaker: "Ana", Content: "I moved into the new flat on Friday. I will start the new job on Friday.", At: mon},
		{Role: "assistant", Content: "Congratulations on both!", At: mon.Add(time.Minute)},
	}})
	require.NoError(t, err)
	waitIdle(t, mem)
	hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: "Ana moved flat job Friday"})
	require.NoError(t, err)
	starts := map[string]time.Time{}
	for _, h := range hits {
		d, err := mem.ExpandEvent(ctx, h.ID)
		require.NoError(t, err)
		if !d.Card.Temporal.HappenedStart.IsZero() {
			starts[d.Card.Quotes[0]] = d.Card.Temporal.HappenedStart
		}
	}
	seen := 0
	for quote, s := range starts {
		switch {
		case strings.Contains(quote, "moved"):
			seen++
			assert.Equal(t, time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC), s.UTC(), "report: the last Friday: %s", quote)
		case strings.Contains(quote, "will start"):
			seen++
			assert.Equal(t, time.Date(2024, 5, 10, 0, 0, 0, 0, time.UTC), s.UTC(), "plan: the coming Friday: %s", quote)
		}
	}
	assert.Equal(t, 2, seen, "a dated card for each sentence: %v", starts)
}
