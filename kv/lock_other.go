//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package kv

import (
	"os"
	"time"
)

// lockFile is a no-op where flock is not available: the pre-open checks
// then run before bbolt takes its lock.
func lockFile(*os.File, bool, time.Duration) error { return nil }
