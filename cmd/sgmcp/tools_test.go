package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSearchTools(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		tool, query, kind string
	}{
		{"memory_search_events", "Shadow dog", "event"},
		{"memory_search_raw", "Shadow", "message"},
		{"memory_search_graph", "Alice Seattle", "node"},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			var out SearchOut
			f.ok(t, tc.tool, map[string]any{"query": tc.query}, &out)
			require.NotEmpty(t, out.BatchID)
			require.NotEmpty(t, out.Items, "no %s for %q", tc.kind, tc.query)
			for _, it := range out.Items {
				assert.Equal(t, tc.kind, it.Kind)
				assert.Equal(t, tc.kind[:1], it.Ref[:1])
			}
			assert.Equal(t, len(out.Items), out.Total)
			assert.Empty(t, out.Next)
		})
	}
	t.Run("batch ids are unique", func(t *testing.T) {
		var a, b SearchOut
		f.ok(t, "memory_search_raw", map[string]any{"query": "Shadow"}, &a)
		f.ok(t, "memory_search_raw", map[string]any{"query": "Shadow"}, &b)
		assert.NotEqual(t, a.BatchID, b.BatchID)
	})
	t.Run("no match", func(t *testing.T) {
		var out SearchOut
		f.ok(t, "memory_search_raw", map[string]any{"query": "zeppelin"}, &out)
		assert.Empty(t, out.Items)
		assert.Zero(t, out.Total)
		assert.NotEmpty(t, out.Hint)
	})
}

func TestPaging(t *testing.T) {
	f := newFixture(t)
	var all SearchOut
	f.ok(t, "memory_search_raw", map[string]any{"query": "Shadow dog park adopted", "limit": 50}, &all)
	require.GreaterOrEqual(t, all.Total, 3)
	var seen []string
	cursor := any(nil)
	for range all.Total + 1 {
		args := map[string]any{"query": "Shadow dog park adopted", "limit": 1}
		if cursor != nil {
			args["cursor"] = cursor
		}
		var p SearchOut
		f.ok(t, "memory_search_raw", args, &p)
		require.Len(t, p.Items, 1)
		assert.Equal(t, all.Total, p.Total, "total is the same on every page")
		seen = append(seen, p.Items[0].Ref)
		if p.Next == "" {
			break
		}
		cursor = p.Next
	}
	var want []string
	for _, it := range all.Items {
		want = append(want, it.Ref)
	}
	assert.Equal(t, want, seen, "pages walk the whole result once, in order")

	t.Run("bounds", func(t *testing.T) {
		var out SearchOut
		f.ok(t, "memory_search_raw", map[string]any{"query": "Shadow", "limit": 500}, &out) // clamped to 50
		msg := f.fails(t, "memory_search_raw", map[string]any{"query": "Shadow", "limit": -1})
		assert.Contains(t, msg, "retry")
		msg = f.fails(t, "memory_search_raw", map[string]any{"query": "Shadow", "cursor": "zz"})
		assert.Contains(t, msg, "retry")
		msg = f.fails(t, "memory_search_raw", map[string]any{"query": strings.Repeat("x ", 3000)})
		assert.Contains(t, msg, "shorter")
	})
}

func TestArgumentAliases(t *testing.T) {
	f := newFixture(t)
	for _, args := range []map[string]any{
		{"q": "Shadow", "page_size": 1},
		{"q": "Shadow", "k": 1},
		{"query": "Shadow", "top_k": "1"},
		{"query": "Shadow", "limit": 1, "scope": scopeA},
	} {
		var out SearchOut
		f.ok(t, "memory_search_raw", args, &out)
		assert.Len(t, out.Items, 1, "%v", args)
	}
	var out SearchOut
	f.ok(t, "memory_search_events", map[string]any{"q": "Shadow dog"}, &out)
	require.NotEmpty(t, out.Items)
	var ev ExpandEventOut
	f.ok(t, "memory_expand_event", map[string]any{"batch_id": out.BatchID, "id": out.Items[0].Ref}, &ev)
	assert.Equal(t, out.Items[0].Ref, ev.Event.Ref)

	t.Run("unknown and missing arguments say how to retry", func(t *testing.T) {
		msg := f.fails(t, "memory_search_raw", map[string]any{"query": "Shadow", "scopez": "x"})
		assert.Contains(t, msg, "unknown argument")
		assert.Contains(t, msg, "scopes")
		msg = f.fails(t, "memory_search_raw", map[string]any{})
		assert.Contains(t, msg, "query")
		msg = f.fails(t, "memory_search_raw", map[string]any{"query": "x", "limit": "many"})
		assert.Contains(t, msg, "limit")
		msg = f.fails(t, "memory_assess", map[string]any{"verdict": "sufficient"})
		assert.Contains(t, msg, "batch_id")
	})
}

