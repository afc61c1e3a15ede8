package layers

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

// TestMessageRecordV2: every field combination survives a version 2
// record (roles as codes and as strings, optional speaker and tool
// fields, sub-second times, offsets either side of UTC, empty content),
// the record is smaller than version 1, and a version 1 record of the
// same message still decodes to the same Message.
func TestMessageRecordV2(t *testing.T) {
	at := time.Date(2024, 3, 5, 19, 30, 0, 0, time.FixedZone("", -5*3600))
	cases := []Message{
		{ID: 1, Thread: "t", Turn: 1, Role: RoleUser, Speaker: "Ann", Content: "we moved to a new flat", At: at},
		{ID: 1 << 40, Thread: "a thread", Turn: 1 << 33, Role: RoleAssistant, Content: "ok", At: at.UTC()},
		{ID: 7, Thread: "t", Turn: 2, Role: RoleTool, ToolName: "grep", ToolCallID: "call-1", Content: "", At: at.Add(123456789)},
		{ID: 8, Thread: "t", Turn: 2, Role: RoleSystem, Content: "be brief", At: time.Date(1700, 1, 1, 0, 0, 0, 1, time.FixedZone("", MaxOffset))},
		{ID: 9, Thread: "t", Turn: 3, Role: "narrator", Speaker: "N", ToolCallID: "x", Content: "ünïcödé ✓", At: time.Date(2261, 12, 31, 23, 59, 59, 999999999, time.FixedZone("", -MaxOffset))},
	}
	for _, m := range cases {
		m.SHA256 = m.Hash()
		v2 := encodeMessage(&m)
		got, err := DecodeMessage(v2)
		require.NoError(t, err)
		assert.Equal(t, m, got)
		assert.True(t, m.At.Equal(got.At))
		_, off := got.At.Zone()
		_, want := m.At.Zone()
		assert.Equal(t, want, off)

		_, o := m.At.Zone()
		v1, err := kv.Encode(messageVersionV1, &messageRecord{ID: m.ID, Thread: m.Thread, Turn: m.Turn, Role: m.Role, Speaker: m.Speaker,
			Content: m.Content, ToolName: m.ToolName, ToolCallID: m.ToolCallID, AtNanos: m.At.UnixNano(), AtOffset: int32(o), SHA256: m.SHA256[:]})
		require.NoError(t, err)
		old, err := DecodeMessage(v1)
		require.NoError(t, err)
		assert.Equal(t, got, old, "both versions decode alike")
		assert.Less(t, len(v2), len(v1))
	}
}

func TestMessageRecordV2Damage(t *testing.T) {
	m := Message{ID: 300, Thread: "thread", Turn: 4, Role: RoleUser, Speaker: "Ann", Content: "hello", At: time.Unix(1700000000, 0).UTC()}
	m.SHA256 = m.Hash()
	good := encodeMessage(&m)
	// Offsets into good: version, flags, id (2 bytes), thread length.
	edit := func(i int, b byte) []byte {
		v := append([]byte(nil), good...)
		v[i] = b
		return v
	}
	// Version, flags, id (2 bytes), thread (1+6), turn, speaker (1+3).
	const timeAt = 16
	afterSpeaker := func(nsec uint64, off int64) []byte {
		v := append([]byte(nil), good[:timeAt]...)
		v = binary.AppendVarint(v, m.At.Unix())
		v = binary.AppendUvarint(v, nsec)
		v = binary.AppendVarint(v, off)
		return append(v, good[len(good)-32-len(m.Content):]...)
	}
	ok, err := DecodeMessage(afterSpeaker(0, 0))
	require.NoError(t, err, "the layout the cases edit")
	require.Equal(t, m, ok)
	for name, v := range map[string][]byte{
		"only the version":     {messageVersion},
		"unused flag bits":     edit(1, good[1]|0x40),
		"unknown role code":    edit(1, good[1]&^roleMask|7),
		"thread past the end":  edit(4, 0x7f),
		"cut in the time":      good[:20],
		"no room for the hash": good[:len(good)-len(m.Content)-1],
		"nanoseconds too big":  afterSpeaker(1e9, 0),
		"offset beyond ±18h":   afterSpeaker(0, MaxOffset+1),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeMessage(v)
			assert.ErrorIs(t, err, kv.ErrCorrupt)
		})
	}
}
