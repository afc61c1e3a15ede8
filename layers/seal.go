package layers

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/wal"
)

// TurnResult says where an appended turn went.
type TurnResult struct {
	Thread     string
	Turn       uint64
	MessageIDs []uint64
	// SealedBlockID is the block this turn completed, or 0 if the turn is in
	// the open tail.
	SealedBlockID uint64
	// Flushed lists the receipt ids the seal moved from the thread record
	// into the receipts bucket (this turn's among them).
	Flushed []string
}

// AppendTurn stores msgs (already validated: roles, UTF-8, sizes) as the
// next turn of thread inside tx, creating the thread with scope if needed,
// and seals the open tail into a pending block when it reaches blockTurns
// complete turns. It assigns message ids and fills msgs[i].ID, Thread, Turn
// and SHA256. A non-empty receipt is recorded for the turn: pending in the
// thread record while the turn is in the open tail, in the receipts bucket
// once it is sealed (the caller has checked that it is new). Nothing is
// written if it returns an error (the caller's transaction rolls back).
func AppendTurn(tx *bolt.Tx, thread, scope, receipt string, msgs []Message, blockTurns int, now time.Time) (TurnResult, error) {
	th, ok, err := GetThread(tx, thread)
	if err != nil {
		return TurnResult{}, err
	}
	if !ok {
		th = Thread{Name: thread, Scope: scope, Created: now.UTC()}
	} else if th.Scope != scope {
		return TurnResult{}, fmt.Errorf("%w: thread %q belongs to %q, turn names %q", ErrScope, thread, th.Scope, scope)
	}
	th.Turns++
	res := TurnResult{Thread: thread, Turn: th.Turns, MessageIDs: make([]uint64, len(msgs))}
	mb := tx.Bucket(kv.BucketMessages)
	// Append-only, keys only grow: a split page is never written again,
	// so it is packed full (0.9 left 14% of its pages empty).
	mb.FillPercent = 1
	for i := range msgs {
		id, err := kv.NextID(mb)
		if err != nil {
			return TurnResult{}, err
		}
		m := &msgs[i]
		m.ID, m.Thread, m.Turn = id, thread, th.Turns
		if err := PutMessage(tx, m); err != nil {
			return TurnResult{}, err
		}
		res.MessageIDs[i] = id
		th.OpenTail = append(th.OpenTail, id)
		if m.At.After(th.LastAt) {
			th.LastAt = m.At.UTC()
		}
	}
	if receipt != "" {
		th.Receipts = append(th.Receipts, PendingReceipt{ID: receipt, Turn: th.Turns, MessageIDs: res.MessageIDs})
	}
	th.OpenTurns++
	if th.OpenTurns >= blockTurns {
		for _, p := range th.Receipts {
			res.Flushed = append(res.Flushed, p.ID)
		}
		b, err := Seal(tx, &th, now)
		if err != nil {
			return TurnResult{}, err
		}
		res.SealedBlockID = b.ID
	}
	return res, PutThread(tx, &th)
}

// Seal turns th's open tail into a pending block in tx: L5 (message ids and
// their hash), the hash of the deterministic L4 and L3 (neither the record
// nor the returned block holds their text: LoadRenderings renders it), its
// thread_blocks and thread_spans entries, and a derive job, all before any model call. It moves th's pending receipts
// into the receipts bucket and resets th's open tail; the caller stores th.
func Seal(tx *bolt.Tx, th *Thread, now time.Time) (Block, error) {
	if len(th.OpenTail) == 0 {
		return Block{}, fmt.Errorf("layers: seal %q: empty open tail", th.Name)
	}
	msgs, err := GetMessages(tx, th.OpenTail)
	if err != nil {
		return Block{}, err
	}
	id, err := kv.NextID(tx.Bucket(kv.BucketBlocks))
	if err != nil {
		return Block{}, err
	}
	th.Blocks++
	b := Block{
		ID: id, Thread: th.Name, Scope: th.Scope, Seq: th.Blocks, State: StatePending,
		MessageIDs: append([]uint64(nil), th.OpenTail...),
		TurnFirst:  msgs[0].Turn, TurnLast: msgs[len(msgs)-1].Turn,
		FirstAt: msgs[0].At, LastAt: msgs[len(msgs)-1].At,
		FirstOffset: offset(msgs[0].At), LastOffset: offset(msgs[len(msgs)-1].At),
		L5Hash: L5Hash(msgs), CreatedAt: now.UTC(),
	}
	b.RenderVersion, b.RenderHash = RendererVersion, renderSumOf(msgs)
	if err := putBlock(tx, &b); err != nil {
		return Block{}, err
	}
	if err := tx.Bucket(kv.BucketThreadBlocks).Put(threadBlockKey(th.Name, b.Seq), kv.Key(id)); err != nil {
		return Block{}, err
	}
	// One thread_spans entry lists the block's messages: a thread's sealed
	// messages in order and each one's block (ARCHITECTURE.md "Spans").
	if err := putSpan(tx, th.Name, id, b.MessageIDs); err != nil {
		return Block{}, err
	}
	if _, err := wal.Enqueue(tx, wal.KindDerive, id, now); err != nil {
		return Block{}, err
	}
	if err := flushReceipts(tx, th, id); err != nil {
		return Block{}, err
	}
	th.OpenTail, th.OpenTurns = nil, 0
	return b, nil
}

func offset(t time.Time) int32 {
	_, off := t.Zone()
	return int32(off)
}
