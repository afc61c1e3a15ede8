package stratagate_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
)

func TestListEventsFilters(t *testing.T) {
	mem, _ := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	st, err := mem.Stats(ctx)
	require.NoError(t, err)
	all, err := mem.ListEvents(ctx, stratagate.EventFilter{})
	require.NoError(t, err)
	require.Len(t, all, st.Buckets["events"], "the zero filter lists every card")
	for i := 1; i < len(all); i++ {
		require.Less(t, all[i-1].ID, all[i].ID, "id order")
	}
	c := all[len(all)/2]
	require.NotEmpty(t, c.Participants)
	cases := []struct {
		name string
		f    stratagate.EventFilter
		keep func(*events.Card) bool
	}{
		{"thread", stratagate.EventFilter{Thread: c.Thread}, func(x *events.Card) bool { return x.Thread == c.Thread }},
		{"block", stratagate.EventFilter{Block: c.SourceBlockID}, func(x *events.Card) bool { return x.SourceBlockID == c.SourceBlockID }},
		{"scope", stratagate.EventFilter{Scopes: []string{c.Scope}}, func(x *events.Card) bool { return x.Scope == c.Scope }},
		{"type", stratagate.EventFilter{Type: string(c.EventType)}, func(x *events.Card) bool { return x.EventType == c.EventType }},
		{"status", stratagate.EventFilter{Status: string(c.Status)}, func(x *events.Card) bool { return x.Status == c.Status }},
		{"participant, any case", stratagate.EventFilter{Participant: strings.ToUpper(c.Participants[0])}, func(x *events.Card) bool {
			for _, p := range x.Participants {
				if strings.EqualFold(p, c.Participants[0]) {
					return true
				}
			}
			return false
		}},
		{"nothing matches", stratagate.EventFilter{Thread: "no such thread"}, func(*events.Card) bool { return false }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mem.ListEvents(ctx, tc.f)
			require.NoError(t, err)
			var want []uint64
			for i := range all {
				if tc.keep(&all[i]) {
					want = append(want, all[i].ID)
				}
			}
			var ids []uint64
			for _, g := range got {
				ids = append(ids, g.ID)
			}
			assert.Equal(t, want, ids)
		})
	}
	// Limit keeps the newest, still in id order.
	got, err := mem.ListEvents(ctx, stratagate.EventFilter{Limit: 3})
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, all[len(all)-3:], got)

	// A forgotten card is listed, with its lifecycle.
	require.NoError(t, mem.Forget(ctx, c.ID))
	got, err = mem.ListEvents(ctx, stratagate.EventFilter{Lifecycle: string(events.LifecycleForgotten)})
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, c.ID, got[0].ID)

	_, err = mem.ListEvents(ctx, stratagate.EventFilter{Scopes: []string{"team:x"}})
	assert.ErrorIs(t, err, stratagate.ErrScope)
	_, err = mem.ListEvents(ctx, stratagate.EventFilter{Limit: -1})
	assert.ErrorIs(t, err, stratagate.ErrInvalidInput)
}

// TestGraphAsOf: the move in the sample conversation: the earlier city
// holds before the move, the later one after it, and a forgotten source
// event hides what it supports.
func TestGraphAsOf(t *testing.T) {
	mem, _ := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	livesIn := func(asOf time.Time) []graph.Edge {
		g, err := mem.GraphAsOf(ctx, asOf, nil)
		require.NoError(t, err)
		require.NotEmpty(t, g.Nodes)
		var out []graph.Edge
		for _, e := range g.Edges {
			assert.True(t, e.Active)
			assert.True(t, e.Current(g.AsOf), "edge %d holds as of %v", e.ID, g.AsOf)
			if e.Relation == "lives_in" {
				out = append(out, e)
			}
		}
		for _, f := range g.Facts {
			assert.True(t, f.Active && f.Current(g.AsOf))
		}
		return out
	}
	now := livesIn(time.Time{})
	var moved graph.Edge
	for _, e := range now {
		if e.ValidFrom.After(time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)) {
			moved = e
		}
	}
	require.NotZero(t, moved.ID, "the sample's move is in the graph now: %+v", now)
	before := livesIn(moved.ValidFrom.Add(-24 * time.Hour))
	for _, e := range before {
		assert.NotEqual(t, moved.ID, e.ID, "not true before it happened")
	}
	var earlier bool
	for _, e := range before {
		earlier = earlier || e.From == moved.From
	}
	assert.True(t, earlier, "the earlier city holds before the move")

	e, err := mem.GraphEdge(ctx, moved.ID)
	require.NoError(t, err)
	assert.True(t, e.Active)
	require.NoError(t, mem.Forget(ctx, moved.SourceEventIDs[0]))
	if len(moved.SourceEventIDs) == 1 {
		e, err = mem.GraphEdge(ctx, moved.ID)
		require.NoError(t, err)
		assert.False(t, e.Active, "its only source is forgotten")
		for _, x := range livesIn(time.Time{}) {
			assert.NotEqual(t, moved.ID, x.ID)
		}
	}

	g, err := mem.GraphAsOf(ctx, time.Time{}, []string{"session:none"})
	require.NoError(t, err)
	assert.Empty(t, g.Nodes, "a scope without nodes")
	_, err = mem.GraphAsOf(ctx, time.Time{}, []string{"bad scope"})
	assert.ErrorIs(t, err, stratagate.ErrScope)
	_, err = mem.GraphFact(ctx, 1<<40)
	assert.ErrorIs(t, err, stratagate.ErrNotFound)
	_, err = mem.GraphEdge(ctx, 1<<40)
	assert.ErrorIs(t, err, stratagate.ErrNotFound)
}

func TestJobsListing(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 2})
	appendN(t, mem, "t", 0, 4)
	waitIdle(t, mem)
	done, err := mem.Jobs(ctx, "done")
	require.NoError(t, err)
	kinds := map[string]int{}
	for _, j := range done {
		kinds[string(j.Kind)]++
	}
	assert.Equal(t, map[string]int{"derive": 2, "extract": 2, "project": 2}, kinds)
	all, err := mem.Jobs(ctx, "")
	require.NoError(t, err)
	assert.Len(t, all, len(done))
	failed, err := mem.Jobs(ctx, "failed")
	require.NoError(t, err)
	assert.Empty(t, failed)
	_, err = mem.Jobs(ctx, "finished")
	assert.ErrorIs(t, err, stratagate.ErrInvalidInput)
}

// TestAskNoRecord: an Ask that records nothing answers the same and leaves
// no assessment, use or weight behind.
func TestAskNoRecord(t *testing.T) {
	mem, _ := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	q := "Which package manager does Atlas use now?"
	before, err := mem.Stats(ctx)
	require.NoError(t, err)
	a, err := mem.Ask(ctx, q, stratagate.AskOptions{Scopes: atlasScopes, NoRecord: true})
	require.NoError(t, err)
	require.Equal(t, "sufficient", a.Verdict)
	after, err := mem.Stats(ctx)
	require.NoError(t, err)
	for _, b := range []string{"assessments", "use", "use.receipts"} {
		assert.Equal(t, before.Buckets[b], after.Buckets[b], b)
	}
	b, err := mem.Ask(ctx, q, stratagate.AskOptions{Scopes: atlasScopes})
	require.NoError(t, err)
	assert.Equal(t, a.Text, b.Text)
	recorded, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Greater(t, recorded.Buckets["assessments"], after.Buckets["assessments"], "a plain Ask records")
}
