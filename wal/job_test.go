package wal_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/wal"
)

var (
	t1 = t0.Add(time.Minute)
	nb = t0.Add(time.Hour) // a NotBefore
)

type op struct {
	name string
	do   func(tx *bolt.Tx, id uint64) (wal.Job, error)
}

var (
	opClaim   = op{"Claim", func(tx *bolt.Tx, id uint64) (wal.Job, error) { return wal.Claim(tx, id, t1) }}
	opDone    = op{"Done", func(tx *bolt.Tx, id uint64) (wal.Job, error) { return wal.Done(tx, id, t1) }}
	opRetry   = op{"Retry", func(tx *bolt.Tx, id uint64) (wal.Job, error) { return wal.Retry(tx, id, "boom", t1, nb) }}
	opFail    = op{"Fail", func(tx *bolt.Tx, id uint64) (wal.Job, error) { return wal.Fail(tx, id, "fatal", t1) }}
	opRelease = op{"Release", func(tx *bolt.Tx, id uint64) (wal.Job, error) { return wal.Release(tx, id, t1) }}
	allOps    = []op{opClaim, opDone, opRetry, opFail, opRelease}
)

// assertSameJob compares two jobs field by field, times with Equal (the
// decoded location may differ from the one written).
func assertSameJob(t *testing.T, want, got wal.Job) {
	t.Helper()
	assert.Equal(t, want.ID, got.ID, "ID")
	assert.Equal(t, want.Kind, got.Kind, "Kind")
	assert.Equal(t, want.Target, got.Target, "Target")
	assert.Equal(t, want.State, got.State, "State")
	assert.Equal(t, want.Attempts, got.Attempts, "Attempts")
	assert.Equal(t, want.Err, got.Err, "Err")
	assert.True(t, want.Created.Equal(got.Created), "Created: want %v got %v", want.Created, got.Created)
	assert.True(t, want.Updated.Equal(got.Updated), "Updated: want %v got %v", want.Updated, got.Updated)
	assert.True(t, want.NotBefore.Equal(got.NotBefore), "NotBefore: want %v got %v", want.NotBefore, got.NotBefore)
}

// jobAfter enqueues a job and applies path to it, each step in its own
// transaction.
func jobAfter(t *testing.T, db *kv.DB, path []op) wal.Job {
	t.Helper()
	j := enqueue(t, db, wal.KindDerive, 77)
	for _, o := range path {
		update(t, db, func(tx *bolt.Tx) error { _, err := o.do(tx, j.ID); return err })
	}
	return getJob(t, db, j.ID)
}

func TestEnqueue(t *testing.T) {
	db := openDB(t)
	var jobs []wal.Job
	update(t, db, func(tx *bolt.Tx) error {
		for i := range 3 {
			j, err := wal.Enqueue(tx, wal.KindDerive, uint64(100+i), t0)
			require.NoError(t, err)
			jobs = append(jobs, j)
		}
		return nil
	})
	for i, j := range jobs {
		assert.Equal(t, uint64(i+1), j.ID, "ids come from the jobs sequence, starting at 1")
		assert.Equal(t, wal.KindDerive, j.Kind)
		assert.Equal(t, uint64(100+i), j.Target)
		assert.Equal(t, wal.StatePending, j.State)
		assert.Zero(t, j.Attempts)
		assert.Empty(t, j.Err)
		assert.True(t, j.NotBefore.IsZero())
		assert.True(t, j.Created.Equal(t0))
		assert.True(t, j.Updated.Equal(t0))
		assert.Equal(t, time.UTC, j.Created.Location(), "Enqueue stamps UTC")
		assertSameJob(t, j, getJob(t, db, j.ID))
	}
	assert.Equal(t, []uint64{1, 2, 3}, queueIDs(t, db))
	assert.Equal(t, []uint64{1, 2, 3}, listIDs(t, db, ""))
	assert.Equal(t, []uint64{1, 2, 3}, listIDs(t, db, wal.StatePending))
	assert.Empty(t, listIDs(t, db, wal.StateRunning))

	// A rolled-back Enqueue leaves nothing behind.
	err := db.Update(func(tx *bolt.Tx) error {
		_, err := wal.Enqueue(tx, wal.KindDerive, 9, t0)
		require.NoError(t, err)
		return errors.New("roll back")
	})
	require.Error(t, err)
	assert.Equal(t, []uint64{1, 2, 3}, listIDs(t, db, ""))
	assert.Equal(t, uint64(4), enqueue(t, db, wal.KindDerive, 9).ID)
}

