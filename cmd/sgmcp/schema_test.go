package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestToolSchemas: every tool has an input and an output schema; no
// property anywhere has a type list, every array names its items, and
// the annotations say what the tool does.
func TestToolSchemas(t *testing.T) {
	f := newFixture(t)
	res, err := f.cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		t.Run(tool.Name, func(t *testing.T) {
			assert.NotEmpty(t, tool.Description)
			require.NotNil(t, tool.Annotations)
			for _, s := range []any{tool.InputSchema, tool.OutputSchema} {
				require.NotNil(t, s)
				b, err := json.Marshal(s)
				require.NoError(t, err)
				var tree map[string]any
				require.NoError(t, json.Unmarshal(b, &tree))
				assert.Equal(t, "object", tree["type"])
				checkSchema(t, tool.Name, tree)
			}
		})
	}
	assert.ElementsMatch(t, []string{"memory_search_events", "memory_search_graph", "memory_search_raw", "memory_expand_event",
		"memory_expand_graph_node", "memory_expand_block", "memory_get_blocks", "memory_context", "memory_assess", "memory_record_use",
		"memory_ask", "memory_capture", "memory_forget", "memory_restore", "memory_status",
		"memory_import_prompt", "memory_import_preview", "memory_import_commit", "memory_import_undo"}, names)
	for _, tool := range res.Tools {
		switch tool.Name {
		case "memory_forget", "memory_import_undo":
			require.NotNil(t, tool.Annotations.DestructiveHint)
			assert.True(t, *tool.Annotations.DestructiveHint)
		case "memory_search_events", "memory_search_graph", "memory_search_raw", "memory_expand_event", "memory_expand_block",
			"memory_expand_graph_node", "memory_get_blocks", "memory_context", "memory_status", "memory_import_prompt":
			assert.True(t, tool.Annotations.ReadOnlyHint, tool.Name)
		default:
			assert.False(t, tool.Annotations.ReadOnlyHint, tool.Name)
		}
	}
}

func checkSchema(t *testing.T, path string, s map[string]any) {
	t.Helper()
	if typ, ok := s["type"]; ok {
		_, single := typ.(string)
		assert.True(t, single, "%s: type %v is not a single type", path, typ)
		if typ == "array" {
			items, ok := s["items"].(map[string]any)
			if assert.True(t, ok, "%s: array without items", path) {
				checkSchema(t, path+"[]", items)
			}
		}
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for name, p := range props {
			checkSchema(t, path+"."+name, p.(map[string]any))
		}
	}
}
