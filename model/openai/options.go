package openai

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults for the zero values of Options.
const (
	DefaultTimeout        = 120 * time.Second
	DefaultMaxRetries     = 4
	DefaultBackoff        = 500 * time.Millisecond
	DefaultMaxConcurrency = 4
	DefaultMaxTokens      = 2048

	// maxBackoff caps one computed backoff sleep.
	maxBackoff = 30 * time.Second
	// maxRetryAfter caps a server's Retry-After.
	maxRetryAfter = 60 * time.Second
)

// JSONMode selects how the client asks the server for JSON output.
type JSONMode string

// JSON modes.
const (
	// JSONModeAuto (the zero value) is JSONModeSchema, except for
	// api.deepseek.com, which has no json_schema mode: JSONModeObject
	// there.
	JSONModeAuto JSONMode = ""
	// JSONModeSchema sends response_format {"type":"json_schema"} with
	// the request's schema (strict false), which Ollama, vLLM and
	// llama.cpp enforce while generating. A request without a schema is
	// sent as JSONModeObject.
	JSONModeSchema JSONMode = "json_schema"
	// JSONModeObject sends response_format {"type":"json_object"} and,
	// because the server does not enforce a schema in this mode, appends
	// the schema to the system message.
	JSONModeObject JSONMode = "json_object"
	// JSONModeNone sends no response_format and leaves the messages as
	// the caller wrote them.
	JSONModeNone JSONMode = "none"
)

// Options configure a Client. BaseURL and Model are required; every
// other zero value means the default stated on its field.
type Options struct {
	// BaseURL is the API root, the part before "/chat/completions":
	// "https://api.openai.com/v1", "https://api.deepseek.com",
	// "http://localhost:11434/v1". Required; http or https.
	BaseURL string
	// Model is the model name sent with each request. Required: there is
	// no default model.
	Model string
	// APIKey is sent as "Authorization: Bearer <key>"; empty sends no
	// Authorization header (local servers). It never appears in an error.
	APIKey string
	// Timeout bounds one HTTP attempt, the reply body included.
	// Default 120s.
	Timeout time.Duration
	// MaxRetries is how many times a failed attempt (transport error,
	// timeout, 429, 5xx, empty content) is retried. Default 4. The single
	// retry after a truncated reply and the single json_schema downgrade
	// are not counted.
	MaxRetries int
	// Backoff is the base of the exponential backoff between retries:
	// attempt n sleeps a random duration in [0, Backoff·2ⁿ) ("full
	// jitter"), capped at 30s; a Retry-After header (capped at 60s) takes
	// its place. Default 500ms.
	Backoff time.Duration
	// MaxConcurrency bounds the Complete calls in progress on this
	// client; further calls wait for a slot (or their context). Default 4.
	MaxConcurrency int
	// MaxTokens is the completion budget when Request.MaxTokens is 0.
	// Default 2048.
	MaxTokens int
	// JSONMode selects the structured-output request. Default
	// JSONModeAuto.
	JSONMode JSONMode
	// Temperature is sent when set; nil leaves the server's default.
	Temperature *float64
	// HTTPClient sends the requests. Default: a client of its own over
	// http.DefaultTransport, without a client-wide timeout (Timeout
	// applies per attempt).
	HTTPClient *http.Client
}

// withDefaults validates o and fills its zero values, reporting every
// problem at once in one error wrapping ErrOptions.
func (o Options) withDefaults() (Options, *url.URL, error) {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	o.BaseURL = strings.TrimRight(strings.TrimSpace(o.BaseURL), "/")
	var base *url.URL
	if o.BaseURL == "" {
		bad("BaseURL is required")
	} else if u, err := url.Parse(o.BaseURL); err != nil {
		bad("BaseURL does not parse")
	} else if u.Scheme != "http" && u.Scheme != "https" {
		bad("BaseURL scheme must be http or https, not %q", u.Scheme)
	} else if u.Host == "" {
		bad("BaseURL has no host")
	} else if u.RawQuery != "" || u.Fragment != "" {
		bad("BaseURL must not carry a query or fragment")
	} else {
		base = u
	}
	o.Model = strings.TrimSpace(o.Model)
	if o.Model == "" {
		bad("Model is required")
	}
	if o.Timeout < 0 {
		bad("Timeout must not be negative")
	}
	if o.MaxRetries < 0 {
		bad("MaxRetries must not be negative")
	}
	if o.Backoff < 0 {
		bad("Backoff must not be negative")
	}
	if o.MaxConcurrency < 0 {
		bad("MaxConcurrency must not be negative")
	}
	if o.MaxTokens < 0 {
		bad("MaxTokens must not be negative")
	}
	switch o.JSONMode {
	case JSONModeAuto, JSONModeSchema, JSONModeObject, JSONModeNone:
	default:
		bad("JSONMode %q is not one of %q, %q, %q, %q", o.JSONMode, JSONModeAuto, JSONModeSchema, JSONModeObject, JSONModeNone)
	}
	if t := o.Temperature; t != nil {
		if math.IsNaN(*t) || math.IsInf(*t, 0) || *t < 0 {
			bad("Temperature must be a finite number ≥ 0")
		}
		v := *t // the caller may reuse its variable
		o.Temperature = &v
	}
	if len(problems) > 0 {
		return o, nil, fmt.Errorf("%w: %s", ErrOptions, strings.Join(problems, "; "))
	}

	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRetries == 0 {
		o.MaxRetries = DefaultMaxRetries
	}
	if o.Backoff == 0 {
		o.Backoff = DefaultBackoff
	}
	if o.MaxConcurrency == 0 {
		o.MaxConcurrency = DefaultMaxConcurrency
	}
	if o.MaxTokens == 0 {
		o.MaxTokens = DefaultMaxTokens
	}
	if o.JSONMode == JSONModeAuto {
		o.JSONMode = JSONModeSchema
		if isDeepSeek(base) {
			o.JSONMode = JSONModeObject
		}
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	return o, base, nil
}

// deepSeekHost is the one host that needs its own wire tweaks: no
// json_schema mode, and thinking on unless disabled.
const deepSeekHost = "api.deepseek.com"

func isDeepSeek(u *url.URL) bool {
	return u != nil && strings.EqualFold(u.Hostname(), deepSeekHost)
}
