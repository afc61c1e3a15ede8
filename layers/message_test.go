package layers_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

func TestValidRole(t *testing.T) {
	for _, r := range []string{"user", "assistant", "tool", "system"} {
		assert.True(t, layers.ValidRole(r), r)
	}
	for _, r := range []string{"", "User", "bot", "function", "tool "} {
		assert.False(t, layers.ValidRole(r), r)
	}
}

func TestMessageRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		msg  layers.Message
	}{
		{"new york -04:00 with nanoseconds", layers.Message{
			ID: 1, Thread: "t1", Turn: 3, Role: layers.RoleUser, Speaker: "Mia",
			Content: "deploy at 5pm?", At: time.Date(2024, 7, 1, 17, 0, 0, 123456789, zoneNY),
		}},
		{"india +05:30", layers.Message{
			ID: 2, Thread: "t1", Turn: 3, Role: layers.RoleAssistant, Speaker: "assistant",
			Content: "Yes — 17:00 EDT is 02:30 IST.", At: time.Date(2024, 7, 2, 2, 30, 0, 1, zoneIndia),
		}},
		{"berlin +01:00 tool call", layers.Message{
			ID: 3, Thread: "t1", Turn: 4, Role: layers.RoleAssistant,
			Content: `{"q":"weather"}`, ToolName: "search", ToolCallID: "call_9",
			At: time.Date(2024, 1, 2, 3, 4, 5, 999999999, zoneBerlin),
		}},
		{"tool result +05:45", layers.Message{
			ID: 4, Thread: "other thread", Turn: 1, Role: layers.RoleTool,
			Content: "sunny\n\n 21°C", ToolName: "search", ToolCallID: "call_9",
			At: time.Date(2023, 12, 31, 23, 59, 59, 500, zoneNepal),
		}},
		{"negative half hour -09:30", layers.Message{
			ID: 5, Thread: "t2", Turn: 9, Role: layers.RoleSystem,
			Content: "系统提示：保持简短 🙂", At: time.Date(2024, 2, 29, 0, 0, 0, 42, zoneMarques),
		}},
		{"utc", layers.Message{
			ID: 6, Thread: "t2", Turn: 10, Role: layers.RoleUser,
			Content: "x", At: time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC),
		}},
		{"local time with monotonic reading", layers.Message{
			ID: 7, Thread: "t2", Turn: 11, Role: layers.RoleUser,
			Content: "now", At: time.Now(),
		}},
	}
	db := openDB(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.msg
			require.NoError(t, db.Update(func(tx *bolt.Tx) error { return layers.PutMessage(tx, &in) }))
			assert.Equal(t, in.Hash(), in.SHA256, "PutMessage fills SHA256")
			assert.NotEqual(t, [32]byte{}, in.SHA256)

			var got layers.Message
			require.NoError(t, db.View(func(tx *bolt.Tx) error {
				var err error
				got, err = layers.GetMessage(tx, in.ID)
				return err
			}))
			assert.Equal(t, tc.msg.ID, got.ID)
			assert.Equal(t, tc.msg.Thread, got.Thread)
			assert.Equal(t, tc.msg.Turn, got.Turn)
			assert.Equal(t, tc.msg.Role, got.Role)
			assert.Equal(t, tc.msg.Speaker, got.Speaker)
			assert.Equal(t, tc.msg.Content, got.Content)
			assert.Equal(t, tc.msg.ToolName, got.ToolName)
			assert.Equal(t, tc.msg.ToolCallID, got.ToolCallID)
			assert.True(t, tc.msg.At.Equal(got.At), "instant: want %v got %v", tc.msg.At, got.At)
			assert.Equal(t, tc.msg.At.Nanosecond(), got.At.Nanosecond(), "nanoseconds")
			assert.Equal(t, offsetOf(tc.msg.At), offsetOf(got.At), "UTC offset")
			// Wall-clock fields in the original offset survive too.
			assert.Equal(t, tc.msg.At.Format("2006-01-02 15:04:05.999999999 -07:00"),
				got.At.Format("2006-01-02 15:04:05.999999999 -07:00"))
			assert.Equal(t, in.SHA256, got.SHA256)
			assert.Equal(t, got.SHA256, got.Hash(), "hash recomputes after decoding")
		})
	}
}

