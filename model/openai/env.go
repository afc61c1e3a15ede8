package openai

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// SpecPrefix starts a model spec that selects this client: "openai:<model>".
const SpecPrefix = "openai:"

// DefaultBaseURL is FromEnv's base URL when EnvBaseURL is unset.
const DefaultBaseURL = "https://api.openai.com/v1"

// Environment variables read by FromEnv.
const (
	// EnvModel holds the model spec ("openai:<model>"); FromEnv reads it
	// when its spec argument is empty.
	EnvModel = "STRATAGATE_MODEL"
	// EnvBaseURL holds Options.BaseURL (default DefaultBaseURL).
	EnvBaseURL = "STRATAGATE_MODEL_BASE_URL"
	// EnvAPIKey holds Options.APIKey. When it is empty the provider's
	// own variable is used: EnvOpenAIKey for api.openai.com,
	// EnvDeepSeekKey for api.deepseek.com.
	EnvAPIKey = "STRATAGATE_MODEL_API_KEY"
	// EnvTimeout holds Options.Timeout as a Go duration ("90s").
	EnvTimeout = "STRATAGATE_MODEL_TIMEOUT"
	// EnvMaxConcurrency holds Options.MaxConcurrency.
	EnvMaxConcurrency = "STRATAGATE_MODEL_MAX_CONCURRENCY"
	// EnvJSONMode holds Options.JSONMode: "schema", "object" or "none"
	// (empty or "auto": JSONModeAuto).
	EnvJSONMode = "STRATAGATE_MODEL_JSON_MODE"
	// EnvOpenAIKey is OpenAI's own key variable, read for api.openai.com.
	EnvOpenAIKey = "OPENAI_API_KEY"
	// EnvDeepSeekKey is DeepSeek's own key variable, read for
	// api.deepseek.com.
	EnvDeepSeekKey = "DEEPSEEK_API_KEY"
)

// FromEnv builds a Client from a spec "openai:<model>" (or, when spec is
// empty, the value of EnvModel) and the environment variables above,
// looked up with getenv (nil: os.Getenv). Errors wrap ErrOptions and name
// the variable at fault; they never contain the key.
func FromEnv(spec string, getenv func(string) string) (*Client, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if strings.TrimSpace(spec) == "" {
		spec = getenv(EnvModel)
	}
	spec = strings.TrimSpace(spec)
	name, ok := strings.CutPrefix(spec, SpecPrefix)
	if !ok {
		return nil, fmt.Errorf("%w: model spec %q does not start with %q", ErrOptions, spec, SpecPrefix)
	}
	o := Options{Model: strings.TrimSpace(name), BaseURL: strings.TrimSpace(getenv(EnvBaseURL))}
	if o.Model == "" {
		return nil, fmt.Errorf("%w: model spec %q names no model", ErrOptions, spec)
	}
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	o.APIKey = strings.TrimSpace(getenv(EnvAPIKey))
	if o.APIKey == "" {
		if u, err := url.Parse(o.BaseURL); err == nil {
			switch strings.ToLower(u.Hostname()) {
			case "api.openai.com":
				o.APIKey = strings.TrimSpace(getenv(EnvOpenAIKey))
			case deepSeekHost:
				o.APIKey = strings.TrimSpace(getenv(EnvDeepSeekKey))
			}
		}
	}
	var problems []string
	if v := strings.TrimSpace(getenv(EnvTimeout)); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			problems = append(problems, fmt.Sprintf("%s=%q is not a positive Go duration", EnvTimeout, v))
		}
		o.Timeout = d
	}
	if v := strings.TrimSpace(getenv(EnvMaxConcurrency)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			problems = append(problems, fmt.Sprintf("%s=%q is not a positive integer", EnvMaxConcurrency, v))
		}
		o.MaxConcurrency = n
	}
	switch v := strings.ToLower(strings.TrimSpace(getenv(EnvJSONMode))); v {
	case "", "auto":
	case "schema", string(JSONModeSchema):
		o.JSONMode = JSONModeSchema
	case "object", string(JSONModeObject):
		o.JSONMode = JSONModeObject
	case string(JSONModeNone):
		o.JSONMode = JSONModeNone
	default:
		problems = append(problems, fmt.Sprintf("%s=%q is not schema, object or none", EnvJSONMode, v))
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrOptions, strings.Join(problems, "; "))
	}
	c, err := New(o)
	if err != nil {
		return nil, fmt.Errorf("%w (from %s)", err, EnvBaseURL)
	}
	return c, nil
}
