package stratagate

import (
	"errors"
	"fmt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// Errors returned by Memory. Every error StrataGate returns wraps one of
// these (or ErrReceiptConflict, ErrAssessment, ErrExists,
// ErrIndexMismatch); test with errors.Is. Operating-system failures wrap
// ErrIO and the OS error, a context's end ErrCanceled and the context's
// error.
var (
	// ErrClosed is returned by every method after Close.
	ErrClosed = errors.New("sg: memory closed")
	// ErrReadOnly is returned by writes on a Memory opened with ReadOnly.
	ErrReadOnly = errors.New("sg: memory opened read-only")
	// ErrInvalidOptions is returned by Open for options out of range.
	ErrInvalidOptions = errors.New("sg: invalid options")
	// ErrInvalidInput marks any rejected argument; the more specific
	// errors below are wrapped together with it.
	ErrInvalidInput = errors.New("sg: invalid input")
	// ErrInvalidUTF8 is returned for text that is not valid UTF-8.
	ErrInvalidUTF8 = errors.New("sg: invalid UTF-8")
	// ErrEmpty is returned for an empty turn, message or required name.
	ErrEmpty = errors.New("sg: empty")
	// ErrTooLarge is returned for content beyond a configured limit.
	ErrTooLarge = errors.New("sg: too large")
	// ErrUnknownRole is returned for a message role other than user,
	// assistant, tool or system.
	ErrUnknownRole = errors.New("sg: unknown role")

	// ErrScope is returned for a malformed scope and for a turn naming a
	// scope other than its thread's.
	ErrScope = layers.ErrScope
	// ErrNotFound is returned for an unknown thread, block or id.
	ErrNotFound = kv.ErrNotFound
	// ErrNotReady is returned for L0–L2 of a block not yet derived.
	ErrNotReady = layers.ErrNotReady
	// ErrLevel is returned for a block level outside 0–5.
	ErrLevel = layers.ErrLevel
	// ErrLocked is returned by Open when another process holds the file
	// and LockTimeout passed.
	ErrLocked = kv.ErrLocked
	// ErrVersionMismatch is returned by Open for a file written by a newer
	// format.
	ErrVersionMismatch = kv.ErrVersionMismatch
	// ErrCorrupt marks a damaged file: a record that cannot be decoded, a
	// page that cannot be read (a panic or memory fault inside bbolt, turned
	// into this error), a truncated, zero-length or foreign file refused by
	// Open, or an index naming a record that is not stored.
	ErrCorrupt = kv.ErrCorrupt
	// ErrIO marks a failure of the operating system to read or write the
	// file or a directory: disk full, read-only file system, permission
	// denied, a missing directory, EIO. The OS error is wrapped too:
	// errors.Is(err, syscall.ENOSPC) holds.
	ErrIO = kv.ErrIO
	// ErrCanceled marks a call whose context was cancelled or passed its
	// deadline; errors.Is(err, context.Canceled) (or DeadlineExceeded)
	// holds too.
	ErrCanceled = kv.ErrCanceled
)

// classify gives an OS or context error its sentinel (ErrIO,
// ErrCanceled), for the public entry points that touch files or contexts
// outside a transaction (transactions classify their own errors).
func classify(err error) error { return kv.Classify(err) }

// danglingRef is the error for a derived structure (an index, a link)
// naming a record that cannot be read: the file is damaged, so the error
// wraps ErrCorrupt (a missing record is not the caller's ErrNotFound).
func danglingRef(from, kind string, id uint64, err error) error {
	if errors.Is(err, ErrCorrupt) || errors.Is(err, ErrVersionMismatch) {
		return fmt.Errorf("%s points at %s %d: %w", from, kind, id, err)
	}
	return fmt.Errorf("%w: %s points at %s %d: %v", ErrCorrupt, from, kind, id, err)
}

// searchErr is the error of a search's read transaction. The asked thread
// not existing is the caller's ErrNotFound; any other missing record was
// named by an index or a link the store derived itself (a posting, a
// neighbour entry, a graph link), so the file is damaged: ErrCorrupt.
func searchErr(err error, thread string) error {
	if err == nil || !errors.Is(err, ErrNotFound) || errors.Is(err, ErrCorrupt) {
		return err
	}
	if thread != "" && err.Error() == notFound("thread", fmt.Sprintf("%q", thread)).Error() {
		return err
	}
	return fmt.Errorf("%w: a search reached a missing record: %v", ErrCorrupt, err)
}

// misfiled is the error for a record read under id whose own id field says
// otherwise (a flipped bit in the record): the caller would hand out an id
// that names another record, or none.
func misfiled(kind string, id, got uint64) error {
	return fmt.Errorf("%w: %s %d holds the record of %s %d", ErrCorrupt, kind, id, kind, got)
}
