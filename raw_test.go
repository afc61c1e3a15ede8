package stratagate_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

func ingestSample(t testing.TB, mem *stratagate.Memory) {
	t.Helper()
	f := loadSample(t)
	for _, tr := range f.Turns() {
		_, err := mem.Append(ctx, tr)
		require.NoError(t, err)
	}
}

var atlasScopes = []string{"global", "project:atlas"}

func TestSearchRawRanksSampleConversation(t *testing.T) {
	mem, _ := openMem(t, nil)
	ingestSample(t, mem)
	hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: "parrot Kiwi", Scopes: atlasScopes, Limit: 3})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	assert.Contains(t, hits[0].Snippet, "parrot")
	for i := 1; i < len(hits); i++ {
		assert.GreaterOrEqual(t, hits[i-1].Score, hits[i].Score)
	}
	// Chinese query reaches English text through the synonym table.
	hits, err = mem.SearchRaw(ctx, stratagate.Query{Text: "宠物", Scopes: atlasScopes})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	assert.Contains(t, strings.ToLower(hits[0].Snippet), "pet")
}

func TestSearchRawOpenTailIsSearchable(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 3})
	_, err := mem.Append(ctx, turn("t", 1))
	require.NoError(t, err)
	hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: "postgres day"})
	require.NoError(t, err)
	require.Len(t, hits, 1)
	assert.Zero(t, hits[0].BlockID, "open tail: no block yet")
	appendN(t, mem, "t", 2, 4)
	hits, err = mem.SearchRaw(ctx, stratagate.Query{Text: "message 1"})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	assert.NotZero(t, hits[0].BlockID, "sealed now")
}

func TestSearchRawZeroMatchIsEmpty(t *testing.T) {
	mem, _ := openMem(t, nil)
	appendN(t, mem, "t", 1, 5)
	for _, q := range []string{"zebra", "the and of", "🙂", "qqqq wwww"} {
		hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: q})
		require.NoError(t, err, q)
		assert.Empty(t, hits, q)
	}
	// A well-formed scope with no data has no hits.
	hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: "postgres", Scopes: []string{"project:nobody"}})
	require.NoError(t, err)
	assert.Empty(t, hits)
}

func TestSearchRawRejectsBadQueries(t *testing.T) {
	mem, _ := openMem(t, nil)
	appendN(t, mem, "t", 1, 2)
	cases := []struct {
		name string
		q    stratagate.Query
		want error
	}{
		{"empty", stratagate.Query{Text: "  "}, stratagate.ErrEmpty},
		{"huge", stratagate.Query{Text: strings.Repeat("a ", 5000)}, stratagate.ErrTooLarge},
		{"invalid UTF-8", stratagate.Query{Text: "a\xffb"}, stratagate.ErrInvalidUTF8},
		{"malformed scope", stratagate.Query{Text: "a", Scopes: []string{"team:x"}}, stratagate.ErrScope},
		{"negative limit", stratagate.Query{Text: "a", Limit: -1}, stratagate.ErrInvalidInput},
		{"limit too large", stratagate.Query{Text: "a", Limit: 100000}, stratagate.ErrInvalidInput},
		{"unknown thread", stratagate.Query{Text: "a", Thread: "nope"}, stratagate.ErrNotFound},
		{"inverted time", stratagate.Query{Text: "a", From: base.Add(time.Hour), To: base}, stratagate.ErrInvalidInput},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := mem.SearchRaw(ctx, c.q)
			assert.ErrorIs(t, err, c.want)
		})
	}
}

func TestSearchRawFilters(t *testing.T) {
	mem, _ := openMem(t, nil)
	// Interleave two threads so that neighbours are not id±1.
	for i := 1; i <= 6; i++ {
		_, err := mem.Append(ctx, turn("a", i))
		require.NoError(t, err)
		_, err = mem.Append(ctx, turn("b", i))
		require.NoError(t, err)
	}
	hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: "postgres", Thread: "b", Limit: 50})
	require.NoError(t, err)
	require.Len(t, hits, 6)
	for _, h := range hits {
		assert.Equal(t, "b", h.Thread)
		require.NotNil(t, h.Next, "every user message is followed by its reply")
		assert.Contains(t, h.Next.Snippet, "Noted decision")
		if h.Prev != nil {
			msgs, err := mem.Messages(ctx, h.Prev.MessageID)
			require.NoError(t, err)
			assert.Equal(t, "b", msgs[0].Thread, "neighbours come from the same thread")
		}
	}
	from, to := base.Add(2*time.Minute), base.Add(4*time.Minute)
	hits, err = mem.SearchRaw(ctx, stratagate.Query{Text: "postgres", Thread: "a", From: from, To: to, Limit: 50})
	require.NoError(t, err)
	require.Len(t, hits, 3, "turns 2, 3 and 4")
	for _, h := range hits {
		assert.False(t, h.At.Before(from) || h.At.After(to))
	}
}

