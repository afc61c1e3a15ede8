package extmem_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/extmem"
	"github.com/stratagate/stratagate/model"
)

// scriptModel answers with the next of its scripted replies (the last
// one repeats) and keeps the requests it was sent.
type scriptModel struct {
	mu      sync.Mutex
	replies []string
	reqs    []model.Request
	err     error
}

func (m *scriptModel) Name() string { return "script" }

func (m *scriptModel) Complete(_ context.Context, req model.Request) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reqs = append(m.reqs, req)
	if m.err != nil {
		return "", m.err
	}
	if len(m.replies) == 0 {
		return "", errors.New("no reply scripted")
	}
	out := m.replies[0]
	if len(m.replies) > 1 {
		m.replies = m.replies[1:]
	}
	return out, nil
}

// decideCandidate and decideExisting are what the model decider tests
// offer: two cards, ids 11 and 15.
var (
	decideCandidate = extmem.Candidate{Kind: extmem.KindPreference, Title: "Switched code editor to Helix",
		Summary: "The user switched from Vim to Helix.", Quotes: []string{"I use Helix now"},
		Temporal: extmem.Temporal{MentionedAt: day(2024, 6, 1), Precision: "unknown", Status: "unknown", Participants: []string{"Noor"}}}
	decideExisting = []extmem.Existing{editorVim, darkTheme}
)

