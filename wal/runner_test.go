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

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/wal"
)

// runFunc is a handler body that also gets its 1-based call number.
type runFunc func(call int, ctx context.Context, j wal.Job) (wal.Apply, error)

func TestRunnerOutcomes(t *testing.T) {
	errAlways := errors.New("always broken")
	cases := []struct {
		name         string
		opts         wal.RunnerOptions
		kind         wal.Kind // default kindTest
		run          runFunc
		wantState    wal.State
		wantAttempts int
		wantErr      string // substring of Job.Err; "" means Err is empty
		wantCalls    int
		wantOnFail   int
		present      []string // keys in bucketOut after the run
		absent       []string
	}{
		{
			name: "success applies effect with done",
			run: func(_ int, _ context.Context, j wal.Job) (wal.Apply, error) {
				return putOut(fmt.Sprint("result-", j.Target), "ok"), nil
			},
			wantState: wal.StateDone, wantAttempts: 1, wantCalls: 1,
			present: []string{"result-7"}, absent: []string{"onfail"},
		},
		{
			name: "fails twice then succeeds",
			opts: wal.RunnerOptions{Backoff: 5 * time.Millisecond},
			run: func(call int, _ context.Context, _ wal.Job) (wal.Apply, error) {
				if call <= 2 {
					return nil, fmt.Errorf("transient %d", call)
				}
				return putOut("result", "ok"), nil
			},
			wantState: wal.StateDone, wantAttempts: 3, wantErr: "transient 2", wantCalls: 3,
			present: []string{"result"}, absent: []string{"onfail"},
		},
		{
			name: "always failing exhausts MaxAttempts",
			opts: wal.RunnerOptions{MaxAttempts: 3, Backoff: time.Millisecond},
			run: func(call int, _ context.Context, _ wal.Job) (wal.Apply, error) {
				return nil, fmt.Errorf("%w: call %d", errAlways, call)
			},
			wantState: wal.StateFailed, wantAttempts: 3, wantErr: "always broken: call 3", wantCalls: 3, wantOnFail: 1,
			present: []string{"onfail"},
		},
		{
			name: "default MaxAttempts is 4",
			opts: wal.RunnerOptions{Backoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond},
			run: func(int, context.Context, wal.Job) (wal.Apply, error) {
				return nil, errAlways
			},
			wantState: wal.StateFailed, wantAttempts: 4, wantErr: "always broken", wantCalls: 4, wantOnFail: 1,
			present: []string{"onfail"},
		},
		{
			name: "apply error rolls back and retries",
			opts: wal.RunnerOptions{Backoff: time.Millisecond},
			run: func(call int, _ context.Context, _ wal.Job) (wal.Apply, error) {
				return func(tx *bolt.Tx) error {
					if err := tx.Bucket(bucketOut).Put([]byte(fmt.Sprint("partial-", call)), []byte("x")); err != nil {
						return err
					}
					if call == 1 {
						return errors.New("apply refused")
					}
					return tx.Bucket(bucketOut).Put([]byte("result"), []byte("ok"))
				}, nil
			},
			wantState: wal.StateDone, wantAttempts: 2, wantErr: "apply refused", wantCalls: 2,
			present: []string{"partial-2", "result"}, absent: []string{"partial-1", "onfail"},
		},
		{
			name: "apply always failing ends failed with nothing applied",
			opts: wal.RunnerOptions{MaxAttempts: 2, Backoff: time.Millisecond},
			run: func(call int, _ context.Context, _ wal.Job) (wal.Apply, error) {
				return func(tx *bolt.Tx) error {
					if err := tx.Bucket(bucketOut).Put([]byte(fmt.Sprint("partial-", call)), []byte("x")); err != nil {
						return err
					}
					return errors.New("apply refused")
				}, nil
			},
			wantState: wal.StateFailed, wantAttempts: 2, wantErr: "apply refused", wantCalls: 2, wantOnFail: 1,
			present: []string{"onfail"}, absent: []string{"partial-1", "partial-2"},
		},
		{
			name: "permanent error fails at once",
			opts: wal.RunnerOptions{MaxAttempts: 5, Backoff: time.Millisecond},
			run: func(int, context.Context, wal.Job) (wal.Apply, error) {
				return nil, wal.Permanent(errors.New("target gone"))
			},
			wantState: wal.StateFailed, wantAttempts: 1, wantErr: "target gone", wantCalls: 1, wantOnFail: 1,
			present: []string{"onfail"},
		},
		{
			name: "wrapped permanent error fails at once",
			opts: wal.RunnerOptions{MaxAttempts: 5, Backoff: time.Millisecond},
			run: func(int, context.Context, wal.Job) (wal.Apply, error) {
				return nil, fmt.Errorf("deriving: %w", wal.Permanent(errors.New("bad input")))
			},
			wantState: wal.StateFailed, wantAttempts: 1, wantErr: "deriving: bad input", wantCalls: 1, wantOnFail: 1,
			present: []string{"onfail"},
		},
		{
			name: "panicking handler fails the job",
			opts: wal.RunnerOptions{MaxAttempts: 5, Backoff: time.Millisecond},
			run: func(int, context.Context, wal.Job) (wal.Apply, error) {
				panic("kaboom")
			},
			wantState: wal.StateFailed, wantAttempts: 1, wantErr: "panic: kaboom", wantCalls: 1, wantOnFail: 1,
			present: []string{"onfail"},
		},
		{
			name: "nil apply without error is a failed attempt",
			opts: wal.RunnerOptions{MaxAttempts: 2, Backoff: time.Millisecond},
			run: func(int, context.Context, wal.Job) (wal.Apply, error) {
				return nil, nil
			},
			wantState: wal.StateFailed, wantAttempts: 2, wantErr: "no result", wantCalls: 2, wantOnFail: 1,
			present: []string{"onfail"},
		},
		{
			name: "unknown kind fails the job",
			kind: "mystery",
			opts: wal.RunnerOptions{MaxAttempts: 5, Backoff: time.Millisecond},
			run: func(int, context.Context, wal.Job) (wal.Apply, error) {
				return putOut("result", "ok"), nil
			},
			wantState: wal.StateFailed, wantAttempts: 1, wantErr: "no handler", wantCalls: 0, wantOnFail: 0,
			absent: []string{"result", "onfail"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			kind := tc.kind
			if kind == "" {
				kind = kindTest
			}
			j := enqueue(t, db, kind, 7)

			var (
				mu        sync.Mutex
				calls     int
				seen      []wal.Job
				onFails   int
				failCause string
				failJob   wal.Job
			)
			h := wal.Handler{
				Run: func(ctx context.Context, j wal.Job) (wal.Apply, error) {
					mu.Lock()
					calls++
					n := calls
					seen = append(seen, j)
					mu.Unlock()
					return tc.run(n, ctx, j)
				},
				OnFail: func(tx *bolt.Tx, j wal.Job, cause string) error {
					mu.Lock()
					onFails++
					failCause, failJob = cause, j
					mu.Unlock()
					return tx.Bucket(bucketOut).Put([]byte("onfail"), []byte(cause))
				},
			}
			r := startRunner(t, db, tc.opts, h)
			waitIdle(t, r)

			got := getJob(t, db, j.ID)
			assert.Equal(t, tc.wantState, got.State)
			if tc.wantAttempts > 0 {
				assert.Equal(t, tc.wantAttempts, got.Attempts)
			}
			if tc.wantErr == "" {
				assert.Empty(t, got.Err)
			} else {
				assert.Contains(t, got.Err, tc.wantErr)
			}
			assert.True(t, got.NotBefore.IsZero(), "a finished job has no NotBefore")
			assert.Empty(t, queueIDs(t, db), "finished jobs leave the queue")
			assert.Equal(t, []uint64{j.ID}, listIDs(t, db, tc.wantState))

			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, tc.wantCalls, calls, "handler calls")
			for i, s := range seen {
				assert.Equal(t, wal.StateRunning, s.State, "the handler sees the claimed job")
				assert.Equal(t, i+1, s.Attempts, "the handler sees the attempt count")
				assert.Equal(t, uint64(7), s.Target)
			}
			assert.Equal(t, tc.wantOnFail, onFails, "OnFail calls")
			if tc.wantOnFail > 0 {
				assert.Equal(t, got.Err, failCause)
				assert.Equal(t, j.ID, failJob.ID)
				assert.Equal(t, []byte(got.Err), outKey(t, db, "onfail"), "OnFail's effect is committed")
			}
			for _, k := range tc.present {
				assert.NotNil(t, outKey(t, db, k), "key %q", k)
			}
			for _, k := range tc.absent {
				assert.Nil(t, outKey(t, db, k), "key %q", k)
			}
		})
	}
}

