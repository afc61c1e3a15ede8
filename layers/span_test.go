package layers

import (
	"encoding/binary"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

var spanNow = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

func openSpanDB(t testing.TB) *kv.DB {
	t.Helper()
	db, err := kv.Open(filepath.Join(t.TempDir(), "spans.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// spanRecord builds a span value by hand: version, block, count, first id,
// then the given deltas.
func spanRecord(version byte, block, count, first uint64, deltas ...uint64) []byte {
	v := []byte{version}
	for _, x := range append([]uint64{block, count, first}, deltas...) {
		v = binary.AppendUvarint(v, x)
	}
	return v
}

func TestSpanRoundTrip(t *testing.T) {
	db := openSpanDB(t)
	cases := []struct {
		thread string
		block  uint64
		ids    []uint64
	}{
		{"a", 1, []uint64{7}},
		{"a", 2, []uint64{9, 10, 300, 70000, 1 << 40}},
		{"thread with spaces", 1 << 50, []uint64{1, 2, 3}},
	}
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for _, c := range cases {
			require.NoError(t, putSpan(tx, c.thread, c.block, c.ids))
		}
		return nil
	}))
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var got []Span
		require.NoError(t, tx.Bucket(kv.BucketThreadSpans).ForEach(func(k, v []byte) error {
			sp, err := DecodeSpan(k, v)
			require.NoError(t, err)
			got = append(got, sp)
			return nil
		}))
		require.Len(t, got, len(cases))
		for i, c := range cases {
			assert.Equal(t, Span{Thread: c.thread, BlockID: c.block, MessageIDs: c.ids}, got[i])
		}
		return nil
	}))

	t.Run("refuses ids that do not grow", func(t *testing.T) {
		err := db.Update(func(tx *bolt.Tx) error { return putSpan(tx, "a", 3, []uint64{20, 20}) })
		assert.ErrorContains(t, err, "not increasing")
		err = db.Update(func(tx *bolt.Tx) error { return putSpan(tx, "a", 3, nil) })
		assert.ErrorContains(t, err, "none, or not increasing")
	})
}

func TestDecodeSpanRejectsDamage(t *testing.T) {
	key := spanKey("a", 12)
	for _, c := range []struct {
		name string
		k, v []byte
	}{
		{"empty value", key, nil},
		{"unknown version", key, spanRecord(2, 1, 2, 10, 2)},
		{"truncated header", key, []byte{spanVersion, 0x81}},
		{"zero block", key, spanRecord(spanVersion, 0, 2, 10, 2)},
		{"zero count", key, spanRecord(spanVersion, 1, 0, 12)},
		{"count past the bytes", key, spanRecord(spanVersion, 1, 1<<40, 10, 2)},
		{"zero delta", key, spanRecord(spanVersion, 1, 3, 10, 0, 2)},
		{"overflowing delta", spanKey("a", 5), spanRecord(spanVersion, 1, 2, 10, ^uint64(0)-4)},
		{"trailing bytes", key, append(spanRecord(spanVersion, 1, 2, 10, 2), 0)},
		{"last id is not the key's", key, spanRecord(spanVersion, 1, 2, 10, 3)},
		{"key without separator", []byte("abcdefghij"), spanRecord(spanVersion, 1, 1, 12)},
		{"short key", []byte("a\x00\x01"), spanRecord(spanVersion, 1, 1, 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeSpan(c.k, c.v)
			assert.ErrorIs(t, err, kv.ErrCorrupt)
		})
	}
	sp, err := DecodeSpan(key, spanRecord(spanVersion, 4, 3, 10, 1, 1))
	require.NoError(t, err)
	assert.Equal(t, Span{Thread: "a", BlockID: 4, MessageIDs: []uint64{10, 11, 12}}, sp)
	assert.Equal(t, uint64(10), spanFirst(spanRecord(spanVersion, 4, 3, 10, 1, 1)))
	assert.Zero(t, spanFirst([]byte{spanVersion, 4}))
}

// TestMigrateSpans: the format 3 layout (message_block, thread_messages)
// becomes one span per block listed in thread_blocks, the old buckets are
// gone, and lookups agree with what the old maps said.
func TestMigrateSpans(t *testing.T) {
	db := openSpanDB(t)
	type placed struct{ block, prev, next uint64 }
	want := map[uint64]placed{}
	var thIDs = map[string][]uint64{}
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for k := 1; k <= 7; k++ {
			for _, th := range []string{"x", "y"} {
				msgs := []Message{{Role: RoleUser, Content: "hello", At: spanNow}}
				res, err := AppendTurn(tx, th, "global", "", msgs, 3, spanNow)
				require.NoError(t, err)
				thIDs[th] = append(thIDs[th], res.MessageIDs...)
			}
		}
		for th, ids := range thIDs {
			for i, id := range ids {
				block, prev, next := Locate(tx, th, id)
				want[id] = placed{block, prev, next}
				if i > 0 {
					assert.Equal(t, ids[i-1], prev)
				}
			}
		}
		// Rebuild the format 3 layout from the spans, then drop them.
		mb, err := tx.CreateBucket(kv.BucketMessageBlock)
		require.NoError(t, err)
		tm, err := tx.CreateBucket(kv.BucketThreadMsgs)
		require.NoError(t, err)
		require.NoError(t, tx.Bucket(kv.BucketThreadSpans).ForEach(func(k, v []byte) error {
			sp, err := DecodeSpan(k, v)
			require.NoError(t, err)
			for _, id := range sp.MessageIDs {
				require.NoError(t, mb.Put(kv.Key(id), kv.Key(sp.BlockID)))
				require.NoError(t, tm.Put(spanKey(sp.Thread, id), nil))
			}
			return nil
		}))
		require.NoError(t, tx.DeleteBucket(kv.BucketThreadSpans))
		written, skipped, err := MigrateSpans(tx)
		require.NoError(t, err)
		assert.Equal(t, 4, written, "two sealed blocks per thread")
		assert.Zero(t, skipped)
		assert.Nil(t, tx.Bucket(kv.BucketMessageBlock))
		assert.Nil(t, tx.Bucket(kv.BucketThreadMsgs))
		for th, ids := range thIDs {
			for _, id := range ids {
				block, prev, next := Locate(tx, th, id)
				assert.Equal(t, want[id], placed{block, prev, next}, "message %d", id)
			}
		}
		return nil
	}))
}

// FuzzDecodeSpan: no input panics, and what decodes is a span that one
// Seek can rely on: at least one id, growing, ending at the key's.
func FuzzDecodeSpan(f *testing.F) {
	key := spanKey("t", 12)
	f.Add(key, spanRecord(spanVersion, 4, 3, 10, 1, 1))
	f.Add(key, spanRecord(spanVersion, 1, 1, 12))
	f.Add(key, spanRecord(spanVersion, 1, 1<<40, 1))
	f.Add([]byte("t"), []byte{})
	f.Fuzz(func(t *testing.T, k, v []byte) {
		sp, err := DecodeSpan(k, v)
		if err != nil {
			require.ErrorIs(t, err, kv.ErrCorrupt)
			return
		}
		require.NotEmpty(t, sp.MessageIDs)
		require.NotZero(t, sp.BlockID)
		for i := 1; i < len(sp.MessageIDs); i++ {
			require.Greater(t, sp.MessageIDs[i], sp.MessageIDs[i-1])
		}
		require.Equal(t, kv.ID(k[len(k)-8:]), sp.MessageIDs[len(sp.MessageIDs)-1])
		require.Equal(t, sp.MessageIDs[0], spanFirst(v))
	})
}
