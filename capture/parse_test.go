package capture_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/capture"
)

const (
	ccSession  = "testdata/claude-code/session.jsonl"
	ccCompact  = "testdata/claude-code/compacted.jsonl"
	cxRollout  = "testdata/codex/rollout-2026-03-02T09-00-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl"
	fixtureCwd = "/home/u/proj"
)

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// msg is a message as the tests compare it.
type msg struct{ Role, Tool, Call, Content string }

func msgs(ms []stratagate.Message) []msg {
	out := make([]msg, len(ms))
	for i, m := range ms {
		out[i] = msg{m.Role, m.ToolName, m.ToolCallID, m.Content}
	}
	return out
}

// lineOffset is the offset of the 1-based line n of data.
func lineOffset(data []byte, n int) int64 {
	off := 0
	for i := 1; i < n; i++ {
		off += strings.IndexByte(string(data[off:]), '\n') + 1
	}
	return int64(off)
}

var ccTurn1 = []msg{
	{"user", "", "", "fix the flaky test in store_test.go"},
	{"assistant", "", "", "I'll run the tests first."},
	{"assistant", "Bash", "toolu_1", `{"command":"go test ./...","description":"run tests"}`},
	{"tool", "Bash", "toolu_1", "[error] --- FAIL: TestStore (0.01s)\nrace detected"},
	{"assistant", "", "", "The test shares a temp dir between parallel subtests.\n\nLet me check what we decided before."},
	{"assistant", "Edit", "toolu_3", `{"file_path":"store_test.go","old_string":"dir := os.TempDir()","new_string":"dir := t.TempDir()"}`},
	{"tool", "Edit", "toolu_3", "The file store_test.go has been updated."},
	{"assistant", "", "", "Fixed: each subtest now uses its own t.TempDir()."},
}

func TestParseClaudeCodeFixture(t *testing.T) {
	data := readFile(t, ccSession)
	for _, final := range []bool{false, true} {
		t.Run(fmt.Sprint("final=", final), func(t *testing.T) {
			b, err := capture.ParseClaudeCode(data, 0, capture.ParseOptions{Final: final})
			require.NoError(t, err)
			require.Len(t, b.Turns, 1, "the second turn is open: the next prompt is an incomplete line")
			tu := b.Turns[0]
			assert.Equal(t, "2ff4a0c1-0000-4000-8000-000000000001", tu.Thread)
			assert.Equal(t, capture.ProjectScope(fixtureCwd), tu.Scope)
			assert.True(t, strings.HasPrefix(tu.ReceiptID, "claude-code:"), tu.ReceiptID)
			assert.Equal(t, ccTurn1, msgs(tu.Messages), "meta, sidechain, thinking and memory_* lines are left out; msg_2's chunks merge")
			assert.Equal(t, time.Date(2026, 3, 1, 22, 30, 0, 0, time.UTC), tu.Messages[0].At.UTC())
			assert.Equal(t, capture.Origin{Line: 3, Offset: lineOffset(data, 3)}, b.Origins[0])
			assert.Equal(t, lineOffset(data, 19), b.Next, "resume at the open turn's prompt")
			require.Len(t, b.Rejected, 1)
			assert.Equal(t, 9, b.Rejected[0].Line)
			assert.Contains(t, b.Rejected[0].Reason, "invalid JSON")
		})
	}

	// The agent finishes the last line and replies: parsing from Next
	// with a Stop completes both turns, and the turn parsed from an
	// offset has the receipt it has in a whole-file parse.
	b, _ := capture.ParseClaudeCode(data, 0, capture.ParseOptions{})
	u3 := `{"type":"user","uuid":"u3","parentUuid":"a9","sessionId":"2ff4a0c1-0000-4000-8000-000000000001","cwd":"/home/u/proj","message":{"role":"user","content":"and push"}}`
	require.True(t, strings.HasPrefix(u3, string(data[lineOffset(data, 21):])), "the fixture's last line is a cut prompt")
	full := append(append([]byte{}, data[:lineOffset(data, 21)]...), []byte(u3+"\n"+
		`{"type":"assistant","uuid":"a10","sessionId":"2ff4a0c1-0000-4000-8000-000000000001","message":{"id":"msg_6","content":[{"type":"text","text":"Pushed."}]}}`+"\n")...)
	rest, err := capture.ParseClaudeCode(full[b.Next:], b.Next, capture.ParseOptions{Final: true, Cwd: capture.FileCwd(capture.KindClaudeCode, full)})
	require.NoError(t, err)
	require.Len(t, rest.Turns, 2)
	assert.Equal(t, []msg{{"user", "", "", "thanks, now commit it"}, {"assistant", "", "", "Committed as 3f2a9c1."}}, msgs(rest.Turns[0].Messages))
	assert.Equal(t, []msg{{"user", "", "", "and push"}, {"assistant", "", "", "Pushed."}}, msgs(rest.Turns[1].Messages))
	assert.Equal(t, int64(len(full)), rest.Next)
	whole, _ := capture.ParseClaudeCode(full, 0, capture.ParseOptions{Final: true})
	require.Len(t, whole.Turns, 3)
	assert.Equal(t, whole.Turns[1:], rest.Turns, "same turns, receipts and scope from either offset")
}

