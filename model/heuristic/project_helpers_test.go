package heuristic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// The graph schema (package graph declares it; DESIGN.md, Graph). It is
// restated here rather than imported so that this package's tests build
// on their own: importing graph or internal/sample would pull in the root
// package, and any work in progress there would stop every test of the
// heuristic model from compiling.
var (
	projKinds = map[string]bool{"person": true, "project": true, "organization": true, "tool": true, "place": true, "topic": true}
	projKeys  = map[string]bool{
		"role": true, "job_title": true, "status": true, "uses_package_manager": true, "database": true,
		"deploy_platform": true, "launch_date": true, "editor": true, "indentation": true, "drinks": true, "diet": true,
		"likes": true, "dislikes": true, "hobby": true, "uses_tool": true, "skill": true, "decision": true,
	}
	projRelations = map[string]bool{
		"lives_in": true, "works_at": true, "located_in": true, "friend_of": true, "sibling_of": true,
		"parent_of": true, "child_of": true, "has_pet": true, "member_of": true, "works_on": true,
		"uses": true, "visited": true, "knows": true,
	}
)

// Limits of graph.Apply.
const (
	projMaxNameRunes  = 128
	projMaxValueRunes = 256
	projMaxTags       = 8
	projMaxOps        = 512
)

// nameKey normalises a name as package graph does.
func nameKey(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// ---- helpers -----------------------------------------------------------------

// projectRaw runs the projector on in and decodes its output strictly.
func projectRaw(t testing.TB, in any) (string, model.ProjectOutput) {
	t.Helper()
	raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskProjectGraph, Input: in})
	require.NoError(t, err)
	var out model.ProjectOutput
	require.NoError(t, model.Decode(raw, &out), "raw: %s", raw)
	return raw, out
}

// projectOps projects in, checks every op against the graph schema and
// the batch, and returns the ops.
func projectOps(t *testing.T, in *model.ProjectInput) []model.GraphOp {
	t.Helper()
	raw, out := projectRaw(t, in)
	requireValidOps(t, in, raw, out)
	return out.Ops
}

// requireValidOps checks what graph.Apply checks, plus the projector's own
// promises: ops cite 1–8 events, all of the batch; kinds, keys and
// relations come from the graph schema; names and values fit; upserts are
// not repeated; no two ops are identical.
func requireValidOps(t *testing.T, in *model.ProjectInput, raw string, out model.ProjectOutput) {
	t.Helper()
	require.True(t, utf8.ValidString(raw))
	require.NotNil(t, out.Ops, "ops must be [] rather than null")
	require.LessOrEqual(t, len(out.Ops), projMaxOps)
	batch := map[uint64]bool{}
	for _, e := range in.Events {
		batch[e.ID] = true
	}
	text := func(field, s string, max int) {
		t.Helper()
		require.NotEmpty(t, strings.TrimSpace(s), "%s empty", field)
		require.True(t, utf8.ValidString(s), "%s: invalid UTF-8", field)
		require.LessOrEqual(t, utf8.RuneCountInString(s), max, "%s: %q", field, s)
		require.Equal(t, strings.TrimSpace(s), s, "%s: surrounding space", field)
	}
	seen := map[string]bool{}
	upserts := map[string]bool{}
	for _, op := range out.Ops {
		js, _ := json.Marshal(op)
		require.False(t, seen[string(js)], "duplicate op %s", js)
		seen[string(js)] = true
		require.NotEmpty(t, op.EventIDs, "op cites nothing: %s", js)
		require.LessOrEqual(t, len(op.EventIDs), 8, "%s", js)
		for _, id := range op.EventIDs {
			require.True(t, batch[id], "op cites event %d outside the batch: %s", id, js)
		}
		require.True(t, projKinds[op.Kind], "kind %q", op.Kind)
		text("name", op.Name, projMaxNameRunes)
		if op.ValidFrom != "" {
			_, err := time.Parse(time.RFC3339, op.ValidFrom)
			require.NoError(t, err)
		}
		switch op.Op {
		case model.OpUpsertNode:
			k := op.Kind + "\x00" + nameKey(op.Name)
			require.False(t, upserts[k], "node upserted twice: %s", js)
			upserts[k] = true
			require.LessOrEqual(t, len(op.Tags), projMaxTags)
			for _, tag := range op.Tags {
				text("tag", tag, projMaxNameRunes)
			}
		case model.OpAddAlias:
			text("alias", op.Alias, projMaxNameRunes)
		case model.OpSetFact, model.OpCloseFact:
			require.True(t, projKeys[op.Key], "fact key %q is not in the schema", op.Key)
			text("value", op.Value, projMaxValueRunes)
		case model.OpAddEdge, model.OpCloseEdge:
			require.True(t, projRelations[op.Relation], "relation %q is not in the schema", op.Relation)
			if op.TargetKind != "" {
				require.True(t, projKinds[op.TargetKind], "target kind %q", op.TargetKind)
			}
			text("target", op.Target, projMaxNameRunes)
		default:
			t.Fatalf("unknown op %q", op.Op)
		}
	}
}