func TestRunnerUsesClock(t *testing.T) {
	db := openDB(t)
	clock := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	j := enqueue(t, db, kindTest, 1)
	r := startRunner(t, db, wal.RunnerOptions{Now: func() time.Time { return clock }}, wal.Handler{
		Run: func(_ context.Context, j wal.Job) (wal.Apply, error) {
			assert.True(t, j.Updated.Equal(clock), "Claim stamps Updated with RunnerOptions.Now")
			return putOut("r", "ok"), nil
		},
	})
	waitIdle(t, r)
	got := getJob(t, db, j.ID)
	assert.Equal(t, wal.StateDone, got.State)
	assert.True(t, got.Updated.Equal(clock), "Done stamps Updated with RunnerOptions.Now: %v", got.Updated)
	assert.True(t, got.Created.Equal(t0))
}

func TestRunnerBackoffIsRespected(t *testing.T) {
	db := openDB(t)
	const backoff = 20 * time.Millisecond
	var (
		mu    sync.Mutex
		times []time.Time
	)
	enqueue(t, db, kindTest, 1)
	r := startRunner(t, db, wal.RunnerOptions{Backoff: backoff}, wal.Handler{
		Run: func(context.Context, wal.Job) (wal.Apply, error) {
			mu.Lock()
			defer mu.Unlock()
			times = append(times, time.Now())
			if len(times) < 3 {
				return nil, errors.New("again")
			}
			return putOut("r", "ok"), nil
		},
	})
	waitIdle(t, r)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, times, 3)
	// Lower bounds only: the first retry waits Backoff, the second twice that.
	assert.GreaterOrEqual(t, times[1].Sub(times[0]), backoff)
	assert.GreaterOrEqual(t, times[2].Sub(times[1]), 2*backoff)
}

