package stratagate_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// line is one message of a hand-written conversation.
type line struct{ speaker, text string }

// appendLines stores lines as one turn per message in thread, a minute
// apart, and returns their message ids in order.
func appendLines(t *testing.T, mem *stratagate.Memory, thread string, lines []line) []uint64 {
	t.Helper()
	ids := make([]uint64, len(lines))
	for i, l := range lines {
		ref, err := mem.Append(ctx, stratagate.Turn{Thread: thread, Messages: []stratagate.Message{
			{Role: "user", Speaker: l.speaker, Content: l.text, At: base.Add(time.Duration(i) * time.Minute)},
		}})
		require.NoError(t, err)
		ids[i] = ref.MessageIDs[0]
	}
	return ids
}

// rank returns the message ids of hits, in order.
func rank(hits []stratagate.Hit) []uint64 {
	out := make([]uint64, len(hits))
	for i, h := range hits {
		out[i] = h.MessageID
	}
	return out
}

// The speaker's name is indexed with each message: a question naming a
// person finds that person's turns on the topic first, another person's
// turn on the topic next, and the person's off-topic turns only after
// every topical one (a name never swamps the topic words).
func TestSearchRawMatchesSpeaker(t *testing.T) {
	twoPeople := []line{
		{"Ana", "I think the move to the new flat will happen in June."}, // 0: Ana, on topic
		{"Ben", "That is soon! Do you need help packing boxes?"},
		{"Ana", "Yes please, my sister is visiting that weekend too."},
		{"Ben", "Our move last year took three days, so start early."}, // 3: Ben, on topic
		{"Ana", "I bought a red bike yesterday."},
		{"Ben", "Nice, does it have a basket for groceries?"},
		{"Ana", "It does, and a bell that is far too loud."},
		{"Ben", "Ana, you should ride it to work on Monday."}, // 7: names Ana
	}
	// A group chat where the named person spoke twice, off topic, and is
	// rarer in the file than the topic word: as ordinary text terms her
	// name would outweigh "move".
	group := []line{
		{"Priya", "Good morning everyone, the coffee machine is fixed."}, // 0: Priya, off topic
		{"Omar", "The move of the servers is planned for Friday night."}, // 1: on topic
		{"Lena", "Who is bringing cake to the party?"},
		{"Kofi", "I can bring a lemon cake."},
		{"Yuki", "Please book the big room for the move briefing."}, // 4: on topic
		{"Ines", "Done, the room is booked from ten."},
		{"Tomas", "Can somebody check the printer on floor two?"},
		{"Rosa", "The printer needs new toner."},
		{"Omar", "I ordered toner this morning."},
		{"Lena", "Thanks, and the parking lot closes early today."},
		{"Kofi", "After the move we get a bigger kitchen."}, // 10: on topic
		{"Yuki", "A bigger kitchen would be lovely."},
		{"Ines", "The quarterly report is due next week."},
		{"Tomas", "I will draft the report tomorrow."},
		{"Priya", "Thanks all, see you at lunch."}, // 14: Priya, off topic
		{"Rosa", "Lunch is at noon in the garden."},
	}
	for i := range 12 {
		group = append(group, line{[]string{"Rosa", "Tomas", "Ines", "Lena"}[i%4], fmt.Sprintf("Reminder %d: the badge office opens at nine.", i)})
	}
	tests := []struct {
		name  string
		lines []line
		query string
		// first: the expected top hit (-1: any topical one); topical: the messages that share a
		// topic word with the query; speaker: the named person's off-topic
		// messages, which must come after every topical one.
		first   int
		topical []int
		speaker []int
	}{
		{"two people", twoPeople, "What did Ana say about the move?", 0, []int{0, 3}, []int{2, 4, 6}},
		{"two people, lower case name", twoPeople, "what did ana think of the move", 0, []int{0, 3}, []int{2, 4, 6}},
		{"group chat, rare speaker", group, "What did Priya say about the move?", -1, []int{1, 4, 10}, []int{0, 14}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem, _ := openMem(t, nil)
			ids := appendLines(t, mem, "chat", tc.lines)
			hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: tc.query, Limit: 20})
			require.NoError(t, err)
			got := rank(hits)
			require.NotEmpty(t, got)
			if tc.first >= 0 {
				assert.Equal(t, ids[tc.first], got[0], "top hit")
			}
			pos := func(i int) int {
				for p, id := range got {
					if id == ids[i] {
						return p
					}
				}
				return len(got) // not returned: after everything
			}
			lastTopical := 0
			for _, i := range tc.topical {
				require.Less(t, pos(i), len(got), "topical message %d is returned", i)
				lastTopical = max(lastTopical, pos(i))
			}
			for _, i := range tc.speaker {
				p := pos(i)
				require.Less(t, p, len(got), "the speaker's message %d matches through the name", i)
				assert.Greater(t, p, lastTopical, "off-topic message %d by the named speaker ranks after every topical one", i)
			}
		})
	}
}

// A speaker's name is tokenized like text: case and diacritics are folded
// and each word of a longer name matches; a message without a speaker
// matches only its text.
func TestSearchRawSpeakerTokenized(t *testing.T) {
	mem, _ := openMem(t, nil)
	ids := appendLines(t, mem, "chat", []line{
		{"José Álvarez-Ruiz", "The garden needs water."},
		{"", "The garden needs sun."},
		{"Ben", "Nothing to add."},
	})
	for _, q := range []string{"jose", "ÁLVAREZ", "ruiz", "Jose Alvarez"} {
		hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: q})
		require.NoError(t, err)
		assert.Equal(t, []uint64{ids[0]}, rank(hits), "query %q", q)
	}
	hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: "what did ben say"})
	require.NoError(t, err)
	assert.Equal(t, []uint64{ids[2]}, rank(hits))
	assert.True(t, strings.HasPrefix(hits[0].Snippet, "Nothing"), "the snippet is the text: %q", hits[0].Snippet)
}