func TestParseClaudeCodeCompacted(t *testing.T) {
	b, err := capture.ParseClaudeCode(readFile(t, ccCompact), 0, capture.ParseOptions{Final: true})
	require.NoError(t, err)
	require.Len(t, b.Turns, 2)
	assert.Equal(t, []msg{{"user", "", "", "rename the package to store"}, {"assistant", "", "", "Renamed the package to store in 4 files."}}, msgs(b.Turns[0].Messages))
	assert.Equal(t, []msg{{"user", "", "", "now update the imports"}, {"assistant", "", "", "Imports updated."}, {"user", "", "", "[Request interrupted by user]"}},
		msgs(b.Turns[1].Messages), "the compaction summary is not a prompt; an interruption note stays in its turn")
	assert.Empty(t, b.Rejected)
}

// cc builds a Claude Code line of session S.
func cc(typ, uuid string, content any, extra ...string) string {
	m := map[string]any{"type": typ, "uuid": uuid, "sessionId": "S", "cwd": "/p", "timestamp": "2026-03-01T10:00:00Z",
		"message": map[string]any{"role": typ, "content": content}}
	for i := 0; i+1 < len(extra); i += 2 {
		switch extra[i] {
		case "id":
			m["message"].(map[string]any)["id"] = extra[i+1]
		default:
			m[extra[i]] = json.RawMessage(extra[i+1])
		}
	}
	out, _ := json.Marshal(m)
	return string(out) + "\n"
}

func toolUse(id, name string) []any {
	return []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{"q": 1}}}
}

func toolResult(id, text string) []any {
	return []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": text}}
}

