package stratagate_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// projectModel answers projection with fn and everything else with the
// heuristic model, counting extraction calls.
type projectModel struct {
	mu       sync.Mutex
	fn       func(in *model.ProjectInput) (string, error)
	extracts atomic.Int64
}

func (p *projectModel) Name() string { return "project-script" }

func (p *projectModel) Complete(ctx context.Context, req model.Request) (string, error) {
	switch req.Task {
	case model.TaskExtractEvents:
		p.extracts.Add(1)
	case model.TaskProjectGraph:
		p.mu.Lock()
		fn := p.fn
		p.mu.Unlock()
		if fn != nil {
			return fn(req.Input.(*model.ProjectInput))
		}
	}
	return heuristic.New().Complete(ctx, req)
}

func opsJSON(ops ...model.GraphOp) string {
	b, _ := json.Marshal(model.ProjectOutput{Ops: ops})
	return string(b)
}

// moveTurns: Leo lives in Boston (turn 1), then moves to Denver (turn 3).
func moveTurns() []stratagate.Turn {
	boston := time.FixedZone("", -4*3600)
	at := func(d int) time.Time { return time.Date(2024, 3, d, 18, 0, 0, 0, boston) }
	mk := func(i int, day int, text string) stratagate.Turn {
		return stratagate.Turn{Thread: "leo", ReceiptID: "leo-" + text[:8], Messages: []stratagate.Message{
			{Role: "user", Speaker: "Leo Park", Content: text, At: at(day)},
			{Role: "assistant", Speaker: "assistant", Content: "Noted.", At: at(day).Add(time.Second)},
		}}
	}
	return []stratagate.Turn{
		mk(1, 1, "I live in Boston, in a small flat near the river."),
		mk(2, 2, "Work is busy this month."),
		mk(3, 20, "I moved from Boston to Denver last Saturday."),
		mk(4, 21, "The new place is great."),
	}
}

func TestProjectionRejectsForeignEventsAndClosesState(t *testing.T) {
	pm := &projectModel{}
	var seen []uint64
	pm.fn = func(in *model.ProjectInput) (string, error) {
		var ops []model.GraphOp
		for _, ev := range in.Events {
			seen = append(seen, ev.ID)
			q := strings.Join(ev.Quotes, " ")
			switch {
			case strings.Contains(q, "live in Boston"):
				ops = append(ops, model.GraphOp{Op: model.OpAddEdge, Kind: "person", Name: "Leo Park", Relation: "lives_in", Target: "Boston", TargetKind: "place", EventIDs: []uint64{ev.ID}})
				// Cites an event of no batch at all: rejected.
				ops = append(ops, model.GraphOp{Op: model.OpSetFact, Kind: "person", Name: "Leo Park", Key: "role", Value: "spy", EventIDs: []uint64{ev.ID + 1000}})
			case strings.Contains(q, "moved from Boston to Denver"):
				ops = append(ops, model.GraphOp{Op: model.OpAddEdge, Kind: "person", Name: "Leo Park", Relation: "lives_in", Target: "Denver", TargetKind: "place", EventIDs: []uint64{ev.ID}})
				// Cites the previous batch's event: rejected too.
				ops = append(ops, model.GraphOp{Op: model.OpSetFact, Kind: "person", Name: "Leo Park", Key: "hobby", Value: "rowing", EventIDs: []uint64{seen[0]}})
			}
		}
		return opsJSON(ops...), nil
	}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 2, Model: pm})
	for _, tr := range moveTurns() {
		_, err := mem.Append(ctx, tr)
		require.NoError(t, err)
	}
	waitIdle(t, mem)
	s, err := mem.Stats(ctx)
	require.NoError(t, err)
	require.Zero(t, s.JobsFailed)

	hits, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: "Leo"})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	leo := hits[0]
	assert.Equal(t, "Leo Park", leo.Name)
	assert.Equal(t, "person", leo.Kind)
	now, err := mem.ExpandGraphNode(ctx, leo.ID, time.Time{})
	require.NoError(t, err)
	require.Len(t, now.Edges, 1, "one current lives_in")
	assert.Equal(t, "Denver", now.Edges[0].ToName)
	for _, f := range now.Facts {
		assert.NotEqual(t, "spy", f.Value, "an op citing a foreign event is rejected")
		assert.NotEqual(t, "rowing", f.Value, "an op citing another batch's event is rejected")
	}
	// The move happened "last Saturday" before 20 March 2024: 16 March.
	moved := now.Edges[0].ValidFrom
	assert.Equal(t, "2024-03-16", moved.Format("2006-01-02"))
	before, err := mem.ExpandGraphNode(ctx, leo.ID, moved.Add(-time.Hour))
	require.NoError(t, err)
	require.Len(t, before.Edges, 1)
	assert.Equal(t, "Boston", before.Edges[0].ToName, "as of before the move: Boston")
	hist, err := mem.GraphNodeHistory(ctx, leo.ID)
	require.NoError(t, err)
	require.Len(t, hist.Edges, 2)
	for _, e := range hist.Edges {
		if e.ToName == "Boston" {
			assert.True(t, e.ValidTo.Equal(moved), "closed at the move's happened time, not rewritten")
			assert.NotEmpty(t, e.SourceEventIDs)
		}
	}
	assert.Equal(t, int64(2), pm.extracts.Load(), "two blocks, two extractions")
}

