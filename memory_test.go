package stratagate_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

var ctx = context.Background()

func TestAppendRejectsBadInput(t *testing.T) {
	mem, _ := openMem(t, nil)
	good := func() stratagate.Turn { return turn("t", 1) }
	cases := []struct {
		name     string
		mutate   func(*stratagate.Turn)
		specific error
	}{
		{"empty thread", func(t *stratagate.Turn) { t.Thread = "" }, stratagate.ErrEmpty},
		{"control char in thread", func(t *stratagate.Turn) { t.Thread = "a\x00b" }, stratagate.ErrInvalidInput},
		{"invalid UTF-8 thread", func(t *stratagate.Turn) { t.Thread = "\xff" }, stratagate.ErrInvalidUTF8},
		{"empty turn", func(t *stratagate.Turn) { t.Messages = nil }, stratagate.ErrEmpty},
		{"unknown role", func(t *stratagate.Turn) { t.Messages[0].Role = "robot" }, stratagate.ErrUnknownRole},
		{"invalid UTF-8 content", func(t *stratagate.Turn) { t.Messages[1].Content = "ok \xc3\x28" }, stratagate.ErrInvalidUTF8},
		{"invalid UTF-8 speaker", func(t *stratagate.Turn) { t.Messages[0].Speaker = "\xfe" }, stratagate.ErrInvalidUTF8},
		{"empty content", func(t *stratagate.Turn) { t.Messages[0].Content = "" }, stratagate.ErrEmpty},
		{"blank content", func(t *stratagate.Turn) { t.Messages[0].Content = " \n\t" }, stratagate.ErrEmpty},
		{"10 MiB message", func(t *stratagate.Turn) { t.Messages[0].Content = strings.Repeat("x", 10<<20) }, stratagate.ErrTooLarge},
		{"too many messages", func(t *stratagate.Turn) {
			for len(t.Messages) <= stratagate.DefaultMaxTurnMessages {
				t.Messages = append(t.Messages, t.Messages[0])
			}
		}, stratagate.ErrTooLarge},
		{"time before 1678", func(t *stratagate.Turn) { t.Messages[0].At = time.Date(1500, 1, 1, 0, 0, 0, 0, time.UTC) }, stratagate.ErrInvalidInput},
		{"huge receipt", func(t *stratagate.Turn) { t.ReceiptID = strings.Repeat("r", 1000) }, stratagate.ErrTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := good()
			c.mutate(&tr)
			_, err := mem.Append(ctx, tr)
			require.Error(t, err)
			assert.ErrorIs(t, err, stratagate.ErrInvalidInput)
			assert.ErrorIs(t, err, c.specific)
			s, err := mem.Stats(ctx)
			require.NoError(t, err)
			assert.Zero(t, s.Messages+s.Threads+s.Receipts, "nothing written")
		})
	}
	t.Run("malformed scope", func(t *testing.T) {
		for _, sc := range []string{"Global", "project:", "team:x", "session:" + strings.Repeat("s", 200)} {
			tr := good()
			tr.Scope = sc
			_, err := mem.Append(ctx, tr)
			assert.ErrorIs(t, err, stratagate.ErrScope, sc)
		}
		s, err := mem.Stats(ctx)
		require.NoError(t, err)
		assert.Zero(t, s.Messages+s.Threads)
	})
}

func TestAppendDoesNotMutateCaller(t *testing.T) {
	mem, _ := openMem(t, nil)
	tr := turn("t", 1)
	tr.Messages[0].At = time.Time{}
	_, err := mem.Append(ctx, tr)
	require.NoError(t, err)
	assert.Zero(t, tr.Messages[0].ID)
	assert.True(t, tr.Messages[0].At.IsZero())
}

