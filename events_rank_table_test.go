package stratagate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/kv"
)

// The event rank table (events.rank) is derived: a file written by a
// build without it (the bucket empty, its sequence 0) is reported by a
// read-only Verify and rebuilt by a writable Open, after which searches
// rank as before; a damaged entry is reported as index.events.rank.
func TestEventRankTableRebuiltAndVerified(t *testing.T) {
	mem, src := openMem(t, &stratagate.Options{NoSync: true})
	ingestSample(t, mem)
	waitIdle(t, mem)
	queries := []stratagate.Query{
		{Text: "When did Leo move to Seattle?", Scopes: atlasScopes},
		{Text: "What did we decide about the database first?", Scopes: atlasScopes},
		{Text: "parrot", Scopes: atlasScopes, Thread: "team-atlas"},
	}
	search := func(mem *stratagate.Memory) [][]uint64 {
		var out [][]uint64
		for _, q := range queries {
			hits, err := mem.SearchEvents(ctx, q)
			require.NoError(t, err)
			var ids []uint64
			for _, h := range hits {
				ids = append(ids, h.ID)
			}
			out = append(out, ids)
		}
		return out
	}
	want := search(mem)
	require.NotEmpty(t, want[0])
	require.NoError(t, mem.Close())

	t.Run("missing table", func(t *testing.T) {
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			if err := tx.DeleteBucket(kv.BucketEventRank); err != nil {
				return err
			}
			_, err := tx.CreateBucket(kv.BucketEventRank)
			return err
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "index.events.rank")
		assert.Contains(t, v.Detail, "sequence")

		mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
		require.NoError(t, err)
		assert.Equal(t, want, search(mem), "the same rankings from the rebuilt table")
		require.NoError(t, mem.Close())
		rep = verifyFile(t, path)
		assert.True(t, rep.OK, "%v", rep.Violations)
	})

	t.Run("damaged entry", func(t *testing.T) {
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			return tx.Bucket(kv.BucketEventRank).Put(kv.Key(2), []byte{1, 3, 0, 0})
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "index.events.rank")
		assert.Contains(t, v.Key, `\x02`)

		// RebuildIndexes repairs it.
		mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
		require.NoError(t, err)
		require.NoError(t, mem.RebuildIndexes(ctx))
		require.NoError(t, mem.CheckIndexes(ctx))
		assert.Equal(t, want, search(mem))
		require.NoError(t, mem.Close())
	})
}
