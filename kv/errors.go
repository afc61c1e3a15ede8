package kv

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Errors returned by Open and by record decoding. Callers test them with
// errors.Is; they are wrapped with context.
var (
	// ErrLocked means another process holds the file's write lock and it
	// was not released within Options.LockTimeout.
	ErrLocked = errors.New("sg: database locked by another process")
	// ErrVersionMismatch means a file or record was written in a format
	// newer (or other) than this build understands.
	ErrVersionMismatch = errors.New("sg: format version mismatch")
	// ErrCorrupt marks a record or file that cannot be decoded: bad magic,
	// truncated msgpack, trailing bytes, a file shorter than its meta page
	// says, a damaged page structure, a panic or fault reading a page.
	ErrCorrupt = errors.New("sg: corrupt record")
	// ErrNotFound means a key is absent.
	ErrNotFound = errors.New("sg: not found")
	// ErrIO marks a failure of the operating system to read or write the
	// file or its directory: disk full (ENOSPC), read-only file system
	// (EROFS), permission denied (EACCES), a missing directory, EIO. The
	// OS error stays in the chain: errors.Is(err, syscall.ENOSPC) holds.
	ErrIO = errors.New("sg: I/O error")
	// ErrCanceled marks a call whose context ended before it completed;
	// the context's error stays in the chain: errors.Is(err,
	// context.Canceled) or errors.Is(err, context.DeadlineExceeded) holds.
	ErrCanceled = errors.New("sg: canceled")
)

// Classify wraps an operating-system error (a syscall.Errno,
// *fs.PathError, *os.LinkError or *os.SyscallError anywhere in err's
// chain) with ErrIO, and a context's end (context.Canceled,
// context.DeadlineExceeded) with ErrCanceled, keeping err in the chain so
// that errors.Is still finds the original. nil, errors already so
// wrapped and every other error are returned unchanged.
func Classify(err error) error {
	switch {
	case err == nil, errors.Is(err, ErrIO), errors.Is(err, ErrCanceled):
		return err
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w: %w", ErrCanceled, err)
	}
	var (
		errno syscall.Errno
		pe    *fs.PathError
		le    *os.LinkError
		se    *os.SyscallError
	)
	if errors.As(err, &errno) || errors.As(err, &pe) || errors.As(err, &le) || errors.As(err, &se) {
		return fmt.Errorf("%w: %w", ErrIO, err)
	}
	return err
}