func TestFailedProjectionRetriesAlone(t *testing.T) {
	pm := &projectModel{}
	var calls atomic.Int64
	pm.fn = func(in *model.ProjectInput) (string, error) {
		if calls.Add(1) <= 2 {
			return "not json at all", nil
		}
		return opsJSON(model.GraphOp{Op: model.OpUpsertNode, Kind: "person", Name: "Leo Park", EventIDs: []uint64{in.Events[0].ID}}), nil
	}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 2, Model: pm, JobBackoff: time.Millisecond})
	for _, tr := range moveTurns()[:2] {
		_, err := mem.Append(ctx, tr)
		require.NoError(t, err)
	}
	waitIdle(t, mem)
	assert.Equal(t, int64(3), calls.Load(), "projection retried")
	assert.Equal(t, int64(1), pm.extracts.Load(), "events were extracted once")
	hits, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: "Leo Park"})
	require.NoError(t, err)
	require.Len(t, hits, 1)
}

func TestForgottenEventHidesDerivedFacts(t *testing.T) {
	pm := &projectModel{}
	pm.fn = func(in *model.ProjectInput) (string, error) {
		var ops []model.GraphOp
		for _, ev := range in.Events {
			if strings.Contains(strings.Join(ev.Quotes, " "), "Boston") && strings.Contains(ev.Title, "live") {
				ops = append(ops, model.GraphOp{Op: model.OpAddEdge, Kind: "person", Name: "Leo Park", Relation: "lives_in", Target: "Boston", TargetKind: "place", EventIDs: []uint64{ev.ID}})
			}
		}
		return opsJSON(ops...), nil
	}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 2, Model: pm})
	for _, tr := range moveTurns()[:2] {
		_, err := mem.Append(ctx, tr)
		require.NoError(t, err)
	}
	waitIdle(t, mem)
	hits, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: "Leo"})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	d, err := mem.ExpandGraphNode(ctx, hits[0].ID, time.Time{})
	require.NoError(t, err)
	require.Len(t, d.Edges, 1)
	src := d.Edges[0].SourceEventIDs[0]

	require.NoError(t, mem.Forget(ctx, src))
	d, err = mem.ExpandGraphNode(ctx, hits[0].ID, time.Time{})
	require.NoError(t, err)
	assert.Empty(t, d.Edges, "derived state disappears with its source event")
	hist, err := mem.GraphNodeHistory(ctx, hits[0].ID)
	require.NoError(t, err)
	require.Len(t, hist.Edges, 1, "history still explains it")
	assert.False(t, hist.Edges[0].Active)
	assert.Equal(t, src, hist.Edges[0].SourceEventIDs[0])
	placeHits, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: "lives in Boston"})
	require.NoError(t, err)
	for _, h := range placeHits {
		assert.NotContains(t, h.Facts, "lives_in: Boston")
	}
	require.NoError(t, mem.Restore(ctx, src))
	d, err = mem.ExpandGraphNode(ctx, hits[0].ID, time.Time{})
	require.NoError(t, err)
	assert.Len(t, d.Edges, 1, "restored with its event")
}

