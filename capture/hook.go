package capture

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/stratagate/stratagate"
)

// HookOptions configure Hook. Every zero field means the documented
// default.
type HookOptions struct {
	// DB is the store file. Required unless Dial is set.
	DB string
	// Kind is the agent whose hook this is. Default KindClaudeCode.
	Kind Kind
	// Timeout bounds the whole run: the reply is written by then whatever
	// is still waiting (a held store, a stdin never closed). Default 5s.
	Timeout time.Duration
	// Recall makes a UserPromptSubmit hook reply with memories of the
	// session's project as hookSpecificOutput.additionalContext. Default
	// false: the hook answers UserPromptSubmit with the bare reply.
	Recall bool
	// RecallTokens bounds the recalled context (estimated at 4 bytes a
	// token). Default DefaultRecallTokens.
	RecallTokens int
	// Stdin carries the hook's JSON input. Default os.Stdin.
	Stdin io.Reader
	// Stdout receives the JSON reply. Default os.Stdout.
	Stdout io.Writer
	// Log receives one line per failure (and per rejected line). Default:
	// appended to DB + ".hook.log" (next to the store). Lines from work
	// abandoned at the timeout are dropped.
	Log io.Writer
	// Dial, when set, is tried first to reach a running server that holds
	// the store; it returns ErrNoServer when none runs, and the hook then
	// opens DB itself (also when the Store it returned fails with
	// ErrNoServer). A returned Store that is an io.Closer is closed.
	Dial func(ctx context.Context) (Store, error)
	// Store configures the Open of DB (the model that derives blocks
	// sealed by this run, …). Its LockTimeout defaults to 2/5 of Timeout,
	// so that a store held by another process is given up in time.
	Store *stratagate.Options
	// MaxRead bounds the transcript bytes read in one run; the rest is
	// read by the next. Default 64 MiB.
	MaxRead int64
}

// Hook defaults.
const (
	DefaultHookTimeout  = 5 * time.Second
	DefaultRecallTokens = 400
	defaultMaxRead      = 64 << 20
	maxHookInput        = 4 << 20
	headBytes           = 1 << 20 // read for the session's working directory
)

// HookInput is the JSON a hook receives on stdin (the fields capture
// reads; Claude Code and Codex share them).
type HookInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	Prompt         string `json:"prompt"`
	StopHookActive bool   `json:"stop_hook_active"`
}

// HookReply is the JSON a hook writes on stdout.
type HookReply struct {
	Continue           bool                `json:"continue"`
	SuppressOutput     bool                `json:"suppressOutput"`
	HookSpecificOutput *HookSpecificOutput `json:"hookSpecificOutput,omitempty"`
}

// HookSpecificOutput carries the recalled context of a UserPromptSubmit
// hook.
type HookSpecificOutput struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

// Hook runs one agent hook: it reads the hook's JSON from Stdin, acts on
// its event and writes {"continue": true, "suppressOutput": true} (with
// the recalled context, for UserPromptSubmit with Recall) to Stdout within
// Timeout, whatever happens: a hook must never block or stall the agent.
//
// Stop and SessionEnd capture the transcript up to its end (the reply is
// complete); SubagentStop and PreCompact capture only the turns a later
// prompt has closed (the main reply may still be running). Capture reads
// the transcript from the cursor kept in the store under CursorKey, parses
// it (with the session's working directory from the file's head) and
// hands the batch to Apply, which advances the cursor once every turn is
// stored. Other events do nothing.
//
// Failures (bad input, a missing transcript, the store held by another
// process) are logged (see HookOptions.Log) and Hook returns nil; a turn
// not captured is captured by a later run, as the cursor did not move.
// Only a misuse — no DB and no Dial — returns an error, after the reply.
func Hook(ctx context.Context, o HookOptions) error {
	o = o.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	lg := newHookLog(o)
	defer lg.close()
	reply := HookReply{Continue: true, SuppressOutput: true}
	var misuse error
	if o.DB == "" && o.Dial == nil {
		misuse = errors.New("capture: HookOptions needs DB or Dial")
	} else {
		done := make(chan *HookSpecificOutput, 1)
		go func() { done <- runHook(ctx, &o, lg) }()
		select {
		case out := <-done:
			reply.HookSpecificOutput = out
		case <-ctx.Done():
			lg.printf("hook gave up after %v (%v); the next run catches up", o.Timeout, context.Cause(ctx))
		}
	}
	out, err := json.Marshal(reply)
	if err != nil {
		return err
	}
	if _, err := o.Stdout.Write(append(out, '\n')); err != nil {
		lg.printf("writing the reply: %v", err)
	}
	return misuse
}

