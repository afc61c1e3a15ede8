package stratagate_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// notInProcess hides the heuristic model's in-process mark, so Memory runs
// its jobs one transaction each instead of in inline chains.
type notInProcess struct{ model.Model }

// Jobs run in inline chains, with the event and graph index writes of a
// chain merged at its end, leave a memory that answers as the one that ran
// each job in its own transaction: the same event cards, scored the same,
// and the same graph. Graph scores are compared after a rebuild: one job
// per transaction leaves a tombstone in the graph index for every earlier
// version of a node's document, which count in its term statistics until
// a rebuild, and a chain leaves fewer of them.
func TestInlineChainsEqualOneJobPerTransaction(t *testing.T) {
	ctx := context.Background()
	f := loadSample(t)
	ingest := func(m model.Model) *stratagate.Memory {
		mem, _ := openMem(t, &stratagate.Options{Model: m, NoSync: true})
		for _, tr := range f.Turns() {
			_, err := mem.Append(ctx, tr)
			require.NoError(t, err)
		}
		waitIdle(t, mem)
		require.NoError(t, mem.CheckIndexes(ctx), "indexes equal a rebuild")
		return mem
	}
	chained := ingest(heuristic.New())
	alone := ingest(notInProcess{heuristic.New()})

	var scopes []string
	for _, th := range f.Threads {
		scopes = append(scopes, th.Scope)
	}
	queries := make([]stratagate.Query, len(f.Questions))
	for i, q := range f.Questions {
		queries[i] = stratagate.Query{Text: q.Question, Scopes: scopes, Limit: 20}
	}
	cards := sameHits(t, queries, alone, chained, (*stratagate.Memory).SearchEvents)
	require.NotZero(t, cards, "the sample yields event cards")

	require.NoError(t, chained.RebuildIndexes(ctx))
	require.NoError(t, alone.RebuildIndexes(ctx))
	nodes := sameHits(t, queries, alone, chained, (*stratagate.Memory).SearchGraphNodes)
	require.NotZero(t, nodes, "the sample yields graph nodes")
}

// sameHits asserts that search answers every query the same on got as on
// want, and returns how many hits got gave.
func sameHits[H any](t *testing.T, queries []stratagate.Query, want, got *stratagate.Memory,
	search func(*stratagate.Memory, context.Context, stratagate.Query) ([]H, error)) int {
	t.Helper()
	n := 0
	for _, q := range queries {
		w, err := search(want, context.Background(), q)
		require.NoError(t, err)
		g, err := search(got, context.Background(), q)
		require.NoError(t, err)
		assert.Equal(t, w, g, "%q", q.Text)
		n += len(g)
	}
	return n
}
