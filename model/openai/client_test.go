package openai_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/openai"
)

const testSchema = `{
  "type": "object",
  "properties": {"title": {"type": "string", "maxLength": 20}},
  "required": ["title"]
}`

const compactTestSchema = `{"type":"object","properties":{"title":{"type":"string","maxLength":20}},"required":["title"]}`

func deriveRequest() model.Request {
	return model.Request{
		Task:     model.TaskDeriveBlock,
		System:   "You title conversations.",
		Prompt:   "Title this: hello",
		Schema:   []byte(testSchema),
		PromptID: "derive_block/1/abcd",
	}
}

func TestOpenAIShape(t *testing.T) {
	rp := newReplay(t, exchange{body: completion(`{"title":"Hello"}`, "stop",
		`{"prompt_tokens":120,"completion_tokens":7,"total_tokens":127,"prompt_tokens_details":{"cached_tokens":64}}`)})
	c := rp.client(openai.Options{Model: "gpt-4o-mini", APIKey: "sk-test-key"})
	mt := &model.Meter{}
	ctx := model.WithMeter(t.Context(), mt)

	out, err := model.Call(ctx, c, deriveRequest())
	require.NoError(t, err)
	assert.JSONEq(t, `{"title":"Hello"}`, out)
	require.NoError(t, model.Decode(out, &struct {
		Title string `json:"title"`
	}{}))

	reqs := rp.requests()
	require.Len(t, reqs, 1)
	r := reqs[0]
	assert.Equal(t, "/v1/chat/completions", r.Path)
	assert.Equal(t, "Bearer sk-test-key", r.Auth)
	assert.Equal(t, "gpt-4o-mini", r.Body["model"])
	assert.EqualValues(t, 2048, r.Body["max_tokens"])
	assert.Equal(t, false, r.Body["stream"])
	assert.NotContains(t, r.Body, "temperature")
	assert.NotContains(t, r.Body, "thinking")
	roles, contents := messages(t, r)
	assert.Equal(t, []string{"system", "user"}, roles)
	assert.Equal(t, []string{"You title conversations.", "Title this: hello"}, contents)
	rf, err := json.Marshal(r.Body["response_format"])
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"json_schema","json_schema":{"name":"derive_block","strict":false,"schema":`+compactTestSchema+`}}`, string(rf))

	u := mt.Usage()
	assert.Equal(t, model.Usage{Calls: 1, PromptTokens: 120, CompletionTokens: 7, CachedTokens: 64, Latency: u.Latency}, u)
	assert.Equal(t, "derive_block/1/abcd", mt.Prompt())
	assert.Equal(t, "openai:gpt-4o-mini", c.Name())
	assert.Equal(t, openai.JSONModeSchema, c.JSONMode())
}

func TestRequestOptions(t *testing.T) {
	temp := 0.2
	tests := []struct {
		name  string
		opts  openai.Options
		req   func(*model.Request)
		check func(t *testing.T, r recorded)
	}{
		{
			name: "temperature and request budget",
			opts: openai.Options{Temperature: &temp, MaxTokens: 300},
			req:  func(r *model.Request) { r.MaxTokens = 77 },
			check: func(t *testing.T, r recorded) {
				assert.InDelta(t, 0.2, r.Body["temperature"], 1e-9)
				assert.EqualValues(t, 77, r.Body["max_tokens"])
			},
		},
		{
			name: "client budget",
			opts: openai.Options{MaxTokens: 300},
			check: func(t *testing.T, r recorded) {
				assert.EqualValues(t, 300, r.Body["max_tokens"])
				assert.Empty(t, r.Auth, "no key, no Authorization header")
			},
		},
		{
			name: "object mode appends the schema",
			opts: openai.Options{JSONMode: openai.JSONModeObject},
			check: func(t *testing.T, r recorded) {
				assert.Equal(t, map[string]any{"type": "json_object"}, r.Body["response_format"])
				_, contents := messages(t, r)
				assert.Equal(t, "You title conversations.\n\nReply with one JSON object matching this JSON Schema: "+compactTestSchema, contents[0])
			},
		},
		{
			name: "none mode sends no format",
			opts: openai.Options{JSONMode: openai.JSONModeNone},
			check: func(t *testing.T, r recorded) {
				assert.NotContains(t, r.Body, "response_format")
				_, contents := messages(t, r)
				assert.Equal(t, "You title conversations.", contents[0])
			},
		},
		{
			name: "schema mode without a schema asks for an object",
			req:  func(r *model.Request) { r.Schema = nil; r.System = "" },
			check: func(t *testing.T, r recorded) {
				assert.Equal(t, map[string]any{"type": "json_object"}, r.Body["response_format"])
				roles, contents := messages(t, r)
				assert.Equal(t, []string{"system", "user"}, roles)
				assert.Equal(t, "Reply with one JSON object.", contents[0])
			},
		},
		{
			name: "no system message when there is nothing to say",
			opts: openai.Options{JSONMode: openai.JSONModeNone},
			req:  func(r *model.Request) { r.System = "" },
			check: func(t *testing.T, r recorded) {
				roles, _ := messages(t, r)
				assert.Equal(t, []string{"user"}, roles)
			},
		},
		{
			name: "task sanitised into a schema name",
			req:  func(r *model.Request) { r.Task = "derive block/v2" },
			check: func(t *testing.T, r recorded) {
				rf := r.Body["response_format"].(map[string]any)
				assert.Equal(t, "derive_block_v2", rf["json_schema"].(map[string]any)["name"])
			},
		},
		{
			name: "empty task named reply",
			req:  func(r *model.Request) { r.Task = "" },
			check: func(t *testing.T, r recorded) {
				rf := r.Body["response_format"].(map[string]any)
				assert.Equal(t, "reply", rf["json_schema"].(map[string]any)["name"])
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rp := newReplay(t, exchange{body: completion(`{"title":"x"}`, "stop", "")})
			c := rp.client(tt.opts)
			req := deriveRequest()
			if tt.req != nil {
				tt.req(&req)
			}
			_, err := c.Complete(t.Context(), req)
			require.NoError(t, err)
			reqs := rp.requests()
			require.Len(t, reqs, 1)
			tt.check(t, reqs[0])
		})
	}
}

func TestDeepSeekShape(t *testing.T) {
	blank := `{"id":"1","choices":[{"index":0,"message":{"role":"assistant","content":"  \n","reasoning_content":"thinking..."},"finish_reason":"stop"}],` +
		`"usage":{"prompt_tokens":50,"completion_tokens":1,"prompt_cache_hit_tokens":32,"prompt_cache_miss_tokens":18}}`
	good := `{"id":"2","choices":[{"index":0,"message":{"role":"assistant","content":"{\"title\":\"Hi\"}","reasoning_content":"{\"not\":\"this\"}"},"finish_reason":"stop"}],` +
		`"usage":{"prompt_tokens":50,"completion_tokens":6,"prompt_tokens_details":{"cached_tokens":48},"prompt_cache_hit_tokens":48,"prompt_cache_miss_tokens":2}}`
	rp := newReplay(t, exchange{body: blank}, exchange{body: good})
	c, err := openai.New(openai.Options{
		BaseURL: "https://api.deepseek.com/", Model: "deepseek-v4-flash", APIKey: "ds-key",
		Backoff: time.Millisecond, HTTPClient: rp.redirecting(),
	})
	require.NoError(t, err)
	var s sleeps
	s.install(c)
	assert.Equal(t, openai.JSONModeObject, c.JSONMode())
	mt := &model.Meter{}

	out, err := c.Complete(model.WithMeter(t.Context(), mt), deriveRequest())
	require.NoError(t, err)
	assert.Equal(t, `{"title":"Hi"}`, out)

	reqs := rp.requests()
	require.Len(t, reqs, 2, "blank content is retried")
	assert.Len(t, s.all(), 1)
	for _, r := range reqs {
		assert.Equal(t, "/chat/completions", r.Path, "no /v1 on DeepSeek")
		assert.Equal(t, "Bearer ds-key", r.Auth)
		assert.Equal(t, map[string]any{"type": "disabled"}, r.Body["thinking"])
		assert.Equal(t, map[string]any{"type": "json_object"}, r.Body["response_format"])
		_, contents := messages(t, r)
		assert.Contains(t, contents[0], "Reply with one JSON object matching this JSON Schema: "+compactTestSchema)
	}
	assert.Equal(t, model.Usage{PromptTokens: 100, CompletionTokens: 7, CachedTokens: 80}, mt.Usage(), "both attempts are counted")
}

func TestOllamaShape(t *testing.T) {
	rp := newReplay(t,
		exchange{body: completion("```json\n{\"title\": \"Ollama\"}\n```", "stop", `{"prompt_tokens":30,"completion_tokens":9,"total_tokens":39}`)},
		exchange{status: 404, body: `{"error":{"message":"model \"nope\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`},
	)
	c := rp.client(openai.Options{Model: "qwen2.5:7b"})
	out, err := c.Complete(t.Context(), deriveRequest())
	require.NoError(t, err)
	assert.Equal(t, `{"title": "Ollama"}`, out)

	_, err = c.Complete(t.Context(), deriveRequest())
	var se *openai.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 404, se.Code)
	assert.Equal(t, "api_error", se.Type)
	assert.Contains(t, se.Message, "not found")
	assert.ErrorIs(t, err, model.ErrPermanent)
	assert.NotErrorIs(t, err, model.ErrContextSize)
	assert.Len(t, rp.requests(), 2, "a 404 is not retried")
}

