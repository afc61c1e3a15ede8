package stratagate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/model"
)

// Every card names Mia; one is about a kayak, many newer ones are
// identity cards. The kayak card must lead a search for Mia's kayak:
// neither recency among Mia's cards nor the criticality floor of cards no
// answer has used may lift other cards above the one the words match.
func TestSearchEventsStructuredListsDoNotDrownWords(t *testing.T) {
	em := &extractModel{}
	em.fn = func(in *model.ExtractInput) string {
		var evs []model.ExtractedEvent
		for _, m := range in.Messages {
			if m.Speaker != "Mia" {
				continue
			}
			ev := model.ExtractedEvent{Title: "Mia: " + m.Content[:24], Summary: m.Content, Quotes: []string{m.Content[:20]},
				MessageIDs: []uint64{m.ID}, EventType: "fact", Participants: []string{"Mia"}, Criticality: "identity"}
			if strings.Contains(m.Content, "kayak") {
				ev.Criticality = "routine"
			}
			evs = append(evs, ev)
		}
		return extractJSON(evs...)
	}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 2, Model: em})
	contents := []string{"Mia bought a red kayak for the summer trips."}
	for i := range 11 {
		contents = append(contents, fmt.Sprintf("Mia says her favourite number is %d and she lives in Porto.", i))
	}
	for i, c := range contents {
		_, err := mem.Append(ctx, stratagate.Turn{Thread: "t", Messages: []stratagate.Message{
			{Role: "user", Speaker: "Mia", Content: c, At: base.AddDate(0, 0, i)},
			{Role: "assistant", Content: "Noted.", At: base.AddDate(0, 0, i).Add(1)},
		}})
		require.NoError(t, err)
	}
	waitIdle(t, mem)
	hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: "What kayak did Mia buy?"})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	assert.Contains(t, hits[0].Title, "kayak", "first hit: %q", hits[0].Title)
}