// TestSearchRawScopeIsolation: random threads in random scopes, random
// queries over random scope subsets: no hit ever comes from a scope that
// was not asked for.
func TestSearchRawScopeIsolation(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	mem, _ := openMem(t, &stratagate.Options{NoSync: true, BlockTurns: 4})
	scopes := []string{"global", "project:a", "project:b", "session:1", "session:2"}
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"}
	threadScope := map[string]string{}
	for i := range 12 {
		th := fmt.Sprintf("th%d", i)
		threadScope[th] = scopes[rng.IntN(len(scopes))]
		for k := range 6 {
			var sb strings.Builder
			for range 4 + rng.IntN(6) {
				sb.WriteString(words[rng.IntN(len(words))] + " ")
			}
			_, err := mem.Append(ctx, stratagate.Turn{Thread: th, Scope: threadScope[th], Messages: []stratagate.Message{
				{Role: "user", Content: sb.String(), At: base.Add(time.Duration(i*10+k) * time.Minute)},
			}})
			require.NoError(t, err)
		}
	}
	for range 300 {
		asked := map[string]bool{}
		var qs []string
		for _, s := range scopes {
			if rng.IntN(2) == 0 {
				asked[s] = true
				qs = append(qs, s)
			}
		}
		if len(qs) == 0 {
			asked["global"] = true // empty Scopes means global only
		}
		q := stratagate.Query{Text: words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))], Scopes: qs, Limit: 50}
		hits, err := mem.SearchRaw(ctx, q)
		require.NoError(t, err)
		for _, h := range hits {
			require.True(t, asked[threadScope[h.Thread]], "hit from %s (scope %s) for scopes %v", h.Thread, threadScope[h.Thread], qs)
		}
	}
}

// TestSearchOnlyObserves: thousands of searches write one observation each
// and change nothing else: rankings, blocks and counts stay identical.
func TestSearchOnlyObserves(t *testing.T) {
	mem, _ := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	q := stratagate.Query{Text: "Leo move Seattle", Scopes: atlasScopes}
	first, err := mem.SearchRaw(ctx, q)
	require.NoError(t, err)
	waitIdle(t, mem)
	before, err := mem.Stats(ctx)
	require.NoError(t, err)
	queries := []string{"Leo move Seattle", "pnpm", "launch date", "coffee tea", "Kiwi"}
	const n = 2000
	for i := range n {
		_, err := mem.SearchRaw(ctx, stratagate.Query{Text: queries[i%len(queries)], Scopes: atlasScopes})
		require.NoError(t, err)
	}
	again, err := mem.SearchRaw(ctx, q)
	require.NoError(t, err)
	assert.Equal(t, first, again, "retrieval does not change rankings")
	waitIdle(t, mem) // flushes the observation log
	after, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, before.Buckets["retrievals"]+n+1, after.Buckets["retrievals"])
	delete(before.Buckets, "retrievals")
	delete(after.Buckets, "retrievals")
	assert.Equal(t, before.Buckets, after.Buckets, "searches write nothing but observations")
	obs, err := mem.Observations(ctx, 1)
	require.NoError(t, err)
	require.Len(t, obs, 1)
	assert.Equal(t, "raw", obs[0].Channel)
	assert.Equal(t, q.Text, obs[0].Text)
	ids := make([]uint64, len(again))
	for i, h := range again {
		ids[i] = h.MessageID
	}
	assert.Equal(t, ids, obs[0].Returned)
}

func TestSearchRawDeterministicAcrossReopenAndRebuild(t *testing.T) {
	mem, path := openMem(t, nil)
	ingestSample(t, mem)
	queries := []string{"Leo move Seattle", "pnpm workspace", "launch date June", "咖啡", "Lisbon trip last summer"}
	results := func(mem *stratagate.Memory) [][]stratagate.Hit {
		var out [][]stratagate.Hit
		for _, q := range queries {
			hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: q, Scopes: atlasScopes, Limit: 20})
			require.NoError(t, err)
			out = append(out, hits)
		}
		return out
	}
	want := results(mem)
	require.NoError(t, mem.CheckIndexes(ctx), "incremental index equals a rebuild")
	require.NoError(t, mem.Close())

	mem2, err := stratagate.Open(path, nil)
	require.NoError(t, err)
	defer mem2.Close()
	waitIdle(t, mem2)
	assert.Equal(t, want, results(mem2))
	require.NoError(t, mem2.RebuildIndexes(ctx))
	assert.Equal(t, want, results(mem2), "rebuilt index ranks identically")
	require.NoError(t, mem2.CheckIndexes(ctx))
	for _, hs := range want {
		assert.True(t, slices.IsSortedFunc(hs, func(a, b stratagate.Hit) int {
			switch {
			case a.Score > b.Score:
				return -1
			case a.Score < b.Score:
				return 1
			}
			return int(a.MessageID) - int(b.MessageID)
		}))
	}
}

func FuzzSearchRawQuery(f *testing.F) {
	for _, s := range []string{"Leo move", "宠物 猫", "", " ", "a\xffb", "ＡＢＣ１２３", strings.Repeat("x", 100)} {
		f.Add(s, "project:atlas", 5)
	}
	mem, _ := openMem(f, &stratagate.Options{NoSync: true})
	appendN(f, mem, "t", 1, 10)
	f.Fuzz(func(t *testing.T, text, scope string, limit int) {
		hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: text, Scopes: []string{scope}, Limit: limit})
		if err != nil {
			return
		}
		if len(hits) > limit && limit > 0 {
			t.Fatalf("%d hits for limit %d", len(hits), limit)
		}
	})
}