func TestScopeFixedByFirstTurn(t *testing.T) {
	mem, _ := openMem(t, nil)
	first := turn("proj", 1)
	first.Scope = "project:atlas"
	_, err := mem.Append(ctx, first)
	require.NoError(t, err)
	before, err := mem.Stats(ctx)
	require.NoError(t, err)

	second := turn("proj", 2)
	second.Scope = "project:other"
	_, err = mem.Append(ctx, second)
	require.ErrorIs(t, err, stratagate.ErrScope)
	unscoped := turn("proj", 3) // empty scope means global: also a change
	_, err = mem.Append(ctx, unscoped)
	require.ErrorIs(t, err, stratagate.ErrScope)

	after, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, before.Messages, after.Messages)
	assert.Equal(t, before.Receipts, after.Receipts)
	ths, err := mem.Threads(ctx)
	require.NoError(t, err)
	require.Len(t, ths, 1)
	assert.Equal(t, "project:atlas", ths[0].Scope)
	assert.Equal(t, uint64(1), ths[0].Turns)
}

func TestReceiptIsIdempotent(t *testing.T) {
	mem, path := openMem(t, nil)
	tr := turn("t", 1)
	first, err := mem.Append(ctx, tr)
	require.NoError(t, err)
	assert.False(t, first.Duplicate)
	again, err := mem.Append(ctx, tr)
	require.NoError(t, err)
	assert.True(t, again.Duplicate)
	assert.Equal(t, first.MessageIDs, again.MessageIDs)
	assert.Equal(t, first.Turn, again.Turn)

	require.NoError(t, mem.Close())
	mem2, err := stratagate.Open(path, nil)
	require.NoError(t, err)
	defer mem2.Close()
	third, err := mem2.Append(ctx, tr)
	require.NoError(t, err)
	assert.True(t, third.Duplicate)
	assert.Equal(t, first.MessageIDs, third.MessageIDs)
	s, err := mem2.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, s.Messages)
}

func TestClosedMemory(t *testing.T) {
	mem, _ := openMem(t, nil)
	require.NoError(t, mem.Close())
	require.NoError(t, mem.Close(), "Close is idempotent")
	_, err := mem.Append(ctx, turn("t", 1))
	assert.ErrorIs(t, err, stratagate.ErrClosed)
	_, err = mem.Blocks(ctx, "t")
	assert.ErrorIs(t, err, stratagate.ErrClosed)
	_, err = mem.ExpandBlock(ctx, 1, 5)
	assert.ErrorIs(t, err, stratagate.ErrClosed)
	_, err = mem.Context(ctx, "t", 100)
	assert.ErrorIs(t, err, stratagate.ErrClosed)
	assert.ErrorIs(t, mem.WaitIdle(ctx), stratagate.ErrClosed)
}

func TestInvalidOptions(t *testing.T) {
	for _, o := range []stratagate.Options{
		{BlockTurns: -1}, {DecayCoefficient: -0.3}, {MaxMessageBytes: -1}, {JobAttempts: -2}, {JobBackoff: -time.Second},
	} {
		_, err := stratagate.Open(t.TempDir()+"/x.sg", &o)
		assert.ErrorIs(t, err, stratagate.ErrInvalidOptions, "%+v", o)
	}
}

func TestSealingLeavesOpenTail(t *testing.T) {
	sm := &scriptModel{}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 3, Model: sm})
	var sealed []uint64
	for i := 1; i <= 7; i++ {
		ref, err := mem.Append(ctx, turn("t", i))
		require.NoError(t, err)
		if i%3 == 0 {
			require.NotZero(t, ref.SealedBlockID, "turn %d completes a block", i)
			sealed = append(sealed, ref.SealedBlockID)
		} else {
			require.Zero(t, ref.SealedBlockID, "turn %d stays open", i)
		}
	}
	waitIdle(t, mem)
	blocks, err := mem.Blocks(ctx, "t")
	require.NoError(t, err)
	require.Len(t, blocks, 2)
	for i, b := range blocks {
		assert.Equal(t, sealed[i], b.ID)
		assert.Equal(t, stratagate.BlockReady, b.State)
		assert.Len(t, b.MessageIDs, 6)
		assert.Equal(t, uint64(i*3+1), b.TurnFirst)
	}
	assert.Equal(t, 2, sm.Calls(), "the open tail is never derived")
	ths, err := mem.Threads(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, ths[0].OpenTurns)
	assert.Len(t, ths[0].OpenTail, 2)
	cv, err := mem.Context(ctx, "t", 10000)
	require.NoError(t, err)
	assert.Len(t, cv.Tail, 2)
	assert.Contains(t, cv.Text, "Message 7:")
}

