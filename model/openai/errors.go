package openai

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stratagate/stratagate/model"
)

// Errors returned by this package, checked with errors.Is. A refusal by
// the server is a *StatusError instead; the model package's sentinels
// (model.ErrPermanent, model.ErrContextSize, model.ErrTruncated,
// model.ErrBadOutput) are wrapped where they apply.
var (
	// ErrOptions is returned by New and FromEnv for a missing or invalid
	// setting; the message names every offending field.
	ErrOptions = errors.New("openai: invalid options")
	// ErrRequest is returned when the exchange itself failed on every
	// attempt: a transport error (connection refused, reset, TLS) or a
	// reply that is not a chat completion. It is transient: a later job
	// attempt may succeed.
	ErrRequest = errors.New("openai: request failed")
	// ErrTimeout is returned when every attempt ran past Options.Timeout.
	// It is distinct from the caller's context: when the caller's context
	// ends, Complete returns an error wrapping ctx.Err() instead.
	ErrTimeout = errors.New("openai: attempt timed out")
)

// errContextSize is what a *StatusError unwraps to for an oversize prompt:
// model.ErrContextSize is documented to imply model.ErrPermanent, so both
// must match through errors.Is.
var errContextSize = fmt.Errorf("%w (%w)", model.ErrContextSize, model.ErrPermanent)

// StatusError is a non-2xx answer from the server. For 400, 401, 403,
// 404 and 422 it unwraps to model.ErrPermanent (retrying cannot help);
// for an oversize prompt, whatever the 4xx code, to model.ErrContextSize,
// which also matches model.ErrPermanent. A 429 or 5xx that outlived the
// client's retries, and any other code, unwraps to nothing: the failure is
// transient for the caller.
type StatusError struct {
	// Code is the HTTP status code.
	Code int
	// Type is the error type or code from the body ("invalid_request_error",
	// "exceed_context_size_error", "context_length_exceeded"), or "".
	Type string
	// Message is the server's message, or the first 300 bytes of a body
	// that is not JSON; control characters are replaced and the API key
	// is scrubbed from it.
	Message string

	contextSize bool   // the body says the prompt exceeds the context
	param       string // the body's "param", for recognising a format refusal
}

// Error reports the status, the type and the message.
func (e *StatusError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "openai: HTTP %d", e.Code)
	if e.Type != "" {
		fmt.Fprintf(&b, " (%s)", e.Type)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// Unwrap returns model.ErrContextSize (matching model.ErrPermanent too)
// for an oversize prompt, model.ErrPermanent for a refusal that retrying
// cannot fix, and nil otherwise.
func (e *StatusError) Unwrap() error {
	switch {
	case e.contextSize:
		return errContextSize
	case permanentStatus(e.Code):
		return model.ErrPermanent
	}
	return nil
}

// permanentStatus reports the codes that mean "this request will never
// succeed as sent".
func permanentStatus(code int) bool {
	switch code {
	case 400, 401, 403, 404, 422:
		return true
	}
	return false
}

// retryableStatus reports the codes worth another attempt: rate limits
// and server-side failures.
func retryableStatus(code int) bool {
	return code == 429 || code >= 500 && code <= 599
}

// redacted replaces the API key wherever a server or transport echoes it.
const redacted = "[redacted]"

// scrub removes key from s and makes s safe to print: invalid UTF-8 and
// control characters become spaces, runs of white space collapse, and
// the result is at most limit bytes (cut on a rune boundary).
func scrub(s, key string, limit int) string {
	if key != "" {
		s = strings.ReplaceAll(s, key, redacted)
	}
	var b strings.Builder
	space := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if r == utf8.RuneError && n <= 1 || unicode.IsControl(r) || unicode.IsSpace(r) {
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		if b.Len()+utf8.RuneLen(r) > limit {
			break
		}
		space = false
		b.WriteRune(r)
	}
	out := strings.TrimSpace(b.String())
	if key != "" {
		// A key cut by the length limit, or rebuilt by the whitespace
		// folding, must not survive either.
		out = strings.ReplaceAll(out, key, redacted)
	}
	return out
}