func TestLlamaCppShapes(t *testing.T) {
	ctxErr := `{"error":{"code":400,"message":"request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}`
	ok := completion(`{"title":"ok"}`, "stop", "")
	cut := completion(`{"title":"abcdefgh`, "length", `{"prompt_tokens":10,"completion_tokens":16}`)
	tests := []struct {
		name      string
		script    []exchange
		want      string
		wantErr   []error
		notErr    []error
		calls     int
		sleeps    int
		maxTokens []float64
	}{
		{
			name:    "oversize prompt",
			script:  []exchange{{status: 400, body: ctxErr}},
			wantErr: []error{model.ErrContextSize, model.ErrPermanent},
			calls:   1,
		},
		{
			name:      "cut once, then whole with twice the budget",
			script:    []exchange{{body: cut}, {body: ok}},
			want:      `{"title":"ok"}`,
			calls:     2,
			maxTokens: []float64{2048, 4096},
		},
		{
			name:      "cut twice",
			script:    []exchange{{body: cut}},
			wantErr:   []error{model.ErrTruncated},
			notErr:    []error{model.ErrPermanent},
			calls:     2,
			maxTokens: []float64{2048, 4096},
		},
		{
			name:   "500 plain text, then success",
			script: []exchange{{status: 500, header: map[string]string{"Content-Type": "text/plain"}, body: "Internal Server Error\n"}, {body: ok}},
			want:   `{"title":"ok"}`,
			calls:  2,
			sleeps: 1,
		},
		{
			name:   "malformed JSON in content is returned for the caller to reject",
			script: []exchange{{body: completion(`{"title": "x",}`, "stop", "")}},
			want:   `{"title": "x",}`,
			calls:  1,
		},
		{
			name:   "JSON in prose",
			script: []exchange{{body: completion("Sure! Here is the {object} you asked for:\n{\"title\":\"a}b\\\"{\"}\nHope it helps.", "stop", "")}},
			want:   `{"title":"a}b\"{"}`,
			calls:  1,
		},
		{
			name:   "null content retried",
			script: []exchange{{body: completion("null", "stop", "")}, {body: ok}},
			want:   `{"title":"ok"}`,
			calls:  2,
			sleeps: 1,
		},
		{
			name:    "always blank",
			script:  []exchange{{body: completion("", "stop", "")}},
			wantErr: []error{model.ErrBadOutput},
			calls:   3,
			sleeps:  2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rp := newReplay(t, tt.script...)
			c := rp.client(openai.Options{Model: "smollm2", MaxRetries: 2})
			var s sleeps
			s.install(c)
			out, err := c.Complete(t.Context(), deriveRequest())
			if tt.wantErr != nil {
				require.Error(t, err)
				for _, w := range tt.wantErr {
					assert.ErrorIs(t, err, w)
				}
				for _, w := range tt.notErr {
					assert.NotErrorIs(t, err, w)
				}
				assert.Empty(t, out)
			} else {
				require.NoError(t, err)
				assert.Equal(t, tt.want, out)
			}
			reqs := rp.requests()
			assert.Len(t, reqs, tt.calls)
			assert.Len(t, s.all(), tt.sleeps)
			if tt.maxTokens != nil {
				var got []float64
				for _, r := range reqs {
					got = append(got, r.Body["max_tokens"].(float64))
				}
				assert.Equal(t, tt.maxTokens, got)
			}
		})
	}
}

