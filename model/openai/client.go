package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/stratagate/stratagate/model"
)

// Limits on what the client reads from the server.
const (
	maxReplyBytes = 8 << 20  // a 2xx body: far above any completion we ask for
	maxErrorBytes = 64 << 10 // a non-2xx body: only its message is kept
)

// Client is a model.Model backed by an OpenAI-compatible Chat Completions
// endpoint. It is safe for concurrent use; at most
// Options.MaxConcurrency Complete calls run at once.
type Client struct {
	opts     Options
	endpoint string
	deepSeek bool
	sem      chan struct{}

	// sleep waits between retries; tests replace it to record the
	// backoff instead of waiting.
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time

	mu struct {
		sync.Mutex
		mode JSONMode // current mode: Options.JSONMode until a downgrade
	}
}

var _ model.Model = (*Client)(nil)

// New returns a Client for o, or an error wrapping ErrOptions that names
// every missing or invalid field.
func New(o Options) (*Client, error) {
	o, base, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	c := &Client{
		opts:     o,
		endpoint: o.BaseURL + "/chat/completions",
		deepSeek: isDeepSeek(base),
		sem:      make(chan struct{}, o.MaxConcurrency),
		sleep:    sleepCtx,
		now:      time.Now,
	}
	c.mu.mode = o.JSONMode
	return c, nil
}

// Name returns "openai:<model>".
func (c *Client) Name() string { return SpecPrefix + c.opts.Model }

// JSONMode returns the structured-output mode now in use: the configured
// one (JSONModeAuto resolved), or JSONModeObject after the server refused
// json_schema.
func (c *Client) JSONMode() JSONMode {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mu.mode
}

// downgrade switches the client from json_schema to json_object for good.
func (c *Client) downgrade() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mu.mode = JSONModeObject
}

// Internal failure kinds of one attempt, turned into the exported errors
// once the retries are spent.
var (
	errAttemptTimeout = errors.New("attempt timed out")
	errEmpty          = errors.New("empty content")
)

// transportError is a failed HTTP exchange, its text already scrubbed of
// the key (the cause is dropped so that no unscrubbed text survives).
type transportError struct{ msg string }

func (e *transportError) Error() string { return e.msg }

// Complete sends req and returns the reply's content, unwrapped from any
// code fence or surrounding prose. It retries transport errors, attempt
// timeouts, 429 and 5xx answers and empty content up to MaxRetries times
// with backoff; retries once with twice the token budget when the reply
// was cut (then fails with model.ErrTruncated); and downgrades the client
// to json_object once when the server refuses json_schema. The tokens of
// every attempt that reported usage are added to model.MeterOf(ctx).
//
// Errors: a *StatusError for a refusal (wrapping model.ErrPermanent or
// model.ErrContextSize where that applies), ErrTimeout, ErrRequest,
// model.ErrTruncated, model.ErrBadOutput (still empty), or ctx.Err()
// wrapped when the caller's context ends first.
func (c *Client) Complete(ctx context.Context, req model.Request) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("openai: %w", err)
	}
	schema, err := compactSchema(req.Schema)
	if err != nil {
		return "", err
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return "", fmt.Errorf("openai: waiting for a free slot: %w", ctx.Err())
	}
	defer func() { <-c.sem }()

	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = c.opts.MaxTokens
	}
	meter := model.MeterOf(ctx)
	grown, downgraded := false, false
	for retries := 0; ; {
		mode := c.JSONMode()
		body, err := json.Marshal(c.buildRequest(req, schema, mode, maxTokens))
		if err != nil { // unreachable: every field is plain data or compacted JSON
			return "", fmt.Errorf("openai: encoding the request: %w", err)
		}
		r, wait, err := c.attempt(ctx, body)
		if !r.usage.IsZero() {
			meter.Add(r.usage)
		}
		if ctx.Err() != nil {
			return "", fmt.Errorf("openai: %w", ctx.Err())
		}
		var se *StatusError
		switch {
		case err == nil && r.finish == "length":
			if !grown {
				grown = true
				maxTokens *= 2
				continue
			}
			return "", fmt.Errorf("openai: %w: finish_reason \"length\" at max_tokens %d", model.ErrTruncated, maxTokens)
		case err == nil && r.content == "":
			err = errEmpty
		case err == nil:
			return r.content, nil
		case errors.As(err, &se):
			if mode == JSONModeSchema && schema != nil && !downgraded && isSchemaUnsupported(se) {
				// Another call may have switched the client meanwhile;
				// either way this call retries once in json_object.
				c.downgrade()
				downgraded = true
				continue
			}
			if !retryableStatus(se.Code) {
				return "", se
			}
		case errors.Is(err, ErrRequest): // a final failure (oversize body)
			return "", err
		}
		if retries >= c.opts.MaxRetries {
			return "", c.giveUp(err, retries+1)
		}
		if wait < 0 {
			wait = backoff(c.opts.Backoff, retries)
		}
		retries++
		if err := c.sleep(ctx, wait); err != nil {
			return "", fmt.Errorf("openai: waiting to retry: %w", err)
		}
	}
}