func TestParseClaudeCodeRules(t *testing.T) {
	big := strings.Repeat("é", 700_000) // 1.4 MB
	many := cc("user", "u1", "do many things")
	for i := range 150 {
		id := fmt.Sprintf("t%d", i)
		many += cc("assistant", "a"+id, toolUse(id, "Read"), "id", "m"+id) + cc("user", "r"+id, toolResult(id, "ok"))
	}
	for _, tc := range []struct {
		name     string
		data     string
		opts     capture.ParseOptions
		want     [][]msg
		rejected int
		check    func(t *testing.T, b capture.Batch)
	}{
		{name: "a reply without its prompt is a turn of its own", data: cc("assistant", "a1", "continuing", "id", "m1"),
			opts: capture.ParseOptions{Final: true}, want: [][]msg{{{"assistant", "", "", "continuing"}}}},
		{name: "open turn waits without Final", data: cc("user", "u1", "hi") + cc("assistant", "a1", "hello", "id", "m1"),
			check: func(t *testing.T, b capture.Batch) { assert.Zero(t, b.Next) }},
		{name: "memory tools are not captured",
			data: cc("user", "u1", "q") + cc("assistant", "a1", toolUse("x1", "memory_search_raw"), "id", "m1") + cc("user", "r1", toolResult("x1", "recalled")) +
				cc("assistant", "a2", toolUse("x2", "mcp__sg__memory_get_blocks"), "id", "m1") + cc("user", "r2", toolResult("x2", "recalled")) +
				cc("assistant", "a3", toolUse("x3", "Read"), "id", "m1") + cc("user", "r3", toolResult("x3", "file")),
			opts: capture.ParseOptions{Final: true},
			want: [][]msg{{{"user", "", "", "q"}, {"assistant", "Read", "x3", `{"q":1}`}, {"tool", "Read", "x3", "file"}}}},
		{name: "a line written twice folds once",
			data: cc("user", "u1", "q") + cc("assistant", "a1", []any{map[string]any{"type": "text", "text": "same"}}, "id", "m1") +
				cc("assistant", "a1", []any{map[string]any{"type": "text", "text": "same"}}, "id", "m1") +
				cc("assistant", "a2", toolUse("x1", "Read"), "id", "m1") + cc("assistant", "a2", toolUse("x1", "Read"), "id", "m1"),
			opts: capture.ParseOptions{Final: true},
			want: [][]msg{{{"user", "", "", "q"}, {"assistant", "", "", "same"}, {"assistant", "Read", "x1", `{"q":1}`}}}},
		{name: "empty tool output gets a marker, empty prompts are skipped",
			data: cc("user", "u0", "   ") + cc("user", "u1", "q") + cc("assistant", "a1", toolUse("x1", "Bash"), "id", "m1") + cc("user", "r1", toolResult("x1", "")),
			opts: capture.ParseOptions{Final: true},
			want: [][]msg{{{"user", "", "", "q"}, {"assistant", "Bash", "x1", `{"q":1}`}, {"tool", "Bash", "x1", "(no output)"}}}},
		{name: "unknown shapes are rejected",
			data: "[1,2]\n" + `{"type":"user","message":{"content":5}}` + "\n" + `{"type":"assistant"}` + "\n" + `{"type":"user","isMeta":"yes"}` + "\n" + cc("user", "u1", "q"),
			opts: capture.ParseOptions{Final: true}, want: [][]msg{{{"user", "", "", "q"}}}, rejected: 4},
		{name: "an incomplete last line is never consumed",
			data: cc("user", "u1", "q") + cc("assistant", "a1", "a", "id", "m1") + `{"type":"user","uuid":"u2"`,
			opts: capture.ParseOptions{Final: true},
			check: func(t *testing.T, b capture.Batch) {
				assert.Empty(t, b.Turns, "Final does not complete a turn when the data ends mid-line")
				assert.Zero(t, b.Next)
			}},
		{name: "huge content is cut to the store's limit",
			data: cc("user", "u1", big), opts: capture.ParseOptions{Final: true},
			check: func(t *testing.T, b capture.Batch) {
				require.Len(t, b.Turns, 1)
				c := b.Turns[0].Messages[0].Content
				assert.LessOrEqual(t, len(c), stratagate.DefaultMaxMessageBytes)
				assert.Contains(t, c, "truncated by capture")
			}},
		{name: "a turn beyond the store's message limit is split",
			data: many, opts: capture.ParseOptions{Final: true},
			check: func(t *testing.T, b capture.Batch) {
				require.Len(t, b.Turns, 2)
				assert.Len(t, b.Turns[0].Messages, 256)
				assert.Len(t, b.Turns[1].Messages, 301-256)
				assert.NotEqual(t, b.Turns[0].ReceiptID, b.Turns[1].ReceiptID)
			}},
		{name: "times out of the store's range are left to its clock; no session falls back",
			data: `{"type":"user","uuid":"u1","timestamp":"9999-01-01T00:00:00Z","message":{"content":"q"}}` + "\n",
			opts: capture.ParseOptions{Final: true, Session: "fallback"},
			check: func(t *testing.T, b capture.Batch) {
				require.Len(t, b.Turns, 1)
				assert.True(t, b.Turns[0].Messages[0].At.IsZero())
				assert.Equal(t, "fallback", b.Turns[0].Thread)
				assert.Equal(t, "global", b.Turns[0].Scope, "no working directory named: global")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := capture.ParseClaudeCode([]byte(tc.data), 0, tc.opts)
			require.NoError(t, err)
			assert.Len(t, b.Rejected, tc.rejected, "%v", b.Rejected)
			if tc.want != nil {
				var got [][]msg
				for _, tu := range b.Turns {
					got = append(got, msgs(tu.Messages))
				}
				assert.Equal(t, tc.want, got)
			}
			if tc.check != nil {
				tc.check(t, b)
			}
			appendAll(t, b)
		})
	}
	_, err := capture.ParseClaudeCode(nil, -1, capture.ParseOptions{})
	assert.ErrorIs(t, err, stratagate.ErrInvalidInput)
}

// appendAll appends every turn of b into a fresh store: the parsers'
// output passes the root's validation.
func appendAll(t *testing.T, b capture.Batch) {
	t.Helper()
	mem, err := stratagate.Open(filepath.Join(t.TempDir(), "m.sg"), &stratagate.Options{NoSync: true, BlockTurns: 10000})
	require.NoError(t, err)
	defer mem.Close()
	for _, tu := range b.Turns {
		_, err := mem.Append(t.Context(), tu)
		require.NoError(t, err)
	}
}

