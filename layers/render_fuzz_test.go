package layers

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// FuzzRenderSum: the hash sealing computes from one scratch buffer equals
// the hash of the two renderings as strings, for any messages (repeats,
// tool calls and results, pruned content, odd offsets).
func FuzzRenderSum(f *testing.F) {
	long := "a long message repeated word for word across the block, " +
		"so that L3 refers back to its first copy instead of repeating it"
	f.Add("hi", long, "search", "call_1", int64(3600), uint8(0))
	f.Add(long, long, "", "", int64(-4*3600), uint8(3))
	f.Add("ok", "", "", "", int64(0), uint8(7))
	f.Fuzz(func(t *testing.T, a, b, tool, call string, off int64, shape uint8) {
		at := time.Date(2024, 3, 10, 9, 15, 30, 0, time.FixedZone("", int(off%(18*3600))))
		roles := []string{RoleUser, RoleAssistant, RoleTool, RoleSystem}
		var msgs []Message
		for i := range 6 {
			m := Message{ID: uint64(i + 1), Turn: uint64(i/2 + 1), Role: roles[(int(shape)+i)%4], Content: a, At: at.Add(time.Duration(i) * time.Minute)}
			if i%2 == 1 {
				m.Content, m.Speaker = b, "Ann"
			}
			if shape&1 == 1 && i == 2 {
				m.ToolName, m.ToolCallID = tool, call
			}
			msgs = append(msgs, m)
		}
		assert.Equal(t, RenderSum(RenderL3(msgs), RenderL4(msgs)), renderSumOf(msgs))
	})
}
