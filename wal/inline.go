package wal

import (
	"context"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/model"
)

// maxInline bounds the jobs of one inline transaction: their writes are
// held in memory (bbolt's dirty pages) until it commits.
const maxInline = 128

// With a fast, local model a job's own work is a fraction of a
// millisecond, and a commit costs about as much again: a bulk ingest
// spent most of its background time committing one transaction per job.
// An inline transaction runs a chain of jobs, in queue order and of any
// kinds, each Run reading through the transaction that already holds the
// results of the jobs before it. Each job therefore sees exactly what it
// would see if every job before it had committed alone, and a chain's
// results equal those of running its jobs one by one: it is the serial
// order with fewer commits, not a reordering, so it needs no promise of
// independence from the handlers.
//
// Failure: bbolt has no savepoints, so a Run error (nothing written yet)
// ends the chain, the jobs before it commit and the failed one is settled
// as in run; an Apply error or a failed commit rolls the whole chain back,
// and its jobs run one at a time (noInline) up to the one that failed.
// Writes the chain's Apply calls deferred (Deferred) are flushed before it
// commits; a Flush error counts as an Apply error.
//
// Crashes: a chain's first job is claimed, and its attempt counted, in a
// transaction committed before the chain runs (the one before it, or its
// own). A process that dies inside a chain therefore leaves that job
// with an attempt, and a job with an attempt never starts a chain: it
// runs alone, so a job that kills the process spends its own attempts or
// those of the jobs before it, one crash at a time, and the queue drains.

// inlinable reports whether j may start or join an inline chain: its
// handler has RunIn, Inline is set and j has never been attempted
// (pending with no attempt, or claimed once by the transaction before).
func (r *Runner) inlinable(j *Job) bool {
	h, ok := r.handlers[j.Kind]
	if !ok || !r.opts.Inline || h.RunIn == nil || j.ID <= r.noInline {
		return false
	}
	switch j.State {
	case StatePending:
		return j.Attempts == 0
	case StateRunning:
		return j.Attempts == 1
	}
	return false
}

// errInlineApply marks an inline chain rolled back by one job's Apply.
var errInlineApply = errors.New("wal: inline apply failed")

// runInline runs a chain that starts with first (claimed or not) inside
// one write transaction, and returns the next job as run does.
func (r *Runner) runInline(ctx context.Context, first Job, claimed bool) (next *Job, nextClaimed, ok bool) {
	log := r.opts.Logger.With("first", first.ID)
	if !claimed {
		r.yield(ctx)
		if err := r.update(func(tx *bolt.Tx) error {
			var err error
			first, err = Claim(tx, first.ID, r.opts.Now())
			return err
		}); err != nil {
			log.Error("claim failed", "err", err)
			return nil, false, ctx.Err() == nil
		}
	}
	if ctx.Err() != nil {
		return r.run(ctx, first, true) // releases it
	}
	r.yield(ctx)
	var (
		failed    Job
		failErr   error
		failMeter *model.Meter
		last      uint64 // the last job the chain tried
		n         int
	)
	err := r.update(func(tx *bolt.Tx) error {
		return inChain(tx, func(tx *bolt.Tx) error {
			next, nextClaimed, failErr, n = nil, false, nil, 0
			view := func(fn func(*bolt.Tx) error) error { return fn(tx) }
			j := first
			for {
				last = j.ID
				h := r.handlers[j.Kind]
				mt := &model.Meter{}
				apply, err := safeRunIn(model.WithMeter(ctx, mt), h, view, j)
				if err != nil {
					failed, failErr, failMeter = j, err, mt
					return nil
				}
				if err := safeApply(apply, tx); err != nil {
					return fmt.Errorf("%w: job %d: %w", errInlineApply, j.ID, err)
				}
				if _, err := Done(tx, j.ID, r.opts.Now()); err != nil {
					return err
				}
				if err := Charge(tx, j.ID, mt.Usage(), mt.Prompt()); err != nil {
					return err
				}
				n++
				if n >= maxInline || ctx.Err() != nil || (r.opts.Busy != nil && r.opts.Busy()) {
					break
				}
				nj, _, err := pickTx(tx, time.Now())
				if err != nil || nj == nil {
					return nil // the loop scans the queue afresh
				}
				if !r.inlinable(nj) {
					break
				}
				last = nj.ID
				if j, err = Claim(tx, nj.ID, r.opts.Now()); err != nil {
					return err
				}
			}
			next, nextClaimed = r.claimNext(ctx, tx)
			return nil
		})
	})
	if err != nil {
		// Nothing of the chain is stored; first is still claimed.
		log.Warn("inline jobs rolled back; running them one at a time", "last", last, "err", err)
		r.noInline = last
		return r.run(ctx, first, true)
	}
	if n > 0 {
		log.Debug("inline jobs done", "jobs", n)
	}
	if failErr != nil {
		jl := r.opts.Logger.With("job", failed.ID, "kind", failed.Kind, "target", failed.Target)
		charge := func(tx *bolt.Tx) error { return Charge(tx, failed.ID, failMeter.Usage(), failMeter.Prompt()) }
		return nil, false, r.settle(ctx, jl, r.handlers[failed.Kind], true, failed, failErr, charge)
	}
	return next, nextClaimed, true
}

// safeRunIn is safeRun for RunIn.
func safeRunIn(ctx context.Context, h Handler, view View, j Job) (a Apply, err error) {
	defer func() {
		if p := recover(); p != nil {
			a, err = nil, Permanent(fmt.Errorf("handler panic: %v", p))
		}
	}()
	a, err = h.RunIn(ctx, view, j)
	if err == nil && a == nil {
		err = errors.New("handler returned no result")
	}
	return a, err
}
