package stratagate_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/kv"
)

func TestCursorRoundTrip(t *testing.T) {
	mem, path := openMem(t, &stratagate.Options{NoSync: true})
	off, err := mem.Cursor(ctx, "claude-code/a.jsonl")
	require.NoError(t, err)
	assert.Zero(t, off, "an unknown cursor is 0")

	require.NoError(t, mem.SetCursor(ctx, "claude-code/a.jsonl", 1234))
	require.NoError(t, mem.SetCursor(ctx, "claude-code/b.jsonl", 7))
	require.NoError(t, mem.SetCursor(ctx, "claude-code/a.jsonl", 4321))
	off, err = mem.Cursor(ctx, "claude-code/a.jsonl")
	require.NoError(t, err)
	assert.Equal(t, int64(4321), off, "the last SetCursor wins")

	require.NoError(t, mem.Close())
	mem, err = stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	for key, want := range map[string]int64{"claude-code/a.jsonl": 4321, "claude-code/b.jsonl": 7} {
		off, err = mem.Cursor(ctx, key)
		require.NoError(t, err)
		assert.Equal(t, want, off, key)
	}
	assert.ErrorIs(t, mem.SetCursor(ctx, "k", 1), stratagate.ErrReadOnly)
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "cursors are not a violation: %v", rep.Violations)
}

func TestCursorRejectsBadInput(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{NoSync: true})
	for _, tc := range []struct {
		name string
		key  string
		off  int64
		want error
	}{
		{"empty key", "", 1, stratagate.ErrEmpty},
		{"long key", strings.Repeat("k", stratagate.MaxCursorKeyBytes+1), 1, stratagate.ErrTooLarge},
		{"invalid UTF-8", "a\xffb", 1, stratagate.ErrInvalidUTF8},
		{"negative offset", "k", -1, stratagate.ErrInvalidInput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := mem.SetCursor(ctx, tc.key, tc.off)
			assert.ErrorIs(t, err, stratagate.ErrInvalidInput)
			assert.ErrorIs(t, err, tc.want)
			if tc.off >= 0 {
				_, err = mem.Cursor(ctx, tc.key)
				assert.ErrorIs(t, err, tc.want)
			}
		})
	}
	require.NoError(t, mem.SetCursor(ctx, strings.Repeat("k", stratagate.MaxCursorKeyBytes), 1), "the limit itself is allowed")
}

func TestCursorAfterCloseAndDamage(t *testing.T) {
	mem, path := openMem(t, &stratagate.Options{NoSync: true})
	require.NoError(t, mem.SetCursor(ctx, "k", 9))
	require.NoError(t, mem.Close())
	_, err := mem.Cursor(ctx, "k")
	assert.ErrorIs(t, err, stratagate.ErrClosed)
	assert.ErrorIs(t, mem.SetCursor(ctx, "k", 1), stratagate.ErrClosed)

	bad := damagedCopy(t, path, func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketMeta).Put([]byte("cursor/k"), []byte{0xee, 0x80})
	})
	mem, err = stratagate.Open(bad, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	_, err = mem.Cursor(ctx, "k")
	assert.ErrorIs(t, err, stratagate.ErrVersionMismatch, "a cursor record of an unknown version is refused")
}
