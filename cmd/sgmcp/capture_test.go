package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/capture"
)

// fixtures is the capture package's transcript fixtures.
const fixtures = "../../capture/testdata"

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func TestImportCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.sg")
	out, _, err := runCmd(t, "import", "claude-code", "-db", db, filepath.Join(fixtures, "claude-code"))
	require.NoError(t, err)
	assert.Regexp(t, `2 files, 3 turns: 3 added, 0 duplicates, 1 rejected`, out)
	out, _, err = runCmd(t, "import", "claude-code", "-db", db, filepath.Join(fixtures, "claude-code"))
	require.NoError(t, err)
	assert.Regexp(t, `3 turns: 0 added, 3 duplicates`, out, "a second import adds nothing")
	out, _, err = runCmd(t, "import", "codex", "-db", db, filepath.Join(fixtures, "codex"))
	require.NoError(t, err)
	assert.Regexp(t, `2 turns: 2 added`, out)

	mem, err := stratagate.Open(db, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	st, err := mem.Stats(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 5, st.Receipts)

	_, _, err = runCmd(t, "import", "gemini", "-db", db, ".")
	assert.ErrorIs(t, err, errUsage)
	_, _, err = runCmd(t, "import", "codex", "-db", db)
	assert.ErrorIs(t, err, errUsage, "no path")
}

