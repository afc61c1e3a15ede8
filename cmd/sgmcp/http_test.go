package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bearerTransport adds an Authorization header to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestHTTP(t *testing.T) {
	f := newFixture(t)
	const token = "test-token-0123456789"
	hs := httptest.NewServer(f.srv.HTTPHandler(token))
	t.Cleanup(hs.Close)

	t.Run("with the token", func(t *testing.T) {
		client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
		cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: hs.URL,
			HTTPClient: &http.Client{Transport: bearerTransport{token}}}, nil)
		require.NoError(t, err)
		defer cs.Close()
		tools, err := cs.ListTools(t.Context(), nil)
		require.NoError(t, err)
		assert.Len(t, tools.Tools, 19)
		text, isErr := callOn(t, cs, "memory_search_raw", map[string]any{"q": "Shadow"})
		require.False(t, isErr, text)
		assert.Contains(t, text, "batch_id")
	})
	t.Run("without or with a wrong token", func(t *testing.T) {
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
		for _, auth := range []string{"", "Bearer wrong", "Basic " + token, "Bearer " + token + "x"} {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, hs.URL, strings.NewReader(body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			msg, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, auth)
			assert.Contains(t, string(msg), "bearer token")
		}
		client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
		_, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
		assert.Error(t, err)
	})
	t.Run("DNS rebinding protection stays on", func(t *testing.T) {
		open := httptest.NewServer(f.srv.HTTPHandler(""))
		defer open.Close()
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, open.URL, strings.NewReader(body))
		require.NoError(t, err)
		req.Host = "evil.example"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	})
}

func TestServeFlags(t *testing.T) {
	dir := t.TempDir()
	db := dir + "/m.sg"
	tests := []struct {
		name    string
		args    []string
		wantErr string
		scopes  []string
	}{
		{"defaults", []string{"-db", db}, "", nil},
		{"scopes replace the defaults", []string{"-db", db, "-scope", "project:x", "-scope", "global"}, "", []string{"project:x", "global"}},
		{"loopback without token", []string{"-db", db, "-http", "127.0.0.1:0"}, "", nil},
		{"localhost without token", []string{"-db", db, "-http", "localhost:0"}, "", nil},
		{"all interfaces without token", []string{"-db", db, "-http", ":8765"}, "set -token", nil},
		{"public address without token", []string{"-db", db, "-http", "0.0.0.0:8765"}, "set -token", nil},
		{"public address with token", []string{"-db", db, "-http", "0.0.0.0:8765", "-token", "t"}, "", nil},
		{"bad address", []string{"-db", db, "-http", "nope"}, "HOST:PORT", nil},
		{"missing db", []string{}, "usage", nil},
		{"viewer on loopback", []string{"-db", db, "-ui", "127.0.0.1:0", "-ui-write"}, "", nil},
		{"viewer beyond loopback without token", []string{"-db", db, "-ui", "0.0.0.0:7070"}, "loopback", nil},
		{"viewer writes without a viewer", []string{"-db", db, "-ui-write"}, "usage", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			cfg, err := parseServe(tc.args, &stderr)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error()+stderr.String(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			if tc.scopes != nil {
				assert.Equal(t, tc.scopes, cfg.scopes)
			} else {
				require.Len(t, cfg.scopes, 2)
				assert.True(t, strings.HasPrefix(cfg.scopes[0], "project:"))
				assert.Len(t, cfg.scopes[0], len("project:")+20)
				assert.Equal(t, "global", cfg.scopes[1])
			}
		})
	}
	t.Run("a refused bind exits with the message", func(t *testing.T) {
		var stderr bytes.Buffer
		err := run(t.Context(), []string{"serve", "-db", db, "-http", "0.0.0.0:0"}, io.Discard, &stderr)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "beyond loopback")
	})
}

func TestProjectScope(t *testing.T) {
	dir := t.TempDir()
	a, err := projectScope(dir)
	require.NoError(t, err)
	b, err := projectScope(dir + "/./")
	require.NoError(t, err)
	assert.Equal(t, a, b, "one directory, one scope")
	link := t.TempDir() + "/link"
	require.NoError(t, symlink(dir, link))
	c, err := projectScope(link)
	require.NoError(t, err)
	assert.Equal(t, a, c, "symlinks are resolved")
	d, err := projectScope(dir + "/missing")
	require.NoError(t, err)
	assert.NotEqual(t, a, d)
	assert.Regexp(t, `^project:[0-9a-f]{20}$`, a)
}
