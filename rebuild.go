package stratagate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// ErrIndexMismatch is returned by CheckIndexes when a derived index differs
// from a fresh rebuild of its source records.
var ErrIndexMismatch = errors.New("sg: index differs from its source records")

// ensureIndexes creates the index buckets and rebuilds an index (or the
// event rank table) whose document count does not match its source (a
// file written before the index existed, or an index dropped by hand) or
// that was written in an older on-disk layout (index.ErrLayout).
func (m *Memory) ensureIndexes() error {
	return m.db.Update(func(tx *bolt.Tx) error {
		if err := m.raw.Create(tx); err != nil {
			return err
		}
		n, err := m.raw.Count(tx)
		old := errors.Is(err, index.ErrLayout)
		if err != nil && !old {
			return err
		}
		seq := tx.Bucket(kv.BucketMessages).Sequence()
		switch {
		case old || uint64(n) > seq:
			m.opts.Logger.Warn("raw index out of date; rebuilding", "indexed", n)
			if err := rebuildRaw(tx, m.raw); err != nil {
				return err
			}
		case uint64(n) < seq:
			// Messages appended after the last merge of the raw index's
			// buffer, by a process that then stopped without merging.
			done, err := recoverRaw(tx, m.raw, uint64(n), seq)
			if err != nil {
				return err
			}
			m.opts.Logger.Info("raw index: re-indexed messages past the last merge from L5", "messages", done)
		}
		if seq >= 1<<32-1 {
			return fmt.Errorf("%w: message sequence %d beyond the raw index's range", kv.ErrCorrupt, seq)
		}
		m.rawBuf.cur.Store(m.raw.NewBuffer(uint32(seq) + 1))
		m.rawBuf.prev.Store(nil)
		if err := m.events.Create(tx); err != nil {
			return err
		}
		n, err = m.events.Count(tx)
		old = errors.Is(err, index.ErrLayout)
		if err != nil && !old {
			return err
		}
		if old || uint64(n) != tx.Bucket(kv.BucketEvents).Sequence() {
			m.opts.Logger.Warn("events index out of date; rebuilding", "indexed", n)
			if err := rebuildEventsFrom(tx, tx, m.events); err != nil {
				return err
			}
		}
		// The rank table search reads card fields from: missing or behind
		// in a file written by a build without it.
		if !events.CurrentRanks(tx) {
			m.opts.Logger.Warn("event rank table out of date; rebuilding")
			if err := events.RebuildRanks(tx, tx); err != nil {
				return err
			}
		}
		if err := m.graph.Create(tx); err != nil {
			return err
		}
		n, err = m.graph.Len(tx)
		old = errors.Is(err, index.ErrLayout)
		if err != nil && !old {
			return err
		}
		// Nodes are counted, not taken from the sequence: an import undo
		// deletes the nodes its projection created.
		if old || n != tx.Bucket(kv.BucketGraphNodes).Stats().KeyN {
			m.opts.Logger.Warn("graph index out of date; rebuilding", "indexed", n)
			return rebuildGraph(tx, m.graph)
		}
		return nil
	})
}

// rebuildRaw regenerates ix from the messages bucket in id order, which is
// the order Append indexed them in, so the result is byte-identical to the
// incremental index.
func rebuildRaw(tx *bolt.Tx, ix *index.Index) error {
	return rebuildRawFrom(tx, tx, ix, tx.Bucket(kv.BucketMessages).Sequence())
}

// rebuildRawFrom rebuilds ix in dst from the messages up to id last and
// the threads of src (the same transaction, or another file's for
// CheckIndexes), in batches of rebuildBatch messages.
func rebuildRawFrom(src, dst *bolt.Tx, ix *index.Index, last uint64) error {
	if err := ix.Drop(dst); err != nil {
		return err
	}
	if err := ix.Create(dst); err != nil {
		return err
	}
	tx := src
	scopes := map[string]string{}
	var batch []index.Doc
	flush := func() error {
		_, err := ix.AddBatch(dst, batch)
		if err != nil && len(batch) > 0 {
			err = unindexable("message", batch[0].ID, err)
		}
		batch = batch[:0]
		return err
	}
	if err := tx.Bucket(kv.BucketMessages).ForEach(func(k, v []byte) error {
		if kv.ID(k) > last {
			return nil
		}
		msg, err := layers.DecodeMessage(v)
		if err != nil {
			return err
		}
		if msg.ID != kv.ID(k) {
			return fmt.Errorf("%w: message key %x holds message %d", kv.ErrCorrupt, k, msg.ID)
		}
		scope, ok := scopes[msg.Thread]
		if !ok {
			th, found, err := layers.GetThread(tx, msg.Thread)
			if err != nil {
				return err
			}
			if !found {
				return fmt.Errorf("message %d: %w: thread %q", msg.ID, kv.ErrCorrupt, msg.Thread)
			}
			scope = th.Scope
			scopes[msg.Thread] = scope
		}
		if batch = append(batch, rawDoc(&msg, scope, messageTerms(&msg))); len(batch) == rebuildBatch {
			return flush()
		}
		return nil
	}); err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	// The source message of an undone import stays stored but unsearchable.
	undone, err := undoneImportMessages(src)
	if err != nil {
		return err
	}
	for _, id := range undone {
		if id > last {
			continue
		}
		if err := ix.Delete(dst, id); err != nil {
			return err
		}
	}
	return nil
}

