package layers_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/wal"
)

func TestAppendTurnSealsEveryBlockTurns(t *testing.T) {
	const blockTurns = 3
	db := openDB(t)

	// Keep the caller's slices to check that AppendTurn fills them.
	var inputs [][]layers.Message
	var results []layers.TurnResult
	for k := 1; k <= 7; k++ {
		msgs := turnMsgs(k)
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			res, err := layers.AppendTurn(tx, "thread-1", "project:atlas", "", msgs, blockTurns, sealNow)
			results = append(results, res)
			return err
		}))
		inputs = append(inputs, msgs)
	}

	t.Run("turn results", func(t *testing.T) {
		for i, res := range results {
			k := uint64(i + 1)
			assert.Equal(t, "thread-1", res.Thread)
			assert.Equal(t, k, res.Turn)
			assert.Equal(t, []uint64{2*k - 1, 2 * k}, res.MessageIDs)
			switch k {
			case 3:
				assert.Equal(t, uint64(1), res.SealedBlockID)
			case 6:
				assert.Equal(t, uint64(2), res.SealedBlockID)
			default:
				assert.Zero(t, res.SealedBlockID, "turn %d stays open", k)
			}
			for j, m := range inputs[i] {
				assert.Equal(t, res.MessageIDs[j], m.ID, "caller's message gets its id")
				assert.Equal(t, "thread-1", m.Thread)
				assert.Equal(t, k, m.Turn)
				assert.Equal(t, m.Hash(), m.SHA256)
			}
		}
	})

	th, blocks, tail := loadThread(t, db, "thread-1")

	t.Run("thread record", func(t *testing.T) {
		assert.Equal(t, "thread-1", th.Name)
		assert.Equal(t, "project:atlas", th.Scope)
		assert.Equal(t, uint64(7), th.Turns)
		assert.Equal(t, uint64(2), th.Blocks)
		assert.Equal(t, 1, th.OpenTurns)
		assert.Equal(t, []uint64{13, 14}, th.OpenTail)
		assert.True(t, th.Created.Equal(sealNow))
		assert.True(t, th.LastAt.Equal(inputs[6][1].At), "LastAt is the newest message")
		require.Len(t, tail, 2)
		assert.Equal(t, inputs[6][0].Content, tail[0].Content)
		assert.Equal(t, inputs[6][1].Content, tail[1].Content)
	})

	require.Len(t, blocks, 2)
	for i, b := range blocks {
		i, b := i, b
		seq := uint64(i + 1)
		t.Run(fmt.Sprintf("block %d", seq), func(t *testing.T) {
			assert.Equal(t, seq, b.ID)
			assert.Equal(t, seq, b.Seq)
			assert.Equal(t, "thread-1", b.Thread)
			assert.Equal(t, "project:atlas", b.Scope)
			assert.Equal(t, layers.StatePending, b.State)
			first := 6*(seq-1) + 1
			assert.Equal(t, []uint64{first, first + 1, first + 2, first + 3, first + 4, first + 5}, b.MessageIDs)
			assert.Equal(t, 3*(seq-1)+1, b.TurnFirst)
			assert.Equal(t, 3*seq, b.TurnLast)

			msgs := blockMessages(t, db, b)
			require.Len(t, msgs, 6)
			for j, m := range msgs {
				assert.Equal(t, b.MessageIDs[j], m.ID)
				assert.Equal(t, inputs[3*i+j/2][j%2].Content, m.Content, "messages in order")
			}
			assert.Equal(t, layers.L5Hash(msgs), b.L5Hash)
			assert.Equal(t, layers.RenderL4(msgs), b.L4)
			assert.Equal(t, layers.RenderL3(msgs), b.L3)

			assert.True(t, b.FirstAt.Equal(msgs[0].At))
			assert.True(t, b.LastAt.Equal(msgs[5].At))
			assert.Equal(t, -4*3600, offsetOf(b.FirstAt), "FirstAt keeps its offset")
			assert.Equal(t, 5*3600+30*60, offsetOf(b.LastAt), "LastAt keeps its offset")
			assert.Equal(t, int32(-4*3600), b.FirstOffset)
			assert.Equal(t, int32(5*3600+30*60), b.LastOffset)
			assert.True(t, b.CreatedAt.Equal(sealNow))
			assert.True(t, b.ReadyAt.IsZero())
			assert.Empty(t, b.Title)
			assert.Empty(t, b.Tags)
			assert.Empty(t, b.Summary)
			assert.Empty(t, b.Facts)
			assert.Empty(t, b.Err)

			// The record keeps the renderer version and the hash of L3 and
			// L4, not their text: GetBlock leaves them empty, and otherwise
			// agrees with ThreadBlocks and LoadRenderings.
			assert.Equal(t, layers.RendererVersion, b.RenderVersion)
			assert.Equal(t, layers.RenderSum(b.L3, b.L4), b.RenderHash)
			assert.Len(t, b.RenderHash, 16)
			require.NoError(t, db.View(func(tx *bolt.Tx) error {
				got, err := layers.GetBlock(tx, b.ID)
				require.NoError(t, err)
				assert.Empty(t, got.L3)
				assert.Empty(t, got.L4)
				require.NoError(t, layers.LoadRenderings(tx, &got))
				assert.Equal(t, b, got)
				return nil
			}))
		})
	}

	t.Run("MessageBlock", func(t *testing.T) {
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			for id := uint64(1); id <= 14; id++ {
				want := uint64(0)
				switch {
				case id <= 6:
					want = 1
				case id <= 12:
					want = 2
				}
				assert.Equal(t, want, layers.MessageBlock(tx, "thread-1", id), "message %d", id)
				if want != 0 {
					assert.Zero(t, layers.MessageBlock(tx, "thread-2", id), "message %d is not thread-2's", id)
				}
			}
			assert.Zero(t, layers.MessageBlock(tx, "thread-1", 999), "unknown message")
			return nil
		}))
	})

	t.Run("derive jobs queued", func(t *testing.T) {
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			q, err := wal.Queue(tx)
			require.NoError(t, err)
			require.Len(t, q, 2)
			for i, j := range q {
				assert.Equal(t, wal.KindDerive, j.Kind)
				assert.Equal(t, blocks[i].ID, j.Target)
				assert.Equal(t, wal.StatePending, j.State)
				assert.Zero(t, j.Attempts)
				assert.True(t, j.Created.Equal(sealNow))
			}
			return nil
		}))
	})

	t.Run("other scope on existing thread", func(t *testing.T) {
		before := snapshot(t, db)
		sentinel := errors.New("rolled back")
		for _, scope := range []string{"global", "project:other", "session:abc"} {
			var appendErr error
			err := db.Update(func(tx *bolt.Tx) error {
				_, appendErr = layers.AppendTurn(tx, "thread-1", scope, "", turnMsgs(8), blockTurns, sealNow)
				return appendErr
			})
			assert.ErrorIs(t, appendErr, layers.ErrScope, scope)
			assert.ErrorIs(t, err, layers.ErrScope, scope)
		}
		// A successful append followed by a mismatch in the same tx: the
		// whole tx rolls back.
		err := db.Update(func(tx *bolt.Tx) error {
			if _, err := layers.AppendTurn(tx, "thread-1", "project:atlas", "", turnMsgs(8), blockTurns, sealNow); err != nil {
				return err
			}
			if _, err := layers.AppendTurn(tx, "thread-1", "project:atlas", "", turnMsgs(9), blockTurns, sealNow); err != nil {
				return err // seals block 3
			}
			if _, err := layers.AppendTurn(tx, "thread-1", "global", "", turnMsgs(10), blockTurns, sealNow); err != nil {
				return errors.Join(sentinel, err)
			}
			return nil
		})
		assert.ErrorIs(t, err, sentinel)
		assert.ErrorIs(t, err, layers.ErrScope)
		assert.Equal(t, before, snapshot(t, db), "nothing changed")
	})
}

