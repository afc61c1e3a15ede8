package layers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/layers"
)

// renderMsgs is a small block with every kind of message, in three offsets.
func renderMsgs() []layers.Message {
	return []layers.Message{
		{ID: 11, Turn: 4, Role: layers.RoleUser, Speaker: "Mia", Content: "Deploy at 5pm?",
			At: time.Date(2024, 3, 10, 9, 15, 30, 123456789, zoneNY)},
		{ID: 12, Turn: 4, Role: layers.RoleAssistant, Content: `{"q":"weather berlin"}`,
			ToolName: "search", ToolCallID: "call_1",
			At: time.Date(2024, 3, 10, 18, 45, 31, 0, zoneIndia)},
		{ID: 13, Turn: 4, Role: layers.RoleTool, Content: "sunny, 21°C",
			ToolName: "search", ToolCallID: "call_1",
			At: time.Date(2024, 3, 10, 14, 15, 32, 5, zoneBerlin)},
		{ID: 14, Turn: 4, Role: layers.RoleAssistant, Speaker: "Atlas bot", Content: "Line one\nline two\ttab  ",
			At: time.Date(2024, 3, 10, 13, 15, 33, 0, time.UTC)},
		{ID: 15, Turn: 5, Role: layers.RoleSystem, Content: "系统：保持简短 🙂",
			At: time.Date(2024, 3, 10, 13, 15, 34, 0, time.UTC)},
	}
}

func TestRenderL4Format(t *testing.T) {
	want := "[2024-03-10 09:15:30 -04:00] Mia: Deploy at 5pm?\n" +
		"[2024-03-10 18:45:31 +05:30] assistant → tool search (call_1): {\"q\":\"weather berlin\"}\n" +
		"[2024-03-10 14:15:32 +01:00] tool search result (call_1): sunny, 21°C\n" +
		"[2024-03-10 13:15:33 +00:00] Atlas bot: Line one\nline two\ttab  \n" +
		"[2024-03-10 13:15:34 +00:00] system: 系统：保持简短 🙂\n"
	assert.Equal(t, want, layers.RenderL4(renderMsgs()))
	assert.Empty(t, layers.RenderL4(nil))
}

func TestRenderL4Deterministic(t *testing.T) {
	msgs := renderMsgs()
	a := layers.RenderL4(msgs)
	b := layers.RenderL4(renderMsgs())
	assert.Equal(t, []byte(a), []byte(b), "same input, same bytes")
	for range 5 {
		assert.Equal(t, a, layers.RenderL4(msgs))
	}

	t.Run("timestamps in original offset", func(t *testing.T) {
		for _, ts := range []string{"2024-03-10 09:15:30 -04:00", "2024-03-10 18:45:31 +05:30", "2024-03-10 14:15:32 +01:00"} {
			assert.Contains(t, a, ts)
		}
		// The same instant in another offset renders differently.
		shifted := renderMsgs()
		shifted[0].At = shifted[0].At.In(zoneIndia)
		assert.NotContains(t, layers.RenderL4(shifted), "09:15:30 -04:00")
		assert.Contains(t, layers.RenderL4(shifted), "2024-03-10 18:45:30 +05:30")
	})
	t.Run("speakers and tool names", func(t *testing.T) {
		for _, s := range []string{"Mia:", "assistant → tool search", "tool search result", "Atlas bot:", "system:", "(call_1)"} {
			assert.Contains(t, a, s)
		}
	})
	t.Run("contents verbatim", func(t *testing.T) {
		for _, m := range msgs {
			assert.Contains(t, a, m.Content)
		}
	})
}

func TestRenderL5(t *testing.T) {
	msgs := renderMsgs()
	got := layers.RenderL5(msgs)
	want := "#11 turn 4 2024-03-10T09:15:30.123456789-04:00 user \"Mia\"\nDeploy at 5pm?\n" +
		"#12 turn 4 2024-03-10T18:45:31+05:30 assistant tool=\"search\" call=\"call_1\"\n{\"q\":\"weather berlin\"}\n" +
		"#13 turn 4 2024-03-10T14:15:32.000000005+01:00 tool tool=\"search\" call=\"call_1\"\nsunny, 21°C\n" +
		"#14 turn 4 2024-03-10T13:15:33Z assistant \"Atlas bot\"\nLine one\nline two\ttab  \n" +
		"#15 turn 5 2024-03-10T13:15:34Z system\n系统：保持简短 🙂\n"
	assert.Equal(t, want, got)

	t.Run("every content byte for byte", func(t *testing.T) {
		odd := []layers.Message{
			{ID: 1, Role: layers.RoleUser, Content: "  leading and trailing  ", At: base},
			{ID: 2, Role: layers.RoleUser, Content: "crlf\r\nand\rcr", At: base},
			{ID: 3, Role: layers.RoleUser, Content: "[2024-01-01 00:00:00 +00:00] fake header: ok", At: base},
			{ID: 4, Role: layers.RoleUser, Content: "emoji 👩‍💻 and combining é and 中文", At: base},
			{ID: 5, Role: layers.RoleUser, Content: "#6 turn 1 looks like a header", At: base},
		}
		r := layers.RenderL5(odd)
		for _, m := range odd {
			assert.Contains(t, r, "\n"+m.Content+"\n")
		}
	})
}

