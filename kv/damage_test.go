package kv_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// damagedPageFile returns a closed StrataGate file whose messages bucket
// has a root page whose header names another page (a flipped bit in a page
// id): bbolt's page assertion panics on it.
func damagedPageFile(t *testing.T) string {
	t.Helper()
	path := createClosed(t)
	editBolt(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket(kv.BucketMessages)
		for i := range 500 {
			if err := b.Put(kv.Key(uint64(i+1)), bytes.Repeat([]byte{'x'}, 50)); err != nil {
				return err
			}
		}
		return nil
	})
	var root uint64
	viewBolt(t, path, func(tx *bolt.Tx) error {
		root = uint64(tx.Bucket(kv.BucketMessages).Root())
		return nil
	})
	require.NotZero(t, root)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	binary.LittleEndian.PutUint64(data[root*4096:], root^0x40)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// TestDamagedPageWritableOpenRefused: a writable Open walks the page
// structure first and refuses a damaged tree (bbolt would write through
// it), leaving the file unmodified.
func TestDamagedPageWritableOpenRefused(t *testing.T) {
	path := damagedPageFile(t)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	db, err := kv.Open(path, kv.Options{LockTimeout: time.Second})
	require.Error(t, err)
	assert.Nil(t, db)
	assert.ErrorIs(t, err, kv.ErrCorrupt)
	assert.Contains(t, err.Error(), "identifies as page")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "a refused file is not modified")
}

// TestDamagedPageReadIsCorrupt: read-only, the file opens (its meta bucket
// is intact) and reading the damaged bucket is ErrCorrupt naming the file,
// not bbolt's panic; the handle stays usable.
func TestDamagedPageReadIsCorrupt(t *testing.T) {
	path := damagedPageFile(t)
	db, err := kv.Open(path, kv.Options{ReadOnly: true, LockTimeout: time.Second})
	require.NoError(t, err)
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		_, err := kv.Get(tx.Bucket(kv.BucketMessages), kv.Key(7))
		return err
	})
	require.Error(t, err)
	assert.ErrorIs(t, err, kv.ErrCorrupt)
	assert.Contains(t, err.Error(), path)
	assert.Contains(t, err.Error(), "reading damaged pages")
	v, err := db.Format()
	require.NoError(t, err)
	assert.Equal(t, kv.FormatVersion, v)
}
