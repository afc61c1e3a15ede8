package stratagate

import (
	"errors"

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
	// ErrCorrupt marks a record or file that cannot be decoded.
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
