package stratagate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
	"github.com/stratagate/stratagate/model"
)

// promptModel stands in for a remote model: it reads only what a remote
// model receives (the system text and the rendered prompt, never
// req.Input) and replies with valid JSON for every task. badAnswerRef,
// when set, is cited by every answer.
type promptModel struct {
	mu           sync.Mutex
	badAnswerRef string
	calls        map[model.Task]int
}

func (p *promptModel) Name() string { return "openai:fake" }

func (p *promptModel) Complete(_ context.Context, req model.Request) (string, error) {
	p.mu.Lock()
	if p.calls == nil {
		p.calls = map[model.Task]int{}
	}
	p.calls[req.Task]++
	bad := p.badAnswerRef
	p.mu.Unlock()
	if !strings.Contains(req.System, "JSON") || req.PromptID == "" || len(req.Schema) == 0 {
		return "", errors.New("request without system text, prompt id or schema")
	}
	return fakeReply(req.Task, req.Prompt, bad)
}

func (p *promptModel) count(task model.Task) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[task]
}

// fakeReply builds a valid reply to the rendered prompt of task: what a
// cooperative model would answer, derived from the prompt's JSON alone.
func fakeReply(task model.Task, prompt, badAnswerRef string) (string, error) {
	payload := strings.TrimPrefix(prompt, model.PromptFor(task).Lead)
	enc := func(v any) (string, error) {
		b, err := json.Marshal(v)
		return string(b), err
	}
	firstWords := func(s string, n int) string {
		w := strings.Fields(s)
		return strings.Join(w[:min(n, len(w))], " ")
	}
	switch task {
	case model.TaskDeriveBlock:
		var in model.DeriveInput
		if err := json.Unmarshal([]byte(payload), &in); err != nil {
			return "", err
		}
		m := in.Messages[0]
		return enc(model.DeriveOutput{Title: "Model: " + firstWords(m.Content, 4), Tags: []string{"model"},
			Summary: "Summary by the model of " + fmt.Sprint(len(in.Messages)) + " messages.",
			Facts:   []model.DeriveFact{{Text: firstWords(m.Content, 8), MessageIDs: []uint64{m.ID}}}})
	case model.TaskExtractEvents:
		var in model.ExtractInput
		if err := json.Unmarshal([]byte(payload), &in); err != nil {
			return "", err
		}
		m := in.Messages[0]
		return enc(model.ExtractOutput{Events: []model.ExtractedEvent{{
			Title: "Model event: " + firstWords(m.Content, 4), Summary: m.Content, Quotes: []string{firstWords(m.Content, 5)},
			MessageIDs: []uint64{m.ID}, EventType: "decision", Status: "completed", Participants: []string{m.Speaker},
		}}})
	case model.TaskProjectGraph:
		var in model.ProjectInput
		if err := json.Unmarshal([]byte(payload), &in); err != nil {
			return "", err
		}
		var ops []model.GraphOp
		for _, e := range in.Events {
			for _, p := range e.Participants {
				ops = append(ops, model.GraphOp{Op: model.OpUpsertNode, Kind: "person", Name: p, EventIDs: []uint64{e.ID}})
			}
		}
		return enc(model.ProjectOutput{Ops: ops})
	case model.TaskAssessEvidence:
		var in model.AssessInput
		if err := json.Unmarshal([]byte(payload), &in); err != nil {
			return "", err
		}
		if len(in.Items) == 0 {
			return `{"verdict":"wrong","evidence_refs":[],"fit":"","missing":"anything","next_strategy":"search_raw_memory","next_query":"postgres"}`, nil
		}
		return enc(model.AssessOutput{Verdict: "sufficient", EvidenceRefs: []string{in.Items[0].Ref}, Fit: "it says so", NextStrategy: "answer"})
	case model.TaskAnswer:
		var in model.AnswerInput
		if err := json.Unmarshal([]byte(payload), &in); err != nil {
			return "", err
		}
		ref := in.Evidence[0].Ref
		if badAnswerRef != "" {
			ref = badAnswerRef
		}
		return enc(model.AnswerOutput{Answer: "From memory: " + firstWords(in.Evidence[0].Text, 6), Refs: []string{ref}})
	}
	return "", fmt.Errorf("no reply for task %q", task)
}

