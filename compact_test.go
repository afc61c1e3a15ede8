package stratagate_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

func TestCompactTo(t *testing.T) {
	src := sampleFile(t)
	mem, err := stratagate.Open(src, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	q := stratagate.Query{Text: "postgres migration", Scopes: []string{"project:atlas", "global"}}
	want, err := mem.SearchRaw(ctx, q)
	require.NoError(t, err)
	require.NotEmpty(t, want)
	require.NoError(t, mem.WaitIdle(ctx)) // the search's observation is written
	before, err := mem.Stats(ctx)
	require.NoError(t, err)

	dir := t.TempDir()
	dst := filepath.Join(dir, "compact.sg")
	require.NoError(t, mem.CompactTo(ctx, dst))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "the copy alone, no temporary file")
	assert.ErrorIs(t, mem.CompactTo(ctx, dst), stratagate.ErrExists, "an existing file is never overwritten")

	srcInfo, err := os.Stat(src)
	require.NoError(t, err)
	dstInfo, err := os.Stat(dst)
	require.NoError(t, err)
	assert.Less(t, dstInfo.Size(), srcInfo.Size(), "the copy is smaller")
	t.Logf("file %d bytes, compacted %d bytes", srcInfo.Size(), dstInfo.Size())
	ro, err := stratagate.Open(dst, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	st, err := ro.Stats(ctx)
	require.NoError(t, err)
	require.NoError(t, ro.Close())
	assert.Equal(t, st.FileBytes, dstInfo.Size(), "the copy is cut to its pages: no preallocated tail")

	cp, err := stratagate.Open(dst, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer cp.Close()
	after, err := cp.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, before.Buckets, after.Buckets)
	assert.Equal(t, before.Messages, after.Messages)
	got, err := cp.SearchRaw(ctx, q)
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, want[i].MessageID, got[i].MessageID)
		assert.Equal(t, want[i].Score, got[i].Score)
	}
	rep, err := cp.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
	require.NoError(t, cp.CheckIndexes(ctx))
	// Sequences are kept: the next message id continues the source's.
	ref, err := cp.Append(ctx, stratagate.Turn{Thread: "compact", Messages: []stratagate.Message{{Role: "user", Content: "after compaction"}}})
	require.NoError(t, err)
	assert.Equal(t, uint64(before.Messages+1), ref.MessageIDs[0])
}

func TestCompactToCancelled(t *testing.T) {
	src := sampleFile(t)
	mem, err := stratagate.Open(src, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	c, cancel := context.WithCancel(ctx)
	cancel()
	dst := filepath.Join(t.TempDir(), "cancelled.sg")
	assert.ErrorIs(t, mem.CompactTo(c, dst), context.Canceled)
	_, err = os.Stat(dst)
	assert.ErrorIs(t, err, os.ErrNotExist, "no partial file is left")
	left, err := os.ReadDir(filepath.Dir(dst))
	require.NoError(t, err)
	assert.Empty(t, left, "nor a temporary one")
}