func (o HookOptions) withDefaults() HookOptions {
	if o.Kind == "" {
		o.Kind = KindClaudeCode
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultHookTimeout
	}
	if o.RecallTokens <= 0 {
		o.RecallTokens = DefaultRecallTokens
	}
	if o.Stdin == nil {
		o.Stdin = os.Stdin
	}
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	if o.MaxRead <= 0 {
		o.MaxRead = defaultMaxRead
	}
	var so stratagate.Options
	if o.Store != nil {
		so = *o.Store
	}
	if so.LockTimeout == 0 {
		so.LockTimeout = o.Timeout * 2 / 5
	}
	o.Store = &so
	return o
}

// CursorKey is the store cursor under which the hook keeps how far it has
// read the transcript at path: kind, ':' and the absolute, cleaned path (a
// hash of it beyond the store's key limit).
func CursorKey(kind Kind, path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	key := string(kind) + ":" + filepath.Clean(path)
	if len(key) > stratagate.MaxCursorKeyBytes {
		h := sha256.Sum256([]byte(path))
		key = string(kind) + ":sha256:" + hex.EncodeToString(h[:])
	}
	return key
}

func runHook(ctx context.Context, o *HookOptions, lg *hookLog) *HookSpecificOutput {
	data, err := readInput(o.Stdin)
	if err != nil {
		lg.printf("reading the hook input: %v", err)
		return nil
	}
	var in HookInput
	if err := json.Unmarshal(data, &in); err != nil {
		lg.printf("hook input is not JSON: %v", err)
		return nil
	}
	switch in.HookEventName {
	case "Stop", "SessionEnd":
		captureHook(ctx, o, lg, &in, true)
	case "SubagentStop", "PreCompact":
		captureHook(ctx, o, lg, &in, false)
	case "UserPromptSubmit":
		if o.Recall {
			return recallHook(ctx, o, lg, &in)
		}
	}
	return nil
}

func readInput(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxHookInput+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxHookInput {
		return nil, fmt.Errorf("input beyond %d bytes", maxHookInput)
	}
	return data, nil
}

// connect returns the store to use: the server's when Dial reaches one,
// else DB opened here (read-only for a recall). done releases it.
func connect(ctx context.Context, o *HookOptions, readOnly bool) (st Store, server bool, done func(), err error) {
	if o.Dial != nil {
		st, err := o.Dial(ctx)
		if err == nil {
			return st, true, func() {
				if c, ok := st.(io.Closer); ok {
					_ = c.Close()
				}
			}, nil
		}
		if !errors.Is(err, ErrNoServer) || o.DB == "" {
			return nil, false, nil, fmt.Errorf("reaching the server: %w", err)
		}
	}
	return openDB(o, readOnly)
}

func openDB(o *HookOptions, readOnly bool) (Store, bool, func(), error) {
	so := *o.Store
	so.ReadOnly = so.ReadOnly || readOnly
	mem, err := stratagate.Open(o.DB, &so)
	if err != nil {
		return nil, false, nil, fmt.Errorf("opening %s: %w", o.DB, err)
	}
	return mem, false, func() { _ = mem.Close() }, nil
}

// captureHook reads the transcript from its cursor and stores its complete
// turns.
func captureHook(ctx context.Context, o *HookOptions, lg *hookLog, in *HookInput, final bool) {
	if in.TranscriptPath == "" {
		lg.printf("%s %s: no transcript_path", in.HookEventName, in.SessionID)
		return
	}
	st, server, done, err := connect(ctx, o, false)
	if err != nil {
		lg.printf("%s %s: %v", in.HookEventName, in.SessionID, err)
		return
	}
	err = captureInto(ctx, o, lg, st, in, final)
	done()
	if server && errors.Is(err, ErrNoServer) && o.DB != "" {
		// The server went away mid-run: what it stored is receipted, so
		// starting over from the file's cursor duplicates nothing.
		if st, _, done, err = openDB(o, false); err == nil {
			err = captureInto(ctx, o, lg, st, in, final)
			done()
		}
	}
	if err != nil {
		lg.printf("%s %s: %v", in.HookEventName, in.SessionID, err)
	}
}