// TestModelPath: every model-backed step through a model that sees only
// the prompts — a block derived, its events extracted and projected, and
// an Ask judged and answered by the model — with the usage counted.
func TestModelPath(t *testing.T) {
	ctx := context.Background()
	pm := &promptModel{}
	mem, _ := openMem(t, &stratagate.Options{Model: pm, GateModel: true, BlockTurns: 2, NoSync: true})
	appendN(t, mem, "atlas", 0, 4)
	waitIdle(t, mem)

	blocks, err := mem.Blocks(ctx, "atlas")
	require.NoError(t, err)
	require.Len(t, blocks, 2)
	for _, b := range blocks {
		assert.EqualValues(t, "ready", b.State)
		assert.True(t, strings.HasPrefix(b.Title, "Model: "), b.Title)
	}
	hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: "Postgres Atlas"})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	assert.True(t, strings.HasPrefix(hits[0].Title, "Model event: "), hits[0].Title)
	nodes, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: "Mia"})
	require.NoError(t, err)
	require.NotEmpty(t, nodes)

	ans, err := mem.Ask(ctx, "What did we decide about Postgres?", stratagate.AskOptions{})
	require.NoError(t, err)
	assert.Equal(t, "sufficient", ans.Verdict)
	assert.True(t, strings.HasPrefix(ans.Text, "From memory: "), ans.Text)
	assert.NotEmpty(t, ans.AssessmentID)
	assert.Equal(t, int64(2), ans.Usage.Calls, "one assessment and one answer")
	assert.Equal(t, 1, pm.count(model.TaskAssessEvidence))
	assert.Equal(t, 1, pm.count(model.TaskAnswer))

	st, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, "openai:fake", st.Model)
	for _, k := range []string{"derive", "extract", "project", "assess_evidence", "answer"} {
		assert.Positive(t, st.Usage[k].Calls, k)
	}
	assert.Equal(t, int64(2), st.Usage["derive"].Calls)

	jobs, err := stratagate.Jobs(mem)
	require.NoError(t, err)
	for _, j := range jobs {
		assert.Equal(t, int64(1), j.Usage.Calls, "job %d %s", j.ID, j.Kind)
		assert.Contains(t, j.Prompt, "/1/", "the job names its prompt")
	}
}

// TestModelAnswerOutsideEvidenceIsRejected: code, not the model, decides
// what an answer may cite.
func TestModelAnswerOutsideEvidenceIsRejected(t *testing.T) {
	ctx := context.Background()
	pm := &promptModel{badAnswerRef: "e999999"}
	mem, _ := openMem(t, &stratagate.Options{Model: pm, GateModel: true, BlockTurns: 2, NoSync: true})
	appendN(t, mem, "atlas", 0, 4)
	waitIdle(t, mem)
	before, err := mem.Stats(ctx)
	require.NoError(t, err)

	_, err = mem.Ask(ctx, "What did we decide about Postgres?", stratagate.AskOptions{})
	require.ErrorIs(t, err, gate.ErrModelOutput)
	assert.ErrorIs(t, err, model.ErrBadOutput)
	assert.Equal(t, 2, pm.count(model.TaskAnswer), "asked once more, then refused")

	after, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, before.Buckets["use"], after.Buckets["use"], "no use recorded for a rejected answer")
	assert.Equal(t, before.Buckets["assessments"], after.Buckets["assessments"])
	assert.Equal(t, int64(2), after.Usage["answer"].Calls-before.Usage["answer"].Calls, "the rejected calls still cost")
}

