package wal_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/wal"
)

const kindSolo wal.Kind = "solo" // not Independent

// recorder notes the order in which results are stored and how many Runs
// overlap.
type recorder struct {
	mu       sync.Mutex
	applied  []uint64 // targets, in the order their Apply ran
	events   []string // "run N" and "apply N", in order
	inFlight atomic.Int64
	maxIn    atomic.Int64
}

func (rc *recorder) run(wait func(j wal.Job)) func(context.Context, wal.Job) (wal.Apply, error) {
	return func(_ context.Context, j wal.Job) (wal.Apply, error) {
		n := rc.inFlight.Add(1)
		defer rc.inFlight.Add(-1)
		for m := rc.maxIn.Load(); n > m && !rc.maxIn.CompareAndSwap(m, n); m = rc.maxIn.Load() {
		}
		if wait != nil {
			wait(j)
		}
		rc.mu.Lock()
		rc.events = append(rc.events, fmt.Sprint("run ", j.Target))
		rc.mu.Unlock()
		return func(tx *bolt.Tx) error {
			rc.mu.Lock()
			rc.applied = append(rc.applied, j.Target)
			rc.events = append(rc.events, fmt.Sprint("apply ", j.Target))
			rc.mu.Unlock()
			return putOut(fmt.Sprint("out-", j.Target), "ok")(tx)
		}, nil
	}
}

func TestRunnerBatchesIndependentJobs(t *testing.T) {
	db := openDB(t)
	const n = 20
	for i := range n {
		kind := kindTest
		if i == 9 {
			kind = kindSolo // ends a batch: order is kept across it
		}
		enqueue(t, db, kind, uint64(i+1))
	}
	var rc recorder
	r := wal.NewRunner(db, wal.RunnerOptions{})
	r.Handle(kindTest, wal.Handler{Run: rc.run(nil), Independent: true})
	r.Handle(kindSolo, wal.Handler{Run: rc.run(nil)})
	require.NoError(t, r.Start())
	t.Cleanup(r.Stop)
	waitIdle(t, r)

	rc.mu.Lock()
	defer rc.mu.Unlock()
	want := make([]uint64, n)
	for i := range want {
		want[i] = uint64(i + 1)
	}
	assert.Equal(t, want, rc.applied, "results stored in id order")
	assert.Equal(t, int64(1), rc.maxIn.Load(), "a batch runs its jobs in order, one at a time")
	// The first batch (targets 1–8) runs all its jobs before storing any.
	var first []string
	for i := 1; i <= 8; i++ {
		first = append(first, fmt.Sprint("run ", i))
	}
	for i := 1; i <= 8; i++ {
		first = append(first, fmt.Sprint("apply ", i))
	}
	assert.Equal(t, first, rc.events[:16])
	for _, id := range listIDs(t, db, wal.StateDone) {
		assert.Equal(t, 1, getJob(t, db, id).Attempts)
	}
	assert.Len(t, listIDs(t, db, wal.StateDone), n)
	assert.Empty(t, queueIDs(t, db))
}

// One job of a batch whose result cannot be stored, and one whose Run
// fails, are retried alone; the others of the batch are stored.
func TestRunnerBatchFailuresStayAlone(t *testing.T) {
	db := openDB(t)
	for i := range 6 {
		enqueue(t, db, kindTest, uint64(i+1))
	}
	var runs sync.Map // target → attempts seen
	r := startRunner(t, db, wal.RunnerOptions{Backoff: time.Millisecond}, wal.Handler{
		Independent: true,
		Run: func(_ context.Context, j wal.Job) (wal.Apply, error) {
			runs.Store(j.Target, j.Attempts)
			switch {
			case j.Target == 2 && j.Attempts == 1:
				return nil, errors.New("model said no")
			case j.Target == 4 && j.Attempts == 1:
				return func(*bolt.Tx) error { return errors.New("result refused") }, nil
			}
			return putOut(fmt.Sprint("out-", j.Target), "ok"), nil
		},
	})
	waitIdle(t, r)
	for target := uint64(1); target <= 6; target++ {
		assert.NotNil(t, outKey(t, db, fmt.Sprint("out-", target)), "target %d", target)
	}
	jobs := listIDs(t, db, wal.StateDone)
	require.Len(t, jobs, 6)
	for _, id := range jobs {
		j := getJob(t, db, id)
		if j.Target == 2 || j.Target == 4 {
			assert.Equal(t, 2, j.Attempts, "target %d retried", j.Target)
			assert.NotEmpty(t, j.Err)
		} else {
			assert.Equal(t, 1, j.Attempts, "target %d", j.Target)
		}
	}
}

// Jobs a dead process left running (an attempt counted) run one at a time,
// never in a batch: a job that kills the process must not use up the
// attempts of the jobs batched with it.
func TestRunnerRecoveredJobsRunAlone(t *testing.T) {
	db := openDB(t)
	for i := range 4 {
		j := enqueue(t, db, kindTest, uint64(i+1))
		update(t, db, func(tx *bolt.Tx) error { _, err := wal.Claim(tx, j.ID, t0); return err })
	}
	var rc recorder
	r := startRunner(t, db, wal.RunnerOptions{}, wal.Handler{Run: rc.run(nil), Independent: true})
	waitIdle(t, r)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	assert.Equal(t, []string{"run 1", "apply 1", "run 2", "apply 2", "run 3", "apply 3", "run 4", "apply 4"}, rc.events,
		"each recovered job is stored before the next runs")
	assert.Len(t, listIDs(t, db, wal.StateDone), 4)
}

// Stopping while a batch runs releases every job of it, uncounted.
func TestRunnerStopDuringBatch(t *testing.T) {
	db := openDB(t)
	for i := range 4 {
		enqueue(t, db, kindTest, uint64(i+1))
	}
	started := make(chan struct{}, 8)
	r := wal.NewRunner(db, wal.RunnerOptions{})
	r.Handle(kindTest, wal.Handler{Independent: true, Run: func(ctx context.Context, _ wal.Job) (wal.Apply, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}})
	require.NoError(t, r.Start())
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("no job started")
	}
	within(t, 5*time.Second, "Stop", r.Stop)
	q := queueIDs(t, db)
	require.Len(t, q, 4)
	for _, id := range q {
		j := getJob(t, db, id)
		assert.Equal(t, wal.StatePending, j.State)
		assert.Equal(t, 0, j.Attempts)
	}
}