func TestTransitions(t *testing.T) {
	cases := []struct {
		name          string
		path          []op
		last          op
		wantState     wal.State
		wantAttempts  int
		wantErr       string
		wantNotBefore time.Time
		wantQueued    bool
	}{
		{"claim pending", nil, opClaim, wal.StateRunning, 1, "", time.Time{}, true},
		{"done running", []op{opClaim}, opDone, wal.StateDone, 1, "", time.Time{}, false},
		{"retry running", []op{opClaim}, opRetry, wal.StatePending, 1, "boom", nb, true},
		{"fail running", []op{opClaim}, opFail, wal.StateFailed, 1, "fatal", time.Time{}, false},
		{"release running", []op{opClaim}, opRelease, wal.StatePending, 0, "", time.Time{}, true},
		{"claim after retry counts again", []op{opClaim, opRetry}, opClaim, wal.StateRunning, 2, "boom", nb, true},
		{"done after retry keeps error for audit", []op{opClaim, opRetry, opClaim}, opDone, wal.StateDone, 2, "boom", time.Time{}, false},
		{"fail after retry", []op{opClaim, opRetry, opClaim}, opFail, wal.StateFailed, 2, "fatal", time.Time{}, false},
		{"release after retry keeps earlier attempt", []op{opClaim, opRetry, opClaim}, opRelease, wal.StatePending, 1, "boom", nb, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			before := jobAfter(t, db, tc.path)
			var got wal.Job
			update(t, db, func(tx *bolt.Tx) error {
				var err error
				got, err = tc.last.do(tx, before.ID)
				return err
			})
			assert.Equal(t, tc.wantState, got.State)
			assert.Equal(t, tc.wantAttempts, got.Attempts)
			assert.Equal(t, tc.wantErr, got.Err)
			assert.True(t, tc.wantNotBefore.Equal(got.NotBefore), "NotBefore %v", got.NotBefore)
			assert.True(t, got.Updated.Equal(t1), "Updated is stamped")
			assert.True(t, got.Created.Equal(t0), "Created is kept")
			assert.Equal(t, before.Kind, got.Kind)
			assert.Equal(t, before.Target, got.Target)

			// The returned job is what was stored.
			assertSameJob(t, got, getJob(t, db, before.ID))

			if tc.wantQueued {
				assert.Equal(t, []uint64{before.ID}, queueIDs(t, db))
			} else {
				assert.Empty(t, queueIDs(t, db))
			}
			// Every job stays in List, under its new state only.
			assert.Equal(t, []uint64{before.ID}, listIDs(t, db, ""))
			assert.Equal(t, []uint64{before.ID}, listIDs(t, db, tc.wantState))
			for _, s := range []wal.State{wal.StatePending, wal.StateRunning, wal.StateDone, wal.StateFailed} {
				if s != tc.wantState {
					assert.Empty(t, listIDs(t, db, s), "List(%s)", s)
				}
			}
		})
	}
}

