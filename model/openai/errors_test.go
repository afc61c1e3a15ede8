package openai_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/openai"
)

func TestContextSizeError(t *testing.T) {
	rp := newReplay(t, exchange{status: 400, body: `{"error":{"code":400,"message":"request exceeds the available context size","type":"exceed_context_size_error"}}`})
	_, err := rp.client(openai.Options{}).Complete(t.Context(), deriveRequest())
	var se *openai.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "exceed_context_size_error", se.Type)
	assert.Equal(t, "openai: HTTP 400 (exceed_context_size_error): request exceeds the available context size", se.Error())
	assert.True(t, errors.Is(err, model.ErrContextSize) && errors.Is(err, model.ErrPermanent))
}

func TestStatusErrors(t *testing.T) {
	long := strings.Repeat("x", 1000)
	tests := []struct {
		name      string
		status    int
		body      string
		typ, msg  string
		permanent bool
		ctxSize   bool
		calls     int
	}{
		{"openai context length", 400, `{"error":{"message":"This model's maximum context length is 8192 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			"invalid_request_error", "This model's maximum context length is 8192 tokens.", true, true, 1},
		{"bad key", 401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`,
			"invalid_request_error", "Incorrect API key provided", true, false, 1},
		{"forbidden", 403, `{"error":"forbidden"}`, "", "forbidden", true, false, 1},
		{"vllm bare error", 400, `{"object":"error","message":"bad thing","type":"BadRequestError","param":null,"code":400}`,
			"BadRequestError", "bad thing", true, false, 1},
		{"code only", 422, `{"error":{"message":"unprocessable","code":"invalid_schema"}}`, "invalid_schema", "unprocessable", true, false, 1},
		{"numeric code only", 422, `{"error":{"message":"unprocessable","code":422}}`, "422", "unprocessable", true, false, 1},
		{"payment required is not retried nor permanent", 402, `{"error":{"message":"Insufficient Balance","type":"unknown_error"}}`,
			"unknown_error", "Insufficient Balance", false, false, 1},
		{"413 context window", 413, `{"error":{"message":"prompt is longer than the context window"}}`, "", "prompt is longer than the context window", true, true, 1},
		{"plain text body cut at 300 bytes", 500, "oops\x00\x01" + long, "", "oops " + long[:295], false, false, 3},
		{"json error body without message", 503, `{"error":null,"detail":"x"}`, "", `{"error":null,"detail":"x"}`, false, false, 3},
		{"error field of a strange type", 418, `{"error":42}`, "", `{"error":42}`, false, false, 1},
		{"rate limited", 429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`,
			"requests", "Rate limit reached", false, false, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rp := newReplay(t, exchange{status: tt.status, body: tt.body})
			c := rp.client(openai.Options{MaxRetries: 2})
			_, err := c.Complete(t.Context(), deriveRequest())
			var se *openai.StatusError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.status, se.Code)
			assert.Equal(t, tt.typ, se.Type)
			assert.Equal(t, tt.msg, se.Message)
			assert.Equal(t, tt.permanent, errors.Is(err, model.ErrPermanent))
			assert.Equal(t, tt.ctxSize, errors.Is(err, model.ErrContextSize))
			assert.Len(t, rp.requests(), tt.calls)
			if tt.calls > 1 {
				assert.Contains(t, err.Error(), fmt.Sprintf("after %d attempts", tt.calls))
			}
		})
	}
}

func TestAPIKeyNeverInErrors(t *testing.T) {
	const key = "sk-secret-0123456789"
	rp := newReplay(t,
		exchange{status: 401, body: `{"error":{"message":"Incorrect API key provided: ` + key + `. You can find your key at ...","type":"invalid_request_error","code":"` + key + `"}}`})
	c := rp.client(openai.Options{APIKey: key})
	_, err := c.Complete(t.Context(), deriveRequest())
	require.Error(t, err)
	assert.NotContains(t, err.Error(), key)
	assert.Contains(t, err.Error(), "[redacted]")
	assert.Equal(t, "Bearer "+key, rp.requests()[0].Auth)

	t.Run("plain body", func(t *testing.T) {
		rp := newReplay(t, exchange{status: 500, body: "upstream said: Authorization: Bearer " + key})
		c := rp.client(openai.Options{APIKey: key, MaxRetries: 1})
		_, err := c.Complete(t.Context(), deriveRequest())
		require.Error(t, err)
		assert.NotContains(t, err.Error(), key)
	})

	t.Run("printing the client", func(t *testing.T) {
		for _, f := range []string{"%v", "%s", "%+v", "%#v"} {
			assert.NotContains(t, fmt.Sprintf(f, c), key)
		}
		assert.Equal(t, "openai:test-model at "+rp.url(), fmt.Sprint(c))
	})
}