func TestSchemaDowngrade(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"openai wording", `{"error":{"message":"Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.","type":"invalid_request_error","param":"response_format","code":null}}`},
		{"deepseek wording", `{"error":{"message":"This response_format type is unavailable now","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`},
		{"param names the field", `{"error":{"message":"unknown type","param":"response_format.type"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok := completion(`{"title":"ok"}`, "stop", "")
			rp := newReplay(t, exchange{status: 400, body: tt.body}, exchange{body: ok})
			c := rp.client(openai.Options{})
			var s sleeps
			s.install(c)
			_, err := c.Complete(t.Context(), deriveRequest())
			require.NoError(t, err)
			assert.Equal(t, openai.JSONModeObject, c.JSONMode(), "remembered")
			_, err = c.Complete(t.Context(), deriveRequest())
			require.NoError(t, err)

			reqs := rp.requests()
			require.Len(t, reqs, 3)
			assert.Equal(t, "json_schema", reqs[0].Body["response_format"].(map[string]any)["type"])
			for _, r := range reqs[1:] {
				assert.Equal(t, map[string]any{"type": "json_object"}, r.Body["response_format"])
				_, contents := messages(t, r)
				assert.Contains(t, contents[0], "matching this JSON Schema: "+compactTestSchema)
			}
			assert.Empty(t, s.all(), "a downgrade retries at once")
		})
	}

	t.Run("only once", func(t *testing.T) {
		rp := newReplay(t, exchange{status: 400, body: tests[0].body})
		c := rp.client(openai.Options{})
		_, err := c.Complete(t.Context(), deriveRequest())
		assert.ErrorIs(t, err, model.ErrPermanent)
		assert.Len(t, rp.requests(), 2)
	})

	t.Run("an unrelated 400 keeps the mode", func(t *testing.T) {
		rp := newReplay(t, exchange{status: 400, body: `{"error":{"message":"messages must not be empty"}}`})
		c := rp.client(openai.Options{})
		_, err := c.Complete(t.Context(), deriveRequest())
		assert.ErrorIs(t, err, model.ErrPermanent)
		assert.Equal(t, openai.JSONModeSchema, c.JSONMode())
		assert.Len(t, rp.requests(), 1)
	})
}

func TestMalformedReplies(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		calls int
		usage model.Usage
	}{
		{"html page", "<html>gateway</html>", 3, model.Usage{}},
		{"no choices", `{"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":0}}`, 3, model.Usage{PromptTokens: 12}},
		{"content of a strange type", `{"choices":[{"message":{"content":17},"finish_reason":"stop"}]}`, 3, model.Usage{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rp := newReplay(t, exchange{body: tt.body})
			c := rp.client(openai.Options{MaxRetries: 2})
			mt := &model.Meter{}
			_, err := c.Complete(model.WithMeter(t.Context(), mt), deriveRequest())
			require.ErrorIs(t, err, openai.ErrRequest)
			assert.Len(t, rp.requests(), tt.calls)
			assert.Equal(t, tt.usage, mt.Usage())
		})
	}
}

func TestContentParts(t *testing.T) {
	body := `{"choices":[{"message":{"content":[{"type":"text","text":"{\"title\":"},{"type":"image_url","text":"no"},{"type":"text","text":"\"parts\"}"}]},"finish_reason":"stop"}]}`
	rp := newReplay(t, exchange{body: body})
	out, err := rp.client(openai.Options{}).Complete(t.Context(), deriveRequest())
	require.NoError(t, err)
	assert.Equal(t, `{"title":"parts"}`, out)
}

func TestReplyTooLarge(t *testing.T) {
	big := completion(strings.Repeat("a", 8<<20), "stop", "")
	rp := newReplay(t, exchange{body: big})
	_, err := rp.client(openai.Options{}).Complete(t.Context(), deriveRequest())
	require.ErrorIs(t, err, openai.ErrRequest)
	assert.Contains(t, err.Error(), "exceeds")
	assert.Len(t, rp.requests(), 1, "not retried")
}

func TestBadSchema(t *testing.T) {
	rp := newReplay(t, exchange{body: completion(`{}`, "stop", "")})
	req := deriveRequest()
	req.Schema = []byte(`{"type":`)
	_, err := rp.client(openai.Options{}).Complete(t.Context(), req)
	require.ErrorIs(t, err, model.ErrPermanent)
	assert.Empty(t, rp.requests())
}
