package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
)

// projectScope returns the default project scope of a working directory:
// "project:" and the first 20 hex digits of the SHA-256 of its canonical
// path (absolute, symlinks resolved when the path exists, cleaned), so that
// every way of naming one directory yields one scope.
func projectScope(cwd string) (string, error) {
	p, err := filepath.Abs(cwd)
	if err != nil {
		return "", err
	}
	if _, err := os.Lstat(p); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
	}
	sum := sha256.Sum256([]byte(filepath.Clean(p)))
	return "project:" + hex.EncodeToString(sum[:])[:20], nil
}
