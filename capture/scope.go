package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
)

// ProjectScope returns the scope of a session run in the working directory
// cwd: "project:" and the first 20 hex digits of the SHA-256 of the
// canonical directory — absolute (relative to the process's directory),
// cleaned, and with symbolic links resolved when it exists — so that the
// memories of different repositories never mix and one repository reached
// through a link is one scope. An empty cwd is "global".
func ProjectScope(cwd string) string {
	if cwd == "" {
		return "global"
	}
	dir := filepath.Clean(cwd)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	h := sha256.Sum256([]byte(dir))
	return "project:" + hex.EncodeToString(h[:])[:20]
}
