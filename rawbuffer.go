package stratagate

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// The raw index's write buffer. Every message is the raw index document
// whose doc number is its message id (both dense from 1, in append
// order). Appends put new documents into an in-memory index.Buffer instead
// of the index's postings; they are merged into the postings in one
// transaction (index.MergeBuffer: AddBatch's result, from the postings the
// buffer already grouped) once IndexBuffer accumulate, after
// mergeIdle without Appends, before any other write to the raw index, in
// WaitIdle and in Close. The argument that nothing is lost or wrong:
//
//   - The persisted index holds messages 1..n (its document count) and
//     the messages bucket 1..seq. Every message past n is in the buffer
//     (or, in a snapshot older than the last merge, in the previous
//     buffer), so a query's transaction ranks 1..seq: read your writes.
//   - A crash loses the buffer only. Open re-indexes messages n+1..seq
//     from L5 (their source) with the same documents (ensureIndexes).
//   - The merged index equals one Add per message in id order (AddBatch's
//     contract), hence a rebuild.
//   - rawMu is held by every transaction that writes the raw index
//     (appends, imports, undo, merges, rebuilds) from its start until the
//     buffer agrees with what it committed, so buffer contents and
//     committed messages never diverge; a failed transaction's documents
//     are truncated before rawMu is released.
type rawBuffer struct {
	mu   sync.Mutex                   // held across every raw-index write
	cur  atomic.Pointer[index.Buffer] // documents past the persisted ones
	prev atomic.Pointer[index.Buffer] // the buffer before the last merge, for older snapshots
	last atomic.Int64                 // unix nanos of the last staged document
}

// mergeIdle is how long the buffer may sit unmerged without Appends.
const mergeIdle = time.Second

// rawUpdate runs fn in a write transaction holding the raw-index lock;
// documents fn staged into the buffer are dropped if it does not commit.
func (m *Memory) rawUpdate(fn func(tx *bolt.Tx) error) error {
	m.rawBuf.mu.Lock()
	defer m.rawBuf.mu.Unlock()
	return m.rawUpdateLocked(fn)
}

func (m *Memory) rawUpdateLocked(fn func(tx *bolt.Tx) error) error {
	buf := m.rawBuf.cur.Load()
	n0 := buf.Len()
	err := m.db.Update(fn)
	if err != nil {
		buf.Truncate(n0)
	}
	return err
}

// stageRaw indexes msg (just stored in tx) through the buffer. The caller
// holds the raw-index lock (rawUpdate).
func (m *Memory) stageRaw(msg *Message, scope string, terms []string) error {
	d, err := m.rawBuf.cur.Load().Add(rawDoc(msg, scope, terms))
	if err != nil {
		return err
	}
	if uint64(d) != msg.ID {
		return fmt.Errorf("%w: raw index buffer: message %d would be document %d", kv.ErrCorrupt, msg.ID, d)
	}
	m.rawBuf.last.Store(time.Now().UnixNano())
	return nil
}

// mergeRaw writes the buffered documents into the raw index's postings.
// The caller holds the raw-index lock.
func (m *Memory) mergeRaw() error {
	buf := m.rawBuf.cur.Load()
	n := buf.Len()
	if n == 0 {
		return nil
	}
	if err := m.db.Update(func(tx *bolt.Tx) error {
		first, err := m.raw.MergeBuffer(tx, buf)
		if err == nil && first != buf.First() {
			err = fmt.Errorf("%w: raw index merge: buffer starts at document %d, index at %d", kv.ErrCorrupt, buf.First(), first)
		}
		return err
	}); err != nil {
		return fmt.Errorf("merging %d buffered raw index documents: %w", n, err)
	}
	m.rawBuf.prev.Store(buf)
	m.rawBuf.cur.Store(m.raw.NewBuffer(buf.First() + uint32(n)))
	return nil
}

