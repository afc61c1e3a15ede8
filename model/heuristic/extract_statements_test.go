package heuristic_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
)

// statementInput is a block of one message per content, spoken in turn
// by Ana Lima (user) and, for role "assistant", the assistant.
func statementInput(role string, contents ...string) *model.ExtractInput {
	at := time.Date(2024, 5, 8, 18, 0, 0, 0, time.UTC)
	in := &model.ExtractInput{BlockID: 3, Thread: "t"}
	for i, c := range contents {
		m := model.DeriveMessage{ID: uint64(200 + i), Role: role, Speaker: "Ana Lima", At: at.Add(time.Duration(i) * time.Minute), Content: c}
		if role == "assistant" {
			m.Speaker = ""
		}
		in.Messages = append(in.Messages, m)
	}
	return in
}

// quotes returns the cards' quotes in order.
func quotes(out model.ExtractOutput) []string {
	var qs []string
	for _, e := range out.Events {
		qs = append(qs, e.Quotes...)
	}
	return qs
}

// A user sentence that states a fact, event, plan or preference about a
// person yields a card without any cue word; questions, acknowledgements
// and greetings yield none.
func TestExtractStatements(t *testing.T) {
	tests := []struct {
		sentence string
		card     bool
	}{
		// Facts, events, plans and preferences about the speaker or
		// someone they name, in words the cue lexicon does not hold.
		{"My grandmother grew up on a farm near the coast.", true},
		{"I collect old maps.", true},
		{"Our neighbours keep bees in the garden.", true},
		{"I'm a nurse at the county hospital.", true},
		{"We're painting the kitchen this weekend.", true},
		{"I love hiking.", true},
		{"My sister lives in Lisbon.", true},
		{"She plays the cello in an orchestra.", true},
		{"Ana fixes old radios for fun.", true}, // a known person by name
		// Chat drops the subject: the sentence is the speaker's.
		{"Finally finished the quilt!", true},
		{"Just got back from Peru.", true},
		{"Been swamped at work lately.", true},
		{"Repainted the fence over the weekend.", true},
		// Questions are never statements.
		{"Did your grandmother grow up on a farm?", false},
		{"Do you collect old maps?", false},
		// Acknowledgements, reactions and greetings, with or without a cue.
		{"I love that!", false},
		{"I'm so proud of you!", false},
		{"I can't wait to see it.", false},
		{"Thanks, I really appreciate it.", false},
		{"Me too!", false},
		{"I totally agree with you.", false},
		{"I hope you have fun!", false},
		{"Good morning!", false},
		{"Loved it!", false},
		{"Looked great!", false},
		{"Got it.", false},
		// No person is the subject.
		{"The weather is lovely.", false},
		{"That bridge looks old.", false},
		{"Indeed, the bridge is old.", false},
	}
	for _, tc := range tests {
		t.Run(tc.sentence, func(t *testing.T) {
			in := statementInput("user", tc.sentence)
			raw, out := extractRaw(t, in)
			requireValidExtract(t, in, raw, out)
			if !tc.card {
				assert.Empty(t, out.Events, "raw: %s", raw)
				return
			}
			require.Len(t, out.Events, 1, "raw: %s", raw)
			e := out.Events[0]
			assert.Equal(t, []string{tc.sentence}, e.Quotes)
			assert.Equal(t, []uint64{200}, e.MessageIDs)
			assert.NotEmpty(t, e.Title)
		})
	}
}

// One message yields a card for each sentence that states something, in
// order; its greeting and question yield none.
func TestExtractStatementsPerSentence(t *testing.T) {
	in := statementInput("user", "Hey! I started a pottery class. My teacher is a retired architect. We meet on Thursdays. Isn't that fun?")
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	assert.Equal(t, []string{"I started a pottery class.", "My teacher is a retired architect.", "We meet on Thursdays."}, quotes(out))
	for _, e := range out.Events {
		assert.Equal(t, []uint64{200}, e.MessageIDs)
	}
}

// Statements without a cue are bounded per message, so one long message
// cannot take a block's cards; sentences with a cue are not counted.
func TestExtractStatementsBoundedPerMessage(t *testing.T) {
	in := statementInput("user",
		"I collect old maps. My brother restores bikes. Our dog snores loudly. My aunt bakes bread. I grow tomatoes.",
		"My cousin sings opera.",
	)
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	assert.Equal(t, []string{"I collect old maps.", "My brother restores bikes.", "Our dog snores loudly.", "My cousin sings opera."}, quotes(out))

	in = statementInput("user", "I collect old maps. My brother restores bikes. Our dog snores loudly. I adopted a kitten yesterday.")
	raw, out = extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	assert.Equal(t, []string{"I collect old maps.", "My brother restores bikes.", "Our dog snores loudly.", "I adopted a kitten yesterday."}, quotes(out))
}

// The assistant's own sentences are not statements about a person: only
// its restatements ("Noted: …") become cards.
func TestExtractStatementsNotFromAssistant(t *testing.T) {
	in := statementInput("assistant", "I can draft the packing list for your trip.", "I collect no data about you.")
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	assert.Empty(t, out.Events, "raw: %s", raw)
}

// When a block has more candidates than cards, every message that states
// something keeps one card before any message keeps a second.
func TestExtractCapKeepsOneCardPerMessage(t *testing.T) {
	var contents []string
	for i := range 20 {
		contents = append(contents, fmt.Sprintf("I collect old map number %d. My brother restores bike number %d. Our dog chews toy number %d.", i, i, i))
	}
	in := statementInput("user", contents...)
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	require.Len(t, out.Events, maxEventsPerBlock)
	perMsg := map[uint64]int{}
	last := uint64(0)
	for _, e := range out.Events {
		require.GreaterOrEqual(t, e.MessageIDs[0], last, "cards stay in message order")
		last = e.MessageIDs[0]
		perMsg[e.MessageIDs[0]]++
	}
	assert.Len(t, perMsg, 20, "every message keeps a card")
}
