package capture_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/capture"
)

func TestProjectScope(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	require.NoError(t, os.Mkdir(repo, 0o700))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(repo, link))

	s := capture.ProjectScope(repo)
	assert.Regexp(t, regexp.MustCompile(`^project:[0-9a-f]{20}$`), s)
	for name, same := range map[string]string{
		"trailing slash": repo + "/", "dot segments": dir + "/./x/../repo", "symbolic link": link,
	} {
		assert.Equal(t, s, capture.ProjectScope(same), name)
	}
	assert.Equal(t, s, capture.ProjectScope(repo), "stable")
	assert.NotEqual(t, s, capture.ProjectScope(dir), "another directory is another scope")
	assert.NotEqual(t, capture.ProjectScope("/home/u/a"), capture.ProjectScope("/home/u/b"), "missing directories too")
	assert.Equal(t, "global", capture.ProjectScope(""))

	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.Equal(t, capture.ProjectScope(wd), capture.ProjectScope("."), "relative to the process's directory")
}

func TestCursorKey(t *testing.T) {
	assert.Equal(t, "claude-code:/a/b.jsonl", capture.CursorKey(capture.KindClaudeCode, "/a/./b.jsonl"))
	long := filepath.Join("/x", string(bytesOf('d', 600)))
	k := capture.CursorKey(capture.KindCodex, long)
	assert.Regexp(t, `^codex:sha256:[0-9a-f]{64}$`, k)
}

func bytesOf(c byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return b
}