func TestPutMessageRefusesTimeOutOfRange(t *testing.T) {
	// Times outside int64 Unix nanoseconds are refused, never silently
	// wrapped into another instant.
	db := openDB(t)
	for i, at := range []time.Time{
		time.Date(1600, 1, 1, 0, 0, 0, 0, zoneBerlin),
		time.Date(2300, 1, 1, 0, 0, 0, 0, zoneNY),
	} {
		m := layers.Message{ID: uint64(i + 1), Thread: "t", Turn: 1, Role: layers.RoleUser, Content: "x", At: at}
		err := db.Update(func(tx *bolt.Tx) error { return layers.PutMessage(tx, &m) })
		assert.ErrorIs(t, err, layers.ErrTimeRange)
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			_, err := layers.GetMessage(tx, m.ID)
			assert.ErrorIs(t, err, kv.ErrNotFound)
			return nil
		}))
	}
}

func TestPutMessageRefusesOverwrite(t *testing.T) {
	db := openDB(t)
	orig := layers.Message{ID: 7, Thread: "t", Turn: 1, Role: layers.RoleUser, Content: "original", At: base}
	require.NoError(t, db.Update(func(tx *bolt.Tx) error { return layers.PutMessage(tx, &orig) }))

	dup := layers.Message{ID: 7, Thread: "t", Turn: 1, Role: layers.RoleUser, Content: "rewritten", At: base}
	err := db.Update(func(tx *bolt.Tx) error { return layers.PutMessage(tx, &dup) })
	require.Error(t, err)
	assert.True(t, errors.Is(err, kv.ErrCorrupt), "got %v", err)

	// Identical content is refused just the same: L5 is append-only.
	same := orig
	err = db.Update(func(tx *bolt.Tx) error { return layers.PutMessage(tx, &same) })
	assert.ErrorIs(t, err, kv.ErrCorrupt)

	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		got, err := layers.GetMessage(tx, 7)
		require.NoError(t, err)
		assert.Equal(t, "original", got.Content)
		assert.Equal(t, orig.SHA256, got.SHA256)
		return nil
	}))
}

func TestGetMessageNotFound(t *testing.T) {
	db := openDB(t)
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for _, id := range []uint64{0, 1, 1 << 40} {
			_, err := layers.GetMessage(tx, id)
			assert.ErrorIs(t, err, kv.ErrNotFound, "id %d", id)
		}
		_, err := layers.GetMessages(tx, []uint64{1})
		assert.ErrorIs(t, err, kv.ErrNotFound)
		msgs, err := layers.GetMessages(tx, nil)
		assert.NoError(t, err)
		assert.Empty(t, msgs)
		return nil
	}))
}

func TestDecodeMessageCorrupt(t *testing.T) {
	for name, v := range map[string][]byte{
		"empty":       nil,
		"one byte":    {1},
		"bad version": {9, 0x80},
		"garbage":     {1, 0xc1, 0xc1},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := layers.DecodeMessage(v)
			assert.Error(t, err)
		})
	}
	t.Run("short hash", func(t *testing.T) {
		v, err := kv.Encode(1, &struct {
			ID uint64 `msgpack:"i"`
			H  []byte `msgpack:"h"`
		}{ID: 3, H: []byte{1, 2, 3}})
		require.NoError(t, err)
		_, err = layers.DecodeMessage(v)
		assert.ErrorIs(t, err, kv.ErrCorrupt)
	})
}