func TestParseCodexFixture(t *testing.T) {
	data := readFile(t, cxRollout)
	b, err := capture.ParseCodex(data, 0, capture.ParseOptions{})
	require.NoError(t, err)
	require.Len(t, b.Turns, 1, "the second turn has no task_complete")
	tu := b.Turns[0]
	assert.Equal(t, "0199a213-81c0-7800-8aa1-bbab2a035a53", tu.Thread)
	assert.Equal(t, capture.ProjectScope(fixtureCwd), tu.Scope)
	assert.Equal(t, []msg{
		{"user", "", "", "add a README"},
		{"assistant", "shell", "call_1", `{"command":["ls"]}`},
		{"tool", "shell", "call_1", `{"output":"main.go\n","metadata":{"exit_code":0}}`},
		{"assistant", "", "", "Added README.md."},
	}, msgs(tu.Messages), "injected AGENTS.md/environment text, reasoning and memory_* calls are left out; agent text once")
	assert.Equal(t, lineOffset(data, 19), b.Next)
	require.Len(t, b.Rejected, 1)
	assert.Equal(t, 13, b.Rejected[0].Line)

	// A Stop hook (Final) from Next, past session_meta: the session and
	// working directory come from the options, as the hook passes them.
	rest, err := capture.ParseCodex(data[b.Next:], b.Next, capture.ParseOptions{Final: true, Session: tu.Thread, Cwd: capture.FileCwd(capture.KindCodex, data)})
	require.NoError(t, err)
	require.Len(t, rest.Turns, 1)
	assert.Equal(t, []msg{{"user", "", "", "now add a license"}, {"assistant", "", "", "Which license: MIT or Apache-2.0?"}}, msgs(rest.Turns[0].Messages))
	whole, _ := capture.ParseCodex(data, 0, capture.ParseOptions{Final: true})
	require.Len(t, whole.Turns, 2)
	assert.Equal(t, whole.Turns[1], rest.Turns[0])
	appendAll(t, whole)
}

func cx(typ string, payload string) string {
	return `{"timestamp":"2026-03-02T09:00:00Z","type":"` + typ + `","payload":` + payload + "}\n"
}

func TestParseCodexRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		want [][]msg
	}{
		{"old rollouts without task events: a user_message after a reply starts a turn",
			cx("event_msg", `{"type":"user_message","message":"a"}`) + cx("response_item", `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ra"}]}`) +
				cx("event_msg", `{"type":"user_message","message":"b"}`) + cx("response_item", `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"rb"}]}`),
			[][]msg{{{"user", "", "", "a"}, {"assistant", "", "", "ra"}}, {{"user", "", "", "b"}, {"assistant", "", "", "rb"}}}},
		{"last_agent_message stands in for a missing reply; turn_aborted closes",
			cx("event_msg", `{"type":"task_started","turn_id":"t1"}`) + cx("event_msg", `{"type":"user_message","message":"a"}`) +
				cx("event_msg", `{"type":"task_complete","turn_id":"t1","last_agent_message":"done"}`) +
				cx("event_msg", `{"type":"task_started","turn_id":"t2"}`) + cx("event_msg", `{"type":"user_message","message":"b"}`) +
				cx("event_msg", `{"type":"user_message","message":"more b"}`) + cx("event_msg", `{"type":"turn_aborted","reason":"interrupted"}`),
			[][]msg{{{"user", "", "", "a"}, {"assistant", "", "", "done"}}, {{"user", "", "", "b"}, {"user", "", "", "more b"}}}},
		{"custom tools, shell calls and object outputs",
			cx("event_msg", `{"type":"task_started","turn_id":"t1"}`) + cx("event_msg", `{"type":"user_message","message":"a"}`) +
				cx("response_item", `{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch","call_id":"c1"}`) +
				cx("response_item", `{"type":"custom_tool_call_output","call_id":"c1","output":{"content":"patched","success":true}}`) +
				cx("response_item", `{"type":"local_shell_call","call_id":"c2","action":{"type":"exec","command":["ls"]}}`) +
				cx("response_item", `{"type":"function_call_output","call_id":"c2","output":""}`) +
				cx("event_msg", `{"type":"task_complete","turn_id":"t1"}`),
			[][]msg{{{"user", "", "", "a"}, {"assistant", "apply_patch", "c1", "*** Begin Patch"}, {"tool", "apply_patch", "c1", "patched"},
				{"assistant", "local_shell", "c2", `{"type":"exec","command":["ls"]}`}, {"tool", "local_shell", "c2", "(no output)"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := capture.ParseCodex([]byte(tc.data), 0, capture.ParseOptions{Final: true})
			require.NoError(t, err)
			assert.Empty(t, b.Rejected)
			var got [][]msg
			for _, tu := range b.Turns {
				got = append(got, msgs(tu.Messages))
				assert.Equal(t, "codex-session", tu.Thread)
			}
			assert.Equal(t, tc.want, got)
			appendAll(t, b)
		})
	}
}
