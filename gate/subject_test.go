package gate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/stratagate/stratagate/gate"
)

// Evidence about a named person is spoken by them or names them; the
// other speaker addressing them by name is not evidence about them.
func TestSubjectCheck(t *testing.T) {
	for _, tc := range []struct {
		name    string
		item    gate.Item
		verdict gate.Verdict
	}{
		{"spoken by the subject", gate.Item{Ref: "m1", Speaker: "Ana", Text: "We adopted a grey kitten from the shelter!"}, gate.Sufficient},
		{"naming the subject", gate.Item{Ref: "m1", Speaker: "Ben", Text: "Ana adopted a grey kitten from the shelter."}, gate.Sufficient},
		{"another speaker addressing the subject", gate.Item{Ref: "m1", Speaker: "Ben", Text: "Thanks, Ana! I adopted a grey kitten from the shelter."}, gate.Wrong},
		{"another speaker only", gate.Item{Ref: "m1", Speaker: "Ben", Text: "I adopted a grey kitten from the shelter."}, gate.Wrong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := assessWeighted(t, "What did Ana adopt?", []gate.Item{tc.item}, nil, nil)
			assert.Equal(t, tc.verdict, a.Verdict, a.Fit)
		})
	}
}

// A question about what Ana thinks is not answered by what Ben said about
// himself, even when it names both.
func TestSubjectIsTheFirstPerson(t *testing.T) {
	items := []gate.Item{{Ref: "m1", Speaker: "Ben", Text: "Ana, I think my decision to move to the coast is right."}}
	a := assessWeighted(t, "What does Ana think about Ben's decision to move?", items, nil, nil)
	assert.NotEqual(t, gate.Sufficient, a.Verdict, a.Fit)
}

func TestAnswerType(t *testing.T) {
	for _, tc := range []struct {
		question string
		text     string
		verdict  gate.Verdict
	}{
		{"Who did Ana go climbing with?", "I went climbing with my colleague on Sunday.", gate.Sufficient},
		{"Who did Ana go climbing with?", "I went climbing with Priya on Sunday.", gate.Sufficient},
		{"Who did Ana go climbing with?", "I went climbing at the gym on Sunday.", gate.Partial},
		{"Where did Ana go climbing?", "I went climbing at the old quarry park.", gate.Sufficient},
		{"Where did Ana go climbing?", "I went climbing with my colleague.", gate.Partial},
		{"How often does Ana swim?", "I swim twice a week at the lake.", gate.Sufficient},
		{"How often does Ana swim?", "I swim at the lake.", gate.Partial},
		// The evidence must fill the slot, not restate the question.
		{"Why did Ana quit the choir?", "I quit the choir because rehearsals moved to Sundays.", gate.Sufficient},
		{"Why did Ana quit the choir?", "I quit the choir last month.", gate.Partial},
		{"How did Ana feel after the race?", "After the race I felt proud and exhausted.", gate.Sufficient},
		{"How did Ana feel after the race?", "I ran the race after work.", gate.Partial},
		{"What did Ana bake for the party?", "I baked for the party.", gate.Partial},
		{"What did Ana bake for the party?", "I baked a lemon tart for the party.", gate.Sufficient},
	} {
		t.Run(tc.question+" / "+tc.text, func(t *testing.T) {
			a := assessWeighted(t, tc.question, []gate.Item{{Ref: "m1", Speaker: "Ana", Text: tc.text}}, nil, nil)
			assert.Equal(t, tc.verdict, a.Verdict, a.Fit)
		})
	}
}

// A neighbour that answers the partner's question is cited with it.
func TestContextWindowCitesTheReply(t *testing.T) {
	items := []gate.Item{
		{Ref: "m7", Speaker: "Ben", Text: "How did you get your dog, Ana?", MessageIDs: []uint64{7}},
		{Ref: "m8", Speaker: "Ana", Text: "I adopted her from a shelter two years ago.", MessageIDs: []uint64{8}, Of: "m7"},
		{Ref: "m6", Speaker: "Ben", Text: "Look at this photo!", MessageIDs: []uint64{6}, Of: "m7"},
	}
	a := assessWeighted(t, "How did Ana get her dog?", items, nil, nil)
	assert.Equal(t, gate.Sufficient, a.Verdict, a.Fit)
	assert.Equal(t, []string{"m7", "m8"}, a.EvidenceRefs, "the hit and the reply, not the unrelated neighbour")
	text, used, err := gate.HeuristicAnswerer{}.Answer(t.Context(), gate.Analyze("How did Ana get her dog?", now), items[:2])
	assert.NoError(t, err)
	assert.Equal(t, "I adopted her from a shelter two years ago.", text, "the reply, not the question")
	assert.Equal(t, []string{"m8"}, used)
	// Without its reply, a question is no evidence.
	a = assessWeighted(t, "How did Ana get her dog?", items[:1], nil, nil)
	assert.NotEqual(t, gate.Sufficient, a.Verdict)
}

// A person is asked about by a short form of their name.
func TestNicknameCoversTheSpeaker(t *testing.T) {
	items := []gate.Item{{Ref: "m1", Speaker: "Christina", Text: "We glazed two mugs at the pottery class yesterday."}}
	a := assessWeighted(t, "What did Chris glaze at the pottery class?", items, nil, nil)
	assert.Equal(t, gate.Sufficient, a.Verdict, a.Fit)
	// Two letters are no short form.
	items = []gate.Item{{Ref: "m1", Speaker: "Christina", Text: "We glazed two mugs at the pottery class yesterday."}}
	a = assessWeighted(t, "What did Ch glaze at the pottery class?", items, nil, nil)
	assert.NotEqual(t, gate.Sufficient, a.Verdict)
	assert.Equal(t, []string{"Ana"}, gate.Analyze("Around which holiday did Ana travel?", now).Entities)
}