// rebuildBatch is how many messages one AddBatch of a rebuild carries.
const rebuildBatch = 4096

// unindexable is the error of indexing a stored record during a rebuild:
// every stored record was indexable when it was written, so one the index
// refuses now (a NUL in a keyword, an id indexed twice) is damaged.
func unindexable(kind string, id uint64, err error) error {
	if err == nil || errors.Is(err, kv.ErrCorrupt) {
		return err
	}
	return fmt.Errorf("%w: stored %s %d cannot be indexed: %v", kv.ErrCorrupt, kind, id, err)
}

// RebuildIndexes regenerates every derived index (and the event rank
// table) from its source records.
func (m *Memory) RebuildIndexes(ctx context.Context) error {
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	if m.opts.ReadOnly {
		return ErrReadOnly
	}
	m.rawBuf.mu.Lock()
	defer m.rawBuf.mu.Unlock()
	var seq uint64
	if err := m.db.Update(func(tx *bolt.Tx) error {
		seq = tx.Bucket(kv.BucketMessages).Sequence()
		if err := rebuildRaw(tx, m.raw); err != nil {
			return err
		}
		if err := rebuildEventsFrom(tx, tx, m.events); err != nil {
			return err
		}
		if err := events.RebuildRanks(tx, tx); err != nil {
			return err
		}
		return rebuildGraph(tx, m.graph)
	}); err != nil {
		return err
	}
	// Every message is in the rebuilt postings: the buffer starts after.
	m.rawBuf.cur.Store(m.raw.NewBuffer(uint32(seq) + 1))
	m.rawBuf.prev.Store(nil)
	return nil
}

// CheckIndexes rebuilds every derived index (and the event rank table)
// from its source records into a temporary file and compares it with the stored one, key by key; any
// difference is ErrIndexMismatch naming the first differing key. It works
// on a read-only Memory and does not block writers (it reads one
// snapshot).
func (m *Memory) CheckIndexes(ctx context.Context) error {
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	// Buffered documents are compared once merged; on a read-only Memory
	// (or with Appends racing) the comparison covers the persisted ones.
	if err := m.flushRaw(); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "stratagate-check-")
	if err != nil {
		return classify(err)
	}
	defer os.RemoveAll(dir)
	scratch, err := kv.Open(filepath.Join(dir, "check.sg"), kv.Options{NoSync: true})
	if err != nil {
		return classify(err)
	}
	defer scratch.Close()
	return m.db.View(func(tx *bolt.Tx) error {
		freshRaw := index.New(rawIndexName, rawFields(), index.Options{CacheEntries: -1})
		freshEvents := events.NewIndex()
		if err := scratch.Update(func(stx *bolt.Tx) error {
			n, err := m.raw.Count(tx)
			if err != nil {
				return err
			}
			if err := rebuildRawFrom(tx, stx, freshRaw, uint64(n)); err != nil {
				return err
			}
			if err := rebuildEventsFrom(tx, stx, freshEvents); err != nil {
				return err
			}
			return events.RebuildRanks(tx, stx)
		}); err != nil {
			return err
		}
		return scratch.View(func(stx *bolt.Tx) error {
			if err := index.Compare(m.raw, tx, freshRaw, stx); err != nil {
				return fmt.Errorf("%w: %w", ErrIndexMismatch, err)
			}
			if err := index.Compare(m.events, tx, freshEvents, stx); err != nil {
				return fmt.Errorf("%w: %w", ErrIndexMismatch, err)
			}
			if err := events.CompareRanks(tx, stx); err != nil {
				return fmt.Errorf("%w: %w", ErrIndexMismatch, err)
			}
			return nil
		})
	})
}

// rebuildEventsFrom rebuilds the events index in dst from the cards of src
// in id order (the order they were stored in), tombstoning hidden ones
// (forgotten, or undone with their import).
func rebuildEventsFrom(src, dst *bolt.Tx, ix *index.Index) error {
	if err := ix.Drop(dst); err != nil {
		return err
	}
	if err := ix.Create(dst); err != nil {
		return err
	}
	var forgotten []uint64
	if err := events.ForEach(src, func(c events.Card) error {
		if events.Hidden(c.Lifecycle) {
			forgotten = append(forgotten, c.ID)
		}
		_, err := ix.Add(dst, events.Doc(&c))
		if errors.Is(err, index.ErrDuplicate) {
			return fmt.Errorf("%w: event %d is stored twice (a damaged record id)", kv.ErrCorrupt, c.ID)
		}
		return unindexable("event", c.ID, err)
	}); err != nil {
		return err
	}
	for _, id := range forgotten {
		if err := ix.Delete(dst, id); err != nil {
			return err
		}
	}
	return nil
}

// rebuildGraph regenerates the graph index from the nodes' current state.
// Node documents are replaced as facts change, so a rebuild equals the
// incremental index in content (one live document per node), not byte for
// byte; CheckIndexes therefore does not byte-compare it, and Verify checks
// that every node is indexed.
func rebuildGraph(tx *bolt.Tx, ix *index.Index) error {
	if err := ix.Drop(tx); err != nil {
		return err
	}
	if err := ix.Create(tx); err != nil {
		return err
	}
	var ids []uint64
	if err := graph.ForEachNode(tx, func(n graph.Node) error {
		ids = append(ids, n.ID)
		return nil
	}); err != nil {
		return err
	}
	return graph.Reindex(tx, ix, ids)
}
