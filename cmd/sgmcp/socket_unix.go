//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

// checkPrivateDir refuses a fallback directory that is not this user's
// own, private directory: another user could otherwise plant a socket in
// it and receive our turns.
func checkPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%w: %s is not a private directory of this user (want mode 0700, owner uid %d); remove it", errSocket, dir, os.Getuid())
	}
	return nil
}

// checkSocketOwner refuses a socket file another user owns: a client
// would hand it the turns it delivers.
func checkSocketOwner(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%w: %s belongs to uid %d, not this user (%d)", errSocket, path, st.Uid, os.Getuid())
	}
	return nil
}