func TestScopes(t *testing.T) {
	f := newFixture(t, scopeA, "global")
	t.Run("another scope's records never show", func(t *testing.T) {
		var out SearchOut
		f.ok(t, "memory_search_raw", map[string]any{"query": "Rex Bob"}, &out)
		assert.Empty(t, out.Items)
		msg := f.fails(t, "memory_get_blocks", map[string]any{"thread": "other"})
		assert.Contains(t, msg, "not found")
		msg = f.fails(t, "memory_context", map[string]any{"thread": "other"})
		assert.Contains(t, msg, "not found")
	})
	t.Run("narrowing", func(t *testing.T) {
		var out SearchOut
		f.ok(t, "memory_search_raw", map[string]any{"query": "Shadow", "scopes": []string{"global"}}, &out)
		assert.Empty(t, out.Items, "the chat thread is project:alpha")
		assert.Equal(t, []string{"global"}, out.Scopes)
		f.ok(t, "memory_search_raw", map[string]any{"query": "Shadow", "scopes": []string{scopeA}}, &out)
		assert.NotEmpty(t, out.Items)
	})
	t.Run("widening is refused", func(t *testing.T) {
		for _, tool := range []string{"memory_search_raw", "memory_search_events", "memory_search_graph"} {
			msg := f.fails(t, tool, map[string]any{"query": "Rex", "scopes": []string{scopeB}})
			assert.Contains(t, msg, "not served")
		}
		msg := f.fails(t, "memory_ask", map[string]any{"question": "What is Bob's dog called?", "scopes": []string{scopeA, scopeB}})
		assert.Contains(t, msg, "not served")
		msg = f.fails(t, "memory_get_blocks", map[string]any{"scopes": scopeB})
		assert.Contains(t, msg, "not served")
	})
	t.Run("a server of the other scope sees only it", func(t *testing.T) {
		g := &fixture{mem: f.mem, srv: NewServer(f.mem, Config{Scopes: []string{scopeB}})}
		g.cs = connect(t, g.srv)
		var out SearchOut
		g.ok(t, "memory_search_raw", map[string]any{"query": "Shadow Rex"}, &out)
		require.NotEmpty(t, out.Items)
		for _, it := range out.Items {
			assert.Equal(t, "other", it.Thread)
		}
	})
}

func TestExpandTools(t *testing.T) {
	f := newFixture(t)
	var ev SearchOut
	f.ok(t, "memory_search_events", map[string]any{"query": "Shadow dog"}, &ev)
	require.NotEmpty(t, ev.Items)
	var d ExpandEventOut
	f.ok(t, "memory_expand_event", map[string]any{"batch_id": ev.BatchID, "event_id": ev.Items[0].Ref}, &d)
	require.NotEmpty(t, d.Sources)
	assert.NotEqual(t, ev.BatchID, d.BatchID, "an expansion is a new batch")
	assert.Contains(t, d.Sources[0].Content, "Shadow")

	msg := f.fails(t, "memory_expand_event", map[string]any{"batch_id": "nope", "event_id": ev.Items[0].Ref})
	assert.Contains(t, msg, "unknown")
	var raw SearchOut
	f.ok(t, "memory_search_raw", map[string]any{"query": "Shadow"}, &raw)
	msg = f.fails(t, "memory_expand_event", map[string]any{"batch_id": raw.BatchID, "event_id": ev.Items[0].Ref})
	assert.Contains(t, msg, "not an item of batch")

	t.Run("block levels", func(t *testing.T) {
		require.NotEmpty(t, raw.Items[0].Block)
		for level := 0; level <= 5; level++ {
			var b ExpandBlockOut
			f.ok(t, "memory_expand_block", map[string]any{"batch_id": raw.BatchID, "block_id": raw.Items[0].Block, "level": level}, &b)
			assert.Equal(t, level, b.Level)
			if level == 5 {
				assert.Len(t, b.Messages, 4)
				assert.Equal(t, 4, b.Total)
			} else {
				assert.NotEmpty(t, b.Text)
			}
		}
		var p ExpandBlockOut
		f.ok(t, "memory_expand_block", map[string]any{"batch_id": raw.BatchID, "id": raw.Items[0].Block, "level": 5, "limit": 3}, &p)
		assert.Len(t, p.Messages, 3)
		assert.Equal(t, "3", p.Next)
		f.ok(t, "memory_expand_block", map[string]any{"batch_id": raw.BatchID, "id": raw.Items[0].Block, "level": 5, "cursor": p.Next}, &p)
		assert.Len(t, p.Messages, 1)
		assert.Empty(t, p.Next)
		msg := f.fails(t, "memory_expand_block", map[string]any{"batch_id": raw.BatchID, "block_id": raw.Items[0].Block, "level": 9})
		assert.Contains(t, msg, "0–5")
	})
	t.Run("graph node", func(t *testing.T) {
		var g SearchOut
		f.ok(t, "memory_search_graph", map[string]any{"query": "Alice Seattle"}, &g)
		require.NotEmpty(t, g.Items)
		var n ExpandNodeOut
		f.ok(t, "memory_expand_graph_node", map[string]any{"batch_id": g.BatchID, "node_id": g.Items[0].Ref}, &n)
		assert.Equal(t, g.Items[0].Ref, n.Ref)
		assert.NotEmpty(t, n.Facts)
	})
}

