package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestServeRefusals: a listen address beyond loopback without a token, a
// short token and stray arguments are usage errors; nothing is served.
func TestServeRefusals(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "-addr", "0.0.0.0:7070"},
		{"serve", "-addr", "nonsense"},
		{"serve", "extra"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"-db", "/nonexistent/m.sg"}, args...), &stdout, &stderr)
		assert.Equal(t, exitUsage, code, "%v: %s", args, stderr.String())
		assert.Empty(t, stdout.String())
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"-db", "/nonexistent/m.sg", "serve", "-addr", "127.0.0.1:0"}, &stdout, &stderr)
	assert.Equal(t, exitUsage, code, "a file that cannot be opened")
	assert.Contains(t, stderr.String(), "cannot open")
}
