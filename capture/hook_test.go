package capture_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
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

const bareReply = `{"continue":true,"suppressOutput":true}` + "\n"

// hookEnv is a store path and a copy of a fixture transcript.
type hookEnv struct {
	db, transcript string
	log            bytes.Buffer
}

func newHookEnv(t *testing.T, fixture string) *hookEnv {
	t.Helper()
	dir := t.TempDir()
	e := &hookEnv{db: filepath.Join(dir, "memory.sg"), transcript: filepath.Join(dir, filepath.Base(fixture))}
	require.NoError(t, os.WriteFile(e.transcript, readFile(t, fixture), 0o600))
	return e
}

func (e *hookEnv) input(event string, extra ...string) string {
	m := map[string]any{"session_id": "2ff4a0c1-0000-4000-8000-000000000001", "transcript_path": e.transcript,
		"cwd": fixtureCwd, "hook_event_name": event}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	out, _ := json.Marshal(m)
	return string(out)
}

// run runs Hook with stdin and returns its stdout.
func (e *hookEnv) run(t *testing.T, stdin string, o capture.HookOptions) string {
	t.Helper()
	var out bytes.Buffer
	if o.DB == "" {
		o.DB = e.db
	}
	o.Stdin, o.Stdout, o.Log = strings.NewReader(stdin), &out, &e.log
	if o.Store == nil {
		o.Store = &stratagate.Options{NoSync: true}
	}
	require.NoError(t, capture.Hook(t.Context(), o))
	return out.String()
}

