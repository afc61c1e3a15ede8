package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// mainEnv makes the test binary run sgmcp's main on the arguments after
// "--": the test's "built binary", with the race detector still on.
const mainEnv = "SGMCP_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		os.Args = append([]string{"sgmcp"}, args...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// shortDir returns a directory whose paths stay short enough for a
// socket beside the store (t.TempDir can exceed the limit).
func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sg")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// syncBuffer is a bytes.Buffer safe for a writer goroutine and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// owner is an in-process `sgmcp serve` holding a store.
type owner struct {
	db     string
	sock   string
	stdin  *io.PipeWriter // closing it is the owner's agent leaving
	stderr *syncBuffer
	cancel context.CancelFunc
	done   chan error
}

// startOwner runs serve in a goroutine and returns once it listens.
func startOwner(t *testing.T, db string, scopes ...string) *owner {
	t.Helper()
	if len(scopes) == 0 {
		scopes = []string{scopeA, "global"}
	}
	ready := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	o := &owner{db: db, stdin: pw, stderr: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	cfg := serveConfig{db: db, scopes: scopes, explicitScopes: true, ready: ready}
	go func() { o.done <- serve(ctx, cfg, pr, io.Discard, o.stderr) }()
	select {
	case o.sock = <-ready:
	case err := <-o.done:
		cancel()
		t.Fatalf("owner exited: %v\n%s", err, o.stderr.String())
	}
	t.Cleanup(func() { o.stop(t) })
	return o
}

// stop cancels the owner and waits for it (idempotent).
func (o *owner) stop(t *testing.T) {
	t.Helper()
	o.cancel()
	_ = o.stdin.Close()
	if o.done != nil {
		require.NoError(t, <-o.done, o.stderr.String())
		o.done = nil
	}
}

// threadTurns opens db (no owner running) and returns thread's turn count.
func threadTurns(t *testing.T, db, thread string) (string, int) {
	t.Helper()
	mem, err := stratagate.Open(db, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	ths, err := mem.Threads(t.Context())
	require.NoError(t, err)
	for _, th := range ths {
		if th.Name == thread {
			return th.Scope, int(th.Turns)
		}
	}
	return "", 0
}

// TestAttachOverStdio: a second `sgmcp serve` process on a store an
// in-process owner holds attaches over the socket; an MCP client on its
// stdio lists the tools and captures a turn the owner stores.
func TestAttachOverStdio(t *testing.T) {
	db := filepath.Join(shortDir(t), "m.sg")
	o := startOwner(t, db)

	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "serve", "-db", db, "-scope", "project:other")
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "agent-2", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)

	tools, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	assert.Len(t, tools.Tools, 19)
	text, isErr := callOn(t, cs, "memory_capture", map[string]any{"thread": "attached", "user": "hello from agent 2", "assistant": "hi"})
	require.False(t, isErr, text)
	var c CaptureOut
	require.NoError(t, json.Unmarshal([]byte(text), &c))
	assert.Equal(t, scopeA, c.Scope, "the owner's scopes apply")
	// Closing the client closes the child's stdin: it must exit cleanly.
	require.NoError(t, cs.Close(), stderr.String())
	assert.Contains(t, stderr.String(), "attached to the server holding "+db)
	assert.Contains(t, stderr.String(), "-scope project:other ignored")

	// The owner's agent leaves (stdin EOF): the socket file goes.
	require.NoError(t, o.stdin.Close())
	require.NoError(t, <-o.done, o.stderr.String())
	o.done = nil
	assert.NoFileExists(t, o.sock)
	scope, turns := threadTurns(t, db, "attached")
	assert.Equal(t, scopeA, scope)
	assert.Equal(t, 1, turns)
}

