package layers_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/layers"
)

// contextFixture returns a thread with 12 sealed blocks (2 turns each, all
// made ready in memory with derived fields) and an open tail of one turn.
func contextFixture(t *testing.T) (layers.Thread, []layers.Block, []layers.Message) {
	t.Helper()
	db := openDB(t)
	appendTurnsOneTx(t, db, "ctx", "project:atlas", 1, 25, 2)
	th, blocks, tail := loadThread(t, db, "ctx")
	require.Len(t, blocks, 12)
	require.Len(t, tail, 2)
	for i := range blocks {
		b := &blocks[i]
		b.State = layers.StateReady
		b.Title = fmt.Sprintf("Block %d title", b.Seq)
		b.Tags = []string{"atlas", fmt.Sprintf("seq%d", b.Seq)}
		b.Summary = fmt.Sprintf("Summary of block %d: Mia and the assistant discussed moving shards to Postgres.", b.Seq)
		b.Facts = []layers.Fact{{Text: fmt.Sprintf("Shard %d migrates first", b.Seq), MessageIDs: b.MessageIDs[1:2]}}
	}
	return th, blocks, tail
}

func blockHead(b *layers.Block, label int) string {
	return fmt.Sprintf("## block %d (#%d, L%d, %s – %s)\n", b.Seq, b.ID, label,
		b.FirstAt.Format("2006-01-02"), b.LastAt.Format("2006-01-02"))
}

func TestBuildContextBigBudget(t *testing.T) {
	th, blocks, tail := contextFixture(t)
	_, blocksCopy, tailCopy := contextFixture(t)
	cv := layers.BuildContext(th, blocks, tail, 1_000_000, layers.DefaultDecay)
	assert.Equal(t, blocksCopy, blocks, "inputs not mutated")
	assert.Equal(t, tailCopy, tail, "inputs not mutated")

	assert.Equal(t, "ctx", cv.Thread)
	assert.Equal(t, "project:atlas", cv.Scope)
	assert.Equal(t, 1_000_000, cv.Budget)
	assert.Zero(t, cv.Omitted)
	assert.Equal(t, tail, cv.Tail)
	assert.Equal(t, layers.EstimateTokens(cv.Text), cv.Tokens)
	require.Len(t, cv.Blocks, 12)

	// Oldest (age 11) … newest (age 0).
	wantLabels := []int{0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 5}
	var want strings.Builder
	for i, cb := range cv.Blocks {
		b := &blocks[i]
		assert.Equal(t, b.ID, cb.BlockID)
		assert.Equal(t, b.Seq, cb.Seq)
		assert.Equal(t, layers.StateReady, cb.State)
		assert.Equal(t, 11-i, cb.Age)
		assert.Equal(t, wantLabels[i], cb.Level, "block %d", b.Seq)
		renderLvl := min(wantLabels[i], 4) // L5 in a context shows the L4 text
		v, err := layers.Render(b, renderLvl, nil)
		require.NoError(t, err)
		head := blockHead(b, wantLabels[i])
		assert.Equal(t, layers.EstimateTokens(head)+layers.EstimateTokens(v.Text), cb.Tokens)
		want.WriteString(head)
		want.WriteString(v.Text)
	}
	want.WriteString("## recent (open tail, 2 messages)\n")
	want.WriteString(layers.RenderL4(tail))
	assert.Equal(t, want.String(), cv.Text)

	t.Run("chronological order", func(t *testing.T) {
		last := -1
		for _, b := range blocks {
			i := strings.Index(cv.Text, fmt.Sprintf("## block %d (#%d,", b.Seq, b.ID))
			require.GreaterOrEqual(t, i, 0)
			assert.Greater(t, i, last)
			last = i
		}
		assert.Greater(t, strings.Index(cv.Text, "## recent"), last)
		assert.True(t, strings.HasSuffix(cv.Text, layers.RenderL4(tail)))
	})
	t.Run("content by level", func(t *testing.T) {
		assert.Contains(t, cv.Text, "Block 1 title\ntags: atlas, seq1\n")
		assert.NotContains(t, cv.Text, "Summary of block 1:")
		assert.Contains(t, cv.Text, "Summary of block 4:")
		assert.Contains(t, cv.Text, "- Shard 6 migrates first [#")
		assert.Contains(t, cv.Text, blocks[8].L3)
		assert.Contains(t, cv.Text, blocks[10].L4)
		assert.Contains(t, cv.Text, blocks[11].L4)
	})
}