// TestGateModelChoice: the offline gate by default, the model's with
// GateModel, and a call's own assessor over both.
func TestGateModelChoice(t *testing.T) {
	ctx := context.Background()
	pm := &promptModel{}
	mem, _ := openMem(t, &stratagate.Options{Model: pm, BlockTurns: 2, NoSync: true})
	appendN(t, mem, "atlas", 0, 4)
	waitIdle(t, mem)
	ans, err := mem.Ask(ctx, "What did we decide about Postgres?", stratagate.AskOptions{})
	require.NoError(t, err)
	assert.Zero(t, pm.count(model.TaskAssessEvidence), "GateModel is off by default")
	assert.True(t, ans.Usage.IsZero())

	ans, err = mem.Ask(ctx, "What did we decide about Postgres?", stratagate.AskOptions{
		Assessor: gate.ModelAssessor{Model: pm}, Answerer: gate.ModelAnswerer{Model: pm},
	})
	require.NoError(t, err)
	assert.Equal(t, 1, pm.count(model.TaskAssessEvidence))
	assert.True(t, strings.HasPrefix(ans.Text, "From memory: "), ans.Text)
}

// TestModelPathOverHTTP: the same pipeline through the OpenAI-compatible
// client and a local server speaking the Chat Completions wire format,
// with token usage as the server reports it.
func TestModelPathOverHTTP(t *testing.T) {
	var mu sync.Mutex
	tasks := map[string]int{}
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role, Content string
			} `json:"messages"`
			ResponseFormat struct {
				Type       string `json:"type"`
				JSONSchema struct {
					Name string `json:"name"`
				} `json:"json_schema"`
			} `json:"response_format"`
		}
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(body))
		mu.Unlock()
		if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(body, &req) != nil || len(req.Messages) != 2 {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		task := model.Task(req.ResponseFormat.JSONSchema.Name)
		mu.Lock()
		tasks[string(task)]++
		mu.Unlock()
		reply, err := fakeReply(task, req.Messages[1].Content, "")
		if err != nil || req.ResponseFormat.Type != "json_schema" {
			http.Error(w, `{"error":{"message":"unexpected request"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "model": "fake",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": reply}}},
			"usage": map[string]any{"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150,
				"prompt_tokens_details": map[string]any{"cached_tokens": 20}},
		})
	}))
	defer srv.Close()

	m, err := stratagate.ModelFromSpec("openai:fake", func(k string) string {
		return map[string]string{"STRATAGATE_MODEL_BASE_URL": srv.URL + "/v1"}[k]
	})
	require.NoError(t, err)
	ctx := context.Background()
	mem, _ := openMem(t, &stratagate.Options{Model: m, GateModel: true, BlockTurns: 2, NoSync: true})
	appendN(t, mem, "atlas", 0, 3)
	// A secret in a message is stored verbatim (L5) but never sent.
	const key = "sk-proj-9xQ2wE4rT6yU8iO0pA1sD3fG5hJ7kL"
	secret := turn("atlas", 3)
	secret.Messages[0].Content = "Message 3: we decided on Postgres; the deploy key is " + key + " for now."
	sref, err := mem.Append(ctx, secret)
	require.NoError(t, err)
	waitIdle(t, mem)
	ans, err := mem.Ask(ctx, "What did we decide about Postgres?", stratagate.AskOptions{})
	require.NoError(t, err)
	assert.Equal(t, "sufficient", ans.Verdict)
	assert.True(t, strings.HasPrefix(ans.Text, "From memory: "), ans.Text)
	assert.Equal(t, int64(240), ans.Usage.PromptTokens, "two calls of 120 prompt tokens")
	msgs, err := mem.Messages(ctx, sref.MessageIDs[0])
	require.NoError(t, err)
	assert.Contains(t, msgs[0].Content, key, "L5 keeps the user's words")

	st, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, "openai:fake", st.Model)
	for _, k := range []string{"derive", "extract", "project"} {
		u := st.Usage[k]
		assert.Positive(t, u.Calls, k)
		assert.Equal(t, 120*u.Calls, u.PromptTokens, k)
		assert.Equal(t, 30*u.Calls, u.CompletionTokens, k)
		assert.Equal(t, 20*u.Calls, u.CachedTokens, k)
	}
	mu.Lock()
	defer mu.Unlock()
	sawMarker := false
	for _, b := range bodies {
		assert.NotContains(t, b, key, "a secret reached the model server")
		sawMarker = sawMarker || strings.Contains(b, "[redacted:api_key]")
	}
	assert.True(t, sawMarker, "the secret's message was sent, redacted")
	assert.Equal(t, 2, tasks["derive_block"])
	assert.Equal(t, 1, tasks["assess_evidence"])
	assert.Equal(t, 1, tasks["answer"])
}

// TestModelRefusalFailsJobVisibly: a request the server refuses for good
// (a bad key) fails the job at its first attempt with the server's
// message, the key scrubbed, and marks the block failed; nothing is
// written from it.
func TestModelRefusalFailsJobVisibly(t *testing.T) {
	const key = "sk-live-7Gh3Jk9Lm2Np4Qr6St8Vw0Xy"
	var calls int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s.","type":"invalid_request_error","code":"invalid_api_key"}}`, key)
	}))
	defer srv.Close()
	m, err := stratagate.ModelFromSpec("openai:fake", func(k string) string {
		return map[string]string{"STRATAGATE_MODEL_BASE_URL": srv.URL + "/v1", "STRATAGATE_MODEL_API_KEY": key}[k]
	})
	require.NoError(t, err)
	mem, _ := openMem(t, &stratagate.Options{Model: m, BlockTurns: 2, NoSync: true})
	appendN(t, mem, "atlas", 0, 2)
	waitIdle(t, mem)

	blocks, err := mem.Blocks(context.Background(), "atlas")
	require.NoError(t, err)
	require.Len(t, blocks, 1)
	assert.EqualValues(t, "failed", blocks[0].State)
	assert.Contains(t, blocks[0].Err, "Incorrect API key provided")
	assert.NotContains(t, blocks[0].Err, key)
	jobs, err := stratagate.Jobs(mem)
	require.NoError(t, err)
	require.Len(t, jobs, 1)
	assert.EqualValues(t, "failed", jobs[0].State)
	assert.Equal(t, 1, jobs[0].Attempts, "a refused request is not retried")
	assert.NotContains(t, jobs[0].Err, key)
	mu.Lock()
	assert.Equal(t, 1, calls)
	mu.Unlock()
	st, err := mem.Stats(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, st.JobsFailed)
	assert.Zero(t, st.Buckets["events"])
}