// TestDeliverTurns: dialOwner and deliverTurns append turns in the owner
// (a redelivery stores nothing twice) and set the cursor with the last.
func TestDeliverTurns(t *testing.T) {
	db := filepath.Join(shortDir(t), "m.sg")
	startOwner(t, db)
	ctx := t.Context()
	cs, err := dialOwner(ctx, db)
	require.NoError(t, err)
	defer cs.Close()

	at := time.Date(2024, 6, 1, 10, 0, 0, 123456789, time.FixedZone("", 2*3600))
	var turns []stratagate.Turn
	for i := range 3 {
		turns = append(turns, stratagate.Turn{Thread: "hooked", ReceiptID: "claude:s1:" + itoa(i), Messages: []stratagate.Message{
			{Role: "user", Content: "question " + itoa(i), At: at},
			{Role: "assistant", Content: "answer " + itoa(i), At: at.Add(time.Second)},
		}})
	}
	require.NoError(t, deliverTurns(ctx, cs, turns, "", 0))
	require.NoError(t, deliverTurns(ctx, cs, turns, "", 0), "a redelivery is fine")
	require.NoError(t, deliverTurns(ctx, cs, nil, "", 0), "nothing to deliver")

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_search_raw", Arguments: map[string]any{"query": "question", "limit": 10}})
	require.NoError(t, err)
	require.False(t, res.IsError, resultText(res))
	var found SearchOut
	require.NoError(t, json.Unmarshal([]byte(resultText(res)), &found))
	assert.Equal(t, 3, found.Total, "three turns, once each")

	if _, ok := any(&stratagate.Memory{}).(cursorStore); !ok {
		err := deliverTurns(ctx, cs, turns, "claude:s1", 1234)
		require.ErrorIs(t, err, errOwnerRefused)
		assert.Contains(t, err.Error(), "cursors unsupported by this store version")
		t.Skip("the store has no cursor API yet (SetCursor): cursor assertions skipped")
	}
	require.NoError(t, deliverTurns(ctx, cs, turns, "claude:s1", 1234))
	require.NoError(t, deliverTurns(ctx, cs, nil, "claude:s2", 99), "a cursor alone")
	for key, want := range map[string]int64{"claude:s1": 1234, "claude:s2": 99} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_status", Arguments: map[string]any{"cursor_get": key}})
		require.NoError(t, err)
		require.False(t, res.IsError, resultText(res))
		var st StatusOut
		require.NoError(t, json.Unmarshal([]byte(resultText(res)), &st))
		require.NotNil(t, st.Cursor, key)
		assert.Equal(t, want, *st.Cursor, key)
	}
}

// TestNoOwner: without a server dialOwner says errNoOwner at once; a
// stale socket file stays until a server starts, which removes it,
// listens with mode 0600 and removes it again on shutdown.
func TestNoOwner(t *testing.T) {
	dir := shortDir(t)
	db := filepath.Join(dir, "m.sg")
	_, err := dialOwner(t.Context(), db)
	require.ErrorIs(t, err, errNoOwner)

	sock, err := socketPath(db)
	require.NoError(t, err)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	require.NoError(t, err)
	ln.SetUnlinkOnClose(false)
	require.NoError(t, ln.Close()) // a killed owner's leftover
	require.FileExists(t, sock)
	_, err = dialOwner(t.Context(), db)
	require.ErrorIs(t, err, errNoOwner, "a socket nobody listens on")
	require.FileExists(t, sock, "clients never remove the socket")

	o := startOwner(t, db)
	assert.Equal(t, sock, o.sock)
	fi, err := os.Stat(sock)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "socket mode")
	assert.NotZero(t, fi.Mode()&os.ModeSocket)
	cs, err := dialOwner(t.Context(), db)
	require.NoError(t, err)
	require.NoError(t, cs.Close())

	o.stop(t)
	assert.NoFileExists(t, sock, "removed on shutdown")
	_, err = dialOwner(t.Context(), db)
	require.ErrorIs(t, err, errNoOwner)
}

// TestOwnerOutlivesItsAgent: when the owner's own stdin ends, it keeps
// serving attached sessions and exits when the last one leaves.
func TestOwnerOutlivesItsAgent(t *testing.T) {
	db := filepath.Join(shortDir(t), "m.sg")
	o := startOwner(t, db)
	cs, err := dialOwner(t.Context(), db)
	require.NoError(t, err)
	require.NoError(t, o.stdin.Close())
	text, isErr := callOn(t, cs, "memory_capture", map[string]any{"thread": "late", "user": "still here?", "assistant": "yes"})
	require.False(t, isErr, text)
	require.NoError(t, cs.Close())
	require.NoError(t, <-o.done, o.stderr.String())
	o.done = nil
	assert.NoFileExists(t, o.sock)
	_, turns := threadTurns(t, db, "late")
	assert.Equal(t, 1, turns)
}

