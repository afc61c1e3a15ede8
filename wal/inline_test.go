package wal_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/wal"
)

// summer is a handler whose jobs depend on each other: the job for
// target k reads the running sum, and its Apply stores the sum plus k,
// notes what it read under "read-k", and enqueues the job for k+1 up to
// last. Run out of order or without seeing its predecessors' writes, it
// leaves different records.
type summer struct {
	last      uint64
	failRun   map[uint64]int // target → Runs that fail before one succeeds
	failApply map[uint64]int // target → Applies that fail before one succeeds
	panicRun  uint64         // target whose Run panics
	queued    bool           // every job is queued already: enqueue none

	mu       sync.Mutex
	writable []bool   // per Run: whether it read through a write transaction
	txs      []uint64 // per Run: the transaction it read through
	targets  []uint64 // per Run
}

// handler returns s's handler with RunIn only: Handle gives it Run.
func (s *summer) handler() wal.Handler {
	return wal.Handler{RunIn: func(_ context.Context, view wal.View, j wal.Job) (wal.Apply, error) {
		var sum uint64
		if err := view(func(tx *bolt.Tx) error {
			s.mu.Lock()
			s.writable = append(s.writable, tx.Writable())
			s.txs = append(s.txs, uint64(tx.ID()))
			s.targets = append(s.targets, j.Target)
			s.mu.Unlock()
			if v := tx.Bucket(bucketOut).Get([]byte("sum")); v != nil {
				n, err := strconv.ParseUint(string(v), 10, 64)
				sum = n
				return err
			}
			return nil
		}); err != nil {
			return nil, err
		}
		if j.Target == s.panicRun {
			panic("handler bug")
		}
		s.mu.Lock()
		fail := s.failRun[j.Target] > 0
		if fail {
			s.failRun[j.Target]--
		}
		s.mu.Unlock()
		if fail {
			return nil, fmt.Errorf("transient failure of %d", j.Target)
		}
		return func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketOut)
			if err := b.Put([]byte("sum"), []byte(fmt.Sprint(sum+j.Target))); err != nil {
				return err
			}
			if err := b.Put([]byte(fmt.Sprint("read-", j.Target)), []byte(fmt.Sprint(sum))); err != nil {
				return err
			}
			s.mu.Lock()
			fail := s.failApply[j.Target] > 0
			if fail {
				s.failApply[j.Target]--
			}
			s.mu.Unlock()
			if fail {
				return errors.New("apply refused") // after writing: the chain must roll back
			}
			if j.Target == s.last || s.queued {
				return nil
			}
			_, err := wal.Enqueue(tx, kindTest, j.Target+1, t0)
			return err
		}, nil
	}}
}

// outputs returns bucketOut as a map.
func outputs(t *testing.T, db *kv.DB) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketOut).ForEach(func(k, v []byte) error {
			out[string(k)] = string(v)
			return nil
		})
	}))
	return out
}

// runSummer runs s's chain from target 1 and returns the outputs.
func runSummer(t *testing.T, s *summer, o wal.RunnerOptions) (*kv.DB, map[string]string) {
	t.Helper()
	db := openDB(t)
	enqueue(t, db, kindTest, 1)
	r := startRunner(t, db, o, s.handler())
	waitIdle(t, r)
	return db, outputs(t, db)
}

// wantSums is what n summer jobs leave when run one by one.
func wantSums(n uint64) map[string]string {
	want := map[string]string{}
	var sum uint64
	for k := uint64(1); k <= n; k++ {
		want[fmt.Sprint("read-", k)] = fmt.Sprint(sum)
		sum += k
	}
	want["sum"] = fmt.Sprint(sum)
	return want
}

// Inline jobs leave exactly the records of jobs run one by one, each Run
// reading the writes of the jobs before it, in far fewer transactions.
func TestRunnerInlineEqualsOneByOne(t *testing.T) {
	const n = 40
	serial := &summer{last: n}
	_, got := runSummer(t, serial, wal.RunnerOptions{})
	require.Equal(t, wantSums(n), got)
	assert.NotContains(t, serial.writable, true, "without Inline every Run reads its own view")

	inline := &summer{last: n}
	db, got := runSummer(t, inline, wal.RunnerOptions{Inline: true})
	assert.Equal(t, wantSums(n), got)
	assert.NotContains(t, inline.writable, false, "with Inline every Run reads the chain's transaction")
	assert.Less(t, len(distinct(inline.txs)), n/4, "jobs share transactions")
	done := listIDs(t, db, wal.StateDone)
	require.Len(t, done, n)
	for _, id := range done {
		assert.Equal(t, 1, getJob(t, db, id).Attempts)
	}
	assert.Empty(t, queueIDs(t, db))
}

