package stratagate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// TestReceiptsPendingUntilSeal: the receipts of an open tail's turns are
// kept in the thread record and move to the receipts bucket at the seal.
// Wherever a receipt is, a retry of its turn is a duplicate and another
// turn under it (here in another thread, whose record does not hold it)
// is ErrReceiptConflict: before and after a reopen, which rebuilds the
// index of pending receipts from the thread records, and after the seal.
func TestReceiptsPendingUntilSeal(t *testing.T) {
	const blockTurns = 4
	mem, path := openMem(t, &stratagate.Options{NoSync: true, BlockTurns: blockTurns})
	appendN(t, mem, "a", 0, blockTurns-1) // a-0 … a-2 stay open

	pendingIn := func(mem *stratagate.Memory, thread string) []string {
		t.Helper()
		ths, err := mem.Threads(ctx)
		require.NoError(t, err)
		for _, th := range ths {
			if th.Name == thread {
				var ids []string
				for _, r := range th.Receipts {
					ids = append(ids, r.ID)
				}
				return ids
			}
		}
		return nil
	}
	check := func(mem *stratagate.Memory, stage string, receipts int) {
		t.Helper()
		for i := range blockTurns - 1 {
			ref, err := mem.Append(ctx, turn("a", i))
			require.NoError(t, err, stage)
			assert.True(t, ref.Duplicate, "%s: retry of a-%d", stage, i)
			assert.Equal(t, uint64(i+1), ref.Turn, stage)
			stolen := turn("b", 100+i)
			stolen.ReceiptID = turn("a", i).ReceiptID
			_, err = mem.Append(ctx, stolen)
			require.ErrorIs(t, err, stratagate.ErrReceiptConflict, "%s: a-%d's receipt for a turn of b", stage, i)
		}
		st, err := mem.Stats(ctx)
		require.NoError(t, err)
		assert.Equal(t, receipts, st.Receipts, stage)
		rep, err := mem.Verify(ctx)
		require.NoError(t, err)
		assert.True(t, rep.OK, "%s: %v", stage, rep.Violations)
	}

	assert.Equal(t, []string{"a-0", "a-1", "a-2"}, pendingIn(mem, "a"))
	check(mem, "pending", blockTurns-1)
	require.NoError(t, mem.Close())

	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true, BlockTurns: blockTurns})
	require.NoError(t, err)
	t.Cleanup(func() { _ = mem.Close() })
	check(mem, "pending, reopened", blockTurns-1)

	ref, err := mem.Append(ctx, turn("a", blockTurns-1))
	require.NoError(t, err)
	require.NotZero(t, ref.SealedBlockID)
	assert.Empty(t, pendingIn(mem, "a"), "the seal moved them to the receipts bucket")
	again, err := mem.Append(ctx, turn("a", blockTurns-1))
	require.NoError(t, err)
	assert.True(t, again.Duplicate)
	assert.Equal(t, ref.SealedBlockID, again.SealedBlockID, "the sealing turn's receipt names its block")
	waitIdle(t, mem)
	check(mem, "sealed", blockTurns)
}

// TestReceiptRepeatedInOneBatch: a batch that carries a turn twice under
// one receipt stores it once; the second finds the first's receipt pending
// in the thread record the same transaction wrote.
func TestReceiptRepeatedInOneBatch(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{NoSync: true})
	refs, err := mem.AppendBatch(ctx, []stratagate.Turn{turn("a", 0), turn("a", 1), turn("a", 0)})
	require.NoError(t, err)
	require.Len(t, refs, 3)
	assert.False(t, refs[0].Duplicate)
	assert.True(t, refs[2].Duplicate)
	assert.Equal(t, refs[0].MessageIDs, refs[2].MessageIDs)
	st, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, 4, st.Messages)
	assert.Equal(t, 2, st.Receipts)
}