func TestDerivedLevelsNeverTouchL5(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 4})
	var sent []stratagate.Message
	for i := 1; i <= 4; i++ {
		tr := turn("t", i)
		tr.Messages[0].At = tr.Messages[0].At.In(time.FixedZone("", 5*3600+1800)) // +05:30
		sent = append(sent, tr.Messages...)
		_, err := mem.Append(ctx, tr)
		require.NoError(t, err)
	}
	blocks, err := mem.Blocks(ctx, "t")
	require.NoError(t, err)
	require.Len(t, blocks, 1)
	pending, err := mem.ExpandBlock(ctx, blocks[0].ID, 5)
	require.NoError(t, err)
	waitIdle(t, mem)
	ready, err := mem.ExpandBlock(ctx, blocks[0].ID, 5)
	require.NoError(t, err)
	assert.Equal(t, stratagate.BlockPending, pending.State)
	assert.Equal(t, pending.Text, ready.Text, "derivation changes nothing of L5")
	assert.Equal(t, pending.Messages, ready.Messages, "derivation changes nothing of L5")
	require.Len(t, ready.Messages, len(sent))
	for i, m := range ready.Messages {
		assert.Equal(t, sent[i].Content, m.Content)
		assert.True(t, sent[i].At.Equal(m.At))
		_, wantOff := sent[i].At.Zone()
		_, gotOff := m.At.Zone()
		assert.Equal(t, wantOff, gotOff, "original offset kept")
		assert.Equal(t, m.Hash(), m.SHA256)
		assert.Contains(t, ready.Text, m.Content)
	}
	b, err := mem.Blocks(ctx, "t")
	require.NoError(t, err)
	assert.Equal(t, stratagate.BlockReady, b[0].State)
	assert.Equal(t, blocks[0].L5Hash, b[0].L5Hash)
	assert.Equal(t, blocks[0].L4, b[0].L4)
	assert.Equal(t, blocks[0].L3, b[0].L3)
}

func TestExpandBlockLevels(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 2})
	appendN(t, mem, "t", 1, 3)
	waitIdle(t, mem)
	blocks, err := mem.Blocks(ctx, "t")
	require.NoError(t, err)
	require.Len(t, blocks, 1)
	id := blocks[0].ID
	for lvl := 0; lvl <= 5; lvl++ {
		v, err := mem.ExpandBlock(ctx, id, lvl)
		require.NoError(t, err, "L%d", lvl)
		assert.Equal(t, lvl, v.Level)
		assert.NotEmpty(t, v.Text, "L%d", lvl)
		assert.Equal(t, lvl == 5, v.Messages != nil)
	}
	_, err = mem.ExpandBlock(ctx, id, 6)
	assert.ErrorIs(t, err, stratagate.ErrLevel)
	_, err = mem.ExpandBlock(ctx, id, -1)
	assert.ErrorIs(t, err, stratagate.ErrInvalidInput)
	_, err = mem.ExpandBlock(ctx, 999, 3)
	assert.ErrorIs(t, err, stratagate.ErrNotFound)
	_, err = mem.Blocks(ctx, "nope")
	assert.ErrorIs(t, err, stratagate.ErrNotFound)
	_, err = mem.Context(ctx, "nope", 100)
	assert.ErrorIs(t, err, stratagate.ErrNotFound)
	_, err = mem.Context(ctx, "t", 0)
	assert.ErrorIs(t, err, stratagate.ErrInvalidInput)
}

