package kv_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

// dbPath returns a fresh file path inside a per-test temporary directory.
func dbPath(t *testing.T) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "test.sg")
}

// openAt opens path with o and closes it when the test ends.
func openAt(t *testing.T, path string, o kv.Options) *kv.DB {
	t.Helper()
	db, err := kv.Open(path, o)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// openDB opens a new read-write database (NoSync, for speed) in a temporary
// directory and closes it when the test ends.
func openDB(t *testing.T) *kv.DB {
	t.Helper()
	return openAt(t, dbPath(t), kv.Options{NoSync: true})
}

// createClosed creates a valid StrataGate file at a fresh path, closes it
// and returns the path.
func createClosed(t *testing.T) string {
	t.Helper()
	path := dbPath(t)
	db, err := kv.Open(path, kv.Options{NoSync: true})
	require.NoError(t, err)
	require.NoError(t, db.Close())
	return path
}