// pev builds a user event spoken by speaker with one quote; the summary
// and title follow the extractor's conventions.
func pev(id uint64, speaker, quote, typ, status, mentioned string) model.ProjectEvent {
	return model.ProjectEvent{
		ID: id, Title: strings.TrimRight(quote, ".!"), Summary: speaker + ": " + quote, Quotes: []string{quote},
		EventType: typ, Status: status, Participants: []string{speaker}, Speakers: []string{speaker},
		MentionedAt: mentioned,
	}
}

const (
	mar19 = "2024-03-19T20:10:00-04:00"
	apr09 = "2024-04-09T20:05:00-04:00"
	may08 = "2024-05-08T19:00:00-07:00"
)

// findOps returns the ops matching op, kind, name (case-insensitive),
// key or relation, and value or target.
func findOps(ops []model.GraphOp, op, kind, name, slot, value string) []model.GraphOp {
	var out []model.GraphOp
	for _, o := range ops {
		if o.Op != op || o.Kind != kind || !strings.EqualFold(o.Name, name) {
			continue
		}
		switch op {
		case model.OpSetFact, model.OpCloseFact:
			if o.Key != slot || !strings.EqualFold(o.Value, value) {
				continue
			}
		case model.OpAddEdge, model.OpCloseEdge:
			if o.Relation != slot || !strings.EqualFold(o.Target, value) {
				continue
			}
		case model.OpAddAlias:
			if !strings.EqualFold(o.Alias, value) {
				continue
			}
		}
		out = append(out, o)
	}
	return out
}

// requireOp asserts exactly one matching op and returns it with its index.
func requireOp(t *testing.T, ops []model.GraphOp, op, kind, name, slot, value string) (model.GraphOp, int) {
	t.Helper()
	found := findOps(ops, op, kind, name, slot, value)
	require.Len(t, found, 1, "want one %s %s %q %s %q in\n%s", op, kind, name, slot, value, dumpOps(ops))
	for i, o := range ops {
		js1, _ := json.Marshal(o)
		js2, _ := json.Marshal(found[0])
		if string(js1) == string(js2) {
			return found[0], i
		}
	}
	return found[0], -1
}

// opIndex returns the index of the upsert of (kind, name), or -1.
func opIndex(ops []model.GraphOp, op, kind, name string) int {
	for i, o := range ops {
		if o.Op == op && o.Kind == kind && strings.EqualFold(o.Name, name) {
			return i
		}
	}
	return -1
}

// dumpOps renders ops one per line.
func dumpOps(ops []model.GraphOp) string {
	var b strings.Builder
	for i, o := range ops {
		js, _ := json.Marshal(o)
		fmt.Fprintf(&b, "%3d %s\n", i, js)
	}
	return b.String()
}