// flushRaw merges the buffer now (WaitIdle, Close, CheckIndexes).
func (m *Memory) flushRaw() error {
	if m.opts.ReadOnly {
		return nil
	}
	m.rawBuf.mu.Lock()
	defer m.rawBuf.mu.Unlock()
	return m.mergeRaw()
}

// rawPending returns the buffer a query in tx must rank with the persisted
// raw index and the last document it must see (the transaction's last
// message). A query whose snapshot predates the buffers at hand (two
// merges during its transaction) gets a buffer rebuilt from the messages
// of its own snapshot.
func (m *Memory) rawPending(tx *bolt.Tx) (*index.Buffer, uint32, error) {
	n, err := m.raw.Count(tx)
	if err != nil {
		return nil, 0, err
	}
	seq := tx.Bucket(kv.BucketMessages).Sequence()
	if seq <= uint64(n) {
		return nil, 0, nil
	}
	if seq >= 1<<32-1 {
		return nil, 0, fmt.Errorf("%w: message sequence %d beyond the raw index's range", kv.ErrCorrupt, seq)
	}
	end := uint32(seq)
	for _, b := range [...]*index.Buffer{m.rawBuf.cur.Load(), m.rawBuf.prev.Load()} {
		if b != nil && b.Covers(uint32(n), end) {
			return b, end, nil
		}
	}
	b, err := m.bufferFromL5(tx, uint64(n), seq)
	return b, end, err
}

// bufferFromL5 builds a buffer of the raw index documents of messages
// after..last of tx, read from the messages themselves.
func (m *Memory) bufferFromL5(tx *bolt.Tx, after, last uint64) (*index.Buffer, error) {
	b := m.raw.NewBuffer(uint32(after + 1))
	docs, err := rawDocsFromL5(tx, after, last)
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		if _, err := b.Add(d); err != nil {
			return nil, unindexable("message", d.ID, err)
		}
	}
	return b, nil
}

// rawDocsFromL5 returns the raw index documents of messages after+1..last
// of tx, in id order, exactly as Append made them.
func rawDocsFromL5(tx *bolt.Tx, after, last uint64) ([]index.Doc, error) {
	var docs []index.Doc
	scopes := map[string]string{}
	c := tx.Bucket(kv.BucketMessages).Cursor()
	next := after + 1
	for k, v := c.Seek(kv.Key(next)); k != nil && kv.ID(k) <= last; k, v = c.Next() {
		msg, err := layers.DecodeMessage(v)
		if err != nil {
			return nil, err
		}
		if msg.ID != kv.ID(k) || msg.ID != next {
			return nil, fmt.Errorf("%w: message key %x holds message %d, expected %d", kv.ErrCorrupt, k, msg.ID, next)
		}
		next++
		scope, ok := scopes[msg.Thread]
		if !ok {
			th, found, err := layers.GetThread(tx, msg.Thread)
			if err != nil {
				return nil, err
			}
			if !found {
				return nil, fmt.Errorf("message %d: %w: thread %q", msg.ID, kv.ErrCorrupt, msg.Thread)
			}
			scope = th.Scope
			scopes[msg.Thread] = scope
		}
		docs = append(docs, rawDoc(&msg, scope, messageTerms(&msg)))
	}
	if next != last+1 {
		return nil, fmt.Errorf("%w: messages %d–%d missing from L5", kv.ErrCorrupt, next, last)
	}
	return docs, nil
}

// recoverRaw indexes, in tx, the messages past the raw index's persisted
// documents: those a crash took out of the buffer. It returns how many.
func recoverRaw(tx *bolt.Tx, ix *index.Index, indexed, seq uint64) (int, error) {
	const chunk = 4096
	done := 0
	for after := indexed; after < seq; after += chunk {
		docs, err := rawDocsFromL5(tx, after, min(seq, after+chunk))
		if err != nil {
			return done, err
		}
		if _, err := ix.AddBatch(tx, docs); err != nil {
			return done, unindexable("message", after+1, err)
		}
		done += len(docs)
	}
	return done, nil
}
