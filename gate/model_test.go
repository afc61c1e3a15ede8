package gate_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/gate"
	"github.com/stratagate/stratagate/model"
)

// scriptModel answers each task with the next of its scripted replies
// (the last one repeats) and keeps the requests it was sent.
type scriptModel struct {
	mu      sync.Mutex
	replies map[model.Task][]string
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
	r := m.replies[req.Task]
	if len(r) == 0 {
		return "", errors.New("no reply scripted")
	}
	out := r[0]
	if len(r) > 1 {
		m.replies[req.Task] = r[1:]
	}
	return out, nil
}

func (m *scriptModel) count(task model.Task) int {
	n := 0
	for _, r := range m.reqs {
		if r.Task == task {
			n++
		}
	}
	return n
}

var modelBatch = func() *gate.Batch {
	return &gate.Batch{ID: "s1-b1", Strategy: gate.SearchEvents, Query: "launch", Items: []gate.Item{
		{Ref: "e9", Kind: gate.KindEvent, Title: "Launch moved", Text: "The launch moved to June.",
			HappenedStart: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), HappenedEnd: time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC), Precision: "month",
			MentionedAt: time.Date(2024, 5, 3, 14, 0, 0, 0, time.UTC), TimeText: "June"},
		{Ref: "m41", Kind: gate.KindMessage, Speaker: "Robin", Text: strings.Repeat("long message ", 400)},
	}}
}

func TestModelAssessor(t *testing.T) {
	q := gate.Analyze("When is the launch?", time.Date(2024, 5, 10, 9, 0, 0, 0, time.UTC))
	tests := []struct {
		name     string
		replies  []string
		want     gate.Assessment
		wantErr  error
		wantCall int
	}{
		{"sufficient", []string{`{"verdict":"sufficient","evidence_refs":["e9"],"fit":"e9 dates it","missing":"","next_strategy":"answer"}`},
			gate.Assessment{BatchID: "s1-b1", Verdict: gate.Sufficient, EvidenceRefs: []string{"e9"}, Fit: "e9 dates it", NextStrategy: gate.Answer}, nil, 1},
		{"prose is asked again", []string{`I think it is sufficient.`, "```json\n" + `{"verdict":"partial","evidence_refs":[],"fit":"","missing":"a date","next_strategy":"search_raw_memory","next_query":"launch date"}` + "\n```"},
			gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial, EvidenceRefs: []string{}, Missing: "a date", NextStrategy: gate.SearchRawMemory, NextQuery: "launch date"}, nil, 2},
		{"unknown verdict twice", []string{`{"verdict":"maybe","evidence_refs":[],"fit":"","missing":"","next_strategy":"answer"}`},
			gate.Assessment{}, gate.ErrModelOutput, 2},
		{"unknown strategy", []string{`{"verdict":"wrong","evidence_refs":[],"fit":"","missing":"","next_strategy":"google_it"}`},
			gate.Assessment{}, model.ErrBadOutput, 2},
		{"unknown field", []string{`{"verdict":"wrong","evidence_refs":[],"fit":"","missing":"","next_strategy":"search_graph","confidence":0.4}`},
			gate.Assessment{}, model.ErrBadOutput, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &scriptModel{replies: map[model.Task][]string{model.TaskAssessEvidence: tt.replies}}
			got, err := gate.ModelAssessor{Model: m}.Assess(context.Background(), q, modelBatch(), nil)
			assert.Equal(t, tt.wantCall, m.count(model.TaskAssessEvidence))
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestModelAssessorRequest(t *testing.T) {
	m := &scriptModel{replies: map[model.Task][]string{model.TaskAssessEvidence: {`{"verdict":"wrong","evidence_refs":[],"fit":"","missing":"x","next_strategy":"search_graph","next_query":"y"}`}}}
	q := gate.Analyze("When is the launch?", time.Date(2024, 5, 10, 9, 0, 0, 0, time.UTC))
	st := &gate.State{RoundsLeft: 2, Steps: []gate.Step{{Strategy: gate.SearchRawMemory, Query: "launch date"}, {Strategy: gate.SearchEvents, Query: "launch"}},
		Seen:        []gate.Item{{Ref: "m7", Kind: gate.KindMessage, Text: "earlier"}},
		Assessments: []gate.Assessment{{EvidenceRefs: []string{"m7"}}}}
	_, err := gate.ModelAssessor{Model: m}.Assess(context.Background(), q, modelBatch(), st)
	require.NoError(t, err)
	req := m.reqs[0]
	assert.Equal(t, model.PromptFor(model.TaskAssessEvidence).ID(), req.PromptID)
	assert.Equal(t, model.PromptFor(model.TaskAssessEvidence).System, req.System)
	var in model.AssessInput
	require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(req.Prompt, model.PromptFor(model.TaskAssessEvidence).Lead)), &in))
	assert.Equal(t, "s1-b1", in.BatchID)
	assert.Equal(t, "2024-05-10T09:00:00Z", in.Now)
	assert.Equal(t, []string{"search_raw_memory: launch date"}, in.Tried)
	assert.Equal(t, 2, in.RoundsLeft)
	require.Len(t, in.Items, 2)
	assert.Equal(t, "June 2024", in.Items[0].Happened, "the occurrence, rendered")
	assert.Equal(t, "2024-05-03T14:00:00Z", in.Items[0].MentionedAt)
	assert.LessOrEqual(t, len([]rune(in.Items[1].Text)), 1200, "long texts are clipped")
	require.Len(t, in.Earlier, 1)
	assert.Equal(t, "m7", in.Earlier[0].Ref)
}

