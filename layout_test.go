package stratagate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

// A file whose indexes were written in an older layout (stats without a
// layout number, posting blocks in the old format) is rebuilt by a
// writable Open; a read-only Open cannot rebuild and reports it.
func TestOpenRebuildsOldIndexLayout(t *testing.T) {
	src := sampleFile(t)
	path := damagedCopy(t, src, func(tx *bolt.Tx) error {
		for _, name := range []string{"idx.raw", "idx.events", "idx.graph"} {
			root := tx.Bucket([]byte(name))
			require.NotNil(t, root, name)
			meta := root.Bucket([]byte("meta"))
			var st map[string]any
			_, err := kv.Decode(meta.Get([]byte("stats")), &st, 1)
			require.NoError(t, err)
			require.Contains(t, st, "f", "current stats carry the layout")
			delete(st, "f")
			v, err := kv.Encode(1, st)
			require.NoError(t, err)
			require.NoError(t, meta.Put([]byte("stats"), v))
			// An old-format posting chunk (version 1) where a block was.
			post := root.Bucket([]byte("post"))
			k, _ := post.Cursor().First()
			require.NotNil(t, k)
			require.NoError(t, post.Put(k, []byte{1, 0, 1, 0, 0, 0, 0}))
		}
		return nil
	})

	ro, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	_, err = ro.SearchRaw(ctx, stratagate.Query{Text: "pnpm", Scopes: []string{"project:atlas", "global"}})
	assert.ErrorIs(t, err, index.ErrLayout, "a read-only open serves no search from an old layout")
	require.NoError(t, ro.Close())

	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: "pnpm", Scopes: []string{"project:atlas", "global"}})
	require.NoError(t, err)
	assert.NotEmpty(t, hits)
	require.NoError(t, mem.CheckIndexes(ctx))
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
}
