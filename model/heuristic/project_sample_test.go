package heuristic_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/events/temporal"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// ---- the sample conversation --------------------------------------------------------

// projSampleBatches extracts the sample in blocks of 12 turns (blocks
// never span threads; neighbours are context) and converts each block's
// cards into ProjectEvents with ids 1, 2, … as loadBatch in package graph
// does: speakers are the cited user messages' speakers, the mention time
// is the cited message's time, and the time text is resolved against it.
func projSampleBatches(t testing.TB) [][]model.ProjectEvent {
	t.Helper()
	var batches [][]model.ProjectEvent
	next := uint64(1)
	for _, in := range sampleBlocks(t, 12) {
		raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskExtractEvents, Input: in})
		require.NoError(t, err)
		var out model.ExtractOutput
		require.NoError(t, model.Decode(raw, &out))
		byID := map[uint64]model.DeriveMessage{}
		for _, m := range in.Messages {
			byID[m.ID] = m
		}
		var batch []model.ProjectEvent
		for _, e := range out.Events {
			m := byID[e.MessageIDs[0]]
			pe := model.ProjectEvent{
				ID: next, Title: e.Title, Summary: e.Summary, Quotes: e.Quotes, EventType: e.EventType, Status: e.Status,
				Participants: e.Participants, Entities: e.Entities, MentionedAt: m.At.Format(time.RFC3339), TimeText: e.TimeText,
			}
			if m.Role == "user" && m.Speaker != "" {
				pe.Speakers = []string{m.Speaker}
			}
			if e.TimeText != "" {
				for _, tm := range temporal.Find(e.Quotes[0], m.At) {
					if e.Quotes[0][tm.Offset:tm.Offset+tm.Length] == e.TimeText && tm.Known() {
						pe.HappenedStart = tm.Start.Format(time.RFC3339)
						pe.HappenedEnd = tm.End.Format(time.RFC3339)
						break
					}
				}
			}
			batch = append(batch, pe)
			next++
		}
		batches = append(batches, batch)
	}
	return batches
}

// knownFor returns the nodes proposed so far whose name or alias is a
// participant, entity or speaker of batch, as package graph offers them.
func knownFor(nodes []model.KnownNode, batch []model.ProjectEvent) []model.KnownNode {
	names := map[string]bool{}
	for _, e := range batch {
		for _, s := range append(append(append([]string(nil), e.Participants...), e.Entities...), e.Speakers...) {
			names[nameKey(s)] = true
		}
	}
	var out []model.KnownNode
	for _, n := range nodes {
		if names[nameKey(n.Name)] {
			out = append(out, n)
			continue
		}
		for _, a := range n.Aliases {
			if names[nameKey(a)] {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// requireSampleFacts asserts the sample's planted graph facts.
func requireSampleFacts(t *testing.T, ops []model.GraphOp) {
	t.Helper()
	has := func(op, kind, name, slot, value string) {
		t.Helper()
		require.NotEmpty(t, findOps(ops, op, kind, name, slot, value), "missing %s %s %q %s %q", op, kind, name, slot, value)
	}
	has(model.OpAddEdge, "person", "Mia Chen", "works_at", "Northwind")
	has(model.OpAddEdge, "person", "Leo Park", "lives_in", "Seattle")
	pets := append(findOps(ops, model.OpAddEdge, "person", "Mia Chen", "has_pet", "Kiwi"), findOps(ops, model.OpAddEdge, "person", "Mia Chen", "has_pet", "Pixel")...)
	require.NotEmpty(t, pets, "Mia has a pet")
	has(model.OpSetFact, "project", "Atlas", "uses_package_manager", "pnpm")
	has(model.OpSetFact, "project", "Atlas", "database", "Postgres")
}

func TestProjectSample(t *testing.T) {
	batches := projSampleBatches(t)
	require.Greater(t, len(batches), 5)

	// One batch with every card of the sample.
	var all []model.ProjectEvent
	for _, b := range batches {
		all = append(all, b...)
	}
	in := &model.ProjectInput{Events: all}
	ops := projectOps(t, in)
	t.Logf("whole sample: %d events, %d ops\n%s", len(all), len(ops), dumpOps(ops))
	requireSampleFacts(t, ops)
	// The move completes the plan: both events are cited.
	seattle := findOps(ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Seattle")
	require.NotEmpty(t, seattle)
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Boston")
	requireOp(t, ops, model.OpSetFact, "project", "Atlas", "deploy_platform", "Fly.io")
	requireOp(t, ops, model.OpSetFact, "project", "Atlas", "launch_date", "June 3rd")
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "sibling_of", "Ana")
	requireOp(t, ops, model.OpSetFact, "person", "Mia Chen", "drinks", "coffee")
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "works_at", "Cascadia Labs")

	// Block by block, as package graph projects, with the nodes proposed
	// by earlier blocks offered as known nodes.
	var nodes []model.KnownNode
	var union []model.GraphOp
	for bi, batch := range batches {
		bin := &model.ProjectInput{Events: batch, Nodes: knownFor(nodes, batch)}
		bops := projectOps(t, bin)
		t.Logf("block %d: %d events, %d known nodes, %d ops\n%s", bi+1, len(batch), len(bin.Nodes), len(bops), dumpOps(bops))
		for _, o := range bops {
			if o.Op == model.OpUpsertNode && opIndex(union, o.Op, o.Kind, o.Name) < 0 {
				nodes = append(nodes, model.KnownNode{ID: uint64(len(nodes) + 1), Kind: o.Kind, Name: o.Name})
			}
			if o.Op == model.OpAddEdge && o.TargetKind != "" {
				nodes = append(nodes, model.KnownNode{ID: uint64(len(nodes) + 1), Kind: o.TargetKind, Name: o.Target})
			}
			union = append(union, o)
		}
	}
	requireSampleFacts(t, dedupeUnion(union))
}

// dedupeUnion keeps the first of equal ops (ignoring citations).
func dedupeUnion(ops []model.GraphOp) []model.GraphOp {
	seen := map[string]bool{}
	var out []model.GraphOp
	for _, o := range ops {
		o.EventIDs = nil
		js, _ := json.Marshal(o)
		if !seen[string(js)] {
			seen[string(js)] = true
			out = append(out, o)
		}
	}
	return out
}
