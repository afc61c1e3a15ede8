package layers_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// TestReceiptRecordVersions: a version 2 receipt keeps the message ids and
// the sealed block (GetReceipt takes the thread and turn from the first
// message); a version 1 record, as older files hold them, reads the same.
func TestReceiptRecordVersions(t *testing.T) {
	db := openDB(t)
	var res layers.TurnResult
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		var err error
		res, err = layers.AppendTurn(tx, "th", "global", "", turnMsgs(1), 5, sealNow)
		return err
	}))
	want := layers.Receipt{Thread: "th", Turn: 1, MessageIDs: res.MessageIDs, SealedBlockID: 9}
	v2, err := layers.EncodeReceipt(&want)
	require.NoError(t, err)
	assert.Equal(t, layers.ReceiptVersion, v2[0])
	assert.LessOrEqual(t, len(v2), 1+3+len(res.MessageIDs)+1)
	v1, err := kv.Encode(layers.ReceiptVersionV1, &want)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(kv.BucketReceipts)
		require.NoError(t, b.Put([]byte("new"), v2))
		return b.Put([]byte("old"), v1)
	}))
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for _, id := range []string{"new", "old"} {
			got, ok, err := layers.GetReceipt(tx, id)
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, want, got, id)
		}
		return nil
	}))

	_, err = layers.EncodeReceipt(&layers.Receipt{MessageIDs: []uint64{4, 3}})
	assert.Error(t, err, "ids that do not grow")
	_, err = layers.EncodeReceipt(&layers.Receipt{})
	assert.Error(t, err, "no ids")

	t.Run("a receipt whose message is gone", func(t *testing.T) {
		v, err := layers.EncodeReceipt(&layers.Receipt{MessageIDs: []uint64{999}})
		require.NoError(t, err)
		require.NoError(t, db.Update(func(tx *bolt.Tx) error { return tx.Bucket(kv.BucketReceipts).Put([]byte("dangling"), v) }))
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			_, _, err := layers.GetReceipt(tx, "dangling")
			assert.ErrorIs(t, err, kv.ErrCorrupt)
			return nil
		}))
	})
}

func TestDecodeReceiptRejectsDamage(t *testing.T) {
	for name, v := range map[string][]byte{
		"empty":               nil,
		"version only":        {layers.ReceiptVersion},
		"zero first id":       {layers.ReceiptVersion, 0, 1, 0},
		"zero count":          {layers.ReceiptVersion, 0, 0, 5},
		"count past the data": {layers.ReceiptVersion, 0, 9, 5, 1},
		"zero delta":          {layers.ReceiptVersion, 0, 2, 5, 0},
		"trailing byte":       {layers.ReceiptVersion, 0, 1, 5, 7},
		"unknown version":     {7, 0, 1, 5},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := layers.DecodeReceipt(v)
			assert.Error(t, err)
		})
	}
	r, err := layers.DecodeReceipt([]byte{layers.ReceiptVersion, 3, 2, 5, 1})
	require.NoError(t, err)
	assert.Equal(t, layers.Receipt{MessageIDs: []uint64{5, 6}, SealedBlockID: 3}, r)
}

// FuzzDecodeReceipt: no input panics; what decodes has increasing ids and,
// as version 2, encodes back to a record that decodes the same.
func FuzzDecodeReceipt(f *testing.F) {
	f.Add([]byte{layers.ReceiptVersion, 3, 2, 5, 1})
	f.Add([]byte{layers.ReceiptVersion, 0, 1, 0x80, 0x01})
	v1, err := kv.Encode(layers.ReceiptVersionV1, &layers.Receipt{Thread: "t", Turn: 2, MessageIDs: []uint64{4, 5}})
	require.NoError(f, err)
	f.Add(v1)
	f.Fuzz(func(t *testing.T, v []byte) {
		r, err := layers.DecodeReceipt(v)
		if err != nil {
			return
		}
		require.NotEmpty(t, r.MessageIDs)
		if v[0] != layers.ReceiptVersion {
			return // version 1 lists ids as they were stored
		}
		for i := 1; i < len(r.MessageIDs); i++ {
			require.Greater(t, r.MessageIDs[i], r.MessageIDs[i-1])
		}
		again, err := layers.EncodeReceipt(&r)
		require.NoError(t, err)
		back, err := layers.DecodeReceipt(again)
		require.NoError(t, err)
		require.Equal(t, r, back)
	})
}
