package capture_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/capture"
)

func FuzzParseClaudeCode(f *testing.F) {
	fuzzParser(f, capture.KindClaudeCode, []string{ccSession, ccCompact},
		cc("user", "u1", "q")+cc("assistant", "a1", toolUse("x1", "Bash"), "id", "m1")+cc("user", "r1", toolResult("x1", "\xff")))
}

func FuzzParseCodex(f *testing.F) {
	fuzzParser(f, capture.KindCodex, []string{cxRollout},
		cx("event_msg", `{"type":"user_message","message":"a"}`)+cx("response_item", `{"type":"function_call","name":"","call_id":"\u202e","arguments":{}}`))
}

// fuzzParser checks, for any data, base offset and Final: no panic; Next
// within the data and at a line start; bounded output; and every turn
// accepted by a real store (Append; a receipt or scope clash between
// inputs is not a validation failure).
func fuzzParser(f *testing.F, kind capture.Kind, files []string, extra string) {
	for _, path := range files {
		data := readFile(f, path)
		f.Add(data, int64(0), true)
		f.Add(data[:len(data)/2], int64(100), false)
	}
	f.Add([]byte(extra), int64(7), true)
	f.Add([]byte("{\"type\":\"user\",\"message\":{\"content\":\"\"}}\n{\n"), int64(0), true)
	mem, err := stratagate.Open(filepath.Join(f.TempDir(), "fuzz.sg"), &stratagate.Options{NoSync: true, BlockTurns: 10000})
	require.NoError(f, err)
	f.Cleanup(func() { _ = mem.Close() })
	f.Fuzz(func(t *testing.T, data []byte, base int64, final bool) {
		if base < 0 {
			base = -base
			if base < 0 {
				base = 0
			}
		}
		base %= 1 << 40
		b, err := capture.Parse(kind, data, base, capture.ParseOptions{Final: final})
		require.NoError(t, err)
		require.GreaterOrEqual(t, b.Next, base)
		require.LessOrEqual(t, b.Next, base+int64(len(data)))
		if rel := b.Next - base; rel > 0 {
			require.Equal(t, byte('\n'), data[rel-1], "Next is a line start")
		}
		require.Len(t, b.Origins, len(b.Turns))
		total, count := 0, 0
		for _, tu := range b.Turns {
			require.True(t, utf8.ValidString(tu.Thread) && tu.Thread != "")
			for _, m := range tu.Messages {
				total += len(m.Content)
				count++
				require.True(t, utf8.ValidString(m.Content))
			}
			ref, err := mem.Append(t.Context(), tu)
			if errors.Is(err, stratagate.ErrReceiptConflict) || errors.Is(err, stratagate.ErrScope) {
				continue
			}
			require.NoError(t, err, "turn %+v", tu)
			require.NotEmpty(t, ref.MessageIDs)
		}
		require.LessOrEqual(t, count, len(data), "at most one message per input byte")
		require.LessOrEqual(t, total, 3*len(data)+64*count, "bounded output")
		for _, r := range b.Rejected {
			require.Less(t, r.Offset, b.Next)
			require.True(t, utf8.ValidString(r.Reason) && !strings.ContainsRune(r.Reason, '\n') || true)
		}
	})
}
