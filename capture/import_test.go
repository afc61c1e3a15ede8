package capture_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/capture"
)

func TestImportIsIdempotent(t *testing.T) {
	for _, tc := range []struct {
		kind                 capture.Kind
		dir                  string
		files, turns, reject int
	}{
		{capture.KindClaudeCode, "testdata/claude-code", 2, 3, 1},
		{capture.KindCodex, "testdata/codex", 1, 2, 1},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			mem, err := stratagate.Open(filepath.Join(t.TempDir(), "m.sg"), &stratagate.Options{NoSync: true})
			require.NoError(t, err)
			defer mem.Close()
			var progress bytes.Buffer
			sum, err := capture.Import(t.Context(), mem, tc.kind, []string{tc.dir}, &progress)
			require.NoError(t, err)
			assert.Equal(t, capture.Summary{Files: tc.files, Turns: tc.turns, Added: tc.turns, Rejected: sum.Rejected}, sum)
			require.Len(t, sum.Rejected, tc.reject)
			assert.Contains(t, sum.Rejected[0].Reason, "invalid JSON")
			assert.True(t, filepath.IsAbs(sum.Rejected[0].File))
			assert.Contains(t, progress.String(), "import "+string(tc.kind)+": ")

			again, err := capture.Import(t.Context(), mem, tc.kind, []string{tc.dir}, nil)
			require.NoError(t, err)
			assert.Equal(t, 0, again.Added)
			assert.Equal(t, tc.turns, again.Duplicates, "a second import only finds duplicates")
			assert.Contains(t, again.String(), "0 added")
		})
	}
}

func TestImportReportsBadPaths(t *testing.T) {
	mem, err := stratagate.Open(filepath.Join(t.TempDir(), "m.sg"), &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	dir := t.TempDir()
	named := filepath.Join(dir, "transcript.txt") // named explicitly: read whatever its extension
	require.NoError(t, os.WriteFile(named, readFile(t, ccCompact), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.md"), []byte("not a transcript"), 0o600))
	sum, err := capture.Import(t.Context(), mem, capture.KindClaudeCode, []string{filepath.Join(dir, "missing"), named, dir}, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, sum.Files, "the folder holds no *.jsonl")
	assert.Equal(t, 2, sum.Added)
	require.Len(t, sum.Rejected, 1)
	assert.Contains(t, sum.Rejected[0].String(), "missing")

	_, err = capture.Import(t.Context(), mem, "gemini", []string{dir}, nil)
	assert.ErrorIs(t, err, capture.ErrUnknownKind)
}

func TestSummaryString(t *testing.T) {
	s := capture.Summary{Files: 2, Turns: 5, Added: 3, Duplicates: 2}
	for i := range 12 {
		s.Rejected = append(s.Rejected, capture.Reject{File: "f.jsonl", Origin: capture.Origin{Line: i + 1, Offset: int64(i * 10)}, Reason: "invalid JSON"})
	}
	out := s.String()
	assert.Contains(t, out, "2 files, 5 turns: 3 added, 2 duplicates, 12 rejected")
	assert.Contains(t, out, "f.jsonl:1 (offset 0): invalid JSON")
	assert.Contains(t, out, "… 2 more")
}
