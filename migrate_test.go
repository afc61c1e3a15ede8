package stratagate_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// blockRecordV1 is a block record as format 1 files hold it: the current
// fields (less the renderer version and hash, which it did not have) plus
// the stored L3 and L4 text.
type blockRecordV1 struct {
	layers.Block
	L3 string `msgpack:"l3"`
	L4 string `msgpack:"l4"`
}

// downgradeToV1 rewrites a file's block records as version 1, with the
// renderings edit returns for each (fresh renderings unless edited), and
// sets the file format back to 1: what a build before block record
// version 2 wrote.
func downgradeToV1(t *testing.T, src string, edit func(b *layers.Block)) string {
	t.Helper()
	return damagedCopy(t, src, func(tx *bolt.Tx) error {
		bb := tx.Bucket(kv.BucketBlocks)
		var blocks []layers.Block
		require.NoError(t, bb.ForEach(func(k, v []byte) error {
			b, err := layers.DecodeBlock(v)
			require.NoError(t, err)
			require.NoError(t, layers.LoadRenderings(tx, &b))
			blocks = append(blocks, b)
			return nil
		}))
		for _, b := range blocks {
			if edit != nil {
				edit(&b)
			}
			rec := blockRecordV1{Block: b, L3: b.L3, L4: b.L4}
			rec.RenderVersion, rec.RenderHash = 0, nil
			v, err := kv.Encode(1, &rec)
			require.NoError(t, err)
			require.NoError(t, bb.Put(kv.Key(b.ID), v))
		}
		var f [4]byte
		binary.BigEndian.PutUint32(f[:], 1)
		return tx.Bucket(kv.BucketMeta).Put([]byte("format"), f[:])
	})
}

// blockViews reads every block of every thread at every level it has.
func blockViews(t *testing.T, mem *stratagate.Memory) map[uint64][]stratagate.BlockView {
	t.Helper()
	ths, err := mem.Threads(ctx)
	require.NoError(t, err)
	out := map[uint64][]stratagate.BlockView{}
	for _, th := range ths {
		bs, err := mem.Blocks(ctx, th.Name)
		require.NoError(t, err)
		for _, b := range bs {
			for level := range 6 {
				v, err := mem.ExpandBlock(ctx, b.ID, level)
				require.NoError(t, err)
				out[b.ID] = append(out[b.ID], v)
			}
			// Blocks fills L3 and L4 as ExpandBlock renders them.
			assert.Equal(t, out[b.ID][3].Text, b.L3)
			assert.Equal(t, out[b.ID][4].Text, b.L4)
		}
	}
	require.NotEmpty(t, out)
	return out
}

// recordVersions counts the block records of the closed file at path by
// record version, and returns its format.
func recordVersions(t *testing.T, path string) (map[byte]int, uint32) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	n := map[byte]int{}
	var format uint32
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		format = binary.BigEndian.Uint32(tx.Bucket(kv.BucketMeta).Get([]byte("format")))
		return tx.Bucket(kv.BucketBlocks).ForEach(func(_, v []byte) error {
			n[v[0]]++
			return nil
		})
	}))
	return n, format
}

func TestMigrateBlockRecordsV1(t *testing.T) {
	src := sampleFile(t)
	cur, err := stratagate.Open(src, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	want := blockViews(t, cur)
	require.NoError(t, cur.Close())
	versions, format := recordVersions(t, src)
	assert.Equal(t, map[byte]int{2: len(want)}, versions, "new files hold version 2 records")
	assert.Equal(t, kv.FormatVersion, format)

	path := downgradeToV1(t, src, nil)
	versions, format = recordVersions(t, path)
	require.Equal(t, map[byte]int{1: len(want)}, versions)
	require.Equal(t, uint32(1), format)

	t.Run("read-only Open reads version 1 as is", func(t *testing.T) {
		ro, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
		require.NoError(t, err)
		assert.Equal(t, want, blockViews(t, ro))
		rep, err := ro.Verify(ctx)
		require.NoError(t, err)
		assert.True(t, rep.OK, "%v", rep.Violations)
		require.NoError(t, ro.Close())
		versions, format := recordVersions(t, path)
		assert.Equal(t, map[byte]int{1: len(want)}, versions, "nothing rewritten")
		assert.Equal(t, uint32(1), format)
	})

	t.Run("writable Open rewrites them as version 2", func(t *testing.T) {
		defer stratagate.SetMigrateBatch(2)() // 5 blocks: three transactions
		var logs bytes.Buffer
		mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		require.NoError(t, err)
		assert.Contains(t, logs.String(), "migrated block records to version 2")
		assert.Contains(t, logs.String(), fmt.Sprintf("rewritten=%d", len(want)))
		assert.Contains(t, logs.String(), "transactions=3")
		assert.Equal(t, want, blockViews(t, mem))
		rep, err := mem.Verify(ctx)
		require.NoError(t, err)
		assert.True(t, rep.OK, "%v", rep.Violations)
		require.NoError(t, mem.Close())
		versions, format := recordVersions(t, path)
		assert.Equal(t, map[byte]int{2: len(want)}, versions)
		assert.Equal(t, kv.FormatVersion, format)

		// A second Open has nothing to do.
		logs.Reset()
		mem, err = stratagate.Open(path, &stratagate.Options{NoSync: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		require.NoError(t, err)
		assert.NotContains(t, logs.String(), "migrat")
		require.NoError(t, mem.Close())
	})

	t.Run("a damaged version 1 rendering still fails Verify after migration", func(t *testing.T) {
		const blockID = 2
		path := downgradeToV1(t, src, func(b *layers.Block) {
			if b.ID == blockID {
				b.L4 = strings.Replace(b.L4, "Leo", "Lee", 1)
			}
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "block.l4")
		assert.Equal(t, uint64(blockID), v.ID)
		assert.Contains(t, v.Detail, "stored")
		for _, x := range rep.Violations {
			assert.NotEqual(t, "block.l3", x.Check, "only L4 was changed")
		}

		mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
		require.NoError(t, err)
		require.NoError(t, mem.Close())
		rep = verifyFile(t, path)
		assert.False(t, rep.OK)
		assert.Equal(t, uint64(blockID), findViolation(t, rep, "block.render_hash").ID)
	})
}