// smallContext is a model whose context cannot hold an extraction prompt
// with its neighbouring blocks or earlier cards.
type smallContext struct {
	promptModel
	refused int
}

func (s *smallContext) Complete(ctx context.Context, req model.Request) (string, error) {
	if req.Task == model.TaskExtractEvents && (strings.Contains(req.Prompt, `"before":`) ||
		strings.Contains(req.Prompt, `"after":`) || strings.Contains(req.Prompt, `"existing":`)) {
		s.mu.Lock()
		s.refused++
		s.mu.Unlock()
		return "", fmt.Errorf("HTTP 400: %w", model.ErrContextSize)
	}
	return s.promptModel.Complete(ctx, req)
}

// TestExtractionFitsASmallContext: an extraction prompt beyond the
// model's context is asked again with the block alone, so a small local
// model still yields cards.
func TestExtractionFitsASmallContext(t *testing.T) {
	sc := &smallContext{}
	mem, _ := openMem(t, &stratagate.Options{Model: sc, BlockTurns: 2, NoSync: true})
	appendN(t, mem, "atlas", 0, 6)
	waitIdle(t, mem)
	st, err := mem.Stats(context.Background())
	require.NoError(t, err)
	assert.Zero(t, st.JobsFailed)
	assert.Equal(t, 3, st.Buckets["events"], "one card per block")
	sc.mu.Lock()
	defer sc.mu.Unlock()
	assert.Positive(t, sc.refused, "blocks after the first were offered context")
}
