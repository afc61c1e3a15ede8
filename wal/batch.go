package wal

import (
	"context"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/model"
)

// maxBatch bounds the jobs of one batch: the results of a batch are held
// in memory until its transaction commits.
const maxBatch = 8

// batchable reports whether j may run in a batch: its kind is Independent,
// its jobs do not run inline, and it was never attempted. A job left running by a process that died
// has an attempt counted, so after a crash the jobs of the batch it killed
// run alone: the one that crashes the process again is the only one whose
// attempts run out.
func (r *Runner) batchable(j *Job) bool {
	h, ok := r.handlers[j.Kind]
	return ok && h.Independent && !(r.opts.Inline && h.RunIn != nil) && j.Attempts == 0 && j.State == StatePending
}

// gather returns the batch that starts with first: first and the jobs that
// follow it in the queue, as long as they are batchable, of its kind and
// runnable now, up to maxBatch. Any other job ends the batch, so jobs
// still run in id order. A claimed first job runs alone.
func (r *Runner) gather(first *Job, claimed bool) []Job {
	batch := []Job{*first}
	if claimed || !r.batchable(first) {
		return batch
	}
	now := time.Now()
	_ = r.db.View(func(tx *bolt.Tx) error { // unreadable: first runs alone
		return ScanFrom(tx, first.ID+1, func(j Job) bool {
			if j.Kind != first.Kind || !r.batchable(&j) || j.NotBefore.After(now) {
				return false
			}
			batch = append(batch, j)
			return len(batch) < maxBatch
		})
	})
	return batch
}

// batchResult is one job's attempt within a batch.
type batchResult struct {
	apply  Apply
	err    error
	meter  model.Meter
	stored bool // its result and done state committed
}

// runBatch runs js, consecutive jobs of one Independent kind: one
// transaction claims them all, their Runs go in order, and one
// transaction stores every result and claims the next job. If that transaction fails (one result's Apply
// refused), each result is stored alone, so that one bad result cannot
// fail the others. Failed attempts are settled one by one as in run. It
// returns the next job (claimed or not) and false when stopping.
func (r *Runner) runBatch(ctx context.Context, js []Job) (next *Job, nextClaimed, ok bool) {
	h := r.handlers[js[0].Kind]
	log := r.opts.Logger.With("kind", js[0].Kind, "jobs", len(js), "first", js[0].ID)
	r.yield(ctx)
	if err := r.db.Update(func(tx *bolt.Tx) error {
		for i := range js {
			c, err := Claim(tx, js[i].ID, r.opts.Now())
			if err != nil {
				return err
			}
			js[i] = c
		}
		return nil
	}); err != nil {
		log.Error("claim failed", "err", err)
		return nil, false, ctx.Err() == nil
	}
	// The Runs go one after another, in id order: a model's answers then
	// arrive in the order one job at a time would see them (scripted
	// models in tests rely on it). What the batch saves is transactions.
	res := make([]batchResult, len(js))
	for i := range js {
		res[i].apply, res[i].err = safeRun(model.WithMeter(ctx, &res[i].meter), h, js[i])
	}
	charge := func(i int) func(*bolt.Tx) error {
		return func(tx *bolt.Tx) error { return Charge(tx, js[i].ID, res[i].meter.Usage(), res[i].meter.Prompt()) }
	}
	store := func(tx *bolt.Tx, i int) error {
		if err := safeApply(res[i].apply, tx); err != nil {
			return err
		}
		if _, err := Done(tx, js[i].ID, r.opts.Now()); err != nil {
			return err
		}
		return charge(i)(tx)
	}
	if ctx.Err() == nil {
		r.yield(ctx)
		err := r.db.Update(func(tx *bolt.Tx) error {
			next, nextClaimed = nil, false
			for i := range res {
				if res[i].err == nil {
					if err := store(tx, i); err != nil {
						return err
					}
				}
			}
			next, nextClaimed = r.claimNext(ctx, tx)
			return nil
		})
		for i := range res {
			res[i].stored = err == nil && res[i].err == nil
		}
		if err != nil {
			next, nextClaimed = nil, false
			for i := range res {
				if res[i].err == nil {
					res[i].err = r.db.Update(func(tx *bolt.Tx) error { return store(tx, i) })
					res[i].stored = res[i].err == nil
				}
			}
		}
	}
	ok = true
	for i := range res {
		if res[i].stored {
			continue
		}
		if res[i].err == nil {
			res[i].err = ctx.Err() // stopping before its result was stored
		}
		jl := r.opts.Logger.With("job", js[i].ID, "kind", js[i].Kind, "target", js[i].Target)
		if !r.settle(ctx, jl, h, true, js[i], res[i].err, charge(i)) {
			ok = false
		}
	}
	if !ok {
		return nil, false, false
	}
	log.Debug("job batch done")
	return next, nextClaimed, true
}