func TestMessageHash(t *testing.T) {
	ref := layers.Message{
		ID: 10, Thread: "thread", Turn: 2, Role: layers.RoleAssistant, Speaker: "bot",
		Content: "content", ToolName: "search", ToolCallID: "c1",
		At: time.Date(2024, 5, 6, 7, 8, 9, 100, zoneIndia),
	}
	h0 := ref.Hash()
	t.Run("stable across calls", func(t *testing.T) {
		for range 3 {
			assert.Equal(t, h0, ref.Hash())
		}
		cp := ref
		assert.Equal(t, h0, cp.Hash())
	})
	t.Run("independent of SHA256 field and zone name", func(t *testing.T) {
		m := ref
		m.SHA256 = [32]byte{1, 2, 3}
		assert.Equal(t, h0, m.Hash())
		m.At = ref.At.In(time.FixedZone("other name", 5*3600+30*60))
		assert.Equal(t, h0, m.Hash())
		m.At = ref.At.Round(0)
		assert.Equal(t, h0, m.Hash())
	})
	tests := []struct {
		name string
		mut  func(m *layers.Message)
	}{
		{"ID", func(m *layers.Message) { m.ID++ }},
		{"Thread", func(m *layers.Message) { m.Thread = "threaD" }},
		{"Turn", func(m *layers.Message) { m.Turn++ }},
		{"Role", func(m *layers.Message) { m.Role = layers.RoleUser }},
		{"Speaker", func(m *layers.Message) { m.Speaker = "Bot" }},
		{"Speaker emptied", func(m *layers.Message) { m.Speaker = "" }},
		{"Content", func(m *layers.Message) { m.Content = "content." }},
		{"Content one byte", func(m *layers.Message) { m.Content = "Content" }},
		{"ToolName", func(m *layers.Message) { m.ToolName = "fetch" }},
		{"ToolCallID", func(m *layers.Message) { m.ToolCallID = "c2" }},
		{"At nanosecond", func(m *layers.Message) { m.At = m.At.Add(time.Nanosecond) }},
		{"At second", func(m *layers.Message) { m.At = m.At.Add(time.Second) }},
		{"At offset, same instant", func(m *layers.Message) { m.At = m.At.In(zoneBerlin) }},
		{"At to UTC, same instant", func(m *layers.Message) { m.At = m.At.UTC() }},
		{"field boundary Speaker/Content", func(m *layers.Message) { m.Speaker, m.Content = "botc", "ontent" }},
		{"field boundary ToolName/ToolCallID", func(m *layers.Message) { m.ToolName, m.ToolCallID = "searchc", "1" }},
	}
	seen := map[[32]byte]string{h0: "reference"}
	for _, tc := range tests {
		t.Run("changes with "+tc.name, func(t *testing.T) {
			m := ref
			tc.mut(&m)
			h := m.Hash()
			assert.NotEqual(t, h0, h)
			assert.Equal(t, h, m.Hash(), "stable")
			if prev, ok := seen[h]; ok {
				t.Errorf("hash collides with %s", prev)
			}
			seen[h] = tc.name
		})
	}
}

func TestL5Hash(t *testing.T) {
	msgs := turnMsgs(1)
	msgs = append(msgs, turnMsgs(2)...)
	for i := range msgs {
		msgs[i].ID = uint64(i + 1)
	}
	h := layers.L5Hash(msgs)
	assert.Len(t, h, 32)
	assert.Equal(t, h, layers.L5Hash(msgs), "deterministic")

	swapped := append([]layers.Message(nil), msgs...)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	assert.NotEqual(t, h, layers.L5Hash(swapped), "order matters")

	changed := append([]layers.Message(nil), msgs...)
	changed[3].Content += "!"
	assert.NotEqual(t, h, layers.L5Hash(changed))

	assert.NotEqual(t, h, layers.L5Hash(msgs[:3]), "prefix differs")
	assert.Len(t, layers.L5Hash(nil), 32)
}

// GetMessages steps its cursor through consecutive ids and seeks
// otherwise: any order, repeats and gaps give what GetMessage gives id by
// id, and a missing id anywhere is ErrNotFound.
func TestGetMessagesEqualsGetMessage(t *testing.T) {
	db := openDB(t)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for id := uint64(1); id <= 12; id++ {
			if id == 6 {
				continue
			}
			m := layers.Message{ID: id, Thread: "t", Turn: id, Role: layers.RoleUser, Content: fmt.Sprint("m", id), At: base}
			if err := layers.PutMessage(tx, &m); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for _, ids := range [][]uint64{{1, 2, 3, 4, 5}, {7, 8, 9, 12}, {12, 11, 10}, {3, 3, 4}, {5, 7, 8}, {9, 1, 2, 10, 11, 12}} {
			got, err := layers.GetMessages(tx, ids)
			require.NoError(t, err, "%v", ids)
			require.Len(t, got, len(ids))
			for i, id := range ids {
				want, err := layers.GetMessage(tx, id)
				require.NoError(t, err)
				assert.Equal(t, want, got[i], "%v: %d", ids, id)
			}
		}
		for _, ids := range [][]uint64{{4, 5, 6}, {5, 6, 7}, {6}, {12, 13}, {0, 1}} {
			_, err := layers.GetMessages(tx, ids)
			assert.ErrorIs(t, err, kv.ErrNotFound, "%v", ids)
		}
		return nil
	}))
}
