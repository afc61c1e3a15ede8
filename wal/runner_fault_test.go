package wal

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// TestFailureThatCannotBeRecordedIsRetriedOnOpen: a full disk makes the
// transaction that marks a job failed and runs its OnFail hook (a derive
// job marking its block failed) unable to commit. The job must not be
// marked failed without its hook (that left a block pending with no job,
// for good): it stays claimed, and the next Open fails it with its hook.
func TestFailureThatCannotBeRecordedIsRetriedOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wal.sg")
	db, err := kv.Open(path, kv.Options{NoSync: true, LockTimeout: 5 * time.Second})
	require.NoError(t, err)
	defer db.Close()
	marker := []byte("block-failed")
	handler := Handler{
		Run: func(context.Context, Job) (Apply, error) {
			return nil, Permanent(errors.New("model output never validates"))
		},
		OnFail: func(tx *bolt.Tx, j Job, cause string) error {
			return tx.Bucket(kv.BucketEvents).Put(marker, []byte(cause))
		},
	}
	var j Job
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		j, err = Enqueue(tx, "test", 7, time.Now())
		return err
	}))

	// Disk full: every commit of the failure fails (the writes roll back).
	full := errors.New("write memory.sg: no space left on device")
	faults := 0
	r := NewRunner(db, RunnerOptions{MaxAttempts: 1, Backoff: time.Millisecond})
	r.Handle("test", handler)
	r.testUpdate = func(db *kv.DB, fn func(*bolt.Tx) error) error {
		faults++
		return db.Update(func(tx *bolt.Tx) error {
			if err := fn(tx); err != nil {
				return err
			}
			return full
		})
	}
	require.NoError(t, r.Start())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, r.WaitIdle(ctx), "a failure that cannot be recorded does not wedge the queue")
	r.Stop()
	assert.Equal(t, 1, faults, "no fallback write that would mark the job failed without its hook")
	got := jobState(t, db, j.ID)
	assert.Equal(t, StateRunning, got.State, "left claimed, for the next Open")
	assert.Nil(t, markerValue(t, db, marker))

	// The disk is freed; the store is reopened.
	r = NewRunner(db, RunnerOptions{MaxAttempts: 1, Backoff: time.Millisecond})
	r.Handle("test", handler)
	require.NoError(t, r.Start())
	require.NoError(t, r.WaitIdle(ctx))
	r.Stop()
	got = jobState(t, db, j.ID)
	assert.Equal(t, StateFailed, got.State)
	assert.Contains(t, got.Err, "attempts exhausted")
	assert.NotNil(t, markerValue(t, db, marker), "the failure hook ran with the failure")
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		q, err := Queue(tx)
		assert.Empty(t, q)
		return err
	}))
}

// TestFailureHookErrorStillFailsJob: a hook that fails by itself (not the
// commit) cannot succeed on a retry, so the job is failed without it.
func TestFailureHookErrorStillFailsJob(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "wal.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	var j Job
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		j, err = Enqueue(tx, "test", 7, time.Now())
		return err
	}))
	r := NewRunner(db, RunnerOptions{MaxAttempts: 1})
	r.Handle("test", Handler{
		Run:    func(context.Context, Job) (Apply, error) { return nil, Permanent(errors.New("bad input")) },
		OnFail: func(*bolt.Tx, Job, string) error { return errors.New("block record unreadable") },
	})
	require.NoError(t, r.Start())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, r.WaitIdle(ctx))
	r.Stop()
	got := jobState(t, db, j.ID)
	assert.Equal(t, StateFailed, got.State)
	assert.Contains(t, got.Err, "failure hook: block record unreadable")
}

func jobState(t *testing.T, db *kv.DB, id uint64) Job {
	t.Helper()
	var j Job
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var err error
		j, err = Get(tx, id)
		return err
	}))
	return j
}

func markerValue(t *testing.T, db *kv.DB, key []byte) []byte {
	t.Helper()
	var v []byte
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		v = tx.Bucket(kv.BucketEvents).Get(key)
		return nil
	}))
	return v
}