func TestModelDecider(t *testing.T) {
	tests := []struct {
		name    string
		replies []string
		want    extmem.Decision
		wantErr error
		calls   int
	}{
		{"supersede", []string{`{"action":"supersede","target_ids":[11],"confidence":0.9,"reason":"Vim replaced by Helix."}`},
			extmem.Decision{Action: extmem.ActionSupersede, Targets: []uint64{11}, Confidence: 0.9, Reason: "Vim replaced by Helix.", Decider: "model:script"}, nil, 1},
		{"add, fenced", []string{"```json\n" + `{"action":"add","target_ids":[],"confidence":1,"reason":"new"}` + "\n```"},
			extmem.Decision{Action: extmem.ActionAdd, Targets: []uint64{}, Confidence: 1, Reason: "new", Decider: "model:script"}, nil, 1},
		{"ignore without a target, null ids", []string{`{"action":"ignore","target_ids":null,"confidence":0,"reason":"known"}`},
			extmem.Decision{Action: extmem.ActionIgnore, Targets: []uint64{}, Confidence: 0, Reason: "known", Decider: "model:script"}, nil, 1},
		{"merge of two, reason made one clipped line", []string{`{"action":"merge","target_ids":[15,11],"confidence":0.5,"reason":"  two\nlines ` + strings.Repeat("x", 300) + `"}`},
			extmem.Decision{Action: extmem.ActionMerge, Targets: []uint64{15, 11}, Confidence: 0.5, Reason: ("two lines " + strings.Repeat("x", 300))[:extmem.MaxReasonRunes], Decider: "model:script"}, nil, 1},
		{"prose, then a good reply", []string{`I would supersede 11.`, `{"action":"conflict","target_ids":[11],"confidence":0.4,"reason":"unclear"}`},
			extmem.Decision{Action: extmem.ActionConflict, Targets: []uint64{11}, Confidence: 0.4, Reason: "unclear", Decider: "model:script"}, nil, 2},
		{"unknown action", []string{`{"action":"replace","target_ids":[11],"confidence":0.9,"reason":"r"}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"target not offered", []string{`{"action":"merge","target_ids":[11,99],"confidence":0.9,"reason":"r"}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"repeated target", []string{`{"action":"merge","target_ids":[11,11],"confidence":0.9,"reason":"r"}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"merge without targets", []string{`{"action":"merge","target_ids":[],"confidence":0.9,"reason":"r"}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"supersede without targets", []string{`{"action":"supersede","target_ids":[],"confidence":0.9,"reason":"r"}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"conflict without targets", []string{`{"action":"conflict","target_ids":null,"confidence":0.9,"reason":"r"}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"add with a target", []string{`{"action":"add","target_ids":[11],"confidence":0.9,"reason":"r"}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"confidence above 1", []string{`{"action":"add","target_ids":[],"confidence":1.5,"reason":"r"}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"negative confidence", []string{`{"action":"add","target_ids":[],"confidence":-0.1,"reason":"r"}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"confidence out of float range", []string{`{"action":"add","target_ids":[],"confidence":1e999,"reason":"r"}`}, extmem.Decision{}, model.ErrBadOutput, 2},
		{"negative id", []string{`{"action":"merge","target_ids":[-11],"confidence":0.9,"reason":"r"}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"unknown field", []string{`{"action":"add","target_ids":[],"confidence":0.9,"reason":"r","why":"x"}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"trailing data", []string{`{"action":"add","target_ids":[],"confidence":0.9,"reason":"r"} {}`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
		{"not an object", []string{`["add"]`}, extmem.Decision{}, extmem.ErrModelOutput, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &scriptModel{replies: tt.replies}
			c := decideCandidate
			got, err := extmem.NewModelDecider(m).Decide(context.Background(), &c, decideExisting)
			assert.Len(t, m.reqs, tt.calls)
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
				assert.ErrorIs(t, err, model.ErrBadOutput, "every rejection is bad output")
				assert.False(t, errors.Is(err, extmem.ErrModelCall))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestModelDeciderRequest(t *testing.T) {
	m := &scriptModel{replies: []string{`{"action":"add","target_ids":[],"confidence":0.9,"reason":"r"}`}}
	c := decideCandidate
	c.OriginalText = "my key is sk-proj-" + strings.Repeat("Ab3", 16) + " for the bot"
	_, err := extmem.NewModelDecider(m).Decide(context.Background(), &c, decideExisting)
	require.NoError(t, err)
	require.Len(t, m.reqs, 1)
	req := m.reqs[0]
	p := model.PromptFor(model.TaskImportDecide)
	assert.Equal(t, model.TaskImportDecide, req.Task)
	assert.Equal(t, p.ID(), req.PromptID)
	assert.Equal(t, p.System, req.System)
	assert.Equal(t, p.MaxTokens, req.MaxTokens)
	assert.NotContains(t, req.Prompt, "sk-proj-", "secrets are redacted from the prompt")
	assert.Contains(t, c.OriginalText, "sk-proj-", "the candidate itself is untouched")

	var in model.ImportDecideInput
	require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(req.Prompt, p.Lead)), &in))
	assert.Equal(t, "preference", in.Candidate.Kind)
	assert.Equal(t, "2024-06-01T00:00:00Z", in.Candidate.MentionedAt)
	assert.Empty(t, in.Candidate.HappenedStart, "unknown times are empty")
	assert.Empty(t, in.Candidate.Precision, "unknown says no more than nothing")
	assert.Equal(t, []string{"Noor"}, in.Candidate.Participants)
	require.Len(t, in.Existing, 2)
	assert.Equal(t, uint64(11), in.Existing[0].ID)
	assert.Equal(t, "Code editor is Vim", in.Existing[0].Title)
	assert.Equal(t, "2024-01-10T00:00:00Z", in.Existing[0].MentionedAt)
	assert.Equal(t, uint64(15), in.Existing[1].ID)
}

func TestModelDeciderOffersAtMostTopK(t *testing.T) {
	var existing []extmem.Existing
	for i := range extmem.MaxTopK + 5 {
		existing = append(existing, extmem.Existing{ID: uint64(i + 1), Title: "card"})
	}
	// Id 25 was not offered: past MaxTopK.
	m := &scriptModel{replies: []string{`{"action":"merge","target_ids":[25],"confidence":0.9,"reason":"r"}`}}
	c := decideCandidate
	_, err := extmem.NewModelDecider(m).Decide(context.Background(), &c, existing)
	assert.ErrorIs(t, err, extmem.ErrModelOutput)
	var in model.ImportDecideInput
	require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(m.reqs[0].Prompt, model.PromptFor(model.TaskImportDecide).Lead)), &in))
	assert.Len(t, in.Existing, extmem.MaxTopK)
}

func TestModelDeciderCallErrors(t *testing.T) {
	down := errors.New("connection refused")
	c := decideCandidate

	_, err := extmem.NewModelDecider(&scriptModel{err: down}).Decide(context.Background(), &c, decideExisting)
	assert.ErrorIs(t, err, extmem.ErrModelCall)
	assert.ErrorIs(t, err, down, "the client's error is wrapped")
	assert.False(t, errors.Is(err, extmem.ErrModelOutput))

	_, err = extmem.NewModelDecider(&scriptModel{err: model.ErrPermanent}).Decide(context.Background(), &c, decideExisting)
	assert.ErrorIs(t, err, model.ErrPermanent)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = extmem.NewModelDecider(&scriptModel{err: context.Canceled}).Decide(ctx, &c, decideExisting)
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, err, extmem.ErrModelCall)

	_, err = extmem.NewModelDecider(nil).Decide(context.Background(), &c, decideExisting)
	assert.ErrorIs(t, err, extmem.ErrModelCall)
	assert.Equal(t, "model:", extmem.NewModelDecider(nil).Name())

	_, err = extmem.NewModelDecider(&scriptModel{}).Decide(context.Background(), nil, decideExisting)
	assert.ErrorIs(t, err, extmem.ErrNoCandidate)
	assert.Equal(t, "model:script", extmem.NewModelDecider(&scriptModel{}).Name())
}
