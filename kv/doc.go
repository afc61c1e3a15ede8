// Package kv is StrataGate's storage layer: one bbolt file, a fixed set of
// buckets, msgpack records that each start with a format-version byte, and
// big-endian uint64 keys drawn from bucket sequences so that cursors walk
// records in creation order.
//
// # Records
//
// Every value written through Encode is
//
//	+---------+------------------------------+
//	| version | msgpack map-encoded struct   |
//	| 1 byte  | (short, never-reused tags)   |
//	+---------+------------------------------+
//
// Decode dispatches on the version byte, rejects versions it does not know
// (ErrVersionMismatch) and rejects trailing bytes (ErrCorrupt). Version
// numbers only ratchet; a retired version is never reused.
//
// # Lifetimes
//
// Byte slices handed out by bbolt are valid only inside their transaction.
// Nothing in this package returns such a slice: Get copies, and decoders
// copy into Go values.
//
// # File format
//
// The meta bucket holds "magic" (the 8 bytes "stratagt") and "format" (a
// big-endian uint32, FormatVersion). Open refuses a file whose magic is
// wrong (ErrCorrupt) or whose format is newer than this build understands
// (ErrVersionMismatch). See docs/ARCHITECTURE.md for every bucket.
//
// # Damaged files
//
// Open reads bbolt's meta pages itself, under the file's lock, before bbolt
// maps the file, and refuses (ErrCorrupt, file unmodified) a zero-length
// file it did not create, a file shorter than the meta page's high-water
// mark, and, when writable, a file whose page structure fails a walk of
// every reachable page (checkPages). View and Update run under Guard: a panic or memory
// fault while reading a damaged page is an error wrapping ErrCorrupt.
package kv
