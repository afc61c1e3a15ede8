package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model/openai"
)

// exchange is one scripted answer of a replay server.
type exchange struct {
	status int               // 0: 200
	header map[string]string // extra response headers
	body   string
	hang   bool // wait for the client to give up instead of answering
}

// recorded is one request the replay server received.
type recorded struct {
	Path string
	Auth string
	Body map[string]any
}

// replay is an httptest server that answers with a script, repeating its
// last entry, and records every request.
type replay struct {
	t      *testing.T
	srv    *httptest.Server
	script []exchange

	mu   sync.Mutex
	reqs []recorded
}

func newReplay(t *testing.T, script ...exchange) *replay {
	t.Helper()
	rp := &replay{t: t, script: script}
	rp.srv = httptest.NewServer(http.HandlerFunc(rp.serve))
	t.Cleanup(rp.srv.Close)
	return rp
}

func (rp *replay) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, "bad body", http.StatusInternalServerError)
		return
	}
	rp.mu.Lock()
	n := len(rp.reqs)
	rp.reqs = append(rp.reqs, recorded{Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Body: body})
	ex := rp.script[min(n, len(rp.script)-1)]
	rp.mu.Unlock()
	if ex.hang {
		<-r.Context().Done()
		return
	}
	for k, v := range ex.header {
		w.Header().Set(k, v)
	}
	if ex.header["Content-Type"] == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	if ex.status != 0 {
		w.WriteHeader(ex.status)
	}
	_, _ = io.WriteString(w, ex.body)
}

// requests returns what the server received so far.
func (rp *replay) requests() []recorded {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return append([]recorded(nil), rp.reqs...)
}

// url is the server's base URL with a /v1 suffix, as most servers use.
func (rp *replay) url() string { return rp.srv.URL + "/v1" }

// client returns a fast-retrying client of the replay server.
func (rp *replay) client(o openai.Options) *openai.Client {
	rp.t.Helper()
	if o.BaseURL == "" {
		o.BaseURL = rp.url()
	}
	if o.Model == "" {
		o.Model = "test-model"
	}
	if o.Backoff == 0 {
		o.Backoff = time.Millisecond
	}
	c, err := openai.New(o)
	require.NoError(rp.t, err)
	return c
}

// redirect is a transport that sends every request to the replay server
// whatever its host, so a client configured for https://api.deepseek.com
// talks to loopback.
type redirect struct{ to *url.URL }

func (rd redirect) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = rd.to.Scheme, rd.to.Host
	r.Host = rd.to.Host
	return http.DefaultTransport.RoundTrip(r)
}

// redirecting returns an HTTP client that talks only to rp.
func (rp *replay) redirecting() *http.Client {
	u, err := url.Parse(rp.srv.URL)
	require.NoError(rp.t, err)
	return &http.Client{Transport: redirect{to: u}}
}

// completion renders a chat completion body. content is JSON-encoded
// unless it is the literal "null".
func completion(content, finish, usage string) string {
	c := "null"
	if content != "null" {
		b, _ := json.Marshal(content)
		c = string(b)
	}
	if usage == "" {
		usage = `{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}`
	}
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m",`+
		`"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":%q}],"usage":%s}`,
		c, finish, usage)
}

// sleeps records the backoff of a client instead of sleeping it.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) install(c *openai.Client) {
	openai.SetSleep(c, func(ctx context.Context, d time.Duration) error {
		s.mu.Lock()
		s.d = append(s.d, d)
		s.mu.Unlock()
		return ctx.Err()
	})
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// messages returns the roles and contents of a recorded request.
func messages(t *testing.T, r recorded) (roles, contents []string) {
	t.Helper()
	ms, ok := r.Body["messages"].([]any)
	require.True(t, ok, "messages is an array")
	for _, m := range ms {
		mm := m.(map[string]any)
		roles = append(roles, mm["role"].(string))
		contents = append(contents, mm["content"].(string))
	}
	return roles, contents
}