func TestBuildContextBudgetProperty(t *testing.T) {
	th, blocks, tail := contextFixture(t)
	// A longer tail: the two tail messages plus three more.
	more := append([]layers.Message(nil), tail...)
	for k := 26; k <= 27; k++ {
		for _, m := range turnMsgs(k) {
			m.ID = uint64(100 + len(more))
			more = append(more, m)
		}
	}
	prevTail := 0
	for budget := 1; budget <= 3000; budget += 37 {
		cv := layers.BuildContext(th, blocks, more, budget, layers.DefaultDecay)
		require.LessOrEqual(t, cv.Tokens, budget, "budget %d", budget)
		assert.Equal(t, layers.EstimateTokens(cv.Text), cv.Tokens)
		assert.Equal(t, budget, cv.Budget)

		// The tail kept is always its newest messages.
		require.LessOrEqual(t, len(cv.Tail), len(more))
		assert.Equal(t, more[len(more)-len(cv.Tail):], cv.Tail, "budget %d: tail is a suffix", budget)
		assert.GreaterOrEqual(t, len(cv.Tail), prevTail, "more budget never keeps fewer tail messages")
		prevTail = len(cv.Tail)

		omitted := len(more) - len(cv.Tail)
		require.Len(t, cv.Blocks, len(blocks))
		for i, cb := range cv.Blocks {
			assert.Equal(t, blocks[i].ID, cb.BlockID)
			marker := fmt.Sprintf("## block %d (#%d, L%d,", cb.Seq, cb.BlockID, cb.Level)
			if cb.Level < 0 {
				omitted++
				assert.Zero(t, cb.Tokens)
				assert.NotContains(t, cv.Text, fmt.Sprintf("## block %d (#%d,", cb.Seq, cb.BlockID))
				continue
			}
			assert.Contains(t, cv.Text, marker)
			assert.LessOrEqual(t, cb.Level, layers.LevelForWeight(layers.Weight(cb.Age, layers.DefaultDecay)),
				"never deeper than its decay level")
		}
		assert.Equal(t, omitted, cv.Omitted, "budget %d", budget)
		if len(cv.Tail) > 0 {
			assert.Contains(t, cv.Text, fmt.Sprintf("## recent (open tail, %d messages)\n", len(cv.Tail)))
		} else {
			assert.NotContains(t, cv.Text, "## recent")
		}
	}
	assert.Equal(t, len(more), prevTail, "a budget of 3000 keeps the whole tail")
}

func TestBuildContextTinyBudgets(t *testing.T) {
	th, blocks, tail := contextFixture(t)
	for _, budget := range []int{0, 1, 2, 5} {
		cv := layers.BuildContext(th, blocks, tail, budget, layers.DefaultDecay)
		assert.LessOrEqual(t, cv.Tokens, budget)
		assert.Empty(t, cv.Tail)
	}
	// Exactly enough for the heading and the newest tail message.
	heading := layers.EstimateTokens("## recent (open tail, 2 messages)\n")
	budget := heading + layers.EstimateTokens(layers.RenderL4(tail[1:]))
	cv := layers.BuildContext(th, blocks, tail, budget, layers.DefaultDecay)
	assert.Equal(t, tail[1:], cv.Tail, "newest first")
	assert.LessOrEqual(t, cv.Tokens, budget)
	assert.Equal(t, 1+12, cv.Omitted)
	assert.Equal(t, "## recent (open tail, 1 messages)\n"+layers.RenderL4(tail[1:]), cv.Text)

	t.Run("no tail, no blocks", func(t *testing.T) {
		cv := layers.BuildContext(th, nil, nil, 100, layers.DefaultDecay)
		assert.Empty(t, cv.Text)
		assert.Zero(t, cv.Tokens)
		assert.Empty(t, cv.Blocks)
		assert.Zero(t, cv.Omitted)
	})
}