func TestThreadTools(t *testing.T) {
	f := newFixture(t)
	var list BlocksOut
	f.ok(t, "memory_get_blocks", nil, &list)
	require.Len(t, list.Threads, 1, "only the served scopes' threads")
	assert.Equal(t, "chat", list.Threads[0].Name)

	var b BlocksOut
	f.ok(t, "memory_get_blocks", map[string]any{"thread": "chat"}, &b)
	assert.Equal(t, 2, b.Counts.Blocks)
	assert.Equal(t, 1, b.Counts.OpenTurns)
	assert.Empty(t, b.EmptyReason)
	var be ExpandBlockOut
	f.ok(t, "memory_expand_block", map[string]any{"batch_id": b.BatchID, "block_id": b.Blocks[0].Ref, "level": 0}, &be)

	// A thread with only an open tail, and an empty server.
	var c CaptureOut
	f.ok(t, "memory_capture", map[string]any{"thread": "fresh", "user": "hello", "assistant": "hi"}, &c)
	f.ok(t, "memory_get_blocks", map[string]any{"thread": "fresh"}, &b)
	assert.Contains(t, b.EmptyReason, "open_tail_pending")
	empty := &fixture{srv: NewServer(openMemory(t), Config{Scopes: []string{"global"}})}
	empty.cs = connect(t, empty.srv)
	empty.ok(t, "memory_get_blocks", nil, &b)
	assert.Contains(t, b.EmptyReason, "no_threads")

	var cv ContextOut
	f.ok(t, "memory_context", map[string]any{"thread": "chat", "budget": 500}, &cv)
	assert.Equal(t, 500, cv.Budget)
	assert.Contains(t, cv.Text, "Shadow")
	assert.LessOrEqual(t, cv.Tokens, 500)
}

func TestCaptureForgetRestore(t *testing.T) {
	f := newFixture(t)
	args := map[string]any{"messages": []map[string]any{{"role": "user", "content": "I bought a kayak."}, {"role": "assistant", "content": "Nice!"}}}
	var c1, c2 CaptureOut
	f.ok(t, "memory_capture", args, &c1)
	assert.Equal(t, scopeA, c1.Scope, "writes go to the first scope")
	assert.NotEmpty(t, c1.ReceiptID)
	assert.False(t, c1.Duplicate)
	f.ok(t, "memory_capture", args, &c2)
	assert.True(t, c2.Duplicate, "the same turn again is stored once")
	assert.Equal(t, c1.ReceiptID, c2.ReceiptID)
	var raw SearchOut
	f.ok(t, "memory_search_raw", map[string]any{"query": "kayak"}, &raw)
	require.Len(t, raw.Items, 1)

	msg := f.fails(t, "memory_capture", map[string]any{"messages": []map[string]any{{"content": "no role"}}})
	assert.Contains(t, msg, "role")
	msg = f.fails(t, "memory_capture", map[string]any{"thread": "other", "user": "x", "assistant": "y"})
	assert.Contains(t, msg, "retry")

	var ev SearchOut
	f.ok(t, "memory_search_events", map[string]any{"query": "Shadow dog"}, &ev)
	require.NotEmpty(t, ev.Items)
	ref := ev.Items[0].Ref
	var fo EventOut
	f.ok(t, "memory_forget", map[string]any{"id": ref}, &fo)
	assert.True(t, fo.Forgotten)
	f.ok(t, "memory_search_events", map[string]any{"query": "Shadow dog"}, &ev)
	for _, it := range ev.Items {
		assert.NotEqual(t, ref, it.Ref)
	}
	f.ok(t, "memory_restore", map[string]any{"event_id": ref}, &fo)
	assert.False(t, fo.Forgotten)
	f.ok(t, "memory_search_events", map[string]any{"query": "Shadow dog"}, &ev)
	assert.Equal(t, ref, ev.Items[0].Ref)
	msg = f.fails(t, "memory_forget", map[string]any{"event_id": "e99999"})
	assert.Contains(t, msg, "not found")
}

