package stratagate_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

func sampleMemory(t testing.TB) *stratagate.Memory {
	t.Helper()
	mem, _ := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	return mem
}

func weightsOf(t *testing.T, mem *stratagate.Memory, ids []uint64) map[uint64]float64 {
	t.Helper()
	out := map[uint64]float64{}
	for _, id := range ids {
		d, err := mem.ExpandEvent(ctx, id)
		require.NoError(t, err)
		out[id] = d.Weight
	}
	return out
}

func allEventIDs(t *testing.T, mem *stratagate.Memory) []uint64 {
	s, err := mem.Stats(ctx)
	require.NoError(t, err)
	var ids []uint64
	for id := uint64(1); id <= uint64(s.Buckets["events"]); id++ {
		ids = append(ids, id)
	}
	return ids
}

func TestAskTemporalReachesTheSourceMessage(t *testing.T) {
	mem := sampleMemory(t)
	a, err := mem.Ask(ctx, "When did Mia set up Postgres in Docker Compose?", stratagate.AskOptions{Scopes: atlasScopes})
	require.NoError(t, err)
	assert.Equal(t, "sufficient", a.Verdict)
	assert.Contains(t, a.Text, "17 March 2024", "the relative date is resolved against the message time")
	require.NotEmpty(t, a.Evidence)
	assert.Equal(t, "2024-03-17", a.Evidence[0].HappenedStart.Format("2006-01-02"))
	assert.Equal(t, "2024-03-19", a.Evidence[0].MentionedAt.Format("2006-01-02"))
	assert.NotEmpty(t, a.AssessmentID)
}

func TestAskUnanswerableSaysWhatIsMissing(t *testing.T) {
	mem := sampleMemory(t)
	ids := allEventIDs(t, mem)
	before := weightsOf(t, mem, ids)
	a, err := mem.Ask(ctx, "What is the name of Leo's dog?", stratagate.AskOptions{Scopes: atlasScopes})
	require.NoError(t, err)
	assert.NotEqual(t, "sufficient", a.Verdict)
	assert.True(t, strings.HasPrefix(a.Text, "not enough evidence: missing"), a.Text)
	assert.NotEmpty(t, a.Missing)
	assert.Empty(t, a.Evidence, "no invented answer")
	assert.Empty(t, a.AssessmentID)
	assert.Equal(t, before, weightsOf(t, mem, ids), "an unanswered question adopts nothing")
}

func TestAskBudgetAndNoRepeatedSearch(t *testing.T) {
	mem := sampleMemory(t)
	for _, rounds := range []int{1, 2, 3, 6} {
		a, err := mem.Ask(ctx, "What is the name of Leo's dog?", stratagate.AskOptions{Scopes: atlasScopes, MaxRounds: rounds})
		require.NoError(t, err)
		assert.LessOrEqual(t, len(a.Trace), rounds, "budget %d", rounds)
		seen := map[string]bool{}
		for _, st := range a.Trace {
			if strings.HasPrefix(st.Strategy, "search_") {
				k := st.Strategy + "|" + st.Query
				assert.False(t, seen[k], "identical search repeated: %s", k)
				seen[k] = true
			}
		}
	}
	_, err := mem.Ask(ctx, "x", stratagate.AskOptions{MaxRounds: 99})
	assert.ErrorIs(t, err, stratagate.ErrInvalidInput)
	_, err = mem.Ask(ctx, "", stratagate.AskOptions{})
	assert.ErrorIs(t, err, stratagate.ErrEmpty)
}

func TestAskAdoptsOnlyUsedEvidence(t *testing.T) {
	mem := sampleMemory(t)
	ids := allEventIDs(t, mem)
	before := weightsOf(t, mem, ids)
	a, err := mem.Ask(ctx, "When did Mia pick up her parrot Kiwi?", stratagate.AskOptions{Scopes: atlasScopes})
	require.NoError(t, err)
	require.Equal(t, "sufficient", a.Verdict)
	used := map[uint64]bool{}
	for _, ev := range a.Evidence {
		if ev.EventID != 0 {
			used[ev.EventID] = true
		}
	}
	require.NotEmpty(t, used)
	after := weightsOf(t, mem, ids)
	for _, id := range ids {
		if used[id] {
			assert.Greater(t, after[id], before[id], "used event %d gained weight", id)
		} else {
			assert.Equal(t, before[id], after[id], "event %d was retrieved or not, but not used", id)
		}
	}
}

func TestConcurrentAsksKeepBatchesApart(t *testing.T) {
	mem := sampleMemory(t)
	qs := []string{"Which database does Atlas use?", "When did Mia pick up her parrot Kiwi?", "What is the name of Leo's dog?", "Where does Mia work?"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	batches := map[string]int{}
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := mem.Ask(ctx, qs[g%len(qs)], stratagate.AskOptions{Scopes: atlasScopes})
			if !assert.NoError(t, err) {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, st := range a.Trace {
				batches[st.BatchID]++
			}
		}()
	}
	wg.Wait()
	for id, n := range batches {
		assert.Equal(t, 1, n, "batch %s shared between Asks", id)
	}
	assert.NotEmpty(t, batches)
}

func BenchmarkAsk(b *testing.B) {
	mem := sampleMemory(b)
	qs := []string{"Which database does Atlas use?", "When did Mia pick up her parrot Kiwi?", "Where does Mia work?", "When did Mia set up Postgres in Docker Compose?"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := mem.Ask(ctx, qs[i%len(qs)], stratagate.AskOptions{Scopes: atlasScopes}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
