package layers_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/layers"
)

// TestNeighboursAcrossTheSeal: a thread's messages are its sealed ones
// (its spans) followed by its open tail (the thread record), and
// Neighbours and Locate walk across block boundaries and the seal both
// ways. Interleaved threads never leak into each other.
func TestNeighboursAcrossTheSeal(t *testing.T) {
	db := openDB(t)
	var ids []uint64 // thread a's messages in order
	blockOf := map[uint64]uint64{}
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		var pending []uint64
		for k := 1; k <= 5; k++ { // blocks of 2 turns: turn 5 stays open
			for _, th := range []string{"a", "b", "ab"} {
				res, err := layers.AppendTurn(tx, th, "global", "", turnMsgs(k), 2, sealNow)
				if err != nil {
					return err
				}
				if th != "a" {
					continue
				}
				ids = append(ids, res.MessageIDs...)
				pending = append(pending, res.MessageIDs...)
				if res.SealedBlockID != 0 {
					for _, id := range pending {
						blockOf[id] = res.SealedBlockID
					}
					pending = nil
				}
			}
		}
		return nil
	}))
	require.Len(t, ids, 10)
	require.Len(t, blockOf, 8, "two sealed blocks of four messages")
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		th, _, err := layers.GetThread(tx, "a")
		require.NoError(t, err)
		require.Equal(t, ids[8:], th.OpenTail)
		for i, id := range ids {
			var wantPrev, wantNext uint64
			if i > 0 {
				wantPrev = ids[i-1]
			}
			if i+1 < len(ids) {
				wantNext = ids[i+1]
			}
			prev, next := layers.Neighbours(tx, "a", id)
			assert.Equal(t, wantPrev, prev, "before message %d (#%d)", id, i)
			assert.Equal(t, wantNext, next, "after message %d (#%d)", id, i)
			block, prev2, next2 := layers.Locate(tx, "a", id)
			assert.Equal(t, blockOf[id], block, "block of message %d (#%d)", id, i)
			assert.Equal(t, blockOf[id], layers.MessageBlock(tx, "a", id))
			assert.Equal(t, [2]uint64{prev, next}, [2]uint64{prev2, next2})
		}
		for _, id := range ids {
			for _, other := range []string{"b", "ab", "nope"} {
				block, prev, next := layers.Locate(tx, other, id)
				assert.Zero(t, block+prev+next, "message %d of a has nothing in %q", id, other)
			}
		}
		return nil
	}))
}

// TestReceiptsMoveAtSeal: a turn's receipt waits in its thread record while
// the turn is open; the seal writes every pending receipt to the receipts
// bucket (the sealing turn's with its block), reports them, and clears them
// from the record.
func TestReceiptsMoveAtSeal(t *testing.T) {
	db := openDB(t)
	var res []layers.TurnResult
	for k, rid := range []string{"r1", "", "r3"} {
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			r, err := layers.AppendTurn(tx, "a", "global", rid, turnMsgs(k+1), 3, sealNow)
			res = append(res, r)
			return err
		}))
		if k < 2 {
			require.NoError(t, db.View(func(tx *bolt.Tx) error {
				_, ok, err := layers.GetReceipt(tx, "r1")
				require.NoError(t, err)
				assert.False(t, ok, "not in the bucket while pending")
				p, ok, err := layers.PendingReceiptOf(tx, "a", "r1")
				require.NoError(t, err)
				require.True(t, ok)
				assert.Equal(t, layers.Receipt{Thread: "a", Turn: 1, MessageIDs: res[0].MessageIDs}, p)
				return nil
			}))
		}
	}
	require.NotZero(t, res[2].SealedBlockID)
	assert.Equal(t, []string{"r1", "r3"}, res[2].Flushed)
	assert.Empty(t, res[0].Flushed)
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		th, _, err := layers.GetThread(tx, "a")
		require.NoError(t, err)
		assert.Empty(t, th.Receipts)
		r1, ok, err := layers.GetReceipt(tx, "r1")
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, layers.Receipt{Thread: "a", Turn: 1, MessageIDs: res[0].MessageIDs}, r1)
		r3, ok, err := layers.GetReceipt(tx, "r3")
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, layers.Receipt{Thread: "a", Turn: 3, MessageIDs: res[2].MessageIDs, SealedBlockID: res[2].SealedBlockID}, r3)
		_, ok, err = layers.PendingReceiptOf(tx, "a", "r1")
		require.NoError(t, err)
		assert.False(t, ok)
		return nil
	}))
}
