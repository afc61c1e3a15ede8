package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRedaction: the key planted in a stored message reaches no output,
// error messages included, while the store keeps it verbatim.
func TestRedaction(t *testing.T) {
	f := newFixture(t)
	check := func(tool, text string) {
		t.Helper()
		assert.NotContains(t, text, plantedKey, tool)
		assert.NotContains(t, text, plantedKey[8:], tool)
	}
	var raw SearchOut
	text := f.ok(t, "memory_search_raw", map[string]any{"query": "OpenAI key demo"}, &raw)
	check("memory_search_raw", text)
	require.NotEmpty(t, raw.Items)
	assert.Contains(t, text, "[redacted:api_key]")

	var ev SearchOut
	text = f.ok(t, "memory_search_events", map[string]any{"query": "OpenAI key"}, &ev)
	check("memory_search_events", text)
	text = f.ok(t, "memory_search_graph", map[string]any{"query": "OpenAI key"}, nil)
	check("memory_search_graph", text)
	for _, it := range ev.Items {
		text = f.ok(t, "memory_expand_event", map[string]any{"batch_id": ev.BatchID, "event_id": it.Ref}, nil)
		check("memory_expand_event", text)
	}
	for level := 0; level <= 5; level++ {
		text = f.ok(t, "memory_expand_block", map[string]any{"batch_id": raw.BatchID, "block_id": raw.Items[0].Block, "level": level}, nil)
		check("memory_expand_block", text)
	}
	text = f.ok(t, "memory_get_blocks", map[string]any{"thread": "chat"}, nil)
	check("memory_get_blocks", text)
	text = f.ok(t, "memory_context", map[string]any{"thread": "chat", "budget_tokens": 4000}, nil)
	check("memory_context", text)
	assert.Contains(t, text, "[redacted:api_key]")
	text = f.ok(t, "memory_ask", map[string]any{"question": "What is Sam's OpenAI key for the demo?"}, nil)
	check("memory_ask", text)
	text = f.ok(t, "memory_assess", map[string]any{"batch_id": raw.BatchID, "verdict": "partial", "evidence_refs": []string{raw.Items[0].Ref},
		"fit": "the key is " + plantedKey, "missing": plantedKey, "next_strategy": "search_raw_memory", "next_query": plantedKey}, nil)
	check("memory_assess", text)

	// Inputs echoed in errors are redacted too.
	text = f.fails(t, "memory_search_raw", map[string]any{"query": "x", plantedKey: 1})
	check("error", text)
	text = f.fails(t, "memory_get_blocks", map[string]any{"thread": "t " + plantedKey})
	check("error", text)
	text = f.fails(t, "memory_record_use", map[string]any{"assessment_id": plantedKey})
	check("error", text)

	// Capture stores what it is given (L5 verbatim); its receipt is redacted.
	text = f.ok(t, "memory_capture", map[string]any{"user": "new key " + plantedKey, "assistant": "ok", "receipt_id": plantedKey}, nil)
	check("memory_capture", text)
	msgs, err := f.mem.Messages(t.Context(), 3)
	require.NoError(t, err)
	assert.True(t, strings.Contains(msgs[0].Content, plantedKey), "the store keeps the message verbatim")
	text = f.ok(t, "memory_status", nil, nil)
	check("memory_status", text)
}
