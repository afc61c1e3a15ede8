package layers

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

// TestThreadRecordV2: a version 2 record keeps every field (zero and
// sub-second times, an empty tail, receipts with their ids, ids that do
// not grow), and a version 1 record of the same thread decodes equal.
func TestThreadRecordV2(t *testing.T) {
	cases := []*Thread{
		benchThread(),
		{Name: "empty", Scope: "global"},
		{Name: "ünï", Scope: "project:x", Created: time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), LastAt: time.Date(2261, 12, 31, 23, 59, 59, 999999999, time.UTC),
			Turns: 1 << 40, Blocks: 3, OpenTail: []uint64{9, 7, 1 << 62}, OpenTurns: 2,
			Receipts: []PendingReceipt{{ID: "r", Turn: 1 << 40, MessageIDs: []uint64{9}}, {ID: "", Turn: 0}}},
	}
	for _, th := range cases {
		v2 := encodeThread(th)
		got, err := decodeThread(v2)
		require.NoError(t, err)
		assert.Equal(t, *th, got, th.Name)
		v1, err := kv.Encode(threadVersionV1, th)
		require.NoError(t, err)
		old, err := decodeThread(v1)
		require.NoError(t, err)
		assert.Equal(t, got, old, "both versions of %q decode alike", th.Name)
	}
	b := benchThread()
	v1, err := kv.Encode(threadVersionV1, b)
	require.NoError(t, err)
	assert.Less(t, len(encodeThread(b)), len(v1))
}

func TestThreadRecordV2Damage(t *testing.T) {
	good := encodeThread(benchThread())
	for name, v := range map[string][]byte{
		"version only":   {threadVersion},
		"cut in half":    good[:len(good)/2],
		"one byte short": good[:len(good)-1],
		"trailing byte":  append(append([]byte(nil), good...), 0),
		"name too long":  append([]byte{threadVersion, 0x7f}, good[2:]...),
		"huge count":     {threadVersion, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"nanoseconds":    {threadVersion, 0, 0, 0, 0x80, 0x94, 0xeb, 0xdc, 0x03},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := decodeThread(v)
			assert.ErrorIs(t, err, kv.ErrCorrupt)
		})
	}
}
