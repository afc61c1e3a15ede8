package layers_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/layers"
)

var pruneAt = time.Date(2024, 3, 10, 9, 15, 30, 0, zoneNY)

const pruneTS = "[2024-03-10 09:15:30 -04:00] "

// pm builds message id with role and content at pruneAt.
func pm(id uint64, role, content string) layers.Message {
	return layers.Message{ID: id, Turn: 1, Role: role, Content: content, At: pruneAt}
}

func toolCall(id uint64, name, callID, args string) layers.Message {
	m := pm(id, layers.RoleAssistant, args)
	m.ToolName, m.ToolCallID = name, callID
	return m
}

func toolResult(id uint64, name, callID, out string) layers.Message {
	m := pm(id, layers.RoleTool, out)
	m.ToolName, m.ToolCallID = name, callID
	return m
}

func TestRenderL3PruneRules(t *testing.T) {
	long80 := strings.Repeat("x", 70) + " 0123456789" // 81 bytes
	long80 = long80[:80]
	short79 := long80[:79]
	ascii200 := strings.Repeat("abcdefghij", 20)
	cjk160 := strings.Repeat("中", 160)

	tests := []struct {
		name string
		msgs []layers.Message
		want string
	}{
		// Rule 1: acknowledgements.
		{"ack ok", []layers.Message{pm(1, layers.RoleUser, "ok")}, ""},
		{"ack OK with punctuation and spaces", []layers.Message{pm(1, layers.RoleUser, "  OK.  ")}, ""},
		{"ack Thanks!", []layers.Message{pm(1, layers.RoleUser, "Thanks!")}, ""},
		{"ack thank you emoji", []layers.Message{pm(1, layers.RoleUser, "thank you 🙏")}, ""},
		{"ack inner spaces collapsed", []layers.Message{pm(1, layers.RoleUser, "Thank   you!!")}, ""},
		{"ack 好的", []layers.Message{pm(1, layers.RoleUser, "好的")}, ""},
		{"ack 谢谢！", []layers.Message{pm(1, layers.RoleUser, "谢谢！")}, ""},
		{"ack assistant got it", []layers.Message{pm(1, layers.RoleAssistant, "Got it.")}, ""},
		{"ack sounds good", []layers.Message{pm(1, layers.RoleUser, "Sounds good 👍")}, ""},
		// Rule 2: confirmations.
		{"confirm yes", []layers.Message{pm(1, layers.RoleUser, "yes")}, ""},
		{"confirm Yep.", []layers.Message{pm(1, layers.RoleUser, "Yep.")}, ""},
		{"confirm 是的", []layers.Message{pm(1, layers.RoleUser, "是的")}, ""},
		{"confirm Exactly!", []layers.Message{pm(1, layers.RoleAssistant, "Exactly!")}, ""},
		// Kept: not a standalone acknowledgement.
		{"ok inside a sentence", []layers.Message{pm(1, layers.RoleUser, "ok, deploy at 5pm")},
			pruneTS + "user: ok, deploy at 5pm\n"},
		{"ok in the middle", []layers.Message{pm(1, layers.RoleUser, "I think it's ok to ship")},
			pruneTS + "user: I think it's ok to ship\n"},
		{"yes with a condition", []layers.Message{pm(1, layers.RoleUser, "Yes, but only after the tests pass.")},
			pruneTS + "user: Yes, but only after the tests pass.\n"},
		{"ok twice is not in the list", []layers.Message{pm(1, layers.RoleUser, "ok ok")},
			pruneTS + "user: ok ok\n"},
		{"system ok kept", []layers.Message{pm(1, layers.RoleSystem, "ok")},
			pruneTS + "system: ok\n"},
		// Tool messages are never dropped as acknowledgements.
		{"tool result ok kept", []layers.Message{toolResult(1, "check", "c1", "ok")},
			pruneTS + "tool check result (c1): ok\n"},
		{"tool result thanks kept", []layers.Message{toolResult(1, "check", "", "Thanks!")},
			pruneTS + "tool check result: Thanks!\n"},
		{"tool call with ok args kept", []layers.Message{toolCall(1, "confirm", "c2", "ok")},
			pruneTS + "assistant → tool confirm (c2): [arguments omitted]\n"},
		// Rule 3: tool payloads.
		{"tool call arguments omitted", []layers.Message{toolCall(1, "search", "call_1", `{"query":"weather in Berlin","limit":5}`)},
			pruneTS + "assistant → tool search (call_1): [arguments omitted]\n"},
		{"tool result over 160 runes trimmed", []layers.Message{toolResult(1, "fetch", "c3", ascii200)},
			pruneTS + "tool fetch result (c3): " + ascii200[:160] + "… [trimmed 40 chars]\n"},
		{"tool result of 161 runes trimmed", []layers.Message{toolResult(1, "fetch", "c3", ascii200[:161])},
			pruneTS + "tool fetch result (c3): " + ascii200[:160] + "… [trimmed 1 chars]\n"},
		{"tool result of 160 runes kept", []layers.Message{toolResult(1, "fetch", "c3", ascii200[:160])},
			pruneTS + "tool fetch result (c3): " + ascii200[:160] + "\n"},
		{"tool result of 160 CJK runes (480 bytes) kept", []layers.Message{toolResult(1, "fetch", "c3", cjk160)},
			pruneTS + "tool fetch result (c3): " + cjk160 + "\n"},
		{"tool result whitespace collapsed", []layers.Message{toolResult(1, "ls", "", "a  b\n\nc\t d ")},
			pruneTS + "tool ls result: a b c d\n"},
		// Rule 4: exact repeats.
		{"repeat of 80 bytes", []layers.Message{pm(1, layers.RoleUser, long80), pm(2, layers.RoleAssistant, "sure thing, noted"), pm(3, layers.RoleUser, long80)},
			pruneTS + "user: " + long80 + "\n" + pruneTS + "assistant: sure thing, noted\n" + pruneTS + "user: [repeat of #1]\n"},
		{"repeat of 79 bytes kept", []layers.Message{pm(1, layers.RoleUser, short79), pm(2, layers.RoleUser, short79)},
			pruneTS + "user: " + short79 + "\n" + pruneTS + "user: " + short79 + "\n"},
		{"near repeat kept", []layers.Message{pm(1, layers.RoleUser, long80), pm(2, layers.RoleUser, long80[:79]+"!")},
			pruneTS + "user: " + long80 + "\n" + pruneTS + "user: " + long80[:79] + "!\n"},
		{"third copy points at the first", []layers.Message{pm(4, layers.RoleUser, long80), pm(5, layers.RoleUser, long80), pm(6, layers.RoleAssistant, long80)},
			pruneTS + "user: " + long80 + "\n" + pruneTS + "user: [repeat of #4]\n" + pruneTS + "assistant: [repeat of #4]\n"},
		{"repeated long tool result", []layers.Message{toolResult(8, "fetch", "a", ascii200[:100]), toolResult(9, "fetch", "b", ascii200[:100])},
			pruneTS + "tool fetch result (a): " + ascii200[:100] + "\n" + pruneTS + "tool fetch result (b): [repeat of #8]\n"},
		{"speaker shown", []layers.Message{func() layers.Message { m := pm(1, layers.RoleUser, "hi there, Bob"); m.Speaker = "Mia"; return m }()},
			pruneTS + "Mia: hi there, Bob\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := layers.RenderL3(tc.msgs)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, got, layers.RenderL3(tc.msgs), "deterministic")
		})
	}
}