func TestHookCommand(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "session.jsonl")
	data, err := os.ReadFile(filepath.Join(fixtures, "claude-code", "session.jsonl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(transcript, data, 0o600))
	db := filepath.Join(dir, "m.sg")
	input := `{"session_id":"S1","transcript_path":"` + transcript + `","cwd":"` + dir + `","hook_event_name":"Stop","stop_hook_active":false}`
	for range 2 {
		hookStdin = strings.NewReader(input)
		out, _, err := runCmd(t, "hook", "claude-code", "-db", db)
		require.NoError(t, err)
		assert.JSONEq(t, `{"continue":true,"suppressOutput":true}`, strings.TrimSpace(out))
	}
	hookStdin = os.Stdin
	mem, err := stratagate.Open(db, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	st, err := mem.Stats(context.Background())
	require.NoError(t, err)
	assert.Positive(t, st.Receipts)

	// The same session imported afterwards adds nothing: same receipts.
	require.NoError(t, mem.Close())
	out, _, err := runCmd(t, "import", "claude-code", "-db", db, transcript)
	require.NoError(t, err)
	assert.Contains(t, out, "0 added")
	assert.Contains(t, out, "duplicates")

	// A hook without a store still answers and exits 0.
	hookStdin = strings.NewReader("not json")
	out, _, err = runCmd(t, "hook", "claude-code", "-db", filepath.Join(dir, "missing", "m.sg"))
	hookStdin = os.Stdin
	require.NoError(t, err)
	assert.JSONEq(t, `{"continue":true,"suppressOutput":true}`, strings.TrimSpace(out))
}

// TestHookAndImportThroughOwner: while a server holds the store, the hook
// and the import hand their turns to it over its socket: the session's
// turns land in their own project's scope (not the server's), the cursor
// is the owner's, and a replay adds nothing.
func TestHookAndImportThroughOwner(t *testing.T) {
	dir := shortDir(t)
	db := filepath.Join(dir, "m.sg")
	transcript := filepath.Join(dir, "session.jsonl")
	data, err := os.ReadFile(filepath.Join(fixtures, "claude-code", "session.jsonl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(transcript, data, 0o600))
	project := filepath.Join(dir, "proj")
	require.NoError(t, os.Mkdir(project, 0o755))

	o := startOwner(t, db)
	input := `{"session_id":"S1","transcript_path":"` + transcript + `","cwd":"` + project + `","hook_event_name":"Stop","stop_hook_active":false}`
	for range 2 {
		hookStdin = strings.NewReader(input)
		out, _, err := runCmd(t, "hook", "claude-code", "-db", db)
		hookStdin = os.Stdin
		require.NoError(t, err)
		assert.JSONEq(t, `{"continue":true,"suppressOutput":true}`, strings.TrimSpace(out))
	}
	out, _, err := runCmd(t, "import", "claude-code", "-db", db, transcript)
	require.NoError(t, err)
	assert.Regexp(t, `turns: 0 added, \d+ duplicates`, out, "the hook already captured the session")
	o.stop(t)

	log, _ := os.ReadFile(db + ".hook.log")
	mem, err := stratagate.Open(db, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	ths, err := mem.Threads(t.Context())
	require.NoError(t, err)
	require.NotEmpty(t, ths, "hook log: %s", log)
	for _, th := range ths {
		assert.NotEqual(t, scopeA, th.Scope, "a session of another project is not filed under the server's scope")
		assert.Regexp(t, `^project:[0-9a-f]{20}$`, th.Scope)
	}
	cur, err := mem.Cursor(t.Context(), capture.CursorKey(capture.KindClaudeCode, transcript))
	require.NoError(t, err)
	assert.Positive(t, cur, "the owner moved the transcript's cursor")
}

// TestStatusShowsCaptureLog: what the hooks logged next to the store is
// visible in memory_status.
func TestStatusShowsCaptureLog(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.sg")
	var lines []string
	for i := range 14 {
		lines = append(lines, fmt.Sprintf("2026-12-03T15:00:%02dZ hook: line %d", i, i))
	}
	require.NoError(t, os.WriteFile(db+".hook.log", []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	assert.Equal(t, lines[4:], logTail(db+".hook.log", 10))
	assert.Nil(t, logTail(filepath.Join(dir, "none.log"), 10))
}

// TestImportThroughOwnerBatches: an import while a server holds the store
// goes through the owner, many turns to a memory_capture, and stores and
// counts exactly what it would alone.
func TestImportThroughOwnerBatches(t *testing.T) {
	dir := shortDir(t)
	db := filepath.Join(dir, "m.sg")
	transcript := filepath.Join(dir, "long.jsonl")
	const turns = 600
	var sb strings.Builder
	sess := "3ee4a0c1-0000-4000-8000-000000000002"
	for i := range turns {
		ts := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute).Format("2006-01-02T15:04:05.000Z")
		fmt.Fprintf(&sb, `{"type":"user","uuid":"u%d","isSidechain":false,"sessionId":%q,"cwd":"/home/u/long","timestamp":%q,"message":{"role":"user","content":"step %d: rerun the build"}}`+"\n", i, sess, ts, i)
		fmt.Fprintf(&sb, `{"type":"assistant","uuid":"a%d","parentUuid":"u%d","isSidechain":false,"sessionId":%q,"cwd":"/home/u/long","timestamp":%q,"message":{"id":"msg_%d","role":"assistant","content":[{"type":"text","text":"step %d passed"}]}}`+"\n", i, i, sess, ts, i, i)
	}
	require.NoError(t, os.WriteFile(transcript, []byte(sb.String()), 0o600))

	o := startOwner(t, db)
	out, _, err := runCmd(t, "import", "claude-code", "-db", db, transcript)
	require.NoError(t, err)
	assert.Contains(t, out, fmt.Sprintf("turns: %d added, 0 duplicates", turns))
	out, _, err = runCmd(t, "import", "claude-code", "-db", db, transcript)
	require.NoError(t, err)
	assert.Contains(t, out, fmt.Sprintf("turns: 0 added, %d duplicates", turns))
	o.stop(t)

	mem, err := stratagate.Open(db, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	ths, err := mem.Threads(t.Context())
	require.NoError(t, err)
	require.Len(t, ths, 1)
	assert.Equal(t, uint64(turns), ths[0].Turns)
	assert.Equal(t, capture.ProjectScope("/home/u/long"), ths[0].Scope)
}
