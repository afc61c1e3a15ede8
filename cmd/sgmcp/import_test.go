package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/extmem"
)

const importText = "Here you go:\n```json\n" + `{"format": "stratagate.external-memory.v2", "memories": [
 {"kind": "fact", "title": "Sam keeps bees", "summary": "Sam keeps two beehives in the back garden.", "original_text": "I keep two beehives in the back garden.", "temporal": {"precision": "unknown", "basis": "unknown"}},
 {"kind": "preference", "title": "Sam prefers short answers", "summary": "Sam likes brief, direct answers.", "original_text": "Keep answers short, please.", "temporal": {"precision": "unknown", "basis": "unknown"}}
]}` + "\n```\n"

// TestImportTools runs the import over MCP: prompt, preview, a commit
// accepting everything, the imported event searchable, undo.
func TestImportTools(t *testing.T) {
	f := newFixture(t)
	var pr ImportPromptOut
	f.ok(t, "memory_import_prompt", map[string]any{}, &pr)
	assert.Equal(t, extmem.Format, pr.Format)
	assert.Contains(t, pr.Prompt, extmem.Format)

	var p ImportPreviewOut
	f.ok(t, "memory_import_preview", map[string]any{"text": importText, "limit": 1}, &p)
	require.Equal(t, 2, p.Total)
	require.Len(t, p.Candidates, 1)
	assert.Equal(t, "1", p.Next)
	assert.Equal(t, scopeA, p.Scope)
	var p2 ImportPreviewOut
	f.ok(t, "memory_import_preview", map[string]any{"preview_id": p.PreviewID, "cursor": p.Next}, &p2)
	require.Len(t, p2.Candidates, 1)
	assert.Equal(t, 1, p2.Candidates[0].Index)

	var c ImportCommitOut
	f.ok(t, "memory_import_commit", map[string]any{"preview_id": p.PreviewID, "accept_all": true}, &c)
	assert.Len(t, c.Created, 2)
	assert.Regexp(t, `^b\d+$`, c.Block)
	msg := f.fails(t, "memory_import_commit", map[string]any{"preview_id": p.PreviewID})
	assert.Contains(t, msg, "committed")
	require.NoError(t, f.mem.WaitIdle(t.Context()))

	var s SearchOut
	f.ok(t, "memory_search_events", map[string]any{"query": "beehives garden"}, &s)
	found := false
	for _, it := range s.Items {
		found = found || it.Ref == c.Created[0]
	}
	assert.True(t, found, "the imported event is searchable: %+v", s.Items)

	var u ImportUndoOut
	f.ok(t, "memory_import_undo", map[string]any{"id": c.BatchID}, &u)
	assert.Equal(t, "undone", u.State)
	f.ok(t, "memory_search_events", map[string]any{"query": "beehives garden"}, &s)
	for _, it := range s.Items {
		assert.NotEqual(t, c.Created[0], it.Ref)
	}

	f.fails(t, "memory_import_preview", map[string]any{"text": "no document here"})
	f.fails(t, "memory_import_preview", map[string]any{"text": importText, "scope": "project:elsewhere"})
	f.fails(t, "memory_import_undo", map[string]any{"batch_id": "x"})
}