func TestBuildContextPendingBlocks(t *testing.T) {
	th, blocks, tail := contextFixture(t)
	// Newest two pending (derivation not yet done), block 5 failed.
	for _, i := range []int{10, 11} {
		blocks[i].State = layers.StatePending
		blocks[i].Title, blocks[i].Tags, blocks[i].Summary, blocks[i].Facts = "", nil, "", nil
	}
	blocks[4].State = layers.StateFailed
	blocks[4].Err = "gave up"

	cv := layers.BuildContext(th, blocks, tail, 1_000_000, layers.DefaultDecay)
	require.Len(t, cv.Blocks, 12)
	for _, i := range []int{4, 10, 11} {
		cb := cv.Blocks[i]
		assert.Equal(t, -1, cb.Age, "block %d does not age", i+1)
		assert.Equal(t, 4, cb.Level, "block %d shows at L4", i+1)
		assert.Equal(t, blocks[i].State, cb.State)
		assert.Contains(t, cv.Text, blockHead(&blocks[i], 4)+blocks[i].L4)
	}
	// Ready blocks age only by ready blocks: the newest ready one (index 9)
	// has age 0 and shows at L5.
	wantAges := []int{8, 7, 6, 5, -1, 4, 3, 2, 1, 0, -1, -1}
	for i, cb := range cv.Blocks {
		assert.Equal(t, wantAges[i], cb.Age, "block %d", i+1)
		if wantAges[i] >= 0 {
			assert.Equal(t, layers.LevelForWeight(layers.Weight(wantAges[i], layers.DefaultDecay)), cb.Level)
		}
	}
	assert.Equal(t, 5, cv.Blocks[9].Level)

	t.Run("pending steps down to L3 but never to L0–L2", func(t *testing.T) {
		b := blocks[11]
		b.L3 = "[2024-03-10 09:15:30 -04:00] Mia: short\n" // shorter than its L4
		require.Less(t, layers.EstimateTokens(b.L3), layers.EstimateTokens(b.L4))
		one := []layers.Block{b}
		seen := map[int]bool{}
		prev := -1
		for budget := 0; budget <= 400; budget++ {
			cv := layers.BuildContext(th, one, nil, budget, layers.DefaultDecay)
			cb := cv.Blocks[0]
			assert.Equal(t, -1, cb.Age)
			assert.Contains(t, []int{-1, 3, 4}, cb.Level, "budget %d", budget)
			assert.GreaterOrEqual(t, cb.Level, prev, "more budget never shows less")
			assert.LessOrEqual(t, cv.Tokens, budget)
			seen[cb.Level] = true
			prev = cb.Level
			if cb.Level == 3 {
				assert.Contains(t, cv.Text, b.L3)
				assert.Zero(t, cv.Omitted)
			}
		}
		assert.True(t, seen[-1] && seen[3] && seen[4], "saw omitted, L3 and L4: %v", seen)
	})
	t.Run("ready block steps down through every level", func(t *testing.T) {
		b := blocks[9] // ready, age 0 when alone
		one := []layers.Block{b}
		seen := map[int]bool{}
		prev := -1
		for budget := 0; budget <= 600; budget++ {
			cv := layers.BuildContext(th, one, nil, budget, layers.DefaultDecay)
			cb := cv.Blocks[0]
			assert.Equal(t, 0, cb.Age)
			assert.GreaterOrEqual(t, cb.Level, prev, "budget %d", budget)
			assert.LessOrEqual(t, cv.Tokens, budget)
			seen[cb.Level] = true
			prev = cb.Level
		}
		// The first level that fits is whichever of L4…L0 is tried first and
		// small enough (here L2, a one-fact list, is shorter than L0).
		assert.True(t, seen[-1] && seen[5], "levels seen: %v", seen)
		assert.Greater(t, len(seen), 2, "steps through an intermediate level: %v", seen)
	})
}

func TestBuildContextCoefficient(t *testing.T) {
	th, blocks, tail := contextFixture(t)
	t.Run("no decay shows every block at L5", func(t *testing.T) {
		cv := layers.BuildContext(th, blocks, tail, 1_000_000, 0)
		for _, cb := range cv.Blocks {
			assert.Equal(t, 5, cb.Level)
		}
	})
	t.Run("steep decay shows all but the newest at L0", func(t *testing.T) {
		cv := layers.BuildContext(th, blocks, tail, 1_000_000, 10)
		for i, cb := range cv.Blocks {
			if i == len(cv.Blocks)-1 {
				assert.Equal(t, 5, cb.Level)
			} else {
				assert.Equal(t, 0, cb.Level)
			}
		}
	})
}
