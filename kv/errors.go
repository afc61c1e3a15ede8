package kv

import "errors"

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
)
