package wal_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/wal"
)

// deferrer's job k notes k: through a Flusher when its transaction runs
// an inline chain (the Flusher stores the chain's notes as one record),
// else at once (a record of its own). It enqueues job k+1 up to last.
type deferrer struct {
	last      uint64
	failFlush int // Flushes that fail before one succeeds

	mu      sync.Mutex
	flushes int
}

type noteLog struct {
	d       *deferrer
	targets []string
}

func (l *noteLog) Flush(tx *bolt.Tx) error {
	l.d.mu.Lock()
	fail := l.d.failFlush > 0
	if fail {
		l.d.failFlush--
	}
	l.d.flushes++
	n := l.d.flushes
	l.d.mu.Unlock()
	if err := tx.Bucket(bucketOut).Put([]byte(fmt.Sprintf("flush-%03d", n)), []byte(strings.Join(l.targets, ","))); err != nil {
		return err
	}
	if fail {
		return errors.New("flush refused") // after writing: the chain must roll back
	}
	return nil
}

func (d *deferrer) handler() wal.Handler {
	return wal.Handler{RunIn: func(_ context.Context, _ wal.View, j wal.Job) (wal.Apply, error) {
		return func(tx *bolt.Tx) error {
			if l, ok := wal.Deferred(tx, "notes", func() wal.Flusher { return &noteLog{d: d} }).(*noteLog); ok {
				l.targets = append(l.targets, fmt.Sprint(j.Target))
			} else if err := tx.Bucket(bucketOut).Put([]byte(fmt.Sprint("direct-", j.Target)), nil); err != nil {
				return err
			}
			if j.Target == d.last {
				return nil
			}
			_, err := wal.Enqueue(tx, kindTest, j.Target+1, t0)
			return err
		}, nil
	}}
}

// noted returns the targets noted in d's records: those written at once
// and those flushed, the flushed ones in flush order.
func noted(t *testing.T, out map[string]string) (direct, flushed []string, flushRecords int) {
	t.Helper()
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if s, ok := strings.CutPrefix(k, "direct-"); ok {
			direct = append(direct, s)
		} else if strings.HasPrefix(k, "flush-") {
			flushRecords++
			flushed = append(flushed, strings.Split(out[k], ",")...)
		}
	}
	return direct, flushed, flushRecords
}

func targets(from, to int) []string {
	var out []string
	for k := from; k <= to; k++ {
		out = append(out, fmt.Sprint(k))
	}
	return out
}

// In an inline chain, deferred writes are flushed once, at its end, with
// every job's part in job order; without chains there is nothing to
// defer to and every job writes at once.
func TestDeferredWritesFlushOncePerChain(t *testing.T) {
	const n = 40
	d := &deferrer{last: n}
	db := openDB(t)
	enqueue(t, db, kindTest, 1)
	waitIdle(t, startRunner(t, db, wal.RunnerOptions{}, d.handler()))
	direct, flushed, records := noted(t, outputs(t, db))
	assert.ElementsMatch(t, targets(1, n), direct)
	assert.Empty(t, flushed)
	assert.Zero(t, records)

	d = &deferrer{last: n}
	db = openDB(t)
	enqueue(t, db, kindTest, 1)
	waitIdle(t, startRunner(t, db, wal.RunnerOptions{Inline: true}, d.handler()))
	direct, flushed, records = noted(t, outputs(t, db))
	assert.Empty(t, direct)
	assert.Equal(t, targets(1, n), flushed, "each job's part once, in job order")
	assert.Less(t, records, n/4, "one flush per chain")
	assert.Len(t, listIDs(t, db, wal.StateDone), n)
}

// A Flush that fails rolls its chain back, what it wrote included; the
// chain's jobs then run one at a time and write at once, and every job's
// part is stored exactly once.
func TestDeferredFlushFailureRollsBack(t *testing.T) {
	const n = 20
	d := &deferrer{last: n, failFlush: 1}
	db := openDB(t)
	enqueue(t, db, kindTest, 1)
	waitIdle(t, startRunner(t, db, wal.RunnerOptions{Inline: true, Backoff: 1}, d.handler()))
	direct, flushed, _ := noted(t, outputs(t, db))
	require.NotEmpty(t, direct, "the rolled-back chain's jobs ran alone")
	all := append(direct, flushed...)
	assert.ElementsMatch(t, targets(1, n), all)
	assert.Len(t, listIDs(t, db, wal.StateDone), n)
	for _, id := range listIDs(t, db, wal.StateDone) {
		assert.Equal(t, 1, getJob(t, db, id).Attempts, "a rolled-back chain costs its jobs no attempt")
	}
}

// Outside an inline chain Deferred makes nothing.
func TestDeferredOutsideChain(t *testing.T) {
	db := openDB(t)
	update(t, db, func(tx *bolt.Tx) error {
		made := false
		f := wal.Deferred(tx, "k", func() wal.Flusher { made = true; return &noteLog{} })
		assert.Nil(t, f)
		assert.False(t, made)
		return nil
	})
}
