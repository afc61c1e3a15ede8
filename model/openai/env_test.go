package openai_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model/openai"
)

func TestFromEnv(t *testing.T) {
	tests := []struct {
		name  string
		spec  string
		env   map[string]string
		check func(t *testing.T, c *openai.Client)
	}{
		{
			name: "openai defaults",
			spec: "openai:gpt-4o-mini",
			env:  map[string]string{openai.EnvOpenAIKey: "sk-oa", openai.EnvDeepSeekKey: "sk-ds"},
			check: func(t *testing.T, c *openai.Client) {
				o := openai.OptionsOf(c)
				assert.Equal(t, openai.DefaultBaseURL, o.BaseURL)
				assert.Equal(t, "sk-oa", openai.APIKeyOf(c))
				assert.Equal(t, "openai:gpt-4o-mini", c.Name())
				assert.Equal(t, openai.JSONModeSchema, c.JSONMode())
			},
		},
		{
			name: "deepseek",
			spec: "openai:deepseek-v4-flash",
			env:  map[string]string{openai.EnvBaseURL: "https://api.deepseek.com", openai.EnvOpenAIKey: "sk-oa", openai.EnvDeepSeekKey: "sk-ds"},
			check: func(t *testing.T, c *openai.Client) {
				assert.Equal(t, "sk-ds", openai.APIKeyOf(c))
				assert.Equal(t, openai.JSONModeObject, c.JSONMode())
			},
		},
		{
			name: "explicit key wins",
			spec: "openai:x",
			env:  map[string]string{openai.EnvAPIKey: "sk-sg", openai.EnvOpenAIKey: "sk-oa"},
			check: func(t *testing.T, c *openai.Client) {
				assert.Equal(t, "sk-sg", openai.APIKeyOf(c))
			},
		},
		{
			name: "local server gets no provider key",
			spec: "openai:local",
			env: map[string]string{
				openai.EnvBaseURL: "http://127.0.0.1:8080/v1", openai.EnvOpenAIKey: "sk-oa",
				openai.EnvTimeout: "300s", openai.EnvMaxConcurrency: "1", openai.EnvJSONMode: "object",
			},
			check: func(t *testing.T, c *openai.Client) {
				o := openai.OptionsOf(c)
				assert.Empty(t, openai.APIKeyOf(c))
				assert.Equal(t, 300*time.Second, o.Timeout)
				assert.Equal(t, 1, o.MaxConcurrency)
				assert.Equal(t, openai.JSONModeObject, c.JSONMode())
			},
		},
		{
			name: "spec from STRATAGATE_MODEL",
			env:  map[string]string{openai.EnvModel: " openai:qwen ", openai.EnvJSONMode: "none"},
			check: func(t *testing.T, c *openai.Client) {
				assert.Equal(t, "openai:qwen", c.Name())
				assert.Equal(t, openai.JSONModeNone, c.JSONMode())
			},
		},
		{
			name: "json mode schema and auto",
			spec: "openai:m",
			env:  map[string]string{openai.EnvBaseURL: "https://api.deepseek.com", openai.EnvJSONMode: "schema"},
			check: func(t *testing.T, c *openai.Client) {
				assert.Equal(t, openai.JSONModeSchema, c.JSONMode())
			},
		},
		{
			name: "json mode auto",
			spec: "openai:m",
			env:  map[string]string{openai.EnvJSONMode: "Auto"},
			check: func(t *testing.T, c *openai.Client) {
				assert.Equal(t, openai.JSONModeSchema, c.JSONMode())
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := openai.FromEnv(tt.spec, func(k string) string { return tt.env[k] })
			require.NoError(t, err)
			tt.check(t, c)
		})
	}
}

func TestFromEnvRejects(t *testing.T) {
	tests := []struct {
		name string
		spec string
		env  map[string]string
		want []string
	}{
		{"no spec", "", nil, []string{"does not start with \"openai:\""}},
		{"other backend", "heuristic", nil, []string{"heuristic"}},
		{"no model", "openai: ", nil, []string{"names no model"}},
		{"bad timeout", "openai:m", map[string]string{openai.EnvTimeout: "soon"}, []string{openai.EnvTimeout}},
		{"zero timeout", "openai:m", map[string]string{openai.EnvTimeout: "0s"}, []string{openai.EnvTimeout}},
		{"bad concurrency", "openai:m", map[string]string{openai.EnvMaxConcurrency: "-2"}, []string{openai.EnvMaxConcurrency}},
		{"bad json mode", "openai:m", map[string]string{openai.EnvJSONMode: "yaml"}, []string{openai.EnvJSONMode}},
		{"all at once", "openai:m", map[string]string{openai.EnvTimeout: "x", openai.EnvJSONMode: "y"}, []string{openai.EnvTimeout, openai.EnvJSONMode}},
		{"bad base url", "openai:m", map[string]string{openai.EnvBaseURL: "ftp://x", openai.EnvAPIKey: "sk-hidden"}, []string{openai.EnvBaseURL, "scheme"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := openai.FromEnv(tt.spec, func(k string) string { return tt.env[k] })
			require.ErrorIs(t, err, openai.ErrOptions)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.NotContains(t, err.Error(), "sk-hidden")
		})
	}
}

func TestFromEnvProcessEnvironment(t *testing.T) {
	t.Setenv(openai.EnvModel, "openai:from-process")
	t.Setenv(openai.EnvBaseURL, "http://127.0.0.1:1/v1")
	c, err := openai.FromEnv("", nil)
	require.NoError(t, err)
	assert.Equal(t, "openai:from-process", c.Name())
}
