package stratagate

import (
	"fmt"
	"os"
	"strings"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
	"github.com/stratagate/stratagate/model/openai"
)

// ModelFromSpec returns the model a spec names, for Options.Model:
//
//	""            the value of STRATAGATE_MODEL, or heuristic when unset
//	"heuristic"   the offline, deterministic model (the default)
//	"openai:NAME" an OpenAI-compatible server (OpenAI, DeepSeek, Ollama,
//	              vLLM, llama.cpp), configured by STRATAGATE_MODEL_BASE_URL,
//	              STRATAGATE_MODEL_API_KEY and the other variables of
//	              model/openai.FromEnv
//
// getenv looks the variables up (nil: os.Getenv). Any other spec, or a bad
// variable, is ErrInvalidOptions naming it; no error contains a key.
func ModelFromSpec(spec string, getenv func(string) string) (model.Model, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if spec == "" {
		spec = strings.TrimSpace(getenv(openai.EnvModel))
	}
	switch {
	case spec == "" || spec == heuristic.Name:
		return heuristic.New(), nil
	case strings.HasPrefix(spec, openai.SpecPrefix):
		c, err := openai.FromEnv(spec, getenv)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidOptions, err)
		}
		return c, nil
	}
	return nil, fmt.Errorf("%w: model %q: want %q or %q", ErrInvalidOptions, spec, heuristic.Name, openai.SpecPrefix+"<model name>")
}
