package stratagate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

func TestModelFromSpec(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	tests := []struct {
		name, spec string
		vars       map[string]string
		want       string // Name(); "" = error
	}{
		{"default", "", nil, "heuristic"},
		{"heuristic", "heuristic", map[string]string{"STRATAGATE_MODEL": "openai:x"}, "heuristic"},
		{"from the environment", "", map[string]string{"STRATAGATE_MODEL": "openai:qwen", "STRATAGATE_MODEL_BASE_URL": "http://127.0.0.1:11434/v1"}, "openai:qwen"},
		{"spec over environment", "openai:local", map[string]string{"STRATAGATE_MODEL": "heuristic", "STRATAGATE_MODEL_BASE_URL": "http://127.0.0.1:8080/v1"}, "openai:local"},
		{"unknown provider", "anthropic:claude", nil, ""},
		{"no model name", "openai:", nil, ""},
		{"bad base URL", "openai:x", map[string]string{"STRATAGATE_MODEL_BASE_URL": "ftp://host"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := stratagate.ModelFromSpec(tt.spec, env(tt.vars))
			if tt.want == "" {
				assert.ErrorIs(t, err, stratagate.ErrInvalidOptions)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, m.Name())
		})
	}
	// A key never appears in an error.
	_, err := stratagate.ModelFromSpec("openai:x", env(map[string]string{
		"STRATAGATE_MODEL_BASE_URL": "http://127.0.0.1:1/v1", "STRATAGATE_MODEL_API_KEY": "sk-secretsecretsecret", "STRATAGATE_MODEL_TIMEOUT": "soon",
	}))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "sk-secret")
}