// giveUp turns the last failure into the error Complete returns after
// attempts attempts.
func (c *Client) giveUp(err error, attempts int) error {
	var se *StatusError
	var te *transportError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("openai: giving up after %d attempts: %w", attempts, se)
	case errors.Is(err, errAttemptTimeout):
		return fmt.Errorf("%w: %d attempts of %v each", ErrTimeout, attempts, c.opts.Timeout)
	case errors.Is(err, errEmpty):
		return fmt.Errorf("openai: %w: empty content in %d attempts", model.ErrBadOutput, attempts)
	case errors.As(err, &te):
		return fmt.Errorf("%w after %d attempts: %s", ErrRequest, attempts, te.msg)
	}
	return fmt.Errorf("%w after %d attempts: %v", ErrRequest, attempts, err)
}

// attempt makes one HTTP exchange under Options.Timeout. wait is the
// server's Retry-After, or -1.
func (c *Client) attempt(ctx context.Context, body []byte) (r reply, wait time.Duration, err error) {
	wait = -1
	actx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(actx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil { // unreachable: the endpoint was validated by New
		return r, wait, c.transport(actx, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if c.opts.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.opts.APIKey)
	}
	resp, err := c.opts.HTTPClient.Do(hreq)
	if err != nil {
		return r, wait, c.transport(actx, err)
	}
	defer func() {
		// Drain a little so the connection can be reused.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBytes))
		_ = resp.Body.Close()
	}()

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, rerr := io.ReadAll(io.LimitReader(resp.Body, maxErrorBytes))
		if rerr != nil && actx.Err() != nil {
			return r, wait, c.transport(actx, rerr)
		}
		if d, ok := retryAfter(resp.Header, c.now()); ok {
			wait = d
		}
		return r, wait, newStatusError(resp.StatusCode, data, c.opts.APIKey)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes+1))
	if err != nil {
		return r, wait, c.transport(actx, err)
	}
	if len(data) > maxReplyBytes {
		return r, wait, fmt.Errorf("%w: reply body exceeds %d bytes", ErrRequest, maxReplyBytes)
	}
	r, err = parseReply(data)
	return r, wait, err
}

// transport classifies a failed exchange: the attempt's own timeout, or
// a transport error with the key scrubbed from its text. (The caller's
// context ending is checked by Complete.)
func (c *Client) transport(actx context.Context, err error) error {
	if errors.Is(actx.Err(), context.DeadlineExceeded) {
		return errAttemptTimeout
	}
	return &transportError{msg: scrub(err.Error(), c.opts.APIKey, messageLimit)}
}

// String describes the client without its key ("openai:<model> at
// <base URL>"), so that logging a Client cannot leak it.
func (c *Client) String() string {
	return fmt.Sprintf("%s at %s", c.Name(), strings.TrimSuffix(c.endpoint, "/chat/completions"))
}

// GoString is String, for %#v.
func (c *Client) GoString() string { return c.String() }
