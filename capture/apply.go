package capture

import (
	"context"
	"errors"

	"github.com/stratagate/stratagate"
)

// Store is what capture needs of a memory. *stratagate.Memory implements
// it; so may a client of a running server (see HookOptions.Dial), whose
// methods return errors wrapping the same sentinels, or ErrNoServer once
// the server is gone.
type Store interface {
	Append(ctx context.Context, t stratagate.Turn) (stratagate.TurnRef, error)
	Cursor(ctx context.Context, key string) (int64, error)
	SetCursor(ctx context.Context, key string, off int64) error
	SearchEvents(ctx context.Context, q stratagate.Query) ([]stratagate.EventHit, error)
	SearchRaw(ctx context.Context, q stratagate.Query) ([]stratagate.Hit, error)
}

var _ Store = (*stratagate.Memory)(nil)

// threadLister is implemented by a Store that can say a thread's scope
// (*stratagate.Memory does).
type threadLister interface {
	Threads(ctx context.Context) ([]stratagate.Thread, error)
}

// Result is what Apply did.
type Result struct {
	// Added counts turns stored; Duplicates turns whose receipt was
	// already stored with the same turn (nothing written).
	Added, Duplicates int
	// Rejected are the turns the store refused as bad input (a receipt
	// stored with another turn, a scope other than the thread's, content
	// beyond the store's limits); they are not retried.
	Rejected []Reject
}

// batchAppender is implemented by a Store that commits many turns in one
// transaction (*stratagate.Memory does; a server client need not).
type batchAppender interface {
	AppendBatch(ctx context.Context, turns []stratagate.Turn) ([]stratagate.TurnRef, error)
}

// applyBatch is how many turns Apply hands to one AppendBatch: a session
// transcript of months is thousands of turns, and one transaction per turn
// was the cost of importing it.
const applyBatch = 256

// applyBatchBytes bounds the message bytes of one AppendBatch, so that a
// transcript of large tool outputs does not make one huge transaction (or
// one huge call to a server).
const applyBatchBytes = 4 << 20

// Apply appends b's turns to st in order, each with its receipt, so that a
// replay stores nothing twice; then, when key is not empty, it advances the
// cursor key to b.Next (never backwards). file names the transcript in
// rejects. A turn the store refuses as bad input is reported in Result and
// skipped. Any other error (the store locked, closed, failing, a cancelled
// ctx) stops Apply at once and leaves the cursor where it was: the turns
// already appended are found by their receipts on the next run.
//
// A turn whose thread already exists under another scope (a transcript
// parsed with another working directory) is appended under the thread's
// scope when st can list threads.
//
// A Store with AppendBatch gets the turns in batches of up to 256 (and 4
// MiB of messages), one transaction each. A batch is all or nothing, so
// one it refuses as bad input is appended again turn by turn, which finds
// the turn to reject (or the thread's scope) exactly as appending one by
// one would.
func Apply(ctx context.Context, st Store, b Batch, file, key string) (Result, error) {
	a := applier{st: st, b: &b, file: file, fixed: map[string]string{}}
	ba, batched := st.(batchAppender)
	for i := 0; i < len(b.Turns); {
		j := i + 1
		if batched {
			size := turnBytes(&b.Turns[i])
			for j < len(b.Turns) && j-i < applyBatch {
				if size += turnBytes(&b.Turns[j]); size > applyBatchBytes {
					break
				}
				j++
			}
		}
		if j-i > 1 {
			done, err := a.batch(ctx, ba, i, j)
			if err != nil {
				return a.res, err
			}
			if done {
				i = j
				continue
			}
		}
		for ; i < j; i++ {
			if err := a.one(ctx, i); err != nil {
				return a.res, err
			}
		}
	}
	if key == "" {
		return a.res, nil
	}
	cur, err := st.Cursor(ctx, key)
	if err != nil {
		return a.res, err
	}
	if b.Next > cur {
		return a.res, st.SetCursor(ctx, key, b.Next)
	}
	return a.res, nil
}

// applier is one Apply under way.
type applier struct {
	st    Store
	b     *Batch
	file  string
	fixed map[string]string // thread → its stored scope, once looked up
	res   Result
}

// turn returns turn i with its thread's stored scope, if looked up.
func (a *applier) turn(i int) stratagate.Turn {
	t := a.b.Turns[i]
	if s, ok := a.fixed[t.Thread]; ok {
		t.Scope = s
	}
	return t
}

// batch appends turns i..j-1 in one AppendBatch and reports whether it
// stored them; false with no error means it refused them as bad input
// (nothing stored), for the caller to append them one by one.
func (a *applier) batch(ctx context.Context, ba batchAppender, i, j int) (bool, error) {
	ts := make([]stratagate.Turn, 0, j-i)
	for k := i; k < j; k++ {
		ts = append(ts, a.turn(k))
	}
	refs, err := ba.AppendBatch(ctx, ts)
	switch {
	case err == nil:
		for _, ref := range refs {
			if ref.Duplicate {
				a.res.Duplicates++
			} else {
				a.res.Added++
			}
		}
		return true, nil
	case badInput(err):
		return false, nil
	default:
		return false, err
	}
}

// one appends turn i alone.
func (a *applier) one(ctx context.Context, i int) error {
	t := a.turn(i)
	ref, err := a.st.Append(ctx, t)
	if scopeMismatch(err) {
		if s, ok := storedScope(ctx, a.st, t.Thread); ok && s != t.Scope {
			a.fixed[t.Thread] = s
			t.Scope = s
			ref, err = a.st.Append(ctx, t)
		}
	}
	switch {
	case err == nil && ref.Duplicate:
		a.res.Duplicates++
	case err == nil:
		a.res.Added++
	case badInput(err):
		var o Origin
		if i < len(a.b.Origins) {
			o = a.b.Origins[i]
		}
		a.res.Rejected = append(a.res.Rejected, Reject{File: a.file, Origin: o, Reason: "turn not stored: " + err.Error()})
	default:
		return err
	}
	return nil
}

// turnBytes is the size of t's messages.
func turnBytes(t *stratagate.Turn) int {
	n := 0
	for i := range t.Messages {
		m := &t.Messages[i]
		n += len(m.Content) + len(m.Speaker) + len(m.ToolName) + len(m.ToolCallID) + 64
	}
	return n
}

// badInput reports whether the store refused a turn for what it holds:
// such a turn is rejected, not retried.
func badInput(err error) bool {
	return errors.Is(err, stratagate.ErrInvalidInput) || errors.Is(err, stratagate.ErrScope) || errors.Is(err, stratagate.ErrReceiptConflict)
}

func scopeMismatch(err error) bool {
	return errors.Is(err, stratagate.ErrScope) || errors.Is(err, stratagate.ErrReceiptConflict)
}

func storedScope(ctx context.Context, st Store, thread string) (string, bool) {
	tl, ok := st.(threadLister)
	if !ok {
		return "", false
	}
	ths, err := tl.Threads(ctx)
	if err != nil {
		return "", false
	}
	for _, th := range ths {
		if th.Name == thread {
			return th.Scope, true
		}
	}
	return "", false
}