func TestRunnerStopWhileBlocked(t *testing.T) {
	db := openDB(t)
	j := enqueue(t, db, kindTest, 1)
	started := make(chan struct{})
	var once sync.Once
	r := wal.NewRunner(db, wal.RunnerOptions{})
	r.Handle(kindTest, wal.Handler{
		Run: func(ctx context.Context, _ wal.Job) (wal.Apply, error) {
			once.Do(func() { close(started) })
			<-ctx.Done()
			return nil, ctx.Err()
		},
		OnFail: func(*bolt.Tx, wal.Job, string) error {
			t.Error("OnFail must not run when stopping")
			return nil
		},
	})
	require.NoError(t, r.Start())
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("handler never started")
	}
	assert.Equal(t, wal.StateRunning, getJob(t, db, j.ID).State)

	within(t, 3*time.Second, "Stop", r.Stop)

	got := getJob(t, db, j.ID)
	assert.Equal(t, wal.StatePending, got.State, "a stopped job is released, not failed")
	assert.Equal(t, 0, got.Attempts, "the interrupted attempt is not counted")
	assert.Empty(t, got.Err)
	assert.Equal(t, []uint64{j.ID}, queueIDs(t, db))

	err := r.WaitIdle(context.Background())
	assert.True(t, errors.Is(err, wal.ErrStopped), "got %v", err)

	within(t, time.Second, "second Stop", r.Stop)
	assert.ErrorIs(t, r.WaitIdle(context.Background()), wal.ErrStopped)

	// A fresh runner on the same db finishes the job.
	r2 := startRunner(t, db, wal.RunnerOptions{}, wal.Handler{
		Run: func(context.Context, wal.Job) (wal.Apply, error) { return putOut("r2", "ok"), nil },
	})
	waitIdle(t, r2)
	got = getJob(t, db, j.ID)
	assert.Equal(t, wal.StateDone, got.State)
	assert.Equal(t, 1, got.Attempts)
	assert.NotNil(t, outKey(t, db, "r2"))
}

