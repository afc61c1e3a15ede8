package layers_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/layers"
)

func TestWalkThreadBlocks(t *testing.T) {
	db := openDB(t)
	appendTurns(t, db, "a", "global", 0, 10, 2) // blocks 1–5 of a
	appendTurns(t, db, "b", "global", 0, 6, 2)  // blocks 1–3 of b: a neighbour in key order
	_, blocks, _ := loadThread(t, db, "a")
	require.Len(t, blocks, 5)
	walk := func(from uint64, backward bool, stopAfter int) []uint64 {
		var seqs []uint64
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			return layers.WalkThreadBlocks(tx, "a", from, backward, func(seq, id uint64) (bool, error) {
				require.Equal(t, blocks[seq-1].ID, id)
				seqs = append(seqs, seq)
				return len(seqs) < stopAfter, nil
			})
		}))
		return seqs
	}
	for _, c := range []struct {
		name     string
		from     uint64
		backward bool
		stop     int
		want     []uint64
	}{
		{"forward from the start", 1, false, 99, []uint64{1, 2, 3, 4, 5}},
		{"forward from the middle", 3, false, 99, []uint64{3, 4, 5}},
		{"forward stops when told", 2, false, 2, []uint64{2, 3}},
		{"forward past the end", 6, false, 99, nil},
		{"backward from the middle", 3, true, 99, []uint64{3, 2, 1}},
		{"backward from past the end", 9, true, 99, []uint64{5, 4, 3, 2, 1}},
		{"backward stops when told", 5, true, 1, []uint64{5}},
		{"backward from zero", 0, true, 99, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, walk(c.from, c.backward, c.stop))
		})
	}
}
