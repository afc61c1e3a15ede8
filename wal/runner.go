package wal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
)

// ErrStopped is returned by WaitIdle once the Runner has been stopped.
var ErrStopped = errors.New("sg: job runner stopped")

// Apply writes a job's result. It runs inside the transaction that marks the
// job done; returning an error rolls both back and counts as a failed
// attempt.
type Apply func(tx *bolt.Tx) error

// Handler does the work of one job kind.
type Handler struct {
	// Run does the slow part (a model call) outside any transaction and
	// returns the result as an Apply. It must honour ctx: when the Runner
	// stops, ctx is cancelled and the job is released for the next Open.
	Run func(ctx context.Context, j Job) (Apply, error)
	// RunIn, if set, is Run reading through view instead of the
	// handler's own read transactions. A Runner with Inline set calls it
	// with a view of its write transaction (see runInline); Run, if set,
	// must be RunIn reading through the database (Through; Handle sets
	// it when it is nil).
	RunIn func(ctx context.Context, view View, j Job) (Apply, error)
	// OnFail, if set, runs inside the transaction that marks the job failed
	// for good (e.g. to mark its block failed).
	OnFail func(tx *bolt.Tx, j Job, cause string) error
	// Independent promises that Run reads nothing that another job of
	// this kind writes (a derive job reads only its own block and
	// messages). The Runner may then claim consecutive jobs of the kind
	// together and store their results in one transaction (see
	// runBatch).
	Independent bool
}

// permanentError marks an error that retrying cannot fix.
type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

// Permanent wraps err so that the Runner fails the job at once instead of
// retrying (its target is gone, its input can never validate).
func Permanent(err error) error { return permanentError{err} }

// RunnerOptions tune retries. Zero fields take the documented defaults.
type RunnerOptions struct {
	MaxAttempts int           // default 4
	Backoff     time.Duration // first retry delay, doubled per attempt; default 100ms
	MaxBackoff  time.Duration // default 10s
	Logger      *slog.Logger  // default: discard
	Now         func() time.Time
	// Yield, if set, is called before a job's claim and before the
	// transaction that stores its result. It may block to let foreground
	// writes go first (bbolt has one writer: a job's transaction delays
	// any Append that arrives meanwhile) and must return soon after ctx
	// ends.
	Yield func(ctx context.Context)
	// Inline lets the Runner run the jobs of handlers with RunIn inside
	// the write transaction that stores their results, many jobs to one
	// transaction (see runInline). Set it only when every Run is fast and
	// local (an in-process model): a job's model call then holds the
	// database's single writer.
	Inline bool
	// Busy, if set, reports whether a foreground write is waiting for the
	// writer. An inline transaction ends at the first job boundary where
	// one is, so that the write waits for one job, not for many.
	Busy func() bool
}

// View runs fn in a read transaction, or inside a transaction the caller
// already holds.
type View func(fn func(*bolt.Tx) error) error

// Runner executes queued jobs one at a time in a background goroutine. It
// is safe for concurrent use.
type Runner struct {
	db       *kv.DB
	opts     RunnerOptions
	handlers map[Kind]Handler
	// testUpdate, set only by tests, replaces the write transactions of
	// fail to inject commit failures (a full disk).
	testUpdate func(db *kv.DB, fn func(*bolt.Tx) error) error
	// noInline is the last job of an inline chain that rolled back: jobs
	// up to it run one at a time (see runInline). Only the worker uses it.
	noInline uint64

	wake   chan struct{} // buffered(1): new work may exist
	cancel context.CancelFunc
	done   chan struct{} // closed when the loop exits

	mu struct {
		sync.Mutex
		seq     uint64 // bumped by every Notify
		idle    bool
		stopped bool
		changed chan struct{} // closed and replaced on every idle/stop change
	}
}