func TestRunnerStopDuringBackoff(t *testing.T) {
	db := openDB(t)
	j := enqueue(t, db, kindTest, 1)
	failed := make(chan struct{})
	var once sync.Once
	r := wal.NewRunner(db, wal.RunnerOptions{Backoff: time.Hour, MaxBackoff: time.Hour})
	r.Handle(kindTest, wal.Handler{Run: func(context.Context, wal.Job) (wal.Apply, error) {
		once.Do(func() { close(failed) })
		return nil, errors.New("try later")
	}})
	require.NoError(t, r.Start())
	<-failed
	require.Eventually(t, func() bool { return getJob(t, db, j.ID).State == wal.StatePending }, 5*time.Second, time.Millisecond)

	within(t, 3*time.Second, "Stop during backoff", r.Stop)
	got := getJob(t, db, j.ID)
	assert.Equal(t, wal.StatePending, got.State)
	assert.Equal(t, 1, got.Attempts, "a failed attempt stays counted")
	assert.Equal(t, "try later", got.Err)
	assert.True(t, got.NotBefore.After(time.Now().Add(50*time.Minute)), "NotBefore is about an hour out: %v", got.NotBefore)
}

func TestRunnerStopIdempotent(t *testing.T) {
	t.Run("never started", func(t *testing.T) {
		r := wal.NewRunner(openDB(t), wal.RunnerOptions{})
		within(t, time.Second, "Stop", r.Stop)
		within(t, time.Second, "Stop", r.Stop)
		assert.ErrorIs(t, r.WaitIdle(context.Background()), wal.ErrStopped)
	})
	t.Run("concurrent stops", func(t *testing.T) {
		db := openDB(t)
		r := startRunner(t, db, wal.RunnerOptions{}, wal.Handler{
			Run: func(context.Context, wal.Job) (wal.Apply, error) { return putOut("x", "y"), nil },
		})
		waitIdle(t, r)
		within(t, 3*time.Second, "concurrent Stops", func() {
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(r.Stop)
			}
			wg.Wait()
		})
		assert.ErrorIs(t, r.WaitIdle(context.Background()), wal.ErrStopped)
	})
	t.Run("WaitIdle blocked when Stop is called", func(t *testing.T) {
		db := openDB(t)
		enqueue(t, db, kindTest, 1)
		release := make(chan struct{})
		r := startRunner(t, db, wal.RunnerOptions{}, wal.Handler{
			Run: func(ctx context.Context, _ wal.Job) (wal.Apply, error) {
				select {
				case <-release:
				case <-ctx.Done():
				}
				return nil, ctx.Err()
			},
		})
		errc := make(chan error, 1)
		go func() { errc <- r.WaitIdle(context.Background()) }()
		time.Sleep(10 * time.Millisecond)
		within(t, 3*time.Second, "Stop", r.Stop)
		select {
		case err := <-errc:
			assert.ErrorIs(t, err, wal.ErrStopped)
		case <-time.After(3 * time.Second):
			t.Fatal("WaitIdle did not return after Stop")
		}
		close(release)
	})
}