// TestServeRefusals: -http with an owner names the socket; a store held
// by a process that does not answer fails after the lock timeout; a file
// in the socket's place is left alone and the server serves without it.
func TestServeRefusals(t *testing.T) {
	t.Run("-http with an owner", func(t *testing.T) {
		db := filepath.Join(shortDir(t), "m.sg")
		o := startOwner(t, db)
		err := serve(t.Context(), serveConfig{db: db, scopes: []string{"global"}, http: "127.0.0.1:0"}, strings.NewReader(""), io.Discard, io.Discard)
		require.ErrorIs(t, err, errOwnerRunning)
		assert.Contains(t, err.Error(), o.sock)
	})
	t.Run("locked by a non-sgmcp holder", func(t *testing.T) {
		db := filepath.Join(shortDir(t), "m.sg")
		mem, err := stratagate.Open(db, &stratagate.Options{NoSync: true})
		require.NoError(t, err)
		defer mem.Close()
		err = serve(t.Context(), serveConfig{db: db, scopes: []string{"global"}, lockTimeout: 50 * time.Millisecond}, strings.NewReader(""), io.Discard, io.Discard)
		require.ErrorIs(t, err, stratagate.ErrLocked)
		assert.Contains(t, err.Error(), "does not answer on the socket")
	})
	t.Run("a regular file at the socket path", func(t *testing.T) {
		db := filepath.Join(shortDir(t), "m.sg")
		sock, err := socketPath(db)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(sock, []byte("mine"), 0o600))
		var stderr syncBuffer
		err = serve(t.Context(), serveConfig{db: db, scopes: []string{"global"}}, strings.NewReader(""), io.Discard, &stderr)
		require.NoError(t, err)
		assert.Contains(t, stderr.String(), "not a socket")
		b, err := os.ReadFile(sock)
		require.NoError(t, err)
		assert.Equal(t, "mine", string(b))
	})
}

func TestSocketPath(t *testing.T) {
	short := shortDir(t)
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 120))
	require.NoError(t, os.MkdirAll(long, 0o755))
	tests := []struct {
		name, db, want string
		fallback       bool
	}{
		{"beside a short path", filepath.Join(short, "m.sg"), filepath.Join(short, "m.sg.sock"), false},
		{"relative names resolve", filepath.Join(short, ".", "x", "..", "m.sg"), filepath.Join(short, "m.sg.sock"), false},
		{"a long path falls back", filepath.Join(long, "m.sg"), "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := socketPath(tc.db)
			require.NoError(t, err)
			assert.LessOrEqual(t, len(got), maxSocketPath)
			if tc.fallback {
				assert.Equal(t, fallbackDir(), filepath.Dir(got))
				other, err := socketPath(filepath.Join(long, "n.sg"))
				require.NoError(t, err)
				assert.NotEqual(t, got, other, "one socket per store")
				return
			}
			want, err := canonicalPath(tc.want)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
	t.Run("a long path's owner listens in the fallback", func(t *testing.T) {
		// Remove fails on a directory still in use: only an empty one goes.
		t.Cleanup(func() { _ = os.Remove(fallbackDir()) })
		db := filepath.Join(long, "m.sg")
		o := startOwner(t, db)
		fi, err := os.Stat(filepath.Dir(o.sock))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
		cs, err := dialOwner(t.Context(), db)
		require.NoError(t, err)
		require.NoError(t, cs.Close())
	})
}

// TestCursorArguments: memory_capture's cursor arguments are checked
// before anything is written.
func TestCursorArguments(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"key without offset", map[string]any{"user": "a", "assistant": "b", "cursor_key": "k"}, "without cursor_offset"},
		{"negative offset", map[string]any{"user": "a", "assistant": "b", "cursor_key": "k", "cursor_offset": -1}, "negative"},
		{"blank key", map[string]any{"user": "a", "assistant": "b", "cursor_key": " ", "cursor_offset": 1}, "cursor_key is empty"},
		{"nothing at all", map[string]any{}, "no messages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Contains(t, f.fails(t, "memory_capture", tc.args), tc.want)
		})
	}
	if _, ok := any(f.mem).(cursorStore); ok {
		return
	}
	assert.Contains(t, f.fails(t, "memory_status", map[string]any{"cursor_get": "k"}), "cursors unsupported by this store version")
	var st StatusOut
	f.ok(t, "memory_status", nil, &st)
	assert.Nil(t, st.Cursor)
}

// fakeCursors stands in for the store's cursor API until it is merged.
type fakeCursors struct {
	mu   sync.Mutex
	offs map[string]int64
	sets int
}

func (f *fakeCursors) Cursor(_ context.Context, key string) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.offs[key], nil
}

func (f *fakeCursors) SetCursor(_ context.Context, key string, off int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.offs[key] = off
	f.sets++
	return nil
}

