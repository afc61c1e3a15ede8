package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/capture"
)

// dialStore returns how hook and import reach the server holding db: a
// capture.Store over the owner's socket, or capture.ErrNoServer when no
// server runs (they then open the file themselves).
func dialStore(db string) func(ctx context.Context) (capture.Store, error) {
	return func(ctx context.Context) (capture.Store, error) {
		cs, err := dialOwner(ctx, db)
		if errors.Is(err, errNoOwner) {
			return nil, fmt.Errorf("%w: %w", capture.ErrNoServer, err)
		}
		if err != nil {
			return nil, err
		}
		return &ownerStore{cs: cs}, nil
	}
}

// ownerStore is capture's view of a store held by a running server: each
// method is a tool call over the owner's socket.
type ownerStore struct {
	cs *mcp.ClientSession
}

// Close ends the session with the owner.
func (o *ownerStore) Close() error { return o.cs.Close() }

// call runs tool with in and decodes its structured result into out. A
// failed call is the owner gone (capture.ErrNoServer); an error result is
// the owner refusing the input (stratagate.ErrInvalidInput).
func (o *ownerStore) call(ctx context.Context, tool string, in, out any) error {
	res, err := o.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: in})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w: %w: %v", capture.ErrNoServer, errOwnerGone, err)
	}
	if res.IsError {
		return fmt.Errorf("%w: %w: %s: %s", stratagate.ErrInvalidInput, errOwnerRefused, tool, resultText(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// Append implements capture.Store.
func (o *ownerStore) Append(ctx context.Context, t stratagate.Turn) (stratagate.TurnRef, error) {
	var out CaptureOut
	if err := o.call(ctx, "memory_capture", captureIn(t), &out); err != nil {
		return stratagate.TurnRef{}, err
	}
	return stratagate.TurnRef{Thread: out.Thread, Turn: out.Turn, Duplicate: out.Duplicate}, nil
}

// AppendBatch stores turns in one memory_capture call (one transaction
// on the owner), all or none; capture.Apply uses it for imports.
func (o *ownerStore) AppendBatch(ctx context.Context, turns []stratagate.Turn) ([]stratagate.TurnRef, error) {
	in := &CaptureIn{Turns: make([]CaptureTurn, len(turns))}
	for i, t := range turns {
		one := captureIn(t)
		in.Turns[i] = CaptureTurn{Thread: one.Thread, Messages: one.Messages, ReceiptID: one.ReceiptID, ProjectScope: one.ProjectScope}
	}
	var out CaptureOut
	if err := o.call(ctx, "memory_capture", in, &out); err != nil {
		return nil, err
	}
	if len(out.Turns) != len(turns) {
		return nil, fmt.Errorf("%w: memory_capture stored %d turns of %d", errOwnerGone, len(out.Turns), len(turns))
	}
	refs := make([]stratagate.TurnRef, len(turns))
	for i, r := range out.Turns {
		refs[i] = stratagate.TurnRef{Thread: r.Thread, Turn: r.Turn, Duplicate: r.Duplicate}
	}
	return refs, nil
}

// Cursor implements capture.Store.
func (o *ownerStore) Cursor(ctx context.Context, key string) (int64, error) {
	var out StatusOut
	if err := o.call(ctx, "memory_status", &StatusIn{CursorGet: key}, &out); err != nil {
		return 0, err
	}
	if out.Cursor == nil {
		return 0, nil
	}
	return *out.Cursor, nil
}

// SetCursor implements capture.Store.
func (o *ownerStore) SetCursor(ctx context.Context, key string, off int64) error {
	var out CaptureOut
	return o.call(ctx, "memory_capture", &CaptureIn{CursorKey: key, CursorOffset: &off}, &out)
}

// SearchEvents implements capture.Store, for recall: the owner's events of
// the query's scopes (which must be among the owner's).
func (o *ownerStore) SearchEvents(ctx context.Context, q stratagate.Query) ([]stratagate.EventHit, error) {
	var out SearchOut
	if err := o.call(ctx, "memory_search_events", searchIn(q), &out); err != nil {
		return nil, err
	}
	hits := make([]stratagate.EventHit, 0, len(out.Items))
	for _, it := range out.Items {
		at, _ := time.Parse(time.RFC3339, it.At)
		hits = append(hits, stratagate.EventHit{Title: it.Title, Summary: it.Text, MentionedAt: at})
	}
	return hits, nil
}

// SearchRaw implements capture.Store, for recall.
func (o *ownerStore) SearchRaw(ctx context.Context, q stratagate.Query) ([]stratagate.Hit, error) {
	var out SearchOut
	if err := o.call(ctx, "memory_search_raw", searchIn(q), &out); err != nil {
		return nil, err
	}
	hits := make([]stratagate.Hit, 0, len(out.Items))
	for _, it := range out.Items {
		at, _ := time.Parse(time.RFC3339, it.At)
		id, _ := strconv.ParseUint(strings.TrimPrefix(it.Ref, "m"), 10, 64)
		hits = append(hits, stratagate.Hit{MessageID: id, Thread: it.Thread, Speaker: it.Speaker, Snippet: it.Text, At: at})
	}
	return hits, nil
}

func searchIn(q stratagate.Query) *SearchIn {
	return &SearchIn{Query: q.Text, Limit: flexInt(q.Limit), Scopes: stringList(q.Scopes), Thread: q.Thread}
}
