package wal

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
)

// State is a job's lifecycle state.
type State string

// Job states.
const (
	StatePending State = "pending"
	StateRunning State = "running"
	StateDone    State = "done"
	StateFailed  State = "failed"
)

// Kind names the work a job does; the Runner dispatches on it.
type Kind string

// Job kinds used by StrataGate.
const (
	KindDerive  Kind = "derive"  // derive L0–L2 of block Target
	KindExtract Kind = "extract" // extract the event cards of block Target
	KindProject Kind = "project" // project block Target's events into the graph
)

// jobVersion is the record format of Job.
const jobVersion byte = 1

// Job is one durable unit of derivation work.
type Job struct {
	ID        uint64    `msgpack:"i"`
	Kind      Kind      `msgpack:"k"`
	Target    uint64    `msgpack:"t"` // the record the job derives from (a block id, ...)
	State     State     `msgpack:"s"`
	Attempts  int       `msgpack:"a"`
	Err       string    `msgpack:"e,omitempty"` // last error, kept after success for audit
	Created   time.Time `msgpack:"c"`
	Updated   time.Time `msgpack:"u"`
	NotBefore time.Time `msgpack:"n,omitempty"` // earliest retry time
	// Usage sums the model usage of every recorded attempt, and Prompt
	// names the prompt of the last one (see Charge). Both are absent from
	// records written before they existed, which decode as zero.
	Usage  model.Usage `msgpack:"m,omitempty"`
	Prompt string      `msgpack:"p,omitempty"`
}

// ErrJobNotFound is returned for an unknown job id.
var ErrJobNotFound = errors.New("sg: job not found")

// ErrBadTransition is returned when a job is moved along an edge its state
// machine does not have (completing a failed job, claiming a done one).
var ErrBadTransition = errors.New("sg: invalid job state transition")

func buckets(tx *bolt.Tx) (jobs, queue *bolt.Bucket) {
	return tx.Bucket(kv.BucketJobs), tx.Bucket(kv.BucketJobQueue)
}

func put(tx *bolt.Tx, j *Job) error {
	jobs, queue := buckets(tx)
	v, err := kv.Encode(jobVersion, j)
	if err != nil {
		return err
	}
	k := kv.Key(j.ID)
	if err := jobs.Put(k, v); err != nil {
		return err
	}
	if j.State == StatePending || j.State == StateRunning {
		return queue.Put(k, nil)
	}
	return queue.Delete(k)
}

// Enqueue writes a new pending job inside tx.
func Enqueue(tx *bolt.Tx, kind Kind, target uint64, now time.Time) (Job, error) {
	jobs, _ := buckets(tx)
	id, err := kv.NextID(jobs)
	if err != nil {
		return Job{}, err
	}
	j := Job{ID: id, Kind: kind, Target: target, State: StatePending, Created: now.UTC(), Updated: now.UTC()}
	return j, put(tx, &j)
}

// Get reads job id.
func Get(tx *bolt.Tx, id uint64) (Job, error) {
	jobs, _ := buckets(tx)
	v := jobs.Get(kv.Key(id))
	if v == nil {
		return Job{}, fmt.Errorf("%w: %d", ErrJobNotFound, id)
	}
	return decode(v)
}

func decode(v []byte) (Job, error) {
	var j Job
	if _, err := kv.Decode(v, &j, jobVersion); err != nil {
		return Job{}, fmt.Errorf("wal: job: %w", err)
	}
	return j, nil
}

func transition(tx *bolt.Tx, id uint64, from []State, fn func(*Job)) (Job, error) {
	j, err := Get(tx, id)
	if err != nil {
		return Job{}, err
	}
	ok := false
	for _, s := range from {
		ok = ok || j.State == s
	}
	if !ok {
		return j, fmt.Errorf("%w: job %d is %s", ErrBadTransition, id, j.State)
	}
	fn(&j)
	return j, put(tx, &j)
}

// Claim moves a pending job to running and counts the attempt.
func Claim(tx *bolt.Tx, id uint64, now time.Time) (Job, error) {
	return transition(tx, id, []State{StatePending}, func(j *Job) {
		j.State, j.Updated = StateRunning, now.UTC()
		j.Attempts++
	})
}

// Done marks a running job done. Call it in the transaction that applies the
// job's result.
func Done(tx *bolt.Tx, id uint64, now time.Time) (Job, error) {
	return transition(tx, id, []State{StateRunning}, func(j *Job) {
		j.State, j.Updated, j.NotBefore = StateDone, now.UTC(), time.Time{}
	})
}

// Retry returns a running job to pending with its error and the earliest
// time it may run again.
func Retry(tx *bolt.Tx, id uint64, cause string, now, notBefore time.Time) (Job, error) {
	return transition(tx, id, []State{StateRunning}, func(j *Job) {
		j.State, j.Err, j.Updated, j.NotBefore = StatePending, cause, now.UTC(), notBefore.UTC()
	})
}

// Fail marks a running job failed for good; it stays visible with its
// error. A pending job may be failed too: one whose attempts were all used
// up by processes that died while running it.
func Fail(tx *bolt.Tx, id uint64, cause string, now time.Time) (Job, error) {
	return transition(tx, id, []State{StateRunning, StatePending}, func(j *Job) {
		j.State, j.Err, j.Updated, j.NotBefore = StateFailed, cause, now.UTC(), time.Time{}
	})
}

// Release returns a running job to pending without counting the attempt:
// used when the process stops cleanly in the middle of a job.
func Release(tx *bolt.Tx, id uint64, now time.Time) (Job, error) {
	return transition(tx, id, []State{StateRunning}, func(j *Job) {
		j.State, j.Updated = StatePending, now.UTC()
		if j.Attempts > 0 {
			j.Attempts--
		}
	})
}

// Recover moves every job left running by a process that died back to
// pending (its attempt stays counted) and returns how many it moved.
func Recover(tx *bolt.Tx, now time.Time) (int, error) {
	q, err := Queue(tx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, j := range q {
		if j.State != StateRunning {
			continue
		}
		j.State, j.Updated = StatePending, now.UTC()
		j.Err = "interrupted: process stopped while running"
		if err := put(tx, &j); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Queue returns the pending and running jobs in id order.
func Queue(tx *bolt.Tx) ([]Job, error) {
	var out []Job
	err := Scan(tx, func(j Job) bool {
		out = append(out, j)
		return true
	})
	return out, err
}

// Scan calls fn for the pending and running jobs in id order until fn
// returns false. Each job is decoded only when reached.
func Scan(tx *bolt.Tx, fn func(Job) bool) error { return ScanFrom(tx, 0, fn) }

// ScanFrom is Scan starting at job id from.
func ScanFrom(tx *bolt.Tx, from uint64, fn func(Job) bool) error {
	jobs, queue := buckets(tx)
	c := queue.Cursor()
	for k, _ := c.Seek(kv.Key(from)); k != nil; k, _ = c.Next() {
		v := jobs.Get(k)
		if v == nil {
			return fmt.Errorf("wal: %w: queued job %d has no record", kv.ErrCorrupt, kv.ID(k))
		}
		j, err := decode(v)
		if err != nil {
			return err
		}
		if !fn(j) {
			return nil
		}
	}
	return nil
}

// List returns every job, optionally only those in state (empty = all), in
// id order.
func List(tx *bolt.Tx, state State) ([]Job, error) {
	jobs, _ := buckets(tx)
	var out []Job
	err := jobs.ForEach(func(_, v []byte) error {
		j, err := decode(v)
		if err != nil {
			return err
		}
		if state == "" || j.State == state {
			out = append(out, j)
		}
		return nil
	})
	return out, err
}
