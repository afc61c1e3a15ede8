package layers

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

func derivedBlock() Block {
	at := time.Date(2024, 2, 5, 10, 10, 45, 379753187, time.FixedZone("", -4*3600-1800))
	return Block{ID: 7, Thread: "t", Scope: "project:x", Seq: 2, State: StateReady, MessageIDs: []uint64{40, 41, 43, 44},
		TurnFirst: 13, TurnLast: 14, FirstAt: at, LastAt: at.Add(time.Minute), FirstOffset: -4*3600 - 1800, LastOffset: -4*3600 - 1800,
		Title: "Kilns", Tags: []string{"kiln", "glaze"}, Summary: "We fire the kiln on Friday.",
		Facts:         []Fact{{Text: "Kiln on Friday", MessageIDs: []uint64{41}}, {Text: "Glaze first", MessageIDs: []uint64{43, 44}}},
		RenderVersion: RendererVersion, RenderHash: RenderSum("l3", "l4"), L5Hash: make([]byte, 32), DerivedHash: []byte{1, 2, 3},
		CreatedAt: at.UTC(), ReadyAt: at.Add(2 * time.Second).UTC(), Err: ""}
}

// TestBlockRecordRoundTrip: a version 3 record decodes to the block it was
// encoded from, pending (no derived fields, no ready time) or derived, and
// to what its version 2 (msgpack) record decodes to.
func TestBlockRecordRoundTrip(t *testing.T) {
	pending := derivedBlock()
	pending.State, pending.Title, pending.Tags, pending.Summary, pending.Facts = StatePending, "", nil, "", nil
	pending.DerivedHash, pending.ReadyAt = nil, time.Time{}
	failed := pending
	failed.State, failed.Err = StateFailed, "model output: no title"
	utc := derivedBlock()
	utc.FirstAt, utc.LastAt, utc.FirstOffset, utc.LastOffset = utc.FirstAt.UTC(), utc.LastAt.UTC(), 0, 0
	for name, b := range map[string]Block{"derived": derivedBlock(), "pending": pending, "failed": failed, "utc": utc} {
		t.Run(name, func(t *testing.T) {
			got, err := DecodeBlock(encodeBlock(&b))
			require.NoError(t, err)
			require.Equal(t, b, got)
			v2, err := kv.Encode(blockVersionV2, &b)
			require.NoError(t, err)
			old, err := DecodeBlock(v2)
			require.NoError(t, err)
			require.Equal(t, withoutEmpty(old), withoutEmpty(got))
			require.Less(t, len(encodeBlock(&b)), len(v2))
		})
	}
}

// TestBlockRecordDamage: a truncated record, a trailing byte, nanoseconds
// of a second or more and an impossible count are ErrCorrupt.
func TestBlockRecordDamage(t *testing.T) {
	b := derivedBlock()
	v := encodeBlock(&b)
	for n := 1; n < len(v); n++ {
		_, err := DecodeBlock(v[:n])
		require.ErrorIs(t, err, kv.ErrCorrupt, "truncated to %d of %d bytes", n, len(v))
	}
	_, err := DecodeBlock(append(append([]byte(nil), v...), 0))
	require.ErrorIs(t, err, kv.ErrCorrupt, "a trailing byte")

	head := func() *kv.Writer { // a pending block's record up to its message ids
		w := &kv.Writer{}
		w.Byte(blockVersion)
		w.Uvarint(1)
		w.Str("t")
		w.Str("global")
		w.Uvarint(1)
		w.Str(string(StatePending))
		return w
	}
	w := head()
	w.IDs([]uint64{1, 2})
	w.Uvarint(1)
	w.Uvarint(1)
	w.Varint(0)
	w.Uvarint(1e9) // first at: nanoseconds
	_, err = DecodeBlock(w.B)
	require.ErrorIs(t, err, kv.ErrCorrupt, "nanoseconds beyond a second")

	w = head()
	w.Uvarint(1 << 40) // message ids: more than the record holds
	_, err = DecodeBlock(w.B)
	require.ErrorIs(t, err, kv.ErrCorrupt, "an impossible count")
}
