//go:build !unix

package main

import "os"

// checkPrivateDir checks only that dir exists: ownership checks need unix
// file metadata.
func checkPrivateDir(dir string) error {
	_, err := os.Stat(dir)
	return err
}

// checkSocketOwner checks only that the socket file exists.
func checkSocketOwner(path string) error {
	_, err := os.Lstat(path)
	return err
}