func TestAppendTurnSingleTurnBlocksAndMixedSizes(t *testing.T) {
	db := openDB(t)
	var res []layers.TurnResult
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for _, n := range []int{1, 3, 2} {
			msgs := make([]layers.Message, n)
			for i := range msgs {
				msgs[i] = mkMsg(layers.RoleUser, "", "m", base)
			}
			r, err := layers.AppendTurn(tx, "t", "global", "", msgs, 1, sealNow)
			if err != nil {
				return err
			}
			res = append(res, r)
		}
		return nil
	}))
	for i, r := range res {
		assert.Equal(t, uint64(i+1), r.SealedBlockID, "blockTurns=1 seals every turn")
	}
	th, blocks, tail := loadThread(t, db, "t")
	assert.Empty(t, tail)
	assert.Zero(t, th.OpenTurns)
	require.Len(t, blocks, 3)
	assert.Equal(t, []uint64{1}, blocks[0].MessageIDs)
	assert.Equal(t, []uint64{2, 3, 4}, blocks[1].MessageIDs)
	assert.Equal(t, []uint64{5, 6}, blocks[2].MessageIDs)
	for i, b := range blocks {
		assert.Equal(t, uint64(i+1), b.TurnFirst)
		assert.Equal(t, uint64(i+1), b.TurnLast)
	}
}

