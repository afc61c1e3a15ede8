package kv

import (
	"fmt"
	"runtime/debug"
)

// SetPanicOnFault makes a memory fault in the calling goroutine (a SIGBUS
// or SIGSEGV on bbolt's mapping of a damaged file) a recoverable panic
// instead of a fatal error, and returns the function that restores the
// previous setting. The setting is per goroutine: call it in the goroutine
// that reads, and defer the restore:
//
//	defer kv.SetPanicOnFault()()
func SetPanicOnFault() (restore func()) {
	old := debug.SetPanicOnFault(true)
	return func() { debug.SetPanicOnFault(old) }
}

// Guard turns a panic or memory fault while reading a file into an error
// wrapping ErrCorrupt that names what was being read. bbolt trusts the
// pages it maps: a flipped bit in a page header, a branch pointing past the
// end of the file or a length that overruns its page panics (bbolt's page
// assertions, an index out of range) or faults inside bbolt, where no
// decoder of ours can check it first. Every public entry point that reads
// pages defers it, first, so that it runs last:
//
//	func (m *Memory) SearchRaw(...) (hits []Hit, err error) {
//		defer kv.Guard(&err, "SearchRaw")()
//
// A read transaction interrupted this way is rolled back by bbolt's own
// deferred cleanup, so nothing stays locked. The panic's value is kept in
// the message; its stack is not (a damaged file is the expected cause, and
// the file, not the stack, is what a user can act on).
func Guard(errp *error, what string) func() {
	restore := SetPanicOnFault()
	return func() {
		p := recover()
		restore()
		if p != nil {
			*errp = fmt.Errorf("%w: %s: reading damaged pages: %v", ErrCorrupt, what, p)
		}
	}
}
