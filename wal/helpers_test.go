package wal_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/wal"
)

// kindTest is the job kind the runner tests register handlers for.
const kindTest wal.Kind = "test"

// bucketOut is where test Apply functions write their effects.
var bucketOut = kv.BucketEvents

// t0 is a fixed, non-UTC clock reading.
var t0 = time.Date(2025, 3, 4, 5, 6, 7, 8, time.FixedZone("T", -5*3600))

// openDB opens a fresh database in a temporary directory, closed when the
// test ends.
func openDB(t *testing.T) *kv.DB {
	t.Helper()
	return openPath(t, filepath.Join(t.TempDir(), "wal.sg"))
}

func openPath(t *testing.T, path string) *kv.DB {
	t.Helper()
	db, err := kv.Open(path, kv.Options{NoSync: true, LockTimeout: 5 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// enqueue writes a pending job of kind for target in its own transaction.
func enqueue(t *testing.T, db *kv.DB, kind wal.Kind, target uint64) wal.Job {
	t.Helper()
	var j wal.Job
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		var err error
		j, err = wal.Enqueue(tx, kind, target, t0)
		return err
	}))
	return j
}

// update runs fn in a read-write transaction, requiring success.
func update(t *testing.T, db *kv.DB, fn func(tx *bolt.Tx) error) {
	t.Helper()
	require.NoError(t, db.Update(fn))
}

// getJob reads job id.
func getJob(t *testing.T, db *kv.DB, id uint64) wal.Job {
	t.Helper()
	var j wal.Job
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var err error
		j, err = wal.Get(tx, id)
		return err
	}))
	return j
}

// queue returns the ids in the job queue.
func queueIDs(t *testing.T, db *kv.DB) []uint64 {
	t.Helper()
	var ids []uint64
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		q, err := wal.Queue(tx)
		for _, j := range q {
			ids = append(ids, j.ID)
		}
		return err
	}))
	return ids
}

// listIDs returns the ids of the jobs in state (all when empty).
func listIDs(t *testing.T, db *kv.DB, state wal.State) []uint64 {
	t.Helper()
	var ids []uint64
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		l, err := wal.List(tx, state)
		for _, j := range l {
			ids = append(ids, j.ID)
		}
		return err
	}))
	return ids
}

// outKey reads key k of bucketOut (nil when absent).
func outKey(t *testing.T, db *kv.DB, k string) []byte {
	t.Helper()
	var v []byte
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketOut).Get([]byte(k)); b != nil {
			v = append([]byte{}, b...)
		}
		return nil
	}))
	return v
}

// putOut returns an Apply that writes k=v into bucketOut.
func putOut(k, v string) wal.Apply {
	return func(tx *bolt.Tx) error { return tx.Bucket(bucketOut).Put([]byte(k), []byte(v)) }
}

// startRunner creates a runner with handlers for kindTest, starts it and
// stops it when the test ends.
func startRunner(t *testing.T, db *kv.DB, o wal.RunnerOptions, h wal.Handler) *wal.Runner {
	t.Helper()
	r := wal.NewRunner(db, o)
	r.Handle(kindTest, h)
	require.NoError(t, r.Start())
	t.Cleanup(r.Stop)
	return r
}

// waitIdle waits (at most 5 s) for the runner to go idle.
func waitIdle(t *testing.T, r *wal.Runner) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, r.WaitIdle(ctx))
}

// within fails the test if fn does not return within d.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}