func TestRunnerRecoversOnStart(t *testing.T) {
	db := openDB(t)
	// A job left running by a dead process.
	var j wal.Job
	update(t, db, func(tx *bolt.Tx) error {
		var err error
		if j, err = wal.Enqueue(tx, kindTest, 5, t0); err != nil {
			return err
		}
		j, err = wal.Claim(tx, j.ID, t0)
		return err
	})
	require.Equal(t, wal.StateRunning, getJob(t, db, j.ID).State)

	var sawAttempts atomic.Int64
	r := startRunner(t, db, wal.RunnerOptions{}, wal.Handler{
		Run: func(_ context.Context, j wal.Job) (wal.Apply, error) {
			sawAttempts.Store(int64(j.Attempts))
			return putOut("recovered", "ok"), nil
		},
	})
	waitIdle(t, r)
	got := getJob(t, db, j.ID)
	assert.Equal(t, wal.StateDone, got.State)
	assert.Equal(t, 2, got.Attempts, "the crashed attempt stays counted")
	assert.Equal(t, int64(2), sawAttempts.Load())
	assert.Contains(t, got.Err, "interrupted", "the interruption is kept for audit")
	assert.NotNil(t, outKey(t, db, "recovered"))
}

func TestRunnerStartFailsOnCorruptQueue(t *testing.T) {
	db := openDB(t)
	update(t, db, func(tx *bolt.Tx) error { return tx.Bucket(kv.BucketJobQueue).Put(kv.Key(9), nil) })
	r := wal.NewRunner(db, wal.RunnerOptions{})
	err := r.Start()
	require.Error(t, err)
	assert.ErrorIs(t, err, kv.ErrCorrupt)
	r.Stop()
}

func TestRunnerWaitIdleContext(t *testing.T) {
	db := openDB(t)
	enqueue(t, db, kindTest, 1)
	started := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	r := startRunner(t, db, wal.RunnerOptions{}, wal.Handler{
		Run: func(ctx context.Context, _ wal.Job) (wal.Apply, error) {
			once.Do(func() { close(started) })
			select {
			case <-release:
				return putOut("r", "ok"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
	})
	<-started

	cases := []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"already cancelled", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, context.Canceled},
		{"deadline passes", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 20*time.Millisecond)
		}, context.DeadlineExceeded},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			err := r.WaitIdle(ctx)
			assert.ErrorIs(t, err, tc.want)
		})
	}

	close(release)
	waitIdle(t, r)
	assert.NotNil(t, outKey(t, db, "r"))
}

func TestRunnerNotify(t *testing.T) {
	db := openDB(t)
	var ran atomic.Int64
	r := startRunner(t, db, wal.RunnerOptions{}, wal.Handler{
		Run: func(_ context.Context, j wal.Job) (wal.Apply, error) {
			ran.Add(1)
			return putOut(fmt.Sprint("t", j.Target), "ok"), nil
		},
	})
	waitIdle(t, r) // empty queue: idle at once

	for round := range 3 {
		var ids []uint64
		update(t, db, func(tx *bolt.Tx) error {
			for i := range 3 {
				j, err := wal.Enqueue(tx, kindTest, uint64(round*10+i), t0)
				if err != nil {
					return err
				}
				ids = append(ids, j.ID)
			}
			return nil
		})
		r.Notify()
		waitIdle(t, r)
		for i, id := range ids {
			assert.Equal(t, wal.StateDone, getJob(t, db, id).State, "round %d job %d", round, id)
			assert.NotNil(t, outKey(t, db, fmt.Sprint("t", round*10+i)))
		}
	}
	assert.Equal(t, int64(9), ran.Load())
	assert.Empty(t, queueIDs(t, db))
}

func TestRunnerRunsManyJobsInOrder(t *testing.T) {
	db := openDB(t)
	const n = 20

	// Enqueue concurrently (bbolt serialises the writers).
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			assert.NoError(t, db.Update(func(tx *bolt.Tx) error {
				_, err := wal.Enqueue(tx, kindTest, uint64(i), t0)
				return err
			}))
		})
	}
	wg.Wait()
	require.Len(t, queueIDs(t, db), n)

	var (
		mu       sync.Mutex
		order    []uint64
		inFlight atomic.Int64
		maxIn    atomic.Int64
	)
	r := startRunner(t, db, wal.RunnerOptions{}, wal.Handler{
		Run: func(_ context.Context, j wal.Job) (wal.Apply, error) {
			c := inFlight.Add(1)
			defer inFlight.Add(-1)
			if c > maxIn.Load() {
				maxIn.Store(c)
			}
			mu.Lock()
			order = append(order, j.ID)
			mu.Unlock()
			return putOut(fmt.Sprint("job-", j.ID), "ok"), nil
		},
	})
	waitIdle(t, r)

	assert.Equal(t, int64(1), maxIn.Load(), "jobs run one at a time")
	mu.Lock()
	assert.Len(t, order, n)
	for i := 1; i < len(order); i++ {
		assert.Less(t, order[i-1], order[i], "jobs run in id order")
	}
	mu.Unlock()
	assert.Len(t, listIDs(t, db, wal.StateDone), n)
	assert.Empty(t, queueIDs(t, db))
	for id := uint64(1); id <= n; id++ {
		assert.NotNil(t, outKey(t, db, fmt.Sprint("job-", id)))
	}
}