func TestInvalidModelOutputIsRetried(t *testing.T) {
	long := strings.Repeat("t", 200)
	sm := &scriptModel{outputs: []string{
		"Sure! Here is the JSON you asked for.",
		`{"title":"x","tags":["a"],"summary":"s","facts":[{"text":"f","message_ids":[999999]}]}`,
		`{"title":"` + long + `","tags":["a"],"summary":"s","facts":[]}`,
		`{"title":"x","tags":["a"],"summary":"s","facts":[],"extra":1}`,
	}}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 1, Model: sm, JobAttempts: 5, JobBackoff: time.Millisecond})
	appendN(t, mem, "t", 1, 2)
	waitIdle(t, mem)
	assert.Equal(t, 5, sm.Calls())
	blocks, err := mem.Blocks(ctx, "t")
	require.NoError(t, err)
	require.Len(t, blocks, 1)
	assert.Equal(t, stratagate.BlockReady, blocks[0].State)
	assert.Equal(t, fmt.Sprintf("Block %d", blocks[0].ID), blocks[0].Title, "only the valid output is stored")
}

func TestModelFailureMarksBlockFailed(t *testing.T) {
	sm := &scriptModel{outputs: []string{"nope", "[1,2]", "{}"}}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 1, Model: sm, JobAttempts: 3, JobBackoff: time.Millisecond})
	appendN(t, mem, "t", 1, 2)
	waitIdle(t, mem)
	blocks, err := mem.Blocks(ctx, "t")
	require.NoError(t, err)
	require.Len(t, blocks, 1)
	assert.Equal(t, stratagate.BlockFailed, blocks[0].State)
	assert.NotEmpty(t, blocks[0].Err)
	assert.Empty(t, blocks[0].Title)
	_, err = mem.ExpandBlock(ctx, blocks[0].ID, 1)
	assert.ErrorIs(t, err, stratagate.ErrNotReady)
	v, err := mem.ExpandBlock(ctx, blocks[0].ID, 4)
	require.NoError(t, err)
	assert.Contains(t, v.Text, "Message 1:")
	s, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, s.JobsFailed)
	assert.Equal(t, 0, s.JobsQueued)
}

// waitReady polls until n blocks of thread are ready.
func waitReady(t *testing.T, mem *stratagate.Memory, thread string, n int) []stratagate.Block {
	t.Helper()
	var blocks []stratagate.Block
	require.Eventually(t, func() bool {
		var err error
		blocks, err = mem.Blocks(ctx, thread)
		require.NoError(t, err)
		ready := 0
		for _, b := range blocks {
			if b.State == stratagate.BlockReady {
				ready++
			}
		}
		return ready == n
	}, 10*time.Second, 2*time.Millisecond)
	return blocks
}

func TestPendingBlockDoesNotAgeOthers(t *testing.T) {
	sm := &scriptModel{gate: make(chan struct{})}
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 1, Model: sm})
	levels := func() []int {
		cv, err := mem.Context(ctx, "t", 100000)
		require.NoError(t, err)
		var ages []int
		for _, b := range cv.Blocks {
			ages = append(ages, b.Age)
		}
		return ages
	}
	// Blocks are sealed one at a time, each derived before the next is
	// sealed: derive jobs pending together may be stored together.
	appendN(t, mem, "t", 1, 2)
	assert.Equal(t, []int{-1}, levels())
	sm.gate <- struct{}{}
	waitReady(t, mem, "t", 1)
	appendN(t, mem, "t", 2, 3)
	assert.Equal(t, []int{0, -1}, levels(), "pending block 2 does not age block 1")
	sm.gate <- struct{}{}
	waitReady(t, mem, "t", 2)
	appendN(t, mem, "t", 3, 4)
	assert.Equal(t, []int{1, 0, -1}, levels(), "pending block 3 does not age blocks 1 and 2")
	close(sm.gate)
	waitIdle(t, mem)
	assert.Equal(t, []int{2, 1, 0}, levels())
}

func TestDecayLevelFallsWithAge(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 1})
	appendN(t, mem, "t", 1, 13)
	waitIdle(t, mem)
	cv, err := mem.Context(ctx, "t", 1<<20)
	require.NoError(t, err)
	require.Len(t, cv.Blocks, 12)
	want := map[int]int{0: 5, 1: 5, 2: 4, 3: 3, 4: 3, 5: 2, 6: 2, 7: 1, 8: 1, 9: 0, 10: 0, 11: 0}
	for _, b := range cv.Blocks {
		assert.Equal(t, want[b.Age], b.Level, "age %d", b.Age)
	}
	// The oldest block shows only its compact index; the newest in detail.
	assert.Contains(t, cv.Text, "Message 12:")
	assert.NotContains(t, cv.Text, "Message 1: we decided")
}