func TestSealEmptyTail(t *testing.T) {
	db := openDB(t)
	err := db.Update(func(tx *bolt.Tx) error {
		th := layers.Thread{Name: "empty", Scope: "global"}
		_, err := layers.Seal(tx, &th, sealNow)
		return err
	})
	assert.Error(t, err)
}

func TestSealUnknownTailMessage(t *testing.T) {
	db := openDB(t)
	before := snapshot(t, db)
	err := db.Update(func(tx *bolt.Tx) error {
		th := layers.Thread{Name: "ghost", Scope: "global", OpenTail: []uint64{42}, OpenTurns: 1}
		_, err := layers.Seal(tx, &th, sealNow)
		return err
	})
	assert.Error(t, err)
	assert.Equal(t, before, snapshot(t, db))
}

func TestThreadBlocksPrefixIsolation(t *testing.T) {
	db := openDB(t)
	// Interleave appends so that the threads' blocks' ids interleave too.
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for k := 1; k <= 3; k++ {
			for _, name := range []string{"a", "ab", "a b", "b"} {
				if _, err := layers.AppendTurn(tx, name, "global", "", turnMsgs(k), 1, sealNow); err != nil {
					return err
				}
			}
		}
		// One more open turn in "a" so that it has a tail.
		_, err := layers.AppendTurn(tx, "a", "global", "", turnMsgs(4), 2, sealNow)
		return err
	}))
	tests := []struct {
		thread string
		n      int
	}{
		{"a", 3}, {"ab", 3}, {"a b", 3}, {"b", 3}, {"", 0}, {"abc", 0}, {"A", 0},
	}
	for _, tc := range tests {
		t.Run("thread "+tc.thread, func(t *testing.T) {
			require.NoError(t, db.View(func(tx *bolt.Tx) error {
				blocks, err := layers.ThreadBlocks(tx, tc.thread)
				require.NoError(t, err)
				require.Len(t, blocks, tc.n)
				for i, b := range blocks {
					assert.Equal(t, tc.thread, b.Thread)
					assert.Equal(t, uint64(i+1), b.Seq, "Seq order")
					if i > 0 {
						assert.Greater(t, b.ID, blocks[i-1].ID)
					}
				}
				return nil
			}))
		})
	}

	t.Run("ListThreads", func(t *testing.T) {
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			ths, err := layers.ListThreads(tx)
			require.NoError(t, err)
			var names []string
			for _, th := range ths {
				names = append(names, th.Name)
			}
			assert.Equal(t, []string{"a", "a b", "ab", "b"}, names)
			return nil
		}))
	})
	t.Run("GetThread unknown", func(t *testing.T) {
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			_, ok, err := layers.GetThread(tx, "nope")
			assert.NoError(t, err)
			assert.False(t, ok)
			return nil
		}))
	})
}

func TestThreadBlocksManySeqs(t *testing.T) {
	// More than 255 blocks: Seq keys must sort numerically, not by a
	// single byte.
	db := openDB(t)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for k := 1; k <= 300; k++ {
			msgs := []layers.Message{mkMsg(layers.RoleUser, "", "m", base)}
			if _, err := layers.AppendTurn(tx, "long", "global", "", msgs, 1, sealNow); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		blocks, err := layers.ThreadBlocks(tx, "long")
		require.NoError(t, err)
		require.Len(t, blocks, 300)
		for i, b := range blocks {
			assert.Equal(t, uint64(i+1), b.Seq)
		}
		return nil
	}))
}

func TestGetBlockNotFound(t *testing.T) {
	db := openDB(t)
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		_, err := layers.GetBlock(tx, 1)
		assert.ErrorIs(t, err, kv.ErrNotFound)
		return nil
	}))
}
