package model_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/extmem"
	"github.com/stratagate/stratagate/gate"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
)

// prop walks a task's reply schema: each name is a property, "[]" the
// items of an array.
func prop(t *testing.T, task model.Task, path ...string) map[string]any {
	t.Helper()
	var s map[string]any
	require.NoError(t, json.Unmarshal(model.PromptFor(task).Schema, &s))
	for _, p := range path {
		var next any
		if p == "[]" {
			next = s["items"]
		} else {
			props, _ := s["properties"].(map[string]any)
			next = props[p]
		}
		m, ok := next.(map[string]any)
		require.True(t, ok, "schema of %s has no %v", task, path)
		s = m
	}
	return s
}

func bound(t *testing.T, key string, task model.Task, path ...string) int {
	t.Helper()
	v, ok := prop(t, task, path...)[key].(float64)
	require.True(t, ok, "schema of %s %v has no %s", task, path, key)
	return int(v)
}

// TestSchemaBoundsMatchValidation: each reply schema asks for exactly the
// limits the consuming package enforces, so a server that follows the
// schema never produces output that code rejects for its size.
func TestSchemaBoundsMatchValidation(t *testing.T) {
	d := model.TaskDeriveBlock
	tests := []struct {
		name      string
		got, want int
	}{
		{"derive title", bound(t, "maxLength", d, "title"), layers.MaxTitleRunes},
		{"derive tags", bound(t, "maxItems", d, "tags"), layers.MaxTags},
		{"derive tag", bound(t, "maxLength", d, "tags", "[]"), layers.MaxTagRunes},
		{"derive summary", bound(t, "maxLength", d, "summary"), layers.MaxSummaryRunes},
		{"derive facts", bound(t, "maxItems", d, "facts"), layers.MaxFacts},
		{"derive fact", bound(t, "maxLength", d, "facts", "[]", "text"), layers.MaxFactRunes},
		{"derive cites", bound(t, "maxItems", d, "facts", "[]", "message_ids"), layers.MaxFactCites},
	}
	e := model.TaskExtractEvents
	tests = append(tests, []struct {
		name      string
		got, want int
	}{
		{"cards", bound(t, "maxItems", e, "events"), events.MaxCardsPerBlock},
		{"card title", bound(t, "maxLength", e, "events", "[]", "title"), events.MaxTitleRunes},
		{"card summary", bound(t, "maxLength", e, "events", "[]", "summary"), events.MaxSummaryRunes},
		{"card tags", bound(t, "maxItems", e, "events", "[]", "tags"), events.MaxTags},
		{"card tag", bound(t, "maxLength", e, "events", "[]", "tags", "[]"), events.MaxNameRunes},
		{"card quotes", bound(t, "maxItems", e, "events", "[]", "quotes"), events.MaxQuotes},
		{"card quote", bound(t, "maxLength", e, "events", "[]", "quotes", "[]"), events.MaxQuoteRunes},
		{"card cites", bound(t, "maxItems", e, "events", "[]", "message_ids"), events.MaxCites},
		{"card participants", bound(t, "maxItems", e, "events", "[]", "participants"), events.MaxNames},
		{"card participant", bound(t, "maxLength", e, "events", "[]", "participants", "[]"), events.MaxNameRunes},
		{"card entities", bound(t, "maxItems", e, "events", "[]", "entities"), events.MaxNames},
		{"card time text", bound(t, "maxLength", e, "events", "[]", "time_text"), events.MaxTitleRunes},
		{"ops", bound(t, "maxItems", model.TaskProjectGraph, "ops"), graph.MaxOpsPerBatch},
		{"op name", bound(t, "maxLength", model.TaskProjectGraph, "ops", "[]", "name"), graph.MaxNameRunes},
		{"op value", bound(t, "maxLength", model.TaskProjectGraph, "ops", "[]", "value"), graph.MaxValueRunes},
		{"op tags", bound(t, "maxItems", model.TaskProjectGraph, "ops", "[]", "tags"), graph.MaxTags},
		{"assess refs", bound(t, "maxItems", model.TaskAssessEvidence, "evidence_refs"), gate.MaxRefs},
		{"assess fit", bound(t, "maxLength", model.TaskAssessEvidence, "fit"), gate.MaxTextLen},
		{"assess missing", bound(t, "maxLength", model.TaskAssessEvidence, "missing"), gate.MaxTextLen},
		{"assess query", bound(t, "maxLength", model.TaskAssessEvidence, "next_query"), gate.MaxQueryLen},
		{"answer refs", bound(t, "maxItems", model.TaskAnswer, "refs"), gate.MaxRefs},
		{"import targets", bound(t, "maxItems", model.TaskImportDecide, "target_ids"), extmem.MaxTopK},
		{"import reason", bound(t, "maxLength", model.TaskImportDecide, "reason"), extmem.MaxReasonRunes},
	}...)
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.got, tt.name)
	}
}

// TestSchemaEnumsMatchValidation: the enumerations offered are exactly
// the values code accepts.
func TestSchemaEnumsMatchValidation(t *testing.T) {
	var types []string
	for _, ty := range events.Types {
		types = append(types, string(ty))
	}
	assert.ElementsMatch(t, types, model.Enums("event_type"))
	for _, s := range model.Enums("status") {
		assert.Equal(t, events.Status(s), events.NormalizeStatus(s), s)
	}
	assert.Len(t, model.Enums("status"), 5)
	for _, c := range model.Enums("criticality") {
		assert.Equal(t, events.Criticality(c), events.NormalizeCriticality(c), c)
	}
	assert.Len(t, model.Enums("criticality"), 4)
	for _, k := range model.Enums("kind") {
		assert.True(t, graph.ValidKind(graph.Kind(k)), k)
	}
	assert.Len(t, model.Enums("kind"), 6)
	var keys, rels []string
	for k := range graph.FactKeys {
		keys = append(keys, k)
	}
	for r := range graph.Relations {
		rels = append(rels, r)
	}
	slices.Sort(keys)
	slices.Sort(rels)
	assert.Equal(t, keys, model.Enums("key"))
	assert.Equal(t, rels, model.Enums("relation"))
	for _, v := range model.Enums("verdict") {
		assert.True(t, gate.Verdict(v).Valid(), v)
	}
	assert.Len(t, model.Enums("verdict"), 3)
	for _, s := range model.Enums("next_strategy") {
		assert.True(t, gate.Strategy(s).Valid(), s)
	}
	assert.Len(t, model.Enums("next_strategy"), 7)
	actions := []string{string(extmem.ActionAdd), string(extmem.ActionMerge), string(extmem.ActionSupersede),
		string(extmem.ActionConflict), string(extmem.ActionIgnore)}
	assert.Equal(t, actions, model.Enums("action"))
	assert.ElementsMatch(t, actions, prop(t, model.TaskImportDecide, "action")["enum"])
	// The schema's enums are the lists above.
	assert.ElementsMatch(t, model.Enums("key"), prop(t, model.TaskProjectGraph, "ops", "[]", "key")["enum"])
}
