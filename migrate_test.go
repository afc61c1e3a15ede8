package stratagate_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log/slog"
	"slices"
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

// downgradeToV2 rewrites a file as a format 2 build left it: every open
// tail also listed in thread_messages and the receipts of its turns in the
// receipts bucket, not in the thread record.
func downgradeToV2(t *testing.T, src string) string {
	t.Helper()
	return damagedCopy(t, src, func(tx *bolt.Tx) error {
		ths, err := layers.ListThreads(tx)
		require.NoError(t, err)
		for _, th := range ths {
			for _, id := range th.OpenTail {
				require.NoError(t, tx.Bucket(kv.BucketThreadMsgs).Put(append([]byte(th.Name+"\x00"), kv.Key(id)...), nil))
			}
			for _, r := range th.Receipts {
				v, err := kv.Encode(layers.ReceiptVersion, &layers.Receipt{Thread: th.Name, Turn: r.Turn, MessageIDs: r.MessageIDs})
				require.NoError(t, err)
				require.NoError(t, tx.Bucket(kv.BucketReceipts).Put([]byte(r.ID), v))
			}
			th.Receipts = nil
			require.NoError(t, layers.PutThread(tx, &th))
		}
		var f [4]byte
		binary.BigEndian.PutUint32(f[:], 2)
		return tx.Bucket(kv.BucketMeta).Put([]byte("format"), f[:])
	})
}

// TestMigrateFormat2OpenTails: a format 2 file is valid as it is; a
// writable Open raises it to format 3 without rewriting a record, its open
// turns' receipts (in the bucket) still make retries duplicates, and
// sealing those tails leaves a file that verifies.
func TestMigrateFormat2OpenTails(t *testing.T) {
	src := sampleFile(t)
	path := downgradeToV2(t, src)
	_, format := recordVersions(t, path)
	require.Equal(t, uint32(2), format)

	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	require.True(t, rep.OK, "%v", rep.Violations)
	before, err := mem.Stats(ctx)
	require.NoError(t, err)

	ths, err := mem.Threads(ctx)
	require.NoError(t, err)
	open := 0
	f := loadSample(t)
	for _, tr := range f.Turns() {
		ref, err := mem.Append(ctx, tr)
		require.NoError(t, err)
		require.True(t, ref.Duplicate, "turn %s", tr.ReceiptID)
		if ref.SealedBlockID == 0 && slices.Contains(openTails(ths), ref.MessageIDs[0]) {
			open++
		}
	}
	require.NotZero(t, open, "some retried turns were in open tails")
	after, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, before.Receipts, after.Receipts)
	assert.Equal(t, before.Messages, after.Messages)

	// Seal every open tail with new turns, then check the file.
	for _, th := range ths {
		for i := range stratagate.DefaultBlockTurns {
			tr := turn(th.Name, 1000+i)
			tr.Scope = th.Scope
			_, err := mem.Append(ctx, tr)
			require.NoError(t, err)
		}
	}
	waitIdle(t, mem)
	rep, err = mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
	require.NoError(t, mem.Close())
	_, format = recordVersions(t, path)
	assert.Equal(t, kv.FormatVersion, format)
}

func openTails(ths []stratagate.Thread) []uint64 {
	var ids []uint64
	for _, th := range ths {
		ids = append(ids, th.OpenTail...)
	}
	return ids
}