func TestBadTransitions(t *testing.T) {
	type start struct {
		name string
		path []op
	}
	var (
		pending = start{"pending", nil}
		running = start{"running", []op{opClaim}}
		done    = start{"done", []op{opClaim, opDone}}
		failed  = start{"failed", []op{opClaim, opFail}}
		retried = start{"retried", []op{opClaim, opRetry}}
	)
	cases := []struct {
		from start
		op   op
	}{
		{pending, opDone}, {pending, opRetry}, {pending, opRelease}, // Fail on pending is allowed (exhausted attempts)
		{retried, opDone},
		{running, opClaim},
		{done, opClaim}, {done, opDone}, {done, opRetry}, {done, opFail}, {done, opRelease},
		{failed, opClaim}, {failed, opDone}, {failed, opRetry}, {failed, opFail}, {failed, opRelease},
	}
	for _, tc := range cases {
		t.Run(tc.op.name+" on "+tc.from.name, func(t *testing.T) {
			db := openDB(t)
			before := jobAfter(t, db, tc.from.path)
			queued := queueIDs(t, db)
			err := db.Update(func(tx *bolt.Tx) error {
				got, err := tc.op.do(tx, before.ID)
				assert.Equal(t, before.State, got.State, "the job is returned unchanged")
				return err
			})
			require.Error(t, err)
			assert.True(t, errors.Is(err, wal.ErrBadTransition), "got %v", err)
			assert.False(t, errors.Is(err, wal.ErrJobNotFound))

			// Even if the caller commits anyway, nothing changed.
			update(t, db, func(tx *bolt.Tx) error { _, _ = tc.op.do(tx, before.ID); return nil })
			assertSameJob(t, before, getJob(t, db, before.ID))
			assert.Equal(t, queued, queueIDs(t, db))
		})
	}
}

func TestUnknownJob(t *testing.T) {
	db := openDB(t)
	enqueue(t, db, wal.KindDerive, 1)
	for _, o := range allOps {
		t.Run(o.name, func(t *testing.T) {
			err := db.Update(func(tx *bolt.Tx) error { _, err := o.do(tx, 999); return err })
			require.Error(t, err)
			assert.True(t, errors.Is(err, wal.ErrJobNotFound), "got %v", err)
			assert.False(t, errors.Is(err, wal.ErrBadTransition))
		})
	}
	t.Run("Get", func(t *testing.T) {
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			for _, id := range []uint64{0, 2, 999} {
				_, err := wal.Get(tx, id)
				assert.True(t, errors.Is(err, wal.ErrJobNotFound), "id %d: got %v", id, err)
			}
			return nil
		}))
	})
}

func TestRecover(t *testing.T) {
	db := openDB(t)
	pending := jobAfter(t, db, nil)
	running := jobAfter(t, db, []op{opClaim})
	runningTwice := jobAfter(t, db, []op{opClaim, opRetry, opClaim})
	done := jobAfter(t, db, []op{opClaim, opDone})
	failed := jobAfter(t, db, []op{opClaim, opFail})
	retried := jobAfter(t, db, []op{opClaim, opRetry})

	t2 := t0.Add(2 * time.Hour)
	var n int
	update(t, db, func(tx *bolt.Tx) error {
		var err error
		n, err = wal.Recover(tx, t2)
		return err
	})
	assert.Equal(t, 2, n)

	for _, tc := range []struct {
		name     string
		job      wal.Job
		attempts int
	}{
		{"running", running, 1},
		{"running twice", runningTwice, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := getJob(t, db, tc.job.ID)
			assert.Equal(t, wal.StatePending, got.State)
			assert.Equal(t, tc.attempts, got.Attempts, "the interrupted attempt stays counted")
			assert.NotEmpty(t, got.Err, "Recover records why")
			assert.NotEqual(t, tc.job.Err, got.Err)
			assert.True(t, got.Updated.Equal(t2))
		})
	}
	for _, j := range []wal.Job{pending, done, failed, retried} {
		assertSameJob(t, j, getJob(t, db, j.ID))
	}
	assert.Equal(t, []uint64{pending.ID, running.ID, runningTwice.ID, retried.ID}, queueIDs(t, db))

	// Nothing left to recover.
	update(t, db, func(tx *bolt.Tx) error {
		var err error
		n, err = wal.Recover(tx, t2)
		return err
	})
	assert.Zero(t, n)
}