func TestGraphFromSample(t *testing.T) {
	mem, _ := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	require.True(t, rep.OK, "%v", rep.Violations)
	for _, q := range []struct{ text, name, kind string }{
		{"Mia Chen", "Mia Chen", "person"},
		{"Leo", "Leo Park", "person"},
		{"Atlas", "Atlas", "project"},
	} {
		hits, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: q.text, Scopes: atlasScopes})
		require.NoError(t, err)
		require.NotEmpty(t, hits, q.text)
		assert.Equal(t, q.name, hits[0].Name, q.text)
		assert.Equal(t, q.kind, hits[0].Kind, q.text)
	}
	// Fact words find nodes: the project's package manager.
	hits, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: "pnpm package manager", Scopes: atlasScopes})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	found := false
	for _, h := range hits {
		for _, f := range h.Facts {
			found = found || strings.Contains(f, "pnpm")
		}
	}
	assert.True(t, found, "a node's facts mention pnpm: %+v", hits)
	// No node, fact or edge without an existing source event (Verify's
	// graph pass, run above), and the graph is not empty.
	s, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.NotZero(t, s.Buckets["graph.nodes"])
	assert.NotZero(t, s.Buckets["graph.facts"]+s.Buckets["graph.edges"])
}

// TestGraphFieldWeights: a node named by the query outranks one that only
// has the word in a fact (name 6 vs facts 4), and a node matching only
// through relation text is dropped as adjacency noise.
func TestGraphFieldWeights(t *testing.T) {
	pm := &projectModel{}
	pm.fn = func(in *model.ProjectInput) (string, error) {
		ev := []uint64{in.Events[0].ID}
		return opsJSON(
			model.GraphOp{Op: model.OpUpsertNode, Kind: "tool", Name: "Grafana", EventIDs: ev},
			model.GraphOp{Op: model.OpSetFact, Kind: "person", Name: "Leo Park", Key: "likes", Value: "grafana dashboards", EventIDs: ev},
			model.GraphOp{Op: model.OpAddEdge, Kind: "person", Name: "Mia Chen", Relation: "knows", Target: "Grafana Person", EventIDs: ev},
		), nil
	}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 1, Model: pm})
	_, err := mem.Append(ctx, stratagate.Turn{Thread: "t", Messages: []stratagate.Message{
		{Role: "user", Speaker: "Leo Park", Content: "I set up Grafana yesterday and Mia Chen helped.", At: base},
	}})
	require.NoError(t, err)
	waitIdle(t, mem)
	hits, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: "grafana"})
	require.NoError(t, err)
	var names []string
	for _, h := range hits {
		names = append(names, h.Name)
	}
	require.GreaterOrEqual(t, len(hits), 2, "%v", names)
	assert.Equal(t, "Grafana", hits[0].Name, "name match first")
	assert.Equal(t, "Leo Park", hits[1].Name, "fact match second")
	assert.Contains(t, hits[1].Facts, "likes: grafana dashboards")
	assert.NotContains(t, names, "Mia Chen", "a relation-only match is dropped")
	_ = graph.KindPerson
}

// TestGraphAliases: an explicit alias finds the node; a one-word name that
// is the first name of a speaker of the cited events resolves to that
// speaker's node (and becomes an alias) instead of creating a new one.
func TestGraphAliases(t *testing.T) {
	pm := &projectModel{}
	pm.fn = func(in *model.ProjectInput) (string, error) {
		ev := []uint64{in.Events[0].ID}
		return opsJSON(
			model.GraphOp{Op: model.OpUpsertNode, Kind: "person", Name: "Melanie Stone", EventIDs: ev},
			model.GraphOp{Op: model.OpAddAlias, Kind: "person", Name: "Melanie Stone", Alias: "Mel", EventIDs: ev},
			model.GraphOp{Op: model.OpSetFact, Kind: "person", Name: "Melanie", Key: "hobby", Value: "pottery", EventIDs: ev},
		), nil
	}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 1, Model: pm})
	_, err := mem.Append(ctx, stratagate.Turn{Thread: "t", Messages: []stratagate.Message{
		{Role: "user", Speaker: "Melanie Stone", Content: "Call me Mel. I started a pottery class yesterday.", At: base},
	}})
	require.NoError(t, err)
	waitIdle(t, mem)
	hits, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: "Mel"})
	require.NoError(t, err)
	require.Len(t, hits, 1, "one node: the alias and the first name resolve to Melanie Stone")
	assert.Equal(t, "Melanie Stone", hits[0].Name)
	d, err := mem.ExpandGraphNode(ctx, hits[0].ID, time.Time{})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"Mel", "Melanie"}, d.Node.Aliases)
	require.Len(t, d.Facts, 1)
	assert.Equal(t, "pottery", d.Facts[0].Value)
}