func TestRunnerConcurrentEnqueueWhileRunning(t *testing.T) {
	db := openDB(t)
	var ran atomic.Int64
	r := startRunner(t, db, wal.RunnerOptions{Backoff: time.Millisecond}, wal.Handler{
		Run: func(_ context.Context, j wal.Job) (wal.Apply, error) {
			ran.Add(1)
			if j.Target%2 == 1 && j.Attempts == 1 {
				return nil, errors.New("flaky") // some retries in the mix
			}
			return putOut(fmt.Sprint("job-", j.ID), "ok"), nil
		},
	})
	const writers, per = 4, 5
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range per {
				assert.NoError(t, db.Update(func(tx *bolt.Tx) error {
					_, err := wal.Enqueue(tx, kindTest, uint64(w*100+i), t0)
					return err
				}))
				r.Notify()
			}
		})
	}
	wg.Wait()
	// Completion is polled rather than trusted to WaitIdle (see
	// TestRunnerWaitIdleAfterConcurrentNotify).
	require.Eventually(t, func() bool {
		return len(listIDs(t, db, wal.StateDone)) == writers*per
	}, 5*time.Second, 2*time.Millisecond, "done %v, queue %v, failed %v",
		listIDs(t, db, wal.StateDone), queueIDs(t, db), listIDs(t, db, wal.StateFailed))
	waitIdle(t, r)
	// Each odd target ran twice, each even one once.
	odd := 0
	for w := range writers {
		for i := range per {
			odd += (w*100 + i) % 2
		}
	}
	assert.Equal(t, int64(writers*per+odd), ran.Load())
	assert.Len(t, listIDs(t, db, wal.StateDone), writers*per)
	assert.Empty(t, queueIDs(t, db))
	assert.Empty(t, listIDs(t, db, wal.StateFailed))
}

// --- Bugs ---------------------------------------------------------------

func TestRunnerWaitIdleAfterConcurrentNotify(t *testing.T) {
	db := openDB(t)
	r := startRunner(t, db, wal.RunnerOptions{}, wal.Handler{
		Run: func(context.Context, wal.Job) (wal.Apply, error) {
			return func(*bolt.Tx) error { return nil }, nil
		},
	})
	// Another appender keeps waking the worker.
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			r.Notify()
			time.Sleep(10 * time.Microsecond)
		}
	})
	defer func() { stop.Store(true); wg.Wait() }()

	deadline := time.Now().Add(time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		j := enqueue(t, db, kindTest, uint64(i))
		r.Notify()
		waitIdle(t, r)
		got := getJob(t, db, j.ID)
		require.Equal(t, wal.StateDone, got.State,
			"iteration %d: WaitIdle returned nil after Enqueue+Notify while the job was %s", i, got.State)
	}
}

