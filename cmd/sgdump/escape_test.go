package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/internal/corrupt"
)

func TestEscaper(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text, 中文, émoji 🦜", "plain text, 中文, émoji 🦜"},
		{"tab\tand\nnewline", "tab\tand\nnewline"},
		{"\x1b]0;owned\x07title", `\x1b]0;owned\x07title`},
		{"\x1b[2Jclear", `\x1b[2Jclear`},
		{"hidden\rshown", `hidden\rshown`},
		{"nul\x00del\x7f", `nul\x00del\x7f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"rtl \u202eevil\u202c", `rtl \u202eevil\u202c`},
		{"isolate \u2066x\u2069", `isolate \u2066x\u2069`},
		{"bad \xff utf8", `bad \xff utf8`},
	}
	for _, tc := range cases {
		var b bytes.Buffer
		e := newEscaper(&b)
		_, err := e.Write([]byte(tc.in))
		require.NoError(t, err)
		require.NoError(t, e.Flush())
		assert.Equal(t, tc.want, b.String(), "%q", tc.in)

		// Byte by byte: a rune split across writes is escaped the same.
		b.Reset()
		e = newEscaper(&b)
		for i := range len(tc.in) {
			n, err := e.Write([]byte{tc.in[i]})
			require.NoError(t, err)
			require.Equal(t, 1, n)
		}
		require.NoError(t, e.Flush())
		assert.Equal(t, tc.want, b.String(), "%q byte by byte", tc.in)
	}
	// An incomplete sequence at the end is flushed escaped.
	var b bytes.Buffer
	e := newEscaper(&b)
	_, _ = e.Write([]byte("x\xe4\xb8"))
	require.NoError(t, e.Flush())
	assert.Equal(t, `x\xe4\xb8`, b.String())
}

// TestTextOutputEscapesControlCharacters: stored text with terminal control
// sequences reaches sgdump's text output escaped, and -json output decodes
// back to the stored bytes.
func TestTextOutputEscapesControlCharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ctl.sg")
	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true, BlockTurns: 1})
	require.NoError(t, err)
	const evil = "pnpm \x1b]0;owned\x07 bell\a and \x1b[2J clear\rcarriage"
	at := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	_, err = mem.Append(context.Background(), stratagate.Turn{Thread: "ctl", ReceiptID: "r1", Messages: []stratagate.Message{
		{Role: "user", Speaker: "Ann", Content: evil, At: at},
		{Role: "assistant", Speaker: "assistant", Content: "noted", At: at.Add(time.Second)},
	}})
	require.NoError(t, err)
	wctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, mem.WaitIdle(wctx))
	require.NoError(t, mem.Close())

	for _, args := range [][]string{{"search", "pnpm"}, {"block", "1", "-level", "5"}, {"block", "1", "-level", "4"}, {"trace", "message", "1"}} {
		var out, errb bytes.Buffer
		code := run(append([]string{"-db", path}, args...), &out, &errb)
		require.Equal(t, exitOK, code, "%v: %s", args, errb.String())
		for _, raw := range []string{"\x1b", "\a", "\r"} {
			assert.NotContains(t, out.String(), raw, "%v", args)
		}
		assert.Contains(t, out.String(), `\x1b`, "%v", args)
	}
	var out, errb bytes.Buffer
	require.Equal(t, exitOK, run([]string{"-db", path, "-json", "block", "1", "-level", "5"}, &out, &errb), errb.String())
	assert.NotContains(t, out.String(), "\x1b")
	assert.True(t, json.Valid(out.Bytes()))
	assert.Contains(t, out.String(), `\u001b]0;owned\u0007`)
}

// TestVerifyDamagedFiles: sgdump verify on seeded damage of the sample
// store never crashes; it exits 0 only when the damage left the file
// valid, and otherwise reports it (exit 1 with violations, or 2 when the
// file cannot be opened) naming the damage.
func TestVerifyDamagedFiles(t *testing.T) {
	data, err := os.ReadFile(storePath)
	require.NoError(t, err)
	seeds := uint64(16)
	if testing.Short() {
		seeds = 4
	}
	for seed := range seeds {
		checkVerifyDamaged(t, data, seed)
	}
}

// FuzzVerifyDamaged is TestVerifyDamagedFiles under the fuzzer.
func FuzzVerifyDamaged(f *testing.F) {
	data, err := os.ReadFile(storePath)
	require.NoError(f, err)
	for seed := range uint64(4) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkVerifyDamaged(t, data, seed) })
}

func checkVerifyDamaged(t *testing.T, data []byte, seed uint64) {
	damaged, what := corrupt.Damage(data, seed)
	path := filepath.Join(t.TempDir(), "damaged.sg")
	require.NoError(t, os.WriteFile(path, damaged, 0o600))
	var out, errb bytes.Buffer
	code := run([]string{"-db", path, "-timeout", "1s", "verify"}, &out, &errb)
	switch code {
	case exitOK:
		assert.Contains(t, out.String(), "verify: OK", "seed %d (%s)", seed, what)
	case exitFail:
		assert.True(t, strings.Contains(out.String(), "verify: FAILED") || strings.Contains(errb.String(), "corrupt"),
			"seed %d (%s): stdout %s stderr %s", seed, what, out.String(), errb.String())
	case exitUsage:
		// Damaged (a flipped bit in a bucket name can also make the file
		// look like one written by an older build).
		assert.True(t, strings.Contains(errb.String(), "corrupt") || strings.Contains(errb.String(), "version mismatch"),
			"seed %d (%s): %s", seed, what, errb.String())
	default:
		t.Errorf("seed %d (%s): exit %d: %s", seed, what, code, errb.String())
	}
}