func TestContextStaysWithinBudget(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 2})
	appendN(t, mem, "t", 1, 30)
	waitIdle(t, mem)
	for _, budget := range []int{1, 10, 50, 100, 250, 500, 1000, 5000} {
		cv, err := mem.Context(ctx, "t", budget)
		require.NoError(t, err)
		assert.LessOrEqual(t, cv.Tokens, budget)
	}
}

func TestReopenResumesPendingJobs(t *testing.T) {
	sm := &scriptModel{gate: make(chan struct{})} // never released
	mem, path := openMem(t, &stratagate.Options{BlockTurns: 2, Model: sm})
	appendN(t, mem, "t", 1, 7)
	require.NoError(t, mem.Close(), "Close does not wait for a blocked model call")

	mem2, err := stratagate.Open(path, nil)
	require.NoError(t, err)
	defer mem2.Close()
	waitIdle(t, mem2)
	blocks, err := mem2.Blocks(ctx, "t")
	require.NoError(t, err)
	require.Len(t, blocks, 3)
	for _, b := range blocks {
		assert.Equal(t, stratagate.BlockReady, b.State)
	}
	s, err := mem2.Stats(ctx)
	require.NoError(t, err)
	assert.Zero(t, s.JobsQueued)
	assert.Zero(t, s.JobsFailed)
}

func TestReadOnlyAndLocked(t *testing.T) {
	mem, path := openMem(t, &stratagate.Options{BlockTurns: 2})
	appendN(t, mem, "t", 1, 3)
	waitIdle(t, mem)

	_, err := stratagate.Open(path, &stratagate.Options{LockTimeout: 50 * time.Millisecond, ReadOnly: true})
	assert.ErrorIs(t, err, stratagate.ErrLocked, "a reader waits for the writer's lock, then gives up")
	_, err = stratagate.Open(path, &stratagate.Options{LockTimeout: 50 * time.Millisecond})
	assert.ErrorIs(t, err, stratagate.ErrLocked)
	require.NoError(t, mem.Close())

	ro, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer ro.Close()
	_, err = ro.Append(ctx, turn("t", 9))
	assert.ErrorIs(t, err, stratagate.ErrReadOnly)
	assert.ErrorIs(t, ro.WaitIdle(ctx), stratagate.ErrReadOnly)
	blocks, err := ro.Blocks(ctx, "t")
	require.NoError(t, err)
	assert.Len(t, blocks, 1)

	_, err = stratagate.Open(t.TempDir()+"/missing.sg", &stratagate.Options{ReadOnly: true})
	assert.Error(t, err)
}

func TestConcurrentAppends(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{BlockTurns: 5, NoSync: true})
	const writers, per = 8, 25
	var wg sync.WaitGroup
	refs := make([][]stratagate.TurnRef, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				thread := fmt.Sprintf("w%d", w)
				if i%2 == 0 {
					thread = "shared"
				}
				tr := turn(thread, i)
				tr.ReceiptID = fmt.Sprintf("w%d-%d", w, i)
				ref, err := mem.Append(ctx, tr)
				if !assert.NoError(t, err) {
					return
				}
				refs[w] = append(refs[w], ref)
			}
		}()
	}
	wg.Wait()
	waitIdle(t, mem)
	seen := map[uint64]bool{}
	for _, rs := range refs {
		require.Len(t, rs, per)
		for _, r := range rs {
			for _, id := range r.MessageIDs {
				require.False(t, seen[id], "message id %d assigned twice", id)
				seen[id] = true
			}
		}
	}
	s, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, writers*per*2, s.Messages)
	assert.Equal(t, writers*per, s.Receipts)
	assert.Equal(t, s.Blocks, s.BlocksReady)
	shared, err := mem.Blocks(ctx, "shared")
	require.NoError(t, err)
	assert.Len(t, shared, writers*13/5)
}