func readyBlock() layers.Block {
	return layers.Block{
		ID: 7, Thread: "t", Scope: "global", Seq: 3, State: layers.StateReady,
		MessageIDs: []uint64{11, 12, 13, 14, 15},
		Title:      "Deploy plan for Atlas",
		Tags:       []string{"deploy", "atlas", "weather"},
		Summary:    "Mia asked about a 5pm deploy; the weather in Berlin is sunny.",
		Facts: []layers.Fact{
			{Text: "Deploy planned for 5pm", MessageIDs: []uint64{11}},
			{Text: "Berlin is sunny at 21°C", MessageIDs: []uint64{12, 13}},
		},
		L3: layers.RenderL3(renderMsgs()),
		L4: layers.RenderL4(renderMsgs()),
	}
}

func TestRenderLevels(t *testing.T) {
	b := readyBlock()
	msgs := renderMsgs()
	tests := []struct {
		level int
		want  string
	}{
		{0, "Deploy plan for Atlas\ntags: deploy, atlas, weather\n"},
		{1, "Mia asked about a 5pm deploy; the weather in Berlin is sunny.\n"},
		{2, "- Deploy planned for 5pm [#11]\n- Berlin is sunny at 21°C [#12, #13]\n"},
		{3, b.L3},
		{4, b.L4},
		{5, layers.RenderL5(msgs)},
	}
	for _, tc := range tests {
		t.Run("L"+string(rune('0'+tc.level)), func(t *testing.T) {
			v, err := layers.Render(&b, tc.level, msgs)
			require.NoError(t, err)
			assert.Equal(t, tc.want, v.Text)
			assert.Equal(t, b.ID, v.BlockID)
			assert.Equal(t, tc.level, v.Level)
			assert.Equal(t, layers.StateReady, v.State)
			if tc.level == 5 {
				assert.Equal(t, msgs, v.Messages)
				for _, m := range msgs {
					assert.Contains(t, v.Text, m.Content)
				}
			} else {
				assert.Nil(t, v.Messages, "messages only at L5")
			}
		})
	}

	t.Run("L2 with no facts is empty", func(t *testing.T) {
		nb := b
		nb.Facts = nil
		v, err := layers.Render(&nb, 2, nil)
		require.NoError(t, err)
		assert.Empty(t, v.Text)
	})
	t.Run("L3 and L4 do not need messages", func(t *testing.T) {
		for _, lvl := range []int{0, 1, 2, 3, 4} {
			_, err := layers.Render(&b, lvl, nil)
			assert.NoError(t, err, "L%d", lvl)
		}
	})
}

func TestRenderNotReadyAndBadLevel(t *testing.T) {
	for _, st := range []layers.State{layers.StatePending, layers.StateFailed} {
		b := readyBlock()
		b.State = st
		msgs := renderMsgs()
		t.Run(string(st), func(t *testing.T) {
			for _, lvl := range []int{0, 1, 2} {
				_, err := layers.Render(&b, lvl, msgs)
				assert.ErrorIs(t, err, layers.ErrNotReady, "L%d", lvl)
			}
			for _, lvl := range []int{3, 4, 5} {
				v, err := layers.Render(&b, lvl, msgs)
				require.NoError(t, err, "L%d", lvl)
				assert.Equal(t, st, v.State)
			}
		})
	}
	for _, st := range []layers.State{layers.StateReady, layers.StatePending} {
		b := readyBlock()
		b.State = st
		t.Run("bad levels "+string(st), func(t *testing.T) {
			for _, lvl := range []int{-1, 6, -100, 100} {
				v, err := layers.Render(&b, lvl, nil)
				assert.ErrorIs(t, err, layers.ErrLevel, "level %d", lvl)
				assert.NotErrorIs(t, err, layers.ErrNotReady)
				assert.Equal(t, layers.View{}, v)
			}
		})
	}
}

func TestRenderL5ViewFromStore(t *testing.T) {
	db := openDB(t)
	appendTurns(t, db, "t", "global", 1, 2, 2)
	_, blocks, _ := loadThread(t, db, "t")
	require.Len(t, blocks, 1)
	msgs := blockMessages(t, db, blocks[0])
	v, err := layers.Render(&blocks[0], 5, msgs)
	require.NoError(t, err)
	assert.Equal(t, msgs, v.Messages)
	assert.Equal(t, blocks[0].L5Hash, layers.L5Hash(v.Messages), "the L5 view is bound by L5Hash")
	for _, m := range msgs {
		assert.True(t, strings.Contains(v.Text, "\n"+m.Content+"\n"))
	}
}
