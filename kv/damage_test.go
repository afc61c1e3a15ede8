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

// TestKeyOutsideItsRangeRefused: a leaf whose first key falls below the
// key its parent branch holds for it is in order within its own page, but
// not in the tree. A writable Open refuses it before bbolt rebuilds its
// freelist: bbolt's own check of that walk panics on the first such key
// and walks on, on a goroutine of its own, through the transaction it has
// closed (a nil dereference that killed the process).
func TestKeyOutsideItsRangeRefused(t *testing.T) {
	// Written through kv.Open, as a store is: no freelist stored, so the
	// next writable Open has bbolt rebuild it.
	path := dbPath(t)
	db, err := kv.Open(path, kv.Options{NoSync: true})
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(kv.BucketMessages)
		for i := range 500 {
			if err := b.Put(kv.Key(uint64(i+1)), bytes.Repeat([]byte{'x'}, 50)); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, db.Close())
	var root uint64
	viewBolt(t, path, func(tx *bolt.Tx) error {
		root = uint64(tx.Bucket(kv.BucketMessages).Root())
		return nil
	})
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	le := binary.LittleEndian
	branch := data[root*4096:]
	require.Equal(t, uint16(0x01), le.Uint16(branch[8:]), "the bucket's root is a branch page")
	leafID := le.Uint64(branch[16+16+8:]) // element 1's child
	leaf := data[leafID*4096:]
	pos := le.Uint32(leaf[16+4:])  // element 0's key, relative to the element
	copy(leaf[16+pos:], kv.Key(1)) // below the parent's key, below the leaf's next key
	require.NoError(t, os.WriteFile(path, data, 0o600))

	before := bytes.Clone(data)
	db, err = kv.Open(path, kv.Options{LockTimeout: time.Second})
	require.Error(t, err)
	assert.Nil(t, db)
	assert.ErrorIs(t, err, kv.ErrCorrupt)
	assert.Contains(t, err.Error(), "keys out of order at element 0")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "a refused file is not modified")
}
