//go:build linux

package kv_test

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

// TestOpenChecksUnderTheLock: the pre-open checks wait for the file's lock,
// so a file another process is writing (here: a zero-length file whose
// creator holds the lock and has not initialised it yet) is ErrLocked, not
// judged damaged from a state the writer is about to change.
func TestOpenChecksUnderTheLock(t *testing.T) {
	path := dbPath(t)
	require.NoError(t, os.WriteFile(path, nil, 0o600))
	holder, err := os.OpenFile(path, os.O_RDWR, 0)
	require.NoError(t, err)
	defer holder.Close()
	require.NoError(t, syscall.Flock(int(holder.Fd()), syscall.LOCK_EX))
	for _, ro := range []bool{false, true} {
		_, err = kv.Open(path, kv.Options{ReadOnly: ro, LockTimeout: 100 * time.Millisecond})
		assert.ErrorIs(t, err, kv.ErrLocked, "read-only=%v", ro)
		assert.NotErrorIs(t, err, kv.ErrCorrupt, "read-only=%v", ro)
	}
	require.NoError(t, syscall.Flock(int(holder.Fd()), syscall.LOCK_UN))
	_, err = kv.Open(path, kv.Options{LockTimeout: 100 * time.Millisecond})
	assert.ErrorIs(t, err, kv.ErrCorrupt, "unlocked, the zero-length file is refused")
}
