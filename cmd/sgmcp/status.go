package main

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// forgetAnnotations annotates memory_forget.
var forgetAnnotations = mcp.ToolAnnotations{DestructiveHint: new(true), IdempotentHint: true, OpenWorldHint: new(false)}

// StatusIn is the input of memory_status.
type StatusIn struct {
	CursorGet string `json:"cursor_get,omitempty" jsonschema:"a cursor key: its stored offset is returned as cursor"`
}

// StoreCounts are the record counts of memory_status.
type StoreCounts struct {
	Threads       int   `json:"threads"`
	Messages      int   `json:"messages"`
	Receipts      int   `json:"receipts"`
	Blocks        int   `json:"blocks"`
	BlocksPending int   `json:"blocks_pending"`
	BlocksReady   int   `json:"blocks_ready"`
	BlocksFailed  int   `json:"blocks_failed"`
	JobsQueued    int   `json:"jobs_queued" jsonschema:"derivation jobs pending or running"`
	JobsFailed    int   `json:"jobs_failed"`
	FileBytes     int64 `json:"file_bytes"`
}

// StatusOut is the result of memory_status.
type StatusOut struct {
	Database     string       `json:"database"`
	Scopes       []string     `json:"scopes,omitempty" jsonschema:"readable scopes; captures go to the first"`
	Model        string       `json:"model"`
	Counts       StoreCounts  `json:"counts"`
	Tools        []toolReport `json:"tools,omitempty" jsonschema:"calls, errors and p50/p95 latency per tool since start"`
	Gate         gateReport   `json:"gate" jsonschema:"verdicts and rejected refs since start"`
	BatchesKept  int          `json:"batches_kept"`
	UptimeSecond int64        `json:"uptime_seconds"`
	Cursor       *int64       `json:"cursor,omitempty" jsonschema:"the offset of the cursor_get key"`
	// CaptureLog is the end of the capture hooks' log next to the store:
	// whether automatic capture works is visible to the agent.
	CaptureLog []string `json:"capture_log,omitempty" jsonschema:"the last lines of the capture hooks' log (failures and rejected transcript lines), newest last"`
}

func (s *Server) addStatusTool() {
	addTool(s, toolSpec{name: "memory_status", annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)},
		description: "Counts of the store, pending and failed jobs, the database path, per-tool call counts and latency, gate verdict and rejection rates since start; with cursor_get, that cursor's offset."},
		s.status)
}

func (s *Server) status(ctx context.Context, in *StatusIn) (*StatusOut, error) {
	var cursor *int64
	if in.CursorGet != "" {
		key, err := cursorKey("cursor_get", in.CursorGet)
		if err != nil {
			return nil, err
		}
		cs, err := s.cursors()
		if err != nil {
			return nil, err
		}
		off, err := cs.Cursor(ctx, key)
		if err != nil {
			return nil, err
		}
		cursor = &off
	}
	st, err := s.mem.Stats(ctx)
	if err != nil {
		return nil, err
	}
	tools, g := s.metrics.report(s.tools)
	return &StatusOut{
		Database: s.mem.Path(), Scopes: s.scopes, Model: st.Model,
		Counts: StoreCounts{Threads: st.Threads, Messages: st.Messages, Receipts: st.Receipts, Blocks: st.Blocks,
			BlocksPending: st.BlocksPending, BlocksReady: st.BlocksReady, BlocksFailed: st.BlocksFailed,
			JobsQueued: st.JobsQueued, JobsFailed: st.JobsFailed, FileBytes: st.FileBytes},
		Tools: tools, Gate: g, BatchesKept: s.batches.len(), UptimeSecond: int64(time.Since(s.metrics.start).Seconds()),
		Cursor: cursor, CaptureLog: logTail(s.mem.Path()+".hook.log", captureLogLines),
	}, nil
}

// captureLogLines is how many lines of the capture log memory_status shows.
const captureLogLines = 10

// logTail returns the last n lines of the file at path (nil when it does
// not exist), reading at most its last 16 KiB.
func logTail(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	const window = 16 << 10
	if fi, err := f.Stat(); err == nil && fi.Size() > window {
		if _, err := f.Seek(-window, io.SeekEnd); err != nil {
			return nil
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, window))
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(b) == window && len(lines) > 1 {
		lines = lines[1:] // the first line may be cut
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	return lines
}

func itoa(i int) string { return strconv.Itoa(i) }