func TestModelAnswerer(t *testing.T) {
	q := gate.Analyze("When is the launch?", time.Time{})
	ev := modelBatch().Items
	tests := []struct {
		name     string
		replies  []string
		text     string
		used     []string
		wantErr  bool
		wantCall int
	}{
		{"answer", []string{`{"answer":" In June 2024. ","refs":["e9"]}`}, "In June 2024.", []string{"e9"}, false, 1},
		{"a ref outside the evidence is rejected", []string{`{"answer":"June","refs":["e10"]}`}, "", nil, true, 2},
		{"no refs", []string{`{"answer":"June","refs":[]}`, `{"answer":"June","refs":["m41"]}`}, "June", []string{"m41"}, false, 2},
		{"empty answer", []string{`{"answer":"  ","refs":["e9"]}`}, "", nil, true, 2},
		{"too long", []string{`{"answer":"` + strings.Repeat("x", 601) + `","refs":["e9"]}`}, "", nil, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &scriptModel{replies: map[model.Task][]string{model.TaskAnswer: tt.replies}}
			text, used, err := gate.ModelAnswerer{Model: m}.Answer(context.Background(), q, ev)
			assert.Equal(t, tt.wantCall, m.count(model.TaskAnswer))
			if tt.wantErr {
				assert.ErrorIs(t, err, gate.ErrModelOutput)
				assert.ErrorIs(t, err, model.ErrBadOutput)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.text, text)
			assert.Equal(t, tt.used, used)
		})
	}
	// A transport error is returned as is, not asked again.
	boom := errors.New("connection refused")
	m := &scriptModel{err: boom}
	_, _, err := gate.ModelAnswerer{Model: m}.Answer(context.Background(), q, ev)
	assert.ErrorIs(t, err, boom)
	assert.ErrorIs(t, err, gate.ErrModelCall)
	assert.Equal(t, 1, m.count(model.TaskAnswer))
}

// TestRunWithModel: a whole session on the model path. The model's refs
// outside the batch are dropped by Session.Record, the answer comes from
// the model and cites only the evidence.
func TestRunWithModel(t *testing.T) {
	r := &retrieverFunc{fn: func(s gate.Step) []gate.Item {
		if s.Strategy == gate.SearchEvents {
			return []gate.Item{{Ref: "e1", Title: "unrelated"}}
		}
		return []gate.Item{{Ref: "m5", Text: "We moved the launch to June."}, {Ref: "m6", Text: "ok"}}
	}}
	m := &scriptModel{replies: map[model.Task][]string{
		model.TaskAssessEvidence: {
			`{"verdict":"wrong","evidence_refs":[],"fit":"","missing":"the launch date","next_strategy":"search_raw_memory","next_query":"launch moved"}`,
			`{"verdict":"sufficient","evidence_refs":["m5","e77"],"fit":"m5 states it","missing":"","next_strategy":"answer"}`,
		},
		model.TaskAnswer: {`{"answer":"June.","refs":["m5"]}`},
	}}
	mt := &model.Meter{}
	ctx := model.WithMeter(context.Background(), mt)
	res, err := gate.RunQuestion(ctx, gate.Analyze("When is the launch?", now), r, gate.ModelAssessor{Model: m}, gate.ModelAnswerer{Model: m}, gate.Budget{})
	require.NoError(t, err)
	assert.Equal(t, gate.Sufficient, res.Verdict)
	assert.Equal(t, "June.", res.Text)
	assert.Equal(t, []string{"m5"}, res.SufficientRefs, "e77 was not in the batch")
	assert.Equal(t, 2, res.Rounds)
	assert.Equal(t, int64(3), mt.Usage().Calls)
	assert.Equal(t, model.PromptFor(model.TaskAnswer).ID(), mt.Prompt())
}