func TestRunnerOnFailErrorDoesNotWedge(t *testing.T) {
	db := openDB(t)
	j := enqueue(t, db, kindTest, 1)
	other := enqueue(t, db, kindTest, 2)
	var onFails atomic.Int64
	r := startRunner(t, db, wal.RunnerOptions{MaxAttempts: 1}, wal.Handler{
		Run: func(_ context.Context, j wal.Job) (wal.Apply, error) {
			if j.Target == 1 {
				return nil, errors.New("broken")
			}
			return putOut("other", "ok"), nil
		},
		OnFail: func(*bolt.Tx, wal.Job, string) error {
			onFails.Add(1)
			return errors.New("block record missing")
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	err := r.WaitIdle(ctx)
	got := getJob(t, db, j.ID)
	assert.NoError(t, err, "WaitIdle must return once the failing job is dealt with")
	assert.NotEqual(t, wal.StateRunning, got.State, "the job must not stay running")
	assert.Equal(t, wal.StateDone, getJob(t, db, other.ID).State, "the job behind it must run")
	assert.LessOrEqual(t, onFails.Load(), int64(1), "OnFail ran %d times", onFails.Load())
}

func TestRunnerSkipsJobRunningElsewhere(t *testing.T) {
	db := openDB(t)
	r := startRunner(t, db, wal.RunnerOptions{}, wal.Handler{
		Run: func(context.Context, wal.Job) (wal.Apply, error) { return putOut("b", "ok"), nil },
	})
	waitIdle(t, r)
	// Job a is claimed by someone else (another runner, a tool) after Start.
	var a, b wal.Job
	update(t, db, func(tx *bolt.Tx) error {
		var err error
		if a, err = wal.Enqueue(tx, kindTest, 1, t0); err != nil {
			return err
		}
		if a, err = wal.Claim(tx, a.ID, t0); err != nil {
			return err
		}
		b, err = wal.Enqueue(tx, kindTest, 2, t0)
		return err
	})
	r.Notify()
	assert.Eventually(t, func() bool { return getJob(t, db, b.ID).State == wal.StateDone },
		500*time.Millisecond, 5*time.Millisecond, "pending job b must not starve behind running job a")
	assert.Equal(t, 1, getJob(t, db, a.ID).Attempts)
}

func TestRunnerPoisonJobIsNotRunForever(t *testing.T) {
	db := openDB(t)
	const maxAttempts = 2
	j := enqueue(t, db, kindTest, 1)
	// The handler crashes the process every time: simulate maxAttempts
	// claims, each followed by a restart (Recover).
	for range maxAttempts {
		update(t, db, func(tx *bolt.Tx) error {
			if _, err := wal.Claim(tx, j.ID, t0); err != nil {
				return err
			}
			_, err := wal.Recover(tx, t0)
			return err
		})
	}
	require.Equal(t, maxAttempts, getJob(t, db, j.ID).Attempts)

	var calls atomic.Int64
	r := startRunner(t, db, wal.RunnerOptions{MaxAttempts: maxAttempts}, wal.Handler{
		Run: func(context.Context, wal.Job) (wal.Apply, error) {
			calls.Add(1) // in production: the process dies here again
			return putOut("r", "ok"), nil
		},
	})
	waitIdle(t, r)
	got := getJob(t, db, j.ID)
	assert.Zero(t, calls.Load(), "a job whose attempts are exhausted must not run again")
	assert.Equal(t, wal.StateFailed, got.State)
	assert.LessOrEqual(t, got.Attempts, maxAttempts+1)
}

func TestRunnerPanickingApplyFailsJob(t *testing.T) {
	db := openDB(t)
	j := enqueue(t, db, kindTest, 1)
	var onFails atomic.Int64
	r := startRunner(t, db, wal.RunnerOptions{MaxAttempts: 5, Backoff: time.Millisecond}, wal.Handler{
		Run: func(context.Context, wal.Job) (wal.Apply, error) {
			return func(tx *bolt.Tx) error {
				if err := tx.Bucket(bucketOut).Put([]byte("partial"), []byte("x")); err != nil {
					return err
				}
				panic("apply kaboom")
			}, nil
		},
		OnFail: func(*bolt.Tx, wal.Job, string) error { onFails.Add(1); return nil },
	})
	waitIdle(t, r)
	got := getJob(t, db, j.ID)
	assert.Equal(t, wal.StateFailed, got.State)
	assert.Equal(t, 1, got.Attempts, "a panic is permanent")
	assert.Contains(t, got.Err, "apply kaboom")
	assert.Nil(t, outKey(t, db, "partial"), "the panicking Apply's writes are rolled back")
	assert.Equal(t, int64(1), onFails.Load())
}
