package openai_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model/openai"
)

func TestNewRejects(t *testing.T) {
	nan, neg := math.NaN(), -0.5
	tests := []struct {
		name string
		opts openai.Options
		want []string
	}{
		{"nothing", openai.Options{}, []string{"BaseURL is required", "Model is required"}},
		{"blank model", openai.Options{BaseURL: "http://x", Model: "  "}, []string{"Model is required"}},
		{"scheme", openai.Options{BaseURL: "ftp://x/v1", Model: "m"}, []string{"BaseURL scheme"}},
		{"no scheme", openai.Options{BaseURL: "localhost:8080", Model: "m"}, []string{"BaseURL"}},
		{"no host", openai.Options{BaseURL: "http:///v1", Model: "m"}, []string{"BaseURL has no host"}},
		{"unparseable", openai.Options{BaseURL: "http://[::1", Model: "m"}, []string{"BaseURL does not parse"}},
		{"query", openai.Options{BaseURL: "http://x/v1?k=1", Model: "m"}, []string{"query"}},
		{"negatives", openai.Options{BaseURL: "http://x", Model: "m", Timeout: -1, MaxRetries: -1, Backoff: -1, MaxConcurrency: -1, MaxTokens: -1},
			[]string{"Timeout", "MaxRetries", "Backoff", "MaxConcurrency", "MaxTokens"}},
		{"json mode", openai.Options{BaseURL: "http://x", Model: "m", JSONMode: "xml"}, []string{"JSONMode \"xml\""}},
		{"nan temperature", openai.Options{BaseURL: "http://x", Model: "m", Temperature: &nan}, []string{"Temperature"}},
		{"negative temperature", openai.Options{BaseURL: "http://x", Model: "m", Temperature: &neg}, []string{"Temperature"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := openai.New(tt.opts)
			require.ErrorIs(t, err, openai.ErrOptions)
			assert.Nil(t, c)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestNewDefaults(t *testing.T) {
	temp := 0.7
	c, err := openai.New(openai.Options{BaseURL: " http://localhost:11434/v1/ ", Model: "llama3", Temperature: &temp})
	require.NoError(t, err)
	temp = 1.5 // the client keeps its own copy
	o := openai.OptionsOf(c)
	assert.Equal(t, "http://localhost:11434/v1", o.BaseURL)
	assert.Equal(t, 120*time.Second, o.Timeout)
	assert.Equal(t, 4, o.MaxRetries)
	assert.Equal(t, 500*time.Millisecond, o.Backoff)
	assert.Equal(t, 4, o.MaxConcurrency)
	assert.Equal(t, 2048, o.MaxTokens)
	assert.InDelta(t, 0.7, *o.Temperature, 1e-9)
	assert.NotNil(t, o.HTTPClient)
	assert.Equal(t, openai.JSONModeSchema, c.JSONMode())
	assert.Equal(t, "openai:llama3", c.Name())

	tests := []struct {
		base string
		mode openai.JSONMode
		want openai.JSONMode
	}{
		{"https://api.deepseek.com", openai.JSONModeAuto, openai.JSONModeObject},
		{"https://API.DeepSeek.com/v1", openai.JSONModeAuto, openai.JSONModeObject},
		{"https://api.deepseek.com", openai.JSONModeNone, openai.JSONModeNone},
		{"https://api.openai.com/v1", openai.JSONModeAuto, openai.JSONModeSchema},
		{"http://127.0.0.1:8080/v1", openai.JSONModeObject, openai.JSONModeObject},
	}
	for _, tt := range tests {
		c, err := openai.New(openai.Options{BaseURL: tt.base, Model: "m", JSONMode: tt.mode})
		require.NoError(t, err)
		assert.Equal(t, tt.want, c.JSONMode(), tt.base)
	}
}
