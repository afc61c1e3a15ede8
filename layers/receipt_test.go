package layers_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// TestNeighboursAcrossTheSeal: a thread's messages are its sealed ones
// (thread_messages) followed by its open tail (the thread record), and
// Neighbours walks across that boundary both ways, in a layout where the
// tail is only in the record and in the format 2 layout that lists it in
// thread_messages too. Interleaved threads never leak into each other.
func TestNeighboursAcrossTheSeal(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		db := openDB(t)
		var ids []uint64 // thread a's messages in order
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			for k := 1; k <= 5; k++ { // blocks of 2 turns: turn 5 stays open
				for _, th := range []string{"a", "b", "ab"} {
					res, err := layers.AppendTurn(tx, th, "global", "", turnMsgs(k), 2, sealNow)
					if err != nil {
						return err
					}
					if th == "a" {
						ids = append(ids, res.MessageIDs...)
					}
				}
			}
			if legacy {
				th, _, err := layers.GetThread(tx, "a")
				if err != nil {
					return err
				}
				for _, id := range th.OpenTail {
					if err := tx.Bucket(kv.BucketThreadMsgs).Put(append([]byte("a\x00"), kv.Key(id)...), nil); err != nil {
						return err
					}
				}
			}
			return nil
		}))
		require.Len(t, ids, 10)
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
				assert.Equal(t, wantPrev, prev, "legacy %v: before message %d (#%d)", legacy, id, i)
				assert.Equal(t, wantNext, next, "legacy %v: after message %d (#%d)", legacy, id, i)
			}
			prev, next := layers.Neighbours(tx, "b", ids[9])
			assert.Zero(t, prev+next, "a message of another thread has no neighbours in b")
			prev, next = layers.Neighbours(tx, "nope", ids[0])
			assert.Zero(t, prev+next)
			return nil
		}))
	}
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
