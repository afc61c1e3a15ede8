//go:build linux

package stratagate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/gate"
)

// fileFD finds the descriptor this process holds on path (bbolt keeps it
// private) through /proc/self/fd.
func fileFD(t *testing.T, path string) int {
	t.Helper()
	want, err := filepath.EvalSymlinks(path)
	require.NoError(t, err)
	ents, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	for _, e := range ents {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
		if err != nil || target != want {
			continue
		}
		fd, err := strconv.Atoi(e.Name())
		require.NoError(t, err)
		return fd
	}
	t.Fatalf("no descriptor on %s", path)
	return -1
}

// TestDiskFullIsErrIO: with the file's descriptor pointed at /dev/full
// (every write fails with ENOSPC, as on a full disk), an Append and a
// RecordAssessment fail with ErrIO and the OS error, and nothing is
// stored; once the descriptor is back the store works and verifies.
func TestDiskFullIsErrIO(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "full.sg")
	mem, err := Open(path, nil)
	require.NoError(t, err)
	defer mem.Close()
	msg := func(s string) Turn {
		return Turn{Thread: "t", ReceiptID: s, Messages: []Message{{Role: "user", Content: "a message " + s}}}
	}
	_, err = mem.Append(ctx, msg("before"))
	require.NoError(t, err)

	fd := fileFD(t, path)
	saved, err := syscall.Dup(fd)
	require.NoError(t, err)
	defer syscall.Close(saved)
	full, err := os.OpenFile("/dev/full", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	require.NoError(t, syscall.Dup3(int(full.Fd()), fd, 0))
	_, appendErr := mem.Append(ctx, msg("during"))
	_, sessErr := mem.NewSession(ctx, nil, gate.Budget{})
	require.NoError(t, syscall.Dup3(saved, fd, 0))

	for name, err := range map[string]error{"Append": appendErr, "NewSession": sessErr} {
		require.ErrorIs(t, err, ErrIO, name)
		assert.ErrorIs(t, err, syscall.ENOSPC, name)
		assert.Contains(t, err.Error(), "no space left", name)
	}
	_, err = mem.Messages(ctx, 2)
	require.ErrorIs(t, err, ErrNotFound, "the failed turn left nothing")
	_, err = mem.Append(ctx, msg("after"))
	require.NoError(t, err)
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
}

// TestClassify: OS errors gain ErrIO and context errors ErrCanceled, the
// original staying visible to errors.Is.
func TestClassify(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EROFS, syscall.EACCES, syscall.ENOENT, syscall.EIO, syscall.EDQUOT} {
		for _, err := range []error{
			errno,
			&os.PathError{Op: "write", Path: "/x", Err: errno},
			&os.LinkError{Op: "link", Old: "/a", New: "/b", Err: errno},
			os.NewSyscallError("fdatasync", errno),
		} {
			got := classify(errors.Join(errors.New("commit"), err))
			assert.ErrorIs(t, got, ErrIO, "%v", err)
			assert.ErrorIs(t, got, errno, "%v", err)
		}
	}
	for _, err := range []error{context.Canceled, context.DeadlineExceeded} {
		got := classify(err)
		assert.ErrorIs(t, got, ErrCanceled)
		assert.ErrorIs(t, got, err)
		assert.Equal(t, got, classify(got), "classified once")
	}
	assert.NoError(t, classify(nil))
	plain := invalid(ErrEmpty, "x")
	assert.Equal(t, plain, classify(plain), "our own errors pass unchanged")
}

// TestPermissionDeniedIsErrIO: a file the process may not open is ErrIO
// with EACCES (root may open anything, so the test needs another user).
func TestPermissionDeniedIsErrIO(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root bypasses file permissions")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.sg")
	mem, err := Open(path, nil)
	require.NoError(t, err)
	require.NoError(t, mem.Close())
	require.NoError(t, os.Chmod(path, 0o200))
	defer os.Chmod(path, 0o600)
	for _, ro := range []bool{false, true} {
		_, err = Open(path, &Options{ReadOnly: ro})
		require.ErrorIs(t, err, ErrIO, "read-only %v", ro)
		assert.ErrorIs(t, err, syscall.EACCES)
	}
	require.NoError(t, os.Chmod(dir, 0o500))
	defer os.Chmod(dir, 0o700)
	_, err = Open(filepath.Join(dir, "new.sg"), nil)
	require.ErrorIs(t, err, ErrIO)
	assert.ErrorIs(t, err, syscall.EACCES)
}