func TestRecoverEmpty(t *testing.T) {
	db := openDB(t)
	update(t, db, func(tx *bolt.Tx) error {
		n, err := wal.Recover(tx, t0)
		assert.Zero(t, n)
		return err
	})
}

func TestListFilters(t *testing.T) {
	db := openDB(t)
	a := jobAfter(t, db, nil)
	b := jobAfter(t, db, []op{opClaim, opFail})
	c := jobAfter(t, db, []op{opClaim, opDone})
	d := jobAfter(t, db, []op{opClaim})
	e := jobAfter(t, db, []op{opClaim, opFail})

	cases := []struct {
		state wal.State
		want  []uint64
	}{
		{"", []uint64{a.ID, b.ID, c.ID, d.ID, e.ID}},
		{wal.StatePending, []uint64{a.ID}},
		{wal.StateRunning, []uint64{d.ID}},
		{wal.StateDone, []uint64{c.ID}},
		{wal.StateFailed, []uint64{b.ID, e.ID}},
		{"bogus", nil},
	}
	for _, tc := range cases {
		name := string(tc.state)
		if name == "" {
			name = "all"
		}
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tc.want, listIDs(t, db, tc.state))
		})
	}
	assert.Equal(t, []uint64{a.ID, d.ID}, queueIDs(t, db))

	var failed []wal.Job
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var err error
		failed, err = wal.List(tx, wal.StateFailed)
		return err
	}))
	for _, j := range failed {
		assert.Equal(t, "fatal", j.Err)
		assert.Equal(t, 1, j.Attempts)
	}
}

func TestQueueAndListCorruption(t *testing.T) {
	t.Run("queued id without record", func(t *testing.T) {
		db := openDB(t)
		enqueue(t, db, wal.KindDerive, 1)
		update(t, db, func(tx *bolt.Tx) error { return tx.Bucket(kv.BucketJobQueue).Put(kv.Key(50), nil) })
		err := db.View(func(tx *bolt.Tx) error { _, err := wal.Queue(tx); return err })
		require.Error(t, err)
		assert.True(t, errors.Is(err, kv.ErrCorrupt), "got %v", err)
	})
	t.Run("undecodable record", func(t *testing.T) {
		db := openDB(t)
		j := enqueue(t, db, wal.KindDerive, 1)
		update(t, db, func(tx *bolt.Tx) error {
			return tx.Bucket(kv.BucketJobs).Put(kv.Key(j.ID), []byte{1, 0xc1, 0xc1})
		})
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			_, err := wal.Queue(tx)
			assert.True(t, errors.Is(err, kv.ErrCorrupt), "Queue: got %v", err)
			_, err = wal.List(tx, "")
			assert.True(t, errors.Is(err, kv.ErrCorrupt), "List: got %v", err)
			_, err = wal.Get(tx, j.ID)
			assert.True(t, errors.Is(err, kv.ErrCorrupt), "Get: got %v", err)
			return nil
		}))
	})
	t.Run("record of a newer version", func(t *testing.T) {
		db := openDB(t)
		j := enqueue(t, db, wal.KindDerive, 1)
		update(t, db, func(tx *bolt.Tx) error {
			b := tx.Bucket(kv.BucketJobs)
			v := append([]byte{}, b.Get(kv.Key(j.ID))...)
			v[0] = 99
			return b.Put(kv.Key(j.ID), v)
		})
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			_, err := wal.Get(tx, j.ID)
			assert.True(t, errors.Is(err, kv.ErrVersionMismatch), "got %v", err)
			return nil
		}))
	})
}

func TestPermanent(t *testing.T) {
	base := errors.New("target gone")
	p := wal.Permanent(base)
	assert.True(t, errors.Is(p, base), "Permanent keeps the cause reachable")
	assert.Equal(t, base.Error(), p.Error())
	wrapped := errors.Join(errors.New("ctx"), p)
	assert.True(t, errors.Is(wrapped, base))
}
