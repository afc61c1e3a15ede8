package stratagate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/wal"
)

// Memory is an open StrataGate file. It is safe for concurrent use by
// multiple goroutines. A process holding a file writable excludes every
// other process, ReadOnly ones included (see the package documentation).
type Memory struct {
	db     *kv.DB
	opts   Options
	runner *wal.Runner  // nil when read-only
	raw    *index.Index // L5 messages, BM25 over their text
	events *index.Index // event cards, BM25F over their fields
	graph  *index.Index // graph nodes, BM25F over name, aliases, tags, state, facts, relations
	obs    *observer    // retrieval log writer; nil when read-only
	rawBuf rawBuffer    // raw index documents not yet merged (see rawbuffer.go)
	// receipts maps receipts pending in thread records to their threads
	// (see receipts.go).
	receipts pendingReceipts
	fg       *foreground // when appends last committed (see foreground.go)

	// The committer (see commit.go).
	commits  chan *appendReq
	kick     chan struct{} // wakes the committer after a direct commit
	flushed  chan struct{} // closed when the commit loop exits
	commitMu sync.Mutex    // held by whichever goroutine commits appends
	// committerWaits is set while the committer waits for commitMu.
	committerWaits atomic.Bool

	mu struct {
		sync.RWMutex // write-held only by Close; read-held by every call
		closed       bool
	}
	prefix struct {
		sync.Mutex
		s string // gate session-id prefix, drawn on first use (see NewSession)
	}
}

// Open opens (creating if needed) the StrataGate file at path. A nil opts
// means all defaults. Unfinished derivation jobs left by an earlier process
// resume in the background.
func Open(path string, opts *Options) (*Memory, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	db, err := kv.Open(path, kv.Options{ReadOnly: o.ReadOnly, NoSync: o.NoSync, LockTimeout: o.LockTimeout, Now: o.Clock})
	if err != nil {
		return nil, classify(err)
	}
	m := &Memory{db: db, opts: o, raw: newRawIndex(), events: events.NewIndex(), graph: graph.NewIndex(), fg: newForeground()}
	if o.ReadOnly {
		// A file left by a crash may hold messages its raw index lacks:
		// rank them from a buffer built once, here. An index of an older
		// layout is reported by the searches that need it.
		if err := m.db.View(func(tx *bolt.Tx) error {
			b, _, err := m.rawPending(tx)
			m.rawBuf.cur.Store(b)
			return err
		}); err != nil && !errors.Is(err, index.ErrLayout) {
			_ = db.Close()
			return nil, classify(err)
		}
		return m, nil
	}
	if err := m.migrate(); err != nil {
		_ = db.Close()
		return nil, classify(err)
	}
	if err := m.ensureIndexes(); err != nil {
		_ = db.Close()
		return nil, classify(err)
	}
	m.runner = wal.NewRunner(db, wal.RunnerOptions{
		MaxAttempts: o.JobAttempts, Backoff: o.JobBackoff, Logger: o.Logger, Now: o.Clock, Yield: m.fg.yield,
		Inline: model.IsInProcess(o.Model), Busy: m.fg.busy,
	})
	m.runner.Handle(wal.KindDerive, layers.DeriveHandler(db, o.Model, o.Clock))
	m.runner.Handle(wal.KindExtract, events.ExtractHandler(db, o.Model, m.events, o.Logger, o.Clock))
	// Projections of import blocks keep a journal, so that ImportUndo can
	// take them back.
	m.runner.Handle(wal.KindProject, graph.JournaledProjectHandler(db, o.Model, m.graph, o.Logger, o.Clock,
		func(tx *bolt.Tx, block uint64) bool { _, ok := importOfBlock(tx, block); return ok }))
	if err := m.runner.Start(); err != nil {
		_ = db.Close()
		return nil, classify(err)
	}
	if err := m.db.View(m.receipts.load); err != nil {
		m.runner.Stop()
		_ = db.Close()
		return nil, classify(err)
	}
	m.startObserver()
	m.commits = make(chan *appendReq, 64)
	m.kick = make(chan struct{}, 1)
	m.flushed = make(chan struct{})
	go m.commitLoop()
	return m, nil
}

// Close stops background jobs (a running job is released and resumes on the
// next Open), waits for in-flight Appends and closes the file. It is
// idempotent; later calls on m return ErrClosed.
func (m *Memory) Close() error {
	m.mu.Lock()
	if m.mu.closed {
		m.mu.Unlock()
		return nil
	}
	m.mu.closed = true
	m.mu.Unlock()
	var mergeErr error
	if m.commits != nil {
		close(m.commits)
		<-m.flushed
		// Not needed for safety (Open re-indexes what a buffer held), but
		// the next Open then starts at once.
		if mergeErr = m.flushRaw(); mergeErr != nil {
			m.opts.Logger.Error("raw index merge at close failed; the next Open re-indexes", "err", mergeErr)
		}
	}
	if m.runner != nil {
		m.runner.Stop()
	}
	m.stopObserver()
	return classify(errors.Join(mergeErr, m.db.Close()))
}

// enter read-locks m for one call; the caller must call the returned
// release. It fails with ErrClosed after Close.
func (m *Memory) enter(ctx context.Context) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, classify(err)
	}
	m.mu.RLock()
	if m.mu.closed {
		m.mu.RUnlock()
		return nil, ErrClosed
	}
	return m.mu.RUnlock, nil
}

// WaitIdle blocks until every queued derivation job is done or failed.
// Normal use never needs it (jobs run in the background); tests and tools
// call it to observe a settled store.
func (m *Memory) WaitIdle(ctx context.Context) error {
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	// Wait without holding m's lock so that Close is never delayed by a
	// waiter: Close stops the runner, which wakes us with ErrStopped.
	release()
	if m.runner == nil {
		return ErrReadOnly
	}
	m.flushObservations()
	if err := m.flushRaw(); err != nil {
		return classify(err)
	}
	err = m.runner.WaitIdle(ctx)
	if errors.Is(err, wal.ErrStopped) {
		return ErrClosed
	}
	return classify(err)
}

// Path returns the file's path.
func (m *Memory) Path() string { return m.db.Path() }

func notFound(what string, id any) error {
	return fmt.Errorf("%w: %s %v", ErrNotFound, what, id)
}
