package gate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/gate"
)

// TestSessionPrefix: a caller's prefix goes before the process-wide
// session number, so batch and assessment ids carry it; RunSession drives
// such a session like RunQuestion and leaves its state readable.
func TestSessionPrefix(t *testing.T) {
	plain := gate.NewSessionQuestion(gate.Analyze("What is it?", now), gate.Budget{})
	assert.True(t, strings.HasPrefix(plain.ID(), "s"), plain.ID())
	s := gate.NewSessionPrefix("p7-", gate.Analyze("What is it?", now), gate.Budget{})
	assert.True(t, strings.HasPrefix(s.ID(), "p7-s"), s.ID())
	assert.NotEqual(t, strings.TrimPrefix(plain.ID(), "s"), strings.TrimPrefix(s.ID(), "p7-s"), "one process-wide counter")

	r := &retrieverFunc{fn: func(gate.Step) []gate.Item { return []gate.Item{{Ref: "e1", Title: "a"}, {Ref: "n2", Title: "b"}} }}
	a := assessorFunc(func(_ *gate.Question, b *gate.Batch, _ *gate.State) gate.Assessment {
		return gate.Assessment{BatchID: b.ID, Verdict: gate.Sufficient, EvidenceRefs: []string{"e1", "n2"}, NextStrategy: gate.Answer}
	})
	res, err := gate.RunSession(context.Background(), s, r, a, &answererSpy{text: "answer"})
	require.NoError(t, err)
	assert.Equal(t, gate.Sufficient, res.Verdict)
	assert.Equal(t, s.ID()+"-b1-a1", res.SufficientAssessmentID)
	st := s.State()
	require.Len(t, st.Assessments, 1)
	assert.Equal(t, []string{"e1", "n2"}, st.Assessments[0].EvidenceRefs)

	_, err = gate.RunSession(context.Background(), nil, r, a, &answererSpy{text: "answer"})
	assert.Error(t, err)
}
