package wal_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/wal"
)

// A job's apply may enqueue the next one (a derive job queues extraction):
// the chained claim must see it, in the same transaction, and every job
// must run exactly once with one attempt counted.
func TestRunnerChainsJobsEnqueuedByApply(t *testing.T) {
	db := openDB(t)
	enqueue(t, db, kindTest, 1)
	const n = 30
	var (
		mu       sync.Mutex
		targets  []uint64
		attempts []int
	)
	r := startRunner(t, db, wal.RunnerOptions{}, wal.Handler{
		Run: func(_ context.Context, j wal.Job) (wal.Apply, error) {
			mu.Lock()
			targets = append(targets, j.Target)
			attempts = append(attempts, j.Attempts)
			mu.Unlock()
			return func(tx *bolt.Tx) error {
				if j.Target == n {
					return nil
				}
				_, err := wal.Enqueue(tx, kindTest, j.Target+1, t0)
				return err
			}, nil
		},
	})
	waitIdle(t, r)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, targets, n)
	for i := range targets {
		assert.Equal(t, uint64(i+1), targets[i])
		assert.Equal(t, 1, attempts[i], "job for target %d", targets[i])
	}
	done := listIDs(t, db, wal.StateDone)
	assert.Len(t, done, n)
	for _, id := range done {
		assert.Equal(t, 1, getJob(t, db, id).Attempts)
	}
	assert.Empty(t, queueIDs(t, db))
}

// Stopping while a job claimed by its predecessor's transaction waits to
// run releases it uncounted, as for any job interrupted by Stop.
func TestRunnerStopReleasesChainedJob(t *testing.T) {
	db := openDB(t)
	first := enqueue(t, db, kindTest, 1)
	second := enqueue(t, db, kindTest, 2)
	release := make(chan struct{})
	started := make(chan struct{})
	r := wal.NewRunner(db, wal.RunnerOptions{})
	r.Handle(kindTest, wal.Handler{
		Run: func(ctx context.Context, j wal.Job) (wal.Apply, error) {
			if j.ID == first.ID {
				close(started)
				<-release // Stop is under way when this job finishes
				return putOut("first", "ok"), nil
			}
			<-ctx.Done()
			return nil, ctx.Err()
		},
	})
	require.NoError(t, r.Start())
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("first job never started")
	}
	stopped := make(chan struct{})
	go func() { r.Stop(); close(stopped) }()
	time.Sleep(10 * time.Millisecond) // let Stop cancel the context first
	close(release)
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("Stop did not return")
	}
	assert.Equal(t, wal.StateDone, getJob(t, db, first.ID).State)
	got := getJob(t, db, second.ID)
	assert.Equal(t, wal.StatePending, got.State)
	assert.Equal(t, 0, got.Attempts)
}

// Yield is asked before a job's claim and before its result is stored,
// and only once per transaction.
func TestRunnerYields(t *testing.T) {
	db := openDB(t)
	for i := range 3 {
		enqueue(t, db, kindTest, uint64(i))
	}
	var mu sync.Mutex
	yields := 0
	r := startRunner(t, db, wal.RunnerOptions{Yield: func(context.Context) {
		mu.Lock()
		yields++
		mu.Unlock()
	}}, wal.Handler{
		Run: func(context.Context, wal.Job) (wal.Apply, error) { return putOut("x", "ok"), nil },
	})
	waitIdle(t, r)
	mu.Lock()
	defer mu.Unlock()
	// One claim (the first job; the others are claimed by their
	// predecessors' transactions) and one result per job.
	require.Equal(t, 1+3, yields)
}