// NewRunner returns a Runner for db. Register handlers, then Start it.
func NewRunner(db *kv.DB, o RunnerOptions) *Runner {
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 4
	}
	if o.Backoff <= 0 {
		o.Backoff = 100 * time.Millisecond
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 10 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	r := &Runner{db: db, opts: o, handlers: map[Kind]Handler{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
	r.mu.changed = make(chan struct{})
	return r
}

// Inline reports whether r runs jobs inline (RunnerOptions.Inline).
func (r *Runner) Inline() bool { return r.opts.Inline }

// Handle registers h for kind. Call before Start. A handler with RunIn
// and no Run gets Run reading through r's database (see Through).
func (r *Runner) Handle(kind Kind, h Handler) {
	if h.Run == nil && h.RunIn != nil {
		h = h.Through(r.db)
	}
	r.handlers[kind] = h
}

// Start recovers jobs left running by a dead process and starts the worker.
func (r *Runner) Start() error {
	var n int
	err := r.db.Update(func(tx *bolt.Tx) error {
		var err error
		n, err = Recover(tx, r.opts.Now())
		return err
	})
	if err != nil {
		return fmt.Errorf("wal: recover: %w", err)
	}
	if n > 0 {
		r.opts.Logger.Info("resumed interrupted jobs", "count", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.Notify()
	go r.loop(ctx)
	return nil
}

// Notify tells the worker that jobs were enqueued. WaitIdle called after
// Notify returns will not report idle before the worker has looked.
func (r *Runner) Notify() {
	r.mu.Lock()
	r.mu.seq++
	r.mu.Unlock()
	r.setIdle(false)
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *Runner) notifySeq() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.mu.seq
}

// goIdle marks the runner idle unless a Notify arrived since seq was read:
// that Notify may announce a job the queue scan did not see yet.
func (r *Runner) goIdle(seq uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mu.seq != seq {
		return false
	}
	if !r.mu.idle {
		r.mu.idle = true
		close(r.mu.changed)
		r.mu.changed = make(chan struct{})
	}
	return true
}

func (r *Runner) setIdle(idle bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mu.idle != idle {
		r.mu.idle = idle
		close(r.mu.changed)
		r.mu.changed = make(chan struct{})
	}
}

// WaitIdle blocks until no job is pending or running (every queued job is
// done or failed), ctx ends, or the Runner stops.
func (r *Runner) WaitIdle(ctx context.Context) error {
	for {
		r.mu.Lock()
		idle, stopped, ch := r.mu.idle, r.mu.stopped, r.mu.changed
		r.mu.Unlock()
		if stopped {
			return ErrStopped
		}
		if idle {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Stop cancels the running job (it is released, not failed), waits for the
// worker to exit and makes WaitIdle return ErrStopped. It is idempotent.
func (r *Runner) Stop() {
	r.mu.Lock()
	if r.mu.stopped {
		r.mu.Unlock()
		return
	}
	r.mu.stopped = true
	close(r.mu.changed)
	r.mu.changed = make(chan struct{})
	r.mu.Unlock()
	if r.cancel != nil {
		r.cancel()
		<-r.done
	}
}

func (r *Runner) loop(ctx context.Context) {
	defer close(r.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		}
		for {
			seq := r.notifySeq()
			next, wait, err := r.pick()
			if err != nil {
				r.opts.Logger.Error("job queue unreadable", "err", err)
				wait = r.opts.MaxBackoff
			}
			if next == nil && wait == 0 {
				if r.goIdle(seq) {
					break
				}
				continue
			}
			if next == nil {
				t := time.NewTimer(wait)
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-r.wake:
					t.Stop()
				case <-t.C:
				}
				continue
			}
			// A job that succeeds claims the next one in its own
			// transaction; the chain ends at the first job that does
			// not, and the queue is scanned afresh.
			claimed := false
			for next != nil {
				var ok bool
				if r.inlinable(next) {
					next, claimed, ok = r.runInline(ctx, *next, claimed)
				} else if batch := r.gather(next, claimed); len(batch) > 1 {
					next, claimed, ok = r.runBatch(ctx, batch)
				} else {
					next, claimed, ok = r.run(ctx, *next, claimed)
				}
				if !ok {
					return
				}
			}
		}
	}
}

// pick returns the first runnable job, or how long until one becomes
// runnable (0 with no job: the queue is empty).
func (r *Runner) pick() (next *Job, wait time.Duration, err error) {
	err = r.db.View(func(tx *bolt.Tx) error {
		next, wait, err = pickTx(tx, time.Now())
		return err
	})
	return next, wait, err
}

// pickTx is pick inside tx. It decodes jobs in id order only until it
// finds one: the queue of a bulk ingest holds thousands of jobs, and
// decoding all of them for every job made draining it quadratic.
func pickTx(tx *bolt.Tx, now time.Time) (*Job, time.Duration, error) {
	var next *Job
	var wait time.Duration
	err := Scan(tx, func(j Job) bool {
		if j.State != StatePending {
			return true // running: claimed by a worker (only ever this one)
		}
		if d := j.NotBefore.Sub(now); d > 0 {
			if wait == 0 || d < wait {
				wait = d
			}
			return true
		}
		next = &j
		return false
	})
	if err != nil || next != nil {
		return next, 0, err
	}
	return nil, wait, nil
}

// run executes one job, claiming it first unless claimed (the previous
// job's transaction did). It returns false when the Runner is stopping.
// When the job succeeds, the transaction that records it also claims the
// next runnable job, which run returns (claimed) for the caller to run
// next: one transaction per job instead of three (scan, claim, apply)
// while the queue is busy, and the same order and the same attempt
// accounting as claiming it separately, since the claim still precedes
// the job's own work and follows everything before it.
func (r *Runner) run(ctx context.Context, j Job, claimed bool) (next *Job, nextClaimed, ok bool) {
	log := r.opts.Logger.With("job", j.ID, "kind", j.Kind, "target", j.Target)
	h, ok := r.handlers[j.Kind]
	if claimed && ctx.Err() != nil {
		if err := r.db.Update(func(tx *bolt.Tx) error {
			_, err := Release(tx, j.ID, r.opts.Now())
			return err
		}); err != nil {
			log.Error("release failed; job resumes on next open", "err", err)
		}
		return nil, false, false
	}
	if !claimed {
		if j.Attempts >= r.opts.MaxAttempts {
			// Every attempt was used up by a process that died during
			// the job: running it again would crash again.
			r.fail(log, h, ok, j, fmt.Sprintf("attempts exhausted: %d attempts interrupted (last: %s)", j.Attempts, j.Err), nil)
			return nil, false, true
		}
		r.yield(ctx)
		if err := r.db.Update(func(tx *bolt.Tx) error {
			var err error
			j, err = Claim(tx, j.ID, r.opts.Now())
			return err
		}); err != nil {
			log.Error("claim failed", "err", err)
			return nil, false, ctx.Err() == nil
		}
	}
	// The attempt's model calls are counted in its own meter and charged
	// in the transaction that records its outcome.
	mt := &model.Meter{}
	charge := func(tx *bolt.Tx) error { return Charge(tx, j.ID, mt.Usage(), mt.Prompt()) }
	var runErr error
	if !ok {
		runErr = Permanent(fmt.Errorf("no handler for job kind %q", j.Kind))
	} else {
		var apply Apply
		apply, runErr = safeRun(model.WithMeter(ctx, mt), h, j)
		if runErr == nil {
			r.yield(ctx)
			runErr = r.db.Update(func(tx *bolt.Tx) error {
				next, nextClaimed = nil, false
				if err := safeApply(apply, tx); err != nil {
					return err
				}
				if _, err := Done(tx, j.ID, r.opts.Now()); err != nil {
					return err
				}
				if err := charge(tx); err != nil {
					return err
				}
				next, nextClaimed = r.claimNext(ctx, tx)
				return nil
			})
			if runErr == nil {
				log.Debug("job done", "attempts", j.Attempts)
				return next, nextClaimed, true
			}
		}
	}
	return nil, false, r.settle(ctx, log, h, ok, j, runErr, charge)
}

// settle records the outcome of a job whose attempt failed with runErr:
// released when the Runner is stopping (it returns false then), retried
// with backoff, or failed for good.
func (r *Runner) settle(ctx context.Context, log *slog.Logger, h Handler, ok bool, j Job, runErr error, charge func(*bolt.Tx) error) bool {
	if ctx.Err() != nil {
		// Stopping: the interruption is ours, not the job's fault.
		if err := r.db.Update(func(tx *bolt.Tx) error {
			if _, err := Release(tx, j.ID, r.opts.Now()); err != nil {
				return err
			}
			return charge(tx)
		}); err != nil {
			log.Error("release failed; job resumes on next open", "err", err)
		}
		return false
	}
	cause := runErr.Error()
	var perm permanentError
	// A request the model server refused for good (a bad key, an unknown
	// model, a prompt beyond its context) cannot succeed on retry.
	final := errors.As(runErr, &perm) || errors.Is(runErr, model.ErrPermanent) || j.Attempts >= r.opts.MaxAttempts
	if !final {
		err := r.db.Update(func(tx *bolt.Tx) error {
			if _, err := Retry(tx, j.ID, cause, r.opts.Now(), time.Now().Add(r.backoff(j.Attempts))); err != nil {
				return err
			}
			return charge(tx)
		})
		if err != nil {
			log.Error("recording job retry", "err", err)
		} else {
			log.Info("job will retry", "attempts", j.Attempts, "err", cause)
		}
		return true
	}
	r.fail(log, h, ok, j, cause, charge)
	return true
}

// claimNext claims, inside tx, the job the next scan would pick, and
// returns it; nil when there is none, when it has no attempts left (run
// fails it unclaimed), or when the Runner is stopping. A job that may run
// in a batch is returned unclaimed: the batch claims it with the others.
// A queue it cannot read or a claim it cannot write is left to the next
// scan: it must not undo the job just done.
func (r *Runner) claimNext(ctx context.Context, tx *bolt.Tx) (*Job, bool) {
	if ctx.Err() != nil {
		return nil, false
	}
	nj, _, err := pickTx(tx, time.Now())
	if err != nil || nj == nil || nj.Attempts >= r.opts.MaxAttempts {
		return nil, false
	}
	if r.batchable(nj) {
		return nj, false
	}
	c, err := Claim(tx, nj.ID, r.opts.Now())
	if err != nil {
		return nil, false
	}
	return &c, true
}

// fail marks j failed for good, running its OnFail hook in the same
// transaction. If the hook itself fails (its target is unreadable), the job
// is still marked failed (without the hook's effect) so that it can never
// wedge the queue. If the transaction cannot be committed (a full disk, an
// I/O error), nothing is recorded and the job stays claimed: the next Open
// returns it to pending and, its attempts spent, fails it again, hook and
// all. So the failure and its effect (a derive job's block marked failed)
// are recorded together or not at all, and no block is left pending
// without a job.
func (r *Runner) fail(log *slog.Logger, h Handler, ok bool, j Job, cause string, charge func(*bolt.Tx) error) {
	if charge == nil {
		charge = func(*bolt.Tx) error { return nil }
	}
	var hookErr error
	err := r.update(func(tx *bolt.Tx) error {
		if _, err := Fail(tx, j.ID, cause, r.opts.Now()); err != nil {
			hookErr = err
			return err
		}
		if err := charge(tx); err != nil {
			return err
		}
		if ok && h.OnFail != nil {
			hookErr = safeApply(func(tx *bolt.Tx) error { return h.OnFail(tx, j, cause) }, tx)
			return hookErr
		}
		return nil
	})
	if err != nil && hookErr == nil {
		log.Error("cannot record the job's failure; it is retried on the next open", "err", err, "cause", cause)
		return
	}
	if err != nil {
		log.Error("job failure hook failed; marking the job failed without it", "err", err)
		err = r.update(func(tx *bolt.Tx) error {
			if _, err := Fail(tx, j.ID, cause+"; failure hook: "+err.Error(), r.opts.Now()); err != nil {
				return err
			}
			return charge(tx)
		})
	}
	if err != nil {
		log.Error("recording job failure; it is retried on the next open", "err", err)
		return
	}
	log.Warn("job failed", "attempts", j.Attempts, "err", cause)
}

func (r *Runner) yield(ctx context.Context) {
	if r.opts.Yield != nil {
		r.opts.Yield(ctx)
	}
}

// update runs fn in a write transaction: r.db.Update, or the test's
// fault-injecting stand-in.
func (r *Runner) update(fn func(*bolt.Tx) error) error {
	if r.testUpdate != nil {
		return r.testUpdate(r.db, fn)
	}
	return r.db.Update(fn)
}

func (r *Runner) backoff(attempts int) time.Duration {
	d := r.opts.Backoff
	for i := 1; i < attempts && d < r.opts.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, r.opts.MaxBackoff)
}

// safeApply runs fn inside tx, converting a panic into a permanent error
// (the transaction then rolls back).
func safeApply(fn Apply, tx *bolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = Permanent(fmt.Errorf("apply panic: %v", p))
		}
	}()
	return fn(tx)
}

// safeRun converts a handler panic into an error: a bug in one derivation
// must not take the host process down.
func safeRun(ctx context.Context, h Handler, j Job) (a Apply, err error) {
	defer func() {
		if p := recover(); p != nil {
			a, err = nil, Permanent(fmt.Errorf("handler panic: %v", p))
		}
	}()
	a, err = h.Run(ctx, j)
	if err == nil && a == nil {
		err = errors.New("handler returned no result")
	}
	return a, err
}

// Through returns h with Run set to RunIn reading through db's own read
// transactions.
func (h Handler) Through(db *kv.DB) Handler {
	in := h.RunIn
	h.Run = func(ctx context.Context, j Job) (Apply, error) { return in(ctx, db.View, j) }
	return h
}
