package extmem_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/extmem"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/openai"
)

// chatServer speaks the OpenAI chat-completions wire format: it answers
// every POST /v1/chat/completions with content and keeps the request
// bodies.
type chatServer struct {
	mu     sync.Mutex
	bodies []map[string]any
}

func (s *chatServer) answer(w http.ResponseWriter, r *http.Request, content string) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" || json.Unmarshal(raw, &body) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.mu.Unlock()
	c, _ := json.Marshal(content)
	w.Header().Set("Content-Type", "application/json")
	_, _ = fmt.Fprintf(w, `{"id":"chatcmpl-7","object":"chat.completion","created":1,"model":"m",`+
		`"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],`+
		`"usage":{"prompt_tokens":300,"completion_tokens":30,"total_tokens":330}}`, c)
}

// TestModelDeciderOpenAI runs an import decision through the real
// OpenAI-compatible client against a local server: the request carries
// the import_decide prompt and schema, the reply is decoded and
// validated, and the call is metered under its task.
func TestModelDeciderOpenAI(t *testing.T) {
	cs := &chatServer{}
	reply := `{"action":"supersede","target_ids":[11],"confidence":0.92,"reason":"The editor changed from Vim to Helix."}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { cs.answer(w, r, reply) }))
	t.Cleanup(srv.Close)
	client, err := openai.New(openai.Options{BaseURL: srv.URL + "/v1", Model: "decider-test", APIKey: "test-key", Backoff: time.Millisecond})
	require.NoError(t, err)

	mt := &model.Meter{}
	ctx := model.WithMeter(context.Background(), mt)
	c := decideCandidate
	d := extmem.NewModelDecider(client)
	got, err := d.Decide(ctx, &c, decideExisting)
	require.NoError(t, err)
	assert.Equal(t, extmem.Decision{Action: extmem.ActionSupersede, Targets: []uint64{11}, Confidence: 0.92,
		Reason: "The editor changed from Vim to Helix.", Decider: "model:" + client.Name()}, got)
	assert.True(t, strings.HasPrefix(got.Decider, "model:"))

	require.Len(t, cs.bodies, 1)
	body := cs.bodies[0]
	assert.Equal(t, "decider-test", body["model"])
	p := model.PromptFor(model.TaskImportDecide)
	assert.EqualValues(t, p.MaxTokens, body["max_tokens"])
	msgs, ok := body["messages"].([]any)
	require.True(t, ok)
	require.Len(t, msgs, 2)
	assert.Equal(t, p.System, msgs[0].(map[string]any)["content"])
	user := msgs[1].(map[string]any)["content"].(string)
	assert.True(t, strings.HasPrefix(user, p.Lead))
	assert.Contains(t, user, `"title":"Switched code editor to Helix"`)
	rf, ok := body["response_format"].(map[string]any)
	require.True(t, ok, "a structured-output constraint")
	assert.Equal(t, "json_schema", rf["type"])
	schema, err := json.Marshal(rf["json_schema"].(map[string]any)["schema"])
	require.NoError(t, err)
	assert.JSONEq(t, string(p.Schema), string(schema))

	by := mt.ByTask()[model.TaskImportDecide]
	assert.Equal(t, int64(1), by.Calls)
	assert.Equal(t, int64(300), by.PromptTokens)
	assert.Equal(t, p.ID(), mt.PromptOf(model.TaskImportDecide))
}

// TestModelDeciderOpenAIRejects: a server whose reply names an id that
// was not offered is asked once more, then the decision fails with
// ErrModelOutput; a server that refuses the request fails with
// ErrModelCall.
func TestModelDeciderOpenAIRejects(t *testing.T) {
	cs := &chatServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs.answer(w, r, `{"action":"merge","target_ids":[404],"confidence":0.9,"reason":"x"}`)
	}))
	t.Cleanup(srv.Close)
	client, err := openai.New(openai.Options{BaseURL: srv.URL + "/v1", Model: "m", Backoff: time.Millisecond})
	require.NoError(t, err)
	c := decideCandidate
	_, err = extmem.NewModelDecider(client).Decide(context.Background(), &c, decideExisting)
	assert.ErrorIs(t, err, extmem.ErrModelOutput)
	assert.Len(t, cs.bodies, 2)

	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"error":{"message":"invalid api key"}}`, http.StatusUnauthorized)
	}))
	t.Cleanup(refuse.Close)
	client, err = openai.New(openai.Options{BaseURL: refuse.URL + "/v1", Model: "m", Backoff: time.Millisecond})
	require.NoError(t, err)
	_, err = extmem.NewModelDecider(client).Decide(context.Background(), &c, decideExisting)
	assert.ErrorIs(t, err, extmem.ErrModelCall)
	assert.ErrorIs(t, err, model.ErrPermanent)
}