func (e *hookEnv) appendTranscript(t *testing.T, s string) {
	t.Helper()
	f, err := os.OpenFile(e.transcript, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(s)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// turns reports the store's turn count of the fixture's session and the
// transcript's cursor.
func (e *hookEnv) turns(t *testing.T, thread string) (uint64, int64) {
	t.Helper()
	mem, err := stratagate.Open(e.db, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	ths, err := mem.Threads(t.Context())
	require.NoError(t, err)
	var n uint64
	for _, th := range ths {
		if th.Name == thread {
			n = th.Turns
		}
	}
	off, err := mem.Cursor(t.Context(), capture.CursorKey(capture.KindClaudeCode, e.transcript))
	require.NoError(t, err)
	return n, off
}

const ccThread = "2ff4a0c1-0000-4000-8000-000000000001"

func TestHookCapturesOnceAndResumes(t *testing.T) {
	e := newHookEnv(t, ccSession)
	assert.Equal(t, bareReply, e.run(t, e.input("Stop"), capture.HookOptions{}))
	n, off := e.turns(t, ccThread)
	assert.Equal(t, uint64(1), n, "the complete turn; the next prompt is still being written")
	data := readFile(t, e.transcript)
	assert.Equal(t, lineOffset(data, 19), off)
	assert.Contains(t, e.log.String(), "invalid JSON", "the rejected line is logged")

	e.log.Reset()
	assert.Equal(t, bareReply, e.run(t, e.input("Stop"), capture.HookOptions{}))
	n2, off2 := e.turns(t, ccThread)
	assert.Equal(t, n, n2, "a replay adds nothing")
	assert.Equal(t, off, off2)
	assert.Empty(t, e.log.String(), "nothing new to report")

	// The prompt line completes and the reply comes: a SubagentStop leaves
	// the open turn, the Stop takes it.
	u3 := `{"type":"user","uuid":"u3","parentUuid":"a9","sessionId":"2ff4a0c1-0000-4000-8000-000000000001","cwd":"/home/u/proj","message":{"role":"user","content":"and push"}}`
	e.appendTranscript(t, strings.TrimPrefix(u3, string(data[lineOffset(data, 21):]))+"\n"+
		`{"type":"assistant","uuid":"a10","sessionId":"2ff4a0c1-0000-4000-8000-000000000001","message":{"id":"msg_6","content":[{"type":"text","text":"Pushed."}]}}`+"\n")
	e.run(t, e.input("SubagentStop"), capture.HookOptions{})
	n, _ = e.turns(t, ccThread)
	assert.Equal(t, uint64(2), n, "the turn closed by the next prompt")
	e.run(t, e.input("Stop"), capture.HookOptions{})
	n, off = e.turns(t, ccThread)
	assert.Equal(t, uint64(3), n)
	assert.Equal(t, int64(len(readFile(t, e.transcript))), off)

	// An import of the same file afterwards finds every turn stored.
	mem, err := stratagate.Open(e.db, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	sum, err := capture.Import(t.Context(), mem, capture.KindClaudeCode, []string{e.transcript}, nil)
	require.NoError(t, err)
	assert.Equal(t, 0, sum.Added)
	assert.Equal(t, 3, sum.Duplicates)
}

func TestHookLockedStoreCatchesUpLater(t *testing.T) {
	e := newHookEnv(t, ccSession)
	holder, err := stratagate.Open(e.db, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	// The hook gives up on the held store within its bound and still
	// replies; it returns rather than hanging (no duration is asserted).
	assert.Equal(t, bareReply, e.run(t, e.input("Stop"), capture.HookOptions{Timeout: 500 * time.Millisecond}))
	assert.Contains(t, e.log.String(), "memory.sg")
	off, err := holder.Cursor(t.Context(), capture.CursorKey(capture.KindClaudeCode, e.transcript))
	require.NoError(t, err)
	assert.Zero(t, off, "the cursor did not advance")
	require.NoError(t, holder.Close())

	e.run(t, e.input("Stop"), capture.HookOptions{})
	n, off := e.turns(t, ccThread)
	assert.Equal(t, uint64(1), n, "the next run captures the turn")
	assert.Positive(t, off)
}

func TestHookNeverStalls(t *testing.T) {
	e := newHookEnv(t, ccSession)
	r, w := io.Pipe() // stdin that is never written or closed
	defer w.Close()
	var out bytes.Buffer
	err := capture.Hook(t.Context(), capture.HookOptions{DB: e.db, Stdin: r, Stdout: &out, Log: &e.log, Timeout: 100 * time.Millisecond})
	require.NoError(t, err)
	assert.Equal(t, bareReply, out.String())
	assert.Contains(t, e.log.String(), "gave up")
}

func TestHookFailuresStillReply(t *testing.T) {
	e := newHookEnv(t, ccSession)
	for _, tc := range []struct{ name, stdin, log string }{
		{"not JSON", "{", "not JSON"},
		{"no transcript path", `{"hook_event_name":"Stop","session_id":"s"}`, "no transcript_path"},
		{"missing transcript", strings.Replace(e.input("Stop"), "session.jsonl", "gone.jsonl", 1), "no such file"},
		{"an event the hook ignores", e.input("PostToolUse"), ""},
		{"UserPromptSubmit without Recall", e.input("UserPromptSubmit", "prompt", "hi"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.log.Reset()
			assert.Equal(t, bareReply, e.run(t, tc.stdin, capture.HookOptions{}))
			if tc.log == "" {
				assert.Empty(t, e.log.String())
			} else {
				assert.Contains(t, e.log.String(), tc.log)
			}
		})
	}

	// A misuse is the one error, and the reply is written all the same.
	var out bytes.Buffer
	err := capture.Hook(t.Context(), capture.HookOptions{Stdin: strings.NewReader("{}"), Stdout: &out})
	assert.Error(t, err)
	assert.Equal(t, bareReply, out.String())
}

func TestHookLogFileNextToStore(t *testing.T) {
	e := newHookEnv(t, ccSession)
	var out bytes.Buffer
	require.NoError(t, capture.Hook(t.Context(), capture.HookOptions{DB: e.db, Stdin: strings.NewReader("nope"), Stdout: &out}))
	assert.Equal(t, bareReply, out.String())
	log, err := os.ReadFile(e.db + ".hook.log")
	require.NoError(t, err)
	assert.Contains(t, string(log), "not JSON")
}

// serverStore stands for a client of a running server: a Memory behind a
// Store, counting calls, failing with ErrNoServer once gone is set.
type serverStore struct {
	*stratagate.Memory
	appends int
	gone    bool
	closed  bool
}

func (s *serverStore) Append(ctx context.Context, tu stratagate.Turn) (stratagate.TurnRef, error) {
	if s.gone {
		return stratagate.TurnRef{}, capture.ErrNoServer
	}
	s.appends++
	return s.Memory.Append(ctx, tu)
}

func (s *serverStore) Close() error { s.closed = true; return nil }

func TestHookDialsServerFirst(t *testing.T) {
	e := newHookEnv(t, ccSession)
	srvPath := filepath.Join(t.TempDir(), "server.sg")
	mem, err := stratagate.Open(srvPath, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	srv := &serverStore{Memory: mem}
	dial := func(context.Context) (capture.Store, error) { return srv, nil }

	e.run(t, e.input("Stop"), capture.HookOptions{Dial: dial})
	assert.Equal(t, 1, srv.appends)
	assert.True(t, srv.closed)
	_, err = os.Stat(e.db)
	assert.True(t, errors.Is(err, os.ErrNotExist), "the store file is not opened while a server answers")
	off, err := mem.Cursor(t.Context(), capture.CursorKey(capture.KindClaudeCode, e.transcript))
	require.NoError(t, err)
	assert.Positive(t, off, "the server's cursor advanced")

	// No server: the hook opens the file.
	none := func(context.Context) (capture.Store, error) { return nil, capture.ErrNoServer }
	e.run(t, e.input("Stop"), capture.HookOptions{Dial: none})
	n, _ := e.turns(t, ccThread)
	assert.Equal(t, uint64(1), n)

	// A server that goes away mid-run: the hook falls back to the file.
	e2 := newHookEnv(t, ccSession)
	srv.gone = true
	e2.run(t, e2.input("Stop"), capture.HookOptions{Dial: dial})
	n, _ = e2.turns(t, ccThread)
	assert.Equal(t, uint64(1), n)
}

func TestHookRecall(t *testing.T) {
	e := newHookEnv(t, ccSession)
	mem, err := stratagate.Open(e.db, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	here, other := capture.ProjectScope(fixtureCwd), capture.ProjectScope("/home/u/other")
	for i, tc := range []struct{ thread, scope, text string }{
		{"old-session", here, "We pinned the flaky store test to t.TempDir; the deploy key is sk-ant-api03-AbCdEf0123456789XyZ."},
		{"other-project", other, "The flaky store test in the other project uses a mock clock."},
		{ccThread, here, "flaky store test mentioned in this very session"},
	} {
		_, err := mem.Append(t.Context(), stratagate.Turn{Thread: tc.thread, Scope: tc.scope, ReceiptID: string(rune('a' + i)),
			Messages: []stratagate.Message{{Role: "user", Content: tc.text}}})
		require.NoError(t, err)
	}
	require.NoError(t, mem.Close())

	out := e.run(t, e.input("UserPromptSubmit", "prompt", "why was the flaky store test failing?"), capture.HookOptions{Recall: true})
	var reply capture.HookReply
	require.NoError(t, json.Unmarshal([]byte(out), &reply))
	assert.True(t, reply.Continue)
	require.NotNil(t, reply.HookSpecificOutput, "log: %s", e.log.String())
	assert.Equal(t, "UserPromptSubmit", reply.HookSpecificOutput.HookEventName)
	ctxText := reply.HookSpecificOutput.AdditionalContext
	assert.Contains(t, ctxText, "t.TempDir")
	assert.NotContains(t, ctxText, "AbCdEf0123456789", "recalled text is redacted")
	assert.Contains(t, ctxText, "[redacted:")
	assert.NotContains(t, ctxText, "mock clock", "another project's memories never appear")
	assert.NotContains(t, ctxText, "this very session", "the session's own messages are left out")
	assert.LessOrEqual(t, len(ctxText), capture.DefaultRecallTokens*4)

	out = e.run(t, e.input("UserPromptSubmit", "prompt", "zebra quantum"), capture.HookOptions{Recall: true})
	assert.Equal(t, bareReply, out, "nothing recalled: the bare reply")
}
