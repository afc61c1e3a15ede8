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
func Apply(ctx context.Context, st Store, b Batch, file, key string) (Result, error) {
	var res Result
	fixed := map[string]string{} // thread → its stored scope, once looked up
	for i, t := range b.Turns {
		if s, ok := fixed[t.Thread]; ok {
			t.Scope = s
		}
		ref, err := st.Append(ctx, t)
		if scopeMismatch(err) {
			if s, ok := storedScope(ctx, st, t.Thread); ok && s != t.Scope {
				fixed[t.Thread] = s
				t.Scope = s
				ref, err = st.Append(ctx, t)
			}
		}
		switch {
		case err == nil && ref.Duplicate:
			res.Duplicates++
		case err == nil:
			res.Added++
		case errors.Is(err, stratagate.ErrInvalidInput) || errors.Is(err, stratagate.ErrScope) || errors.Is(err, stratagate.ErrReceiptConflict):
			var o Origin
			if i < len(b.Origins) {
				o = b.Origins[i]
			}
			res.Rejected = append(res.Rejected, Reject{File: file, Origin: o, Reason: "turn not stored: " + err.Error()})
		default:
			return res, err
		}
	}
	if key == "" {
		return res, nil
	}
	cur, err := st.Cursor(ctx, key)
	if err != nil {
		return res, err
	}
	if b.Next > cur {
		return res, st.SetCursor(ctx, key, b.Next)
	}
	return res, nil
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
