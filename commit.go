package stratagate

import (
	"context"
	"time"

	bolt "go.etcd.io/bbolt"
)

// maxGroup bounds how many Appends one group commit carries.
const maxGroup = 128

// Appends commit in one of two ways. A caller that finds no commit under
// way and none queued commits its own request on its goroutine (direct);
// otherwise it queues the request for the committer goroutine, which
// takes the first waiting request, gathers every other one already queued
// (without waiting for more) and commits them in one transaction: group
// commit under contention, and no hand-off to another goroutine and back
// for a lone writer (two wake-ups per Append, on the path of every fsync).
// commitMu is held by whichever commits, so a direct commit never runs
// beside a group; no direct commit starts while a request is queued or
// the committer waits for commitMu, so a queued request waits for at most
// the one direct commit under way.
//
// The committer also merges the raw index's buffer: when a commit left it
// full, or mergeIdle after the last document was staged. A direct commit
// that fills the buffer, or stages into an empty one (the committer then
// has no timer armed), wakes the committer through kick.

// commit commits req and waits for its outcome.
func (m *Memory) commit(ctx context.Context, req *appendReq) error {
	m.fg.touch()
	if !m.commitFg(ctx, req) {
		return classify(ctx.Err())
	}
	if req.err != nil {
		return req.err
	}
	for _, tr := range req.turns {
		if tr.res.SealedBlockID != 0 && !tr.res.Duplicate {
			m.runner.Notify()
			break
		}
	}
	return nil
}

// commitFg commits req, counted as a foreground write while it waits for
// or holds the writer; false if ctx ended before req was queued.
func (m *Memory) commitFg(ctx context.Context, req *appendReq) bool {
	m.fg.begin()
	defer m.fg.end()
	if m.commitDirect(req) {
		return true
	}
	select {
	case m.commits <- req:
	case <-ctx.Done():
		return false
	}
	// Once queued the turns are committed whatever ctx does: waiting keeps
	// the answer truthful (a receipt makes a retry safe either way).
	<-req.done
	return true
}

// commitDirect commits req on the caller's goroutine if nothing else is
// committing or queued, and reports whether it did.
func (m *Memory) commitDirect(req *appendReq) bool {
	if len(m.commits) > 0 || m.committerWaits.Load() || !m.commitMu.TryLock() {
		return false
	}
	// Deferred: on the caller's goroutine a panic may be recovered (an
	// HTTP server does), and must not leave every later Append waiting.
	defer m.commitMu.Unlock()
	if len(m.commits) > 0 || m.committerWaits.Load() {
		return false
	}
	wasEmpty := m.rawBuf.cur.Load().Len() == 0
	if full := m.commitGroup([]*appendReq{req}); full || wasEmpty {
		select {
		case m.kick <- struct{}{}:
		default: // a kick is pending already
		}
	}
	return true
}

// commitLoop is the committer goroutine (see above). It exits when
// m.commits is closed.
func (m *Memory) commitLoop() {
	defer close(m.flushed)
	group := make([]*appendReq, 0, maxGroup)
	idle := time.NewTimer(mergeIdle)
	idle.Stop()
	defer idle.Stop()
	// A merge that failed (it logs and keeps the buffer) is retried
	// mergeIdle later, not in a loop.
	var failed time.Time
	for {
		var first *appendReq
		var idleC <-chan time.Time
		if m.rawBuf.cur.Load().Len() > 0 {
			idle.Reset(max(0, mergeIdle-m.sinceStaged(), mergeIdle-time.Since(failed)))
			idleC = idle.C
		}
		select {
		case r, ok := <-m.commits:
			if !ok {
				return
			}
			first = r
		case <-m.kick:
		case <-idleC:
		}
		idle.Stop()
		// The request taken (or the merge) waits for at most the direct
		// commit under way: no later one starts while this is set.
		m.committerWaits.Store(true)
		m.commitMu.Lock()
		m.committerWaits.Store(false)
		if first == nil {
			b := m.rawBuf.cur.Load()
			due := b.Len() >= max(m.opts.IndexBuffer, 1) || (b.Len() > 0 && m.sinceStaged() >= mergeIdle)
			if due && time.Since(failed) >= mergeIdle && !m.mergeLogged() {
				failed = time.Now()
			}
			m.commitMu.Unlock()
			continue
		}
		group = append(group[:0], first)
		turns := len(first.turns)
	gather:
		for len(group) < maxGroup && turns < MaxBatchTurns {
			select {
			case r, ok := <-m.commits:
				if !ok {
					break gather
				}
				group = append(group, r)
				turns += len(r.turns)
			default:
				break gather
			}
		}
		if m.commitGroup(group) && time.Since(failed) >= mergeIdle && !m.mergeLogged() {
			failed = time.Now()
		}
		m.commitMu.Unlock()
	}
}

// sinceStaged is how long ago the raw index buffer last took a document.
func (m *Memory) sinceStaged() time.Duration {
	return time.Duration(time.Now().UnixNano() - m.rawBuf.last.Load())
}

// commitGroup commits group in one transaction, or each request alone if
// that fails so that one bad request cannot fail its neighbours, and
// closes their done channels. It reports whether the raw index's buffer is
// full. The caller holds commitMu.
func (m *Memory) commitGroup(group []*appendReq) (full bool) {
	full = m.commitGroupTx(group)
	m.fg.touch()
	for _, r := range group {
		if r.err == nil {
			for i := range r.turns {
				m.receipts.forget(r.turns[i].flushed)
			}
		}
		close(r.done)
	}
	return full
}

// commitGroupTx is commitGroup's transactions, under the raw-index lock.
func (m *Memory) commitGroupTx(group []*appendReq) (full bool) {
	m.rawBuf.mu.Lock()
	defer m.rawBuf.mu.Unlock()
	err := m.rawUpdateLocked(func(tx *bolt.Tx) error {
		for _, r := range group {
			if r.err = m.appendTx(tx, r); r.err != nil {
				return r.err
			}
		}
		return nil
	})
	if err != nil && len(group) > 1 {
		for _, r := range group {
			r.err = m.rawUpdateLocked(func(tx *bolt.Tx) error { return m.appendTx(tx, r) })
		}
	} else if err != nil {
		group[0].err = err
	}
	return m.rawBuf.cur.Load().Len() >= max(m.opts.IndexBuffer, 1)
}

// mergeLogged merges the raw index's buffer and reports whether it did; a
// failure is logged and the buffer kept (the next merge, or the next Open,
// indexes it).
func (m *Memory) mergeLogged() bool {
	// The next append waits for the merge: jobs yield to it as to one.
	m.fg.begin()
	defer m.fg.end()
	if err := m.flushRaw(); err != nil {
		m.opts.Logger.Error("raw index merge failed; documents stay buffered", "err", err)
		return false
	}
	return true
}
