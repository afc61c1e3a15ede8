package stratagate

import (
	"context"
	"sync/atomic"
	"time"
)

// Background jobs yield to appends. bbolt has a single writer, so an Append
// that arrives while a job stores its result waits for that transaction:
// under a stream of appends, the jobs' transactions were what made the
// Append tail (p99) ten times its median. A job therefore holds its write
// until appends have paused for yieldQuiet, or until it has waited
// yieldMax, so that background work still advances at least once a second
// under a stream that never pauses. A live agent appends a turn every few
// seconds and never makes a job wait; a bulk import makes derivation
// trail it, and WaitIdle still waits for everything.
const (
	yieldQuiet = 2 * time.Millisecond
	yieldMax   = time.Second
)

// foreground records when appends last committed, in monotonic time.
type foreground struct {
	epoch time.Time
	last  atomic.Int64 // nanoseconds since epoch
	// waiting counts appends queued and not yet committed, and raw index
	// merges under way: foreground writes a job's transaction delays.
	waiting atomic.Int32
}

func newForeground() *foreground { return &foreground{epoch: time.Now()} }

// touch notes an append queued or committed now.
func (f *foreground) touch() { f.last.Store(int64(time.Since(f.epoch))) }

// begin notes a foreground write waiting for, or holding, the writer;
// end notes it done.
func (f *foreground) begin() { f.waiting.Add(1) }
func (f *foreground) end()   { f.waiting.Add(-1) }

// busy reports whether a foreground write is waiting for the writer.
func (f *foreground) busy() bool { return f.waiting.Load() > 0 }

// yield blocks until no append has been seen for yieldQuiet, yieldMax has
// passed, or ctx ends.
func (f *foreground) yield(ctx context.Context) {
	deadline := time.Now().Add(yieldMax)
	for {
		quiet := time.Since(f.epoch) - time.Duration(f.last.Load())
		if quiet >= yieldQuiet {
			return
		}
		wait := min(yieldQuiet-quiet, time.Until(deadline))
		if wait <= 0 {
			return
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}
