package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
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
	start := time.Now()
	for i := range n {
		if err := db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("bare"))
			if err != nil {
				return err
			}
			var k [8]byte
			binary.BigEndian.PutUint64(k[:], uint64(i))
			return b.Put(k[:], val)
		}); err != nil {
			return 0, err
		}
	}
	return float64(n) / time.Since(start).Seconds(), db.Close()
}