// A busy foreground ends a chain after each job: a waiting write is held
// up by one job, not by a chain of them.
func TestRunnerInlineYieldsToBusyForeground(t *testing.T) {
	const n = 12
	s := &summer{last: n}
	_, got := runSummer(t, s, wal.RunnerOptions{Inline: true, Busy: func() bool { return true }})
	assert.Equal(t, wantSums(n), got)
	assert.Len(t, distinct(s.txs), n, "one job per transaction")
}

// A Run that fails ends the chain: the jobs before it are stored, it is
// retried as any failed job, and the records still equal the serial ones.
func TestRunnerInlineRunFailure(t *testing.T) {
	const n = 10
	s := &summer{last: n, failRun: map[uint64]int{4: 1}}
	db, got := runSummer(t, s, wal.RunnerOptions{Inline: true, Backoff: 1})
	assert.Equal(t, wantSums(n), got)
	for _, id := range listIDs(t, db, wal.StateDone) {
		j := getJob(t, db, id)
		want := 1
		if j.Target == 4 {
			want = 2
		}
		assert.Equal(t, want, j.Attempts, "target %d", j.Target)
	}
	assert.Len(t, listIDs(t, db, wal.StateDone), n)
}

// An Apply that fails after writing rolls its whole chain back; the jobs
// of the chain then run one at a time, so the failing one is retried
// alone, and nothing is stored twice.
func TestRunnerInlineApplyFailureRollsBack(t *testing.T) {
	const n = 10
	s := &summer{last: n, failApply: map[uint64]int{5: 2}}
	db, got := runSummer(t, s, wal.RunnerOptions{Inline: true, Backoff: 1})
	assert.Equal(t, wantSums(n), got)
	for _, id := range listIDs(t, db, wal.StateDone) {
		j := getJob(t, db, id)
		want := 1
		if j.Target == 5 {
			want = 2 // its failure inside the chain was rolled back with it
		}
		assert.Equal(t, want, j.Attempts, "target %d", j.Target)
	}
	assert.Len(t, listIDs(t, db, wal.StateDone), n)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, target := range s.targets {
		if target >= 2 && target <= 5 && !s.writable[i] {
			return // re-run one at a time after the rollback
		}
	}
	t.Fatalf("no job of the rolled-back chain ran alone: %v", s.targets)
}

// A panicking Run fails its job for good and ends the chain; the jobs
// before it are kept.
func TestRunnerInlinePanic(t *testing.T) {
	const n = 6
	s := &summer{last: n, panicRun: 3}
	db, got := runSummer(t, s, wal.RunnerOptions{Inline: true})
	want := map[string]string{"read-1": "0", "read-2": "1", "sum": "3"}
	assert.Equal(t, want, got)
	failed := listIDs(t, db, wal.StateFailed)
	require.Len(t, failed, 1)
	j := getJob(t, db, failed[0])
	assert.Equal(t, uint64(3), j.Target)
	assert.Contains(t, j.Err, "handler panic")
}

// Jobs left running by a dead process have an attempt counted: each runs
// alone, outside any chain, so a job that kills the process cannot take a
// chain of others down with it again.
func TestRunnerInlineRecoveredJobsRunAlone(t *testing.T) {
	db := openDB(t)
	s := &summer{last: 3, queued: true}
	for i := range 3 {
		j := enqueue(t, db, kindTest, uint64(i+1))
		update(t, db, func(tx *bolt.Tx) error { _, err := wal.Claim(tx, j.ID, t0); return err })
	}
	r := startRunner(t, db, wal.RunnerOptions{Inline: true}, s.handler())
	waitIdle(t, r)
	assert.Equal(t, wantSums(3), outputs(t, db))
	s.mu.Lock()
	defer s.mu.Unlock()
	assert.Equal(t, []bool{false, false, false}, s.writable, "each recovered job runs alone")
}

func distinct(xs []uint64) map[uint64]bool {
	m := map[uint64]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}
