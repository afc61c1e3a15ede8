package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratagate/stratagate"
)

var (
	// errOwnerGone is returned by an attached serve whose owner closed
	// the connection before the agent closed stdin.
	errOwnerGone = errors.New("sgmcp: the server holding the store went away")
	// errOwnerRefused wraps an error result of the owner's memory_capture
	// in deliverTurns.
	errOwnerRefused = errors.New("sgmcp: the server holding the store refused a turn")
)

// dialOwner connects an MCP client to the server holding db, for a
// subcommand (hook, import) that hands its work to the owner rather than
// opening the file. It returns errNoOwner (wrapped) when nothing listens;
// the caller may then open the store itself. The session serves the
// owner's scopes, whatever the caller's working directory.
func dialOwner(ctx context.Context, db string) (*mcp.ClientSession, error) {
	path, err := socketPath(db)
	if err != nil {
		return nil, err
	}
	conn, err := dialSocket(ctx, path)
	if err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "sgmcp", Version: version}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: nopClose{conn}}, nil)
	if err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("sgmcp: MCP handshake with the server on %s: %w", path, err)
	}
	return cs, nil
}

// deliverTurns captures turns through the owner's memory_capture, in
// order, and has the owner set cursor cursorKey to offset with the last
// one (with no turns, the cursor alone). A receipt already stored is
// fine: a retried delivery stores each turn once. An empty cursorKey sets
// no cursor. A turn in a project scope is captured there (project_scope);
// any other goes to the owner's first scope.
func deliverTurns(ctx context.Context, cs *mcp.ClientSession, turns []stratagate.Turn, cursorKey string, offset int64) error {
	if len(turns) == 0 {
		if cursorKey == "" {
			return nil
		}
		return captureCall(ctx, cs, -1, &CaptureIn{CursorKey: cursorKey, CursorOffset: &offset})
	}
	for i, t := range turns {
		in := captureIn(t)
		if i == len(turns)-1 && cursorKey != "" {
			in.CursorKey, in.CursorOffset = cursorKey, &offset
		}
		if err := captureCall(ctx, cs, i, in); err != nil {
			return err
		}
	}
	return nil
}

// captureIn is the memory_capture input of turn t, in its own project
// scope when it names one.
func captureIn(t stratagate.Turn) *CaptureIn {
	in := &CaptureIn{Thread: t.Thread, ReceiptID: t.ReceiptID}
	if projectScopeRE.MatchString(t.Scope) {
		in.ProjectScope = t.Scope
	}
	for _, m := range t.Messages {
		cm := CaptureMessage{Role: m.Role, Content: m.Content, Speaker: m.Speaker, ToolName: m.ToolName, ToolCallID: m.ToolCallID}
		if !m.At.IsZero() {
			// Nanoseconds and the offset survive: a receipt compares
			// the times its turn was stored with.
			cm.At = m.At.Format(time.RFC3339Nano)
		}
		in.Messages = append(in.Messages, cm)
	}
	return in
}

func captureCall(ctx context.Context, cs *mcp.ClientSession, i int, in *CaptureIn) error {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_capture", Arguments: in})
	if err != nil {
		return fmt.Errorf("sgmcp: memory_capture (turn %d): %w", i, err)
	}
	if res.IsError {
		return fmt.Errorf("%w: turn %d: %s", errOwnerRefused, i, resultText(res))
	}
	return nil
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, " ")
}

// ownerScopes asks the owner which scopes it serves.
func ownerScopes(ctx context.Context, db string) ([]string, error) {
	cs, err := dialOwner(ctx, db)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_status", Arguments: map[string]any{}})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, errors.New(resultText(res))
	}
	var st StatusOut
	if err := json.Unmarshal([]byte(resultText(res)), &st); err != nil {
		return nil, err
	}
	return st.Scopes, nil
}

// attach serves the agent on stdin/stdout through the owner on conn: the
// agent talks MCP to the owner, byte for byte.
func attach(ctx context.Context, cfg serveConfig, path string, conn *net.UnixConn, stdin io.Reader, stdout, stderr io.Writer) error {
	fmt.Fprintf(stderr, "sgmcp: attached to the server holding %s (socket %s)\n", cfg.db, path)
	if cfg.explicitScopes {
		// The owner's scopes apply to every session it serves; flags that
		// say otherwise are worth a warning, not a refusal.
		got, err := ownerScopes(ctx, cfg.db)
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "sgmcp: warning: cannot read the owner's scopes: %v\n", err)
		case !slices.Equal(got, cfg.scopes):
			fmt.Fprintf(stderr, "sgmcp: warning: -scope %s ignored: the server holding the store serves %s\n",
				strings.Join(cfg.scopes, ", "), strings.Join(got, ", "))
		}
	}
	if err := bridge(ctx, conn, stdin, stdout); err != nil {
		return fmt.Errorf("%w (%s)", err, cfg.db)
	}
	return nil
}

// bridge copies stdin to conn and conn to stdout until the agent closes
// stdin and the owner has answered (nil), the owner goes away first
// (errOwnerGone) or ctx ends (nil).
func bridge(ctx context.Context, conn *net.UnixConn, stdin io.Reader, stdout io.Writer) error {
	var inDone atomic.Bool
	down := make(chan error, 1)
	go func() {
		_, _ = io.Copy(conn, stdin)
		// Set before the half-close, so that when the owner answers the
		// EOF by closing, the reader below sees a clean end.
		inDone.Store(true)
		_ = conn.CloseWrite()
	}()
	out := &outWriter{w: stdout}
	go func() {
		_, err := io.Copy(out, conn)
		down <- err
	}()
	select {
	case <-ctx.Done():
		_ = conn.Close()
		<-down
		return nil
	case err := <-down:
		_ = conn.Close()
		if out.err != nil {
			// The agent stopped reading: not the owner's doing.
			return fmt.Errorf("sgmcp: writing to the agent: %w", out.err)
		}
		if inDone.Load() {
			return nil
		}
		if err == nil {
			err = errOwnerGone
		} else {
			err = fmt.Errorf("%w: %w", errOwnerGone, err)
		}
		return err
	}
}

// outWriter keeps its writer's error, which io.Copy does not tell apart
// from the reader's.
type outWriter struct {
	w   io.Writer
	err error // read after the copy returns
}

func (o *outWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		o.err = err
	}
	return n, err
}