// TestResultBounds: a huge stored message never makes a result exceed
// maxResultBytes; clipped fields say so.
func TestResultBounds(t *testing.T) {
	f := newFixture(t)
	huge := strings.Repeat("kayak paddle river ", 30000) // ~570 KB
	var c CaptureOut
	f.ok(t, "memory_capture", map[string]any{"thread": "big", "user": huge, "assistant": "ok"}, &c)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"memory_search_raw", map[string]any{"query": "kayak", "limit": 50}},
		{"memory_context", map[string]any{"thread": "big", "budget_tokens": 100000}},
		{"memory_get_blocks", map[string]any{"limit": 50}},
	} {
		text := f.ok(t, tc.tool, tc.args, nil)
		assert.Less(t, len(text), maxResultBytes, tc.tool)
	}
	var raw SearchOut
	f.ok(t, "memory_search_raw", map[string]any{"query": "kayak"}, &raw)
	require.NotEmpty(t, raw.Items)
	assert.Less(t, len(raw.Items[0].Text), 4*textRunes)
}

// TestCaptureTurns: memory_capture with turns stores them in one
// transaction, all or none, and answers each turn's receipt; a replay is
// all duplicates.
func TestCaptureTurns(t *testing.T) {
	f := newFixture(t)
	turn := func(i int, content string) map[string]any {
		return map[string]any{"thread": "import-1", "receipt_id": fmt.Sprint("imp-", i), "project_scope": "project:0123456789abcdef0123",
			"messages": []map[string]any{{"role": "user", "content": content}, {"role": "assistant", "content": "ok"}}}
	}
	var turns []map[string]any
	for i := range 5 {
		turns = append(turns, turn(i, fmt.Sprint("imported turn ", i, " about the canoe")))
	}
	off := int64(77)
	var c CaptureOut
	f.ok(t, "memory_capture", map[string]any{"turns": turns, "cursor_key": "import:x", "cursor_offset": off}, &c)
	require.Len(t, c.Turns, 5)
	for i, r := range c.Turns {
		assert.Equal(t, "import-1", r.Thread)
		assert.Equal(t, uint64(i+1), r.Turn)
		assert.False(t, r.Duplicate)
	}
	assert.NotEmpty(t, c.Turns[1].SealedBlock, "BlockTurns 2: the second turn seals")
	require.NotNil(t, c.Cursor)
	assert.Equal(t, off, *c.Cursor)
	ths, err := f.mem.Threads(t.Context())
	require.NoError(t, err)
	var found bool
	for _, th := range ths {
		if th.Name == "import-1" {
			found = true
			assert.Equal(t, "project:0123456789abcdef0123", th.Scope)
			assert.Equal(t, uint64(5), th.Turns)
		}
	}
	assert.True(t, found)

	f.ok(t, "memory_capture", map[string]any{"turns": turns}, &c)
	for _, r := range c.Turns {
		assert.True(t, r.Duplicate, "a replay stores nothing twice")
	}

	// All or none: a bad turn anywhere stores none of the call's turns.
	bad := []map[string]any{turn(10, "fine"), {"thread": "import-1", "messages": []map[string]any{{"content": "no role"}}}}
	assert.Contains(t, f.fails(t, "memory_capture", map[string]any{"turns": bad}), "turns[1].messages[0] has no role")
	// A receipt stored with another turn is refused by the store itself.
	bad = []map[string]any{turn(11, "fine"), turn(0, "not what imp-0 stored")}
	assert.Contains(t, f.fails(t, "memory_capture", map[string]any{"turns": bad}), "turn 1")
	st, err := f.mem.Threads(t.Context())
	require.NoError(t, err)
	for _, th := range st {
		if th.Name == "import-1" {
			assert.Equal(t, uint64(5), th.Turns, "nothing of a refused call is stored")
		}
	}
	assert.Contains(t, f.fails(t, "memory_capture", map[string]any{"turns": turns, "user": "x"}), "inside turns")
	assert.Contains(t, f.fails(t, "memory_capture", map[string]any{"turns": []map[string]any{{"thread": "x"}}}), "no messages")
	many := make([]map[string]any, maxCaptureTurns+1)
	for i := range many {
		many[i] = turn(100+i, "x")
	}
	assert.Contains(t, f.fails(t, "memory_capture", map[string]any{"turns": many}), "at most")
}
