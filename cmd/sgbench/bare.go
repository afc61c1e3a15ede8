package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
)

// bareCommits is how many transactions the bare bbolt loop commits.
const bareCommits = 1000

// bareCommitRate measures bbolt's own durable commit rate in dir: n
// transactions, each putting one 64-byte record under a fresh key and
// fsyncing, into a scratch file removed afterwards. It is the floor an
// fsynced Append is compared with: no engine can commit a turn durably in
// fewer than one such transaction.
func bareCommitRate(dir string, n int) (float64, error) {
	path := filepath.Join(dir, "bare-bbolt.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		return 0, err
	}
	defer os.Remove(path)
	defer db.Close()
	val := make([]byte, 64)
	return commitRate(db, n, func(tx *bolt.Tx, i int) error {
		b, err := tx.CreateBucketIfNotExists([]byte("bare"))
		if err != nil {
			return err
		}
		var k [8]byte
		binary.BigEndian.PutUint64(k[:], uint64(i))
		return b.Put(k[:], val)
	})
}

// commitRate times n transactions of db, the i-th running fn(tx, i), and
// closes db.
func commitRate(db *bolt.DB, n int, fn func(tx *bolt.Tx, i int) error) (float64, error) {
	start := time.Now()
	for i := range n {
		if err := db.Update(func(tx *bolt.Tx) error { return fn(tx, i) }); err != nil {
			return 0, err
		}
	}
	return float64(n) / time.Since(start).Seconds(), db.Close()
}

// pageShape is what one Append of a turn writes, as bbolt sees it: two
// message records appended to a bucket as large as the ingest's, and its
// thread's record rewritten in a bucket of that many threads.
type pageShape struct {
	messages, msgBytes   int // records already in the messages bucket, and each one's size
	threads, threadBytes int
}

// perKey is the mean value size of a bucket's records.
func perKey(b stratagate.BucketSize) int {
	if b.Keys == 0 {
		return 0
	}
	return int(b.ValueBytes / int64(b.Keys))
}

// shapedCommitRate is bareCommitRate with the pages of shape: n fsynced
// transactions, each appending two message records and rewriting one
// thread record (round robin), into buckets filled as the ingest left
// them, in a file opened as kv opens a store (NoFreelistSync; the bare
// loop keeps bbolt's defaults, the target's floor). It tells the cost of
// an Append's pages (bbolt rewrites every page from a changed leaf to the
// root) apart from StrataGate's own work.
func shapedCommitRate(dir string, n int, shape pageShape) (float64, error) {
	path := filepath.Join(dir, "shaped-bbolt.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{NoFreelistSync: true})
	if err != nil {
		return 0, err
	}
	defer os.Remove(path)
	defer db.Close()
	msg, th := make([]byte, max(1, shape.msgBytes)), make([]byte, max(1, shape.threadBytes))
	var key [8]byte
	put := func(b *bolt.Bucket, id int) error {
		binary.BigEndian.PutUint64(key[:], uint64(id))
		return b.Put(key[:], msg)
	}
	threadKey := func(i int) []byte { return fmt.Appendf(nil, "thread-%06d", i) }
	db.NoSync = true // the fill is not measured
	err = db.Update(func(tx *bolt.Tx) error {
		mb, err := tx.CreateBucket([]byte("messages"))
		if err != nil {
			return err
		}
		mb.FillPercent = 1 // as layers.AppendTurn writes it
		for i := range shape.messages {
			if err := put(mb, i); err != nil {
				return err
			}
		}
		tb, err := tx.CreateBucket([]byte("threads"))
		if err != nil {
			return err
		}
		for i := range max(1, shape.threads) {
			if err := tb.Put(threadKey(i), th); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	db.NoSync = false
	next := shape.messages
	return commitRate(db, n, func(tx *bolt.Tx, i int) error {
		mb := tx.Bucket([]byte("messages"))
		mb.FillPercent = 1
		for range 2 {
			if err := put(mb, next); err != nil {
				return err
			}
			next++
		}
		return tx.Bucket([]byte("threads")).Put(threadKey(i%max(1, shape.threads)), th)
	})
}