func captureInto(ctx context.Context, o *HookOptions, lg *hookLog, st Store, in *HookInput, final bool) error {
	key := CursorKey(o.Kind, in.TranscriptPath)
	off, err := st.Cursor(ctx, key)
	if err != nil {
		return fmt.Errorf("reading cursor %q: %w", key, err)
	}
	data, base, eof, err := readFrom(in.TranscriptPath, off, o.MaxRead)
	if err != nil {
		return err
	}
	h, err := sessionHead(o.Kind, in.TranscriptPath, data, base)
	if err != nil {
		return err
	}
	if h.cwd == "" {
		h.cwd = in.Cwd
	}
	if h.session == "" {
		h.session = in.SessionID
	}
	b, err := Parse(o.Kind, data, base, ParseOptions{Session: h.session, Cwd: h.cwd, Final: final && eof})
	if err != nil {
		return err
	}
	for i, r := range b.Rejected {
		if i == maxLoggedRejects {
			lg.printf("%s: %d more lines rejected", in.TranscriptPath, len(b.Rejected)-i)
			break
		}
		r.File = in.TranscriptPath
		lg.printf("rejected %s", r)
	}
	if len(b.Turns) == 0 && b.Next == off {
		return nil
	}
	res, err := Apply(ctx, st, b, in.TranscriptPath, key)
	for _, r := range res.Rejected {
		lg.printf("rejected %s", r)
	}
	return err
}

const maxLoggedRejects = 20

// readFrom reads the file at path from off, at most max bytes. A file now
// shorter than off was replaced: it is read from the start (receipts make
// the replay harmless). eof says the read reached the end of the file.
func readFrom(path string, off, max int64) (data []byte, base int64, eof bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, false, err
	}
	if fi.Size() < off {
		off = 0
	}
	n := min(fi.Size()-off, max)
	data = make([]byte, n)
	if _, err := f.ReadAt(data, off); err != nil && !errors.Is(err, io.EOF) {
		return nil, 0, false, err
	}
	return data, off, off+n >= fi.Size(), nil
}

// sessionHead is what the transcript's head says of its session (its
// first working directory; for Codex its id, in session_meta), read from
// data when it starts at the head.
func sessionHead(kind Kind, path string, data []byte, base int64) (head, error) {
	if base == 0 {
		return readHead(kind, data[:min(len(data), headBytes)]), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return head{}, err
	}
	defer f.Close()
	buf := make([]byte, headBytes)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return head{}, err
	}
	return readHead(kind, buf[:n]), nil
}

// hookLog writes the hook's log lines; after close (Hook returned) lines
// are dropped, so abandoned work never writes to a caller's Log.
type hookLog struct {
	mu     sync.Mutex
	w      io.Writer
	path   string
	closed bool
}

// maxLogBytes is the size beyond which the log file is rotated to .1.
const maxLogBytes = 1 << 20

func newHookLog(o HookOptions) *hookLog {
	if o.Log != nil {
		return &hookLog{w: o.Log}
	}
	if o.DB == "" {
		return &hookLog{w: io.Discard}
	}
	return &hookLog{path: o.DB + ".hook.log"}
}

func (l *hookLog) printf(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	msg := time.Now().UTC().Format(time.RFC3339) + " " + fmt.Sprintf(format, a...) + "\n"
	if l.w != nil {
		_, _ = io.WriteString(l.w, msg)
		return
	}
	if fi, err := os.Stat(l.path); err == nil && fi.Size() > maxLogBytes {
		_ = os.Rename(l.path, l.path+".1")
	}
	f, err := os.OpenFile(l.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	_, _ = f.WriteString(msg)
	_ = f.Close()
}

func (l *hookLog) close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}