func TestRenderL3TrimmedCountIsInChars(t *testing.T) {
	in := strings.Repeat("中", 200)
	got := layers.RenderL3([]layers.Message{toolResult(1, "fetch", "c", in)})
	assert.Equal(t, pruneTS+"tool fetch result (c): "+strings.Repeat("中", 160)+"… [trimmed 40 chars]\n", got)
}

func TestRenderL3EmptyAndUnchanged(t *testing.T) {
	assert.Empty(t, layers.RenderL3(nil))
	// Nothing prunable: L3 equals L4 byte for byte.
	msgs := []layers.Message{
		pm(1, layers.RoleUser, "Can we move the Atlas launch to Tuesday?"),
		pm(2, layers.RoleAssistant, "Yes if QA signs off on Monday.\nI'll ask Priya."),
		pm(3, layers.RoleSystem, "Reminder: be brief."),
	}
	assert.Equal(t, layers.RenderL4(msgs), layers.RenderL3(msgs))
}

// markerRE matches everything L3 may add to L4's text.
var markerRE = regexp.MustCompile(`\[arguments omitted\]$|… \[trimmed \d+ chars\]$|\[repeat of #\d+\]$`)

func TestRenderL3IsSubsetOfL4(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"ok", "yes", "Atlas", "deploy", "Postgres", "shard", "thanks", "中文", "数据", "🙂", "5pm", "Berlin", "the", "a", "is", "好的"}
	sentence := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		return b.String()
	}
	shortAcks := []string{"ok", "Thanks!", "thank you 🙏", "好的", "谢谢！", "yes", "Yep.", "是的", "Got it."}
	for round := range 50 {
		t.Run(fmt.Sprintf("corpus %d", round), func(t *testing.T) {
			var msgs []layers.Message
			var pool []string
			for id := uint64(1); id <= 30; id++ {
				var m layers.Message
				switch r := rng.IntN(7); {
				case r == 0:
					m = pm(id, layers.RoleUser, shortAcks[rng.IntN(len(shortAcks))])
				case r == 1:
					m = toolCall(id, "search", fmt.Sprintf("call_%d", id), `{"q":"`+sentence(3+rng.IntN(20))+`"}`)
				case r == 2:
					m = toolResult(id, "search", fmt.Sprintf("call_%d", id-1), sentence(1+rng.IntN(80)))
				case r == 3 && len(pool) > 0:
					m = pm(id, layers.RoleAssistant, pool[rng.IntN(len(pool))])
				default:
					m = pm(id, []string{layers.RoleUser, layers.RoleAssistant}[rng.IntN(2)], sentence(1+rng.IntN(40)))
					pool = append(pool, m.Content)
				}
				m.At = pruneAt.Add(time.Duration(id) * time.Second).In([]*time.Location{zoneNY, zoneIndia, zoneBerlin}[rng.IntN(3)])
				msgs = append(msgs, m)
			}
			l4 := layers.RenderL4(msgs)
			l3 := layers.RenderL3(msgs)
			require.True(t, utf8.ValidString(l3))
			for _, line := range strings.Split(strings.TrimSuffix(l3, "\n"), "\n") {
				if line == "" {
					continue
				}
				content := markerRE.ReplaceAllString(line, "")
				assert.Contains(t, l4, content, "L3 line %q adds text", line)
			}
		})
	}
}
