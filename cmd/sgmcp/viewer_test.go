package main

import (
	"bytes"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// TestServeViewer: -ui serves the web viewer of the store the MCP server
// holds, read-only unless -ui-write, and stops before the store closes.
func TestServeViewer(t *testing.T) {
	mem, err := stratagate.Open(filepath.Join(t.TempDir(), "m.sg"), nil)
	require.NoError(t, err)
	defer mem.Close()
	var stderr bytes.Buffer
	stop, err := serveViewer(serveConfig{ui: "127.0.0.1:0"}, mem, &stderr)
	require.NoError(t, err)
	m := regexp.MustCompile(`viewer \(read-only\) at (http://127\.0\.0\.1:[0-9]+/)`).FindStringSubmatch(stderr.String())
	require.NotNil(t, m, stderr.String())
	resp, err := http.Get(m[1])
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), "<h1>Overview</h1>")
	resp, err = http.Post(m[1]+"imports", "application/x-www-form-urlencoded", nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "read-only without -ui-write")
	stop()
	_, err = http.Get(m[1])
	assert.Error(t, err, "stopped")
}