// TestDeliverTurnsCursor runs deliverTurns against an owner whose store
// has a cursor API (a stand-in): the cursor is set once, with the last
// turn, after it is stored; memory_status reads it back.
func TestDeliverTurnsCursor(t *testing.T) {
	db := filepath.Join(shortDir(t), "m.sg")
	mem, err := stratagate.Open(db, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	srv := NewServer(mem, Config{Scopes: []string{scopeA}})
	fc := &fakeCursors{offs: map[string]int64{}}
	srv.curs = fc
	sock, err := socketPath(db)
	require.NoError(t, err)
	ln, err := listenSocket(sock)
	require.NoError(t, err)
	so := newSocketServer(srv, ln)
	defer so.Close()

	ctx := t.Context()
	cs, err := dialOwner(ctx, db)
	require.NoError(t, err)
	defer cs.Close()
	turns := []stratagate.Turn{
		{Thread: "h", Messages: []stratagate.Message{{Role: "user", Content: "one"}, {Role: "assistant", Content: "1"}}},
		{Thread: "h", Messages: []stratagate.Message{{Role: "user", Content: "two"}, {Role: "assistant", Content: "2"}}},
	}
	require.NoError(t, deliverTurns(ctx, cs, turns, "claude:s1", 4096))
	assert.Equal(t, 1, fc.sets, "one SetCursor, with the last turn")
	require.NoError(t, deliverTurns(ctx, cs, nil, "claude:s2", 7))
	ths, err := mem.Threads(ctx)
	require.NoError(t, err)
	require.Len(t, ths, 1)
	assert.Equal(t, uint64(2), ths[0].Turns)
	for key, want := range map[string]int64{"claude:s1": 4096, "claude:s2": 7, "unknown": 0} {
		text, isErr := callOn(t, cs, "memory_status", map[string]any{"cursor_get": key})
		require.False(t, isErr, text)
		var st StatusOut
		require.NoError(t, json.Unmarshal([]byte(text), &st))
		require.NotNil(t, st.Cursor, key)
		assert.Equal(t, want, *st.Cursor, key)
	}
}

// failWriter fails every write, like an agent that stopped reading.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// TestBridge: the byte bridge ends cleanly when the agent's EOF has been
// answered, with errOwnerGone when the owner hangs up first, and with a
// write error when the agent stops reading.
func TestBridge(t *testing.T) {
	sock := filepath.Join(shortDir(t), "b.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	require.NoError(t, err)
	defer ln.Close()
	// pair returns a connected client end; the owner end runs serve.
	pair := func(serve func(net.Conn)) *net.UnixConn {
		go func() {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			serve(c)
		}()
		c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: sock, Net: "unix"})
		require.NoError(t, err)
		return c
	}
	echoUpper := func(c net.Conn) {
		b, _ := io.ReadAll(c) // until the agent's EOF
		_, _ = c.Write([]byte(strings.ToUpper(string(b))))
	}
	tests := []struct {
		name    string
		serve   func(net.Conn)
		stdin   func(t *testing.T) io.Reader
		stdout  io.Writer
		wantOut string
		wantErr error
		wantMsg string
	}{
		{name: "agent EOF answered", serve: echoUpper,
			stdin: func(*testing.T) io.Reader { return strings.NewReader("ping\n") }, stdout: &syncBuffer{}, wantOut: "PING\n"},
		{name: "owner hangs up first", serve: func(net.Conn) {},
			stdin: func(t *testing.T) io.Reader {
				pr, pw := io.Pipe()
				t.Cleanup(func() { _ = pw.Close() })
				return pr
			}, stdout: &syncBuffer{}, wantErr: errOwnerGone},
		{name: "agent stops reading", serve: echoUpper,
			stdin: func(*testing.T) io.Reader { return strings.NewReader("ping\n") }, stdout: failWriter{}, wantMsg: "writing to the agent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := bridge(t.Context(), pair(tc.serve), tc.stdin(t), tc.stdout)
			switch {
			case tc.wantErr != nil:
				require.ErrorIs(t, err, tc.wantErr)
			case tc.wantMsg != "":
				require.ErrorContains(t, err, tc.wantMsg)
			default:
				require.NoError(t, err)
				assert.Equal(t, tc.wantOut, tc.stdout.(*syncBuffer).String())
			}
		})
	}
}

// TestHTTPOwnerListens: an -http server owns the store too; clients
// attach over its socket, and it goes on shutdown.
func TestHTTPOwnerListens(t *testing.T) {
	db := filepath.Join(shortDir(t), "m.sg")
	ready := make(chan string, 1)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	var stderr syncBuffer
	go func() {
		done <- serve(ctx, serveConfig{db: db, scopes: []string{scopeA}, http: "127.0.0.1:0", ready: ready}, strings.NewReader(""), io.Discard, &stderr)
	}()
	var sock string
	select {
	case sock = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("owner exited: %v\n%s", err, stderr.String())
	}
	cs, err := dialOwner(t.Context(), db)
	require.NoError(t, err)
	text, isErr := callOn(t, cs, "memory_status", nil)
	require.False(t, isErr, text)
	require.NoError(t, cs.Close())
	cancel()
	require.NoError(t, <-done, stderr.String())
	assert.NoFileExists(t, sock)
}
