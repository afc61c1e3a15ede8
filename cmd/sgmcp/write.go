package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
)

// CaptureMessage is one message of a captured turn.
type CaptureMessage struct {
	Role     string `json:"role,omitempty" jsonschema:"user, assistant, tool or system"`
	Content  string `json:"content,omitempty" jsonschema:"the text, stored verbatim"`
	Speaker  string `json:"speaker,omitempty"`
	At       string `json:"at,omitempty" jsonschema:"RFC 3339 time it was said (default now)"`
	ToolName string `json:"tool_name,omitempty"`
	// ToolCallID links a tool result to its call.
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// CaptureIn is the input of memory_capture.
type CaptureIn struct {
	Thread    string           `json:"thread,omitempty" jsonschema:"the thread (default: one per server scope)"`
	Messages  []CaptureMessage `json:"messages,omitempty" jsonschema:"the turn's messages in order; or give user and assistant"`
	User      string           `json:"user,omitempty" jsonschema:"shortcut: the user's message"`
	Assistant string           `json:"assistant,omitempty" jsonschema:"shortcut: the assistant's reply"`
	ReceiptID string           `json:"receipt_id,omitempty" jsonschema:"idempotency key (default: derived from the content); the same key with the same turn stores nothing twice"`
	// CursorKey and CursorOffset let a hook or import record how far into
	// its source it has delivered, in the same call as the last turn.
	CursorKey    string `json:"cursor_key,omitempty" jsonschema:"a source's cursor key: after the turn is stored the cursor is set to cursor_offset (with no messages, only the cursor is set)"`
	CursorOffset *int64 `json:"cursor_offset,omitempty" jsonschema:"the cursor's new offset (with cursor_key)"`
	// ProjectScope is the project a captured session belongs to: hooks
	// and imports name the scope of the session's working directory, so
	// that a server started in one repository files another's sessions
	// under their own project. Reads stay within the server's scopes.
	ProjectScope string `json:"project_scope,omitempty" jsonschema:"the project:<20 hex> scope the turn belongs to (default: the server's first scope)"`
	// Turns is how an import delivers many turns in one call and one
	// transaction instead of one call per turn.
	Turns []CaptureTurn `json:"turns,omitempty" jsonschema:"instead of one turn's thread, messages, receipt_id and project_scope: several turns, stored in order in one transaction, all or none (imports)"`
}

// CaptureTurn is one turn of a memory_capture with turns.
type CaptureTurn struct {
	Thread       string           `json:"thread,omitempty" jsonschema:"the thread (default: one per server scope)"`
	Messages     []CaptureMessage `json:"messages" jsonschema:"the turn's messages in order"`
	ReceiptID    string           `json:"receipt_id,omitempty" jsonschema:"idempotency key (default: derived from the content)"`
	ProjectScope string           `json:"project_scope,omitempty" jsonschema:"the project:<20 hex> scope the turn belongs to (default: the server's first scope)"`
}

// CaptureTurnOut is the receipt of one turn of a memory_capture with
// turns.
type CaptureTurnOut struct {
	Thread      string `json:"thread"`
	Turn        uint64 `json:"turn"`
	SealedBlock string `json:"sealed_block,omitempty"`
	Duplicate   bool   `json:"duplicate"`
}

// maxCaptureTurns bounds the turns of one memory_capture.
const maxCaptureTurns = 1000

// projectScopeRE is the form of capture.ProjectScope's scopes.
var projectScopeRE = regexp.MustCompile(`^project:[0-9a-f]{20}$`)

// CaptureOut is the receipt of memory_capture.
type CaptureOut struct {
	ReceiptID   string   `json:"receipt_id"`
	Thread      string   `json:"thread"`
	Scope       string   `json:"scope"`
	Turn        uint64   `json:"turn"`
	Messages    []string `json:"messages,omitempty" jsonschema:"refs of the stored messages"`
	SealedBlock string   `json:"sealed_block,omitempty" jsonschema:"the block this turn completed, if any"`
	Duplicate   bool     `json:"duplicate" jsonschema:"the receipt was already stored: nothing new written"`
	Cursor      *int64   `json:"cursor,omitempty" jsonschema:"the offset cursor_key now holds"`
	// Turns are the receipts of a capture with turns, in order (the
	// fields above are then empty).
	Turns []CaptureTurnOut `json:"turns,omitempty" jsonschema:"with turns: each turn's receipt, in order"`
}

// EventIn is the input of memory_forget and memory_restore.
type EventIn struct {
	EventID string `json:"event_id,omitempty" jsonschema:"the event: ref e<id> or the number (alias id)"`
}

// EventOut is the result of memory_forget and memory_restore.
type EventOut struct {
	EventID   string `json:"event_id"`
	Forgotten bool   `json:"forgotten" jsonschema:"hidden from search (still expandable)"`
}

func (s *Server) addWriteTools() {
	addTool(s, toolSpec{name: "memory_capture", annotations: writes(true),
		description: "Store one completed turn (user message and reply) in the server's first scope; returns a receipt. Idempotent by receipt_id. Hooks and imports pass cursor_key and cursor_offset to record how far into their source they are (set after the turn is stored; with no messages, only the cursor). Imports pass turns to store many turns at once, all or none."},
		s.capture)
	addTool(s, toolSpec{name: "memory_forget", aliases: map[string]string{"id": "event_id", "ref": "event_id"},
		annotations: &forgetAnnotations,
		description: "Hide an event from search (reversible with memory_restore; the card and its sources stay)."},
		func(ctx context.Context, in *EventIn) (*EventOut, error) { return s.forget(ctx, in, true) })
	addTool(s, toolSpec{name: "memory_restore", aliases: map[string]string{"id": "event_id", "ref": "event_id"}, annotations: writes(true),
		description: "Undo memory_forget: the event is searchable again."},
		func(ctx context.Context, in *EventIn) (*EventOut, error) { return s.forget(ctx, in, false) })
}

// defaultThread is the thread a capture without one goes to: one per
// scope, so that two projects sharing a file never share a thread.
func defaultThread(scope string) string { return "agent:" + scope }

func (s *Server) capture(ctx context.Context, in *CaptureIn) (*CaptureOut, error) {
	if len(in.Turns) > 0 {
		return s.captureTurns(ctx, in)
	}
	msgs := slices.Clone(in.Messages)
	if in.User != "" {
		msgs = append(msgs, CaptureMessage{Role: "user", Content: in.User})
	}
	if in.Assistant != "" {
		msgs = append(msgs, CaptureMessage{Role: "assistant", Content: in.Assistant})
	}
	cur, err := s.captureCursor(in)
	if err != nil {
		return nil, err
	}
	if len(msgs) == 0 {
		scope, err := s.captureScope("", in.ProjectScope)
		if err != nil {
			return nil, err
		}
		if cur == nil {
			return nil, retryable("no messages; retry with {\"user\": \"...\", \"assistant\": \"...\"} or {\"messages\": [{\"role\": \"user\", \"content\": \"...\"}, ...]}")
		}
		// A source that advanced without a complete turn moves only its
		// cursor.
		if err := cur.set(ctx); err != nil {
			return nil, err
		}
		return &CaptureOut{Scope: scope, Cursor: &cur.off}, nil
	}
	t, err := s.captureTurn("", in.Thread, msgs, in.ReceiptID, in.ProjectScope)
	if err != nil {
		return nil, err
	}
	ref, err := s.mem.Append(ctx, t)
	if err != nil {
		return nil, err
	}
	out := &CaptureOut{ReceiptID: t.ReceiptID, Thread: ref.Thread, Scope: t.Scope, Turn: ref.Turn,
		Messages: refs(gate.KindMessage, ref.MessageIDs, maxLimit), Duplicate: ref.Duplicate}
	if ref.SealedBlockID != 0 {
		out.SealedBlock = gate.MakeRef(gate.KindBlock, ref.SealedBlockID)
	}
	if cur != nil {
		// After the append: a failure here leaves the cursor behind the
		// turns, and the retry's turns are duplicates, never lost.
		if err := cur.set(ctx); err != nil {
			return nil, err
		}
		out.Cursor = &cur.off
	}
	return out, nil
}

// captureTurns stores in.Turns with one AppendBatch: every turn is
// checked before any is stored, and a refused batch stores none.
func (s *Server) captureTurns(ctx context.Context, in *CaptureIn) (*CaptureOut, error) {
	if in.Thread != "" || len(in.Messages) > 0 || in.User != "" || in.Assistant != "" || in.ReceiptID != "" || in.ProjectScope != "" {
		return nil, retryable("turns with thread, messages, user, assistant, receipt_id or project_scope: give each turn's fields inside turns, or one turn without turns")
	}
	if len(in.Turns) > maxCaptureTurns {
		return nil, retryable("%d turns; retry with at most %d per call", len(in.Turns), maxCaptureTurns)
	}
	cur, err := s.captureCursor(in)
	if err != nil {
		return nil, err
	}
	ts := make([]stratagate.Turn, len(in.Turns))
	for i, ct := range in.Turns {
		if len(ct.Messages) == 0 {
			return nil, retryable("turns[%d] has no messages; retry with its messages, or without it", i)
		}
		if ts[i], err = s.captureTurn(fmt.Sprintf("turns[%d].", i), ct.Thread, ct.Messages, ct.ReceiptID, ct.ProjectScope); err != nil {
			return nil, err
		}
	}
	// The receipts must fit one result: refused before anything is
	// stored, not after (the caller would take stored turns for refused).
	out := &CaptureOut{Turns: make([]CaptureTurnOut, len(ts))}
	for i := range ts {
		out.Turns[i] = CaptureTurnOut{Thread: ts[i].Thread, Turn: ^uint64(0), SealedBlock: gate.MakeRef(gate.KindBlock, ^uint64(0))}
	}
	if b, err := json.Marshal(out); err != nil || len(b) > maxResultBytes-1024 {
		return nil, retryable("the receipts of %d turns would not fit one result; retry with fewer turns", len(ts))
	}
	refs, err := s.mem.AppendBatch(ctx, ts)
	if err != nil {
		return nil, err
	}
	for i, ref := range refs {
		o := CaptureTurnOut{Thread: ref.Thread, Turn: ref.Turn, Duplicate: ref.Duplicate}
		if ref.SealedBlockID != 0 {
			o.SealedBlock = gate.MakeRef(gate.KindBlock, ref.SealedBlockID)
		}
		out.Turns[i] = o
	}
	if cur != nil {
		if err := cur.set(ctx); err != nil {
			return nil, err
		}
		out.Cursor = &cur.off
	}
	return out, nil
}

// captureScope is the scope a capture names (project, checked), or the
// server's first; where prefixes the argument's name in errors.
func (s *Server) captureScope(where, project string) (string, error) {
	if project == "" {
		return s.scopes[0], nil
	}
	if !slices.Contains(s.scopes, project) && !projectScopeRE.MatchString(project) {
		return "", retryable("%sproject_scope %q is neither one of this server's scopes (%s) nor project:<20 hex digits>; retry without it", where, project, strings.Join(s.scopes, ", "))
	}
	return project, nil
}

// captureTurn turns one captured turn's arguments into a Turn; where
// prefixes argument names in errors ("turns[3].").
func (s *Server) captureTurn(where, thread string, msgs []CaptureMessage, receipt, project string) (stratagate.Turn, error) {
	scope, err := s.captureScope(where, project)
	if err != nil {
		return stratagate.Turn{}, err
	}
	t := stratagate.Turn{Thread: thread, Scope: scope, ReceiptID: receipt}
	if t.Thread == "" {
		t.Thread = defaultThread(scope)
	}
	for i, m := range msgs {
		role := strings.ToLower(strings.TrimSpace(m.Role))
		if role == "" {
			return stratagate.Turn{}, retryable("%smessages[%d] has no role; retry with role user, assistant, tool or system", where, i)
		}
		at, err := parseTime(where+"messages["+itoa(i)+"].at", m.At, false)
		if err != nil {
			return stratagate.Turn{}, err
		}
		t.Messages = append(t.Messages, stratagate.Message{Role: role, Content: m.Content, Speaker: m.Speaker,
			ToolName: m.ToolName, ToolCallID: m.ToolCallID, At: at})
	}
	if t.ReceiptID == "" {
		// The content decides the receipt: a client retrying the same
		// turn stores it once.
		b, _ := json.Marshal(struct {
			T string
			M []CaptureMessage
		}{t.Thread, msgs})
		sum := sha256.Sum256(b)
		t.ReceiptID = "mcp:" + hex.EncodeToString(sum[:12])
	}
	return t, nil
}

// pendingCursor is a cursor a capture sets after its turn.
type pendingCursor struct {
	store cursorStore
	key   string
	off   int64
}

func (c *pendingCursor) set(ctx context.Context) error {
	return c.store.SetCursor(ctx, c.key, c.off)
}

// captureCursor checks a capture's cursor arguments before anything is
// written, so that a refused cursor never follows a stored turn.
func (s *Server) captureCursor(in *CaptureIn) (*pendingCursor, error) {
	if in.CursorKey == "" && in.CursorOffset == nil {
		return nil, nil
	}
	if in.CursorOffset == nil {
		return nil, retryable("cursor_key without cursor_offset; retry with both, or neither")
	}
	if *in.CursorOffset < 0 {
		return nil, retryable("cursor_offset %d is negative; retry with the source offset (bytes or lines read)", *in.CursorOffset)
	}
	key, err := cursorKey("cursor_key", in.CursorKey)
	if err != nil {
		return nil, err
	}
	st, err := s.cursors()
	if err != nil {
		return nil, err
	}
	return &pendingCursor{store: st, key: key, off: *in.CursorOffset}, nil
}

func (s *Server) forget(ctx context.Context, in *EventIn, forget bool) (*EventOut, error) {
	id, err := parseID("event_id", gate.KindEvent, in.EventID)
	if err != nil {
		return nil, err
	}
	ref := gate.MakeRef(gate.KindEvent, id)
	d, err := s.mem.ExpandEvent(ctx, id)
	if err != nil || !slices.Contains(s.scopes, d.Card.Scope) {
		// An event of another scope is as unknown as a missing one.
		return nil, retryable("event %s not found in this server's scopes; retry with a ref from a recent memory_search_events result", ref)
	}
	if forget {
		err = s.mem.Forget(ctx, id)
	} else {
		err = s.mem.Restore(ctx, id)
	}
	if err != nil {
		return nil, err
	}
	return &EventOut{EventID: ref, Forgotten: forget}, nil
}
