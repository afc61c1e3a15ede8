package layers

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// A span is one sealed block's entry in thread_spans: the block id and its
// message ids, in order, under the key thread ‖ 0x00 ‖ last message id.
// Within a thread, blocks seal disjoint, growing runs of message ids, so
// one Seek to thread ‖ 0x00 ‖ id lands on the only span that can hold id.
// It replaces two maps of one entry per message (message_block and
// thread_messages, format 3 and before): a thread's sealed messages in
// order are its spans' lists, and a message's block is the span that lists
// it.
//
//	span record, version 1
//	+----+--------------+--------------+--------------+------------------+
//	| 01 | block uvarint| count uvarint| first uvarint| count−1 deltas   |
//	+----+--------------+--------------+--------------+------------------+
//
// Every delta is at least 1 (ids grow) and the last id equals the key's.
const spanVersion byte = 1

// Span is a decoded thread_spans entry.
type Span struct {
	Thread     string
	BlockID    uint64
	MessageIDs []uint64
}

func spanKey(thread string, last uint64) []byte { return threadBlockKey(thread, last) }

// putSpan writes the span of block: its message ids ids, of thread.
func putSpan(tx *bolt.Tx, thread string, block uint64, ids []uint64) error {
	if !increasing(ids) {
		return fmt.Errorf("layers: span of block %d: message ids %v: none, or not increasing", block, ids)
	}
	v := appendIDRun(append(make([]byte, 0, 1+3*binary.MaxVarintLen64+2*len(ids)), spanVersion), block, ids)
	return tx.Bucket(kv.BucketThreadSpans).Put(spanKey(thread, ids[len(ids)-1]), v)
}

// DecodeSpan decodes a thread_spans entry. Any inconsistency (a key that is
// not thread ‖ 0x00 ‖ id, a short or overlong value, ids that do not grow
// or do not end at the key's) is kv.ErrCorrupt.
func DecodeSpan(k, v []byte) (Span, error) {
	bad := func(why string) (Span, error) {
		return Span{}, fmt.Errorf("layers: thread_spans entry %q: %w: %s", k, kv.ErrCorrupt, why)
	}
	i := bytes.IndexByte(k, 0)
	if i < 0 || len(k) != i+9 {
		return bad("key is not thread ‖ 0x00 ‖ id")
	}
	last := kv.ID(k[i+1:])
	if len(v) == 0 || v[0] != spanVersion {
		return bad("unknown record version")
	}
	block, ids, err := parseIDRun(v[1:])
	if err != nil || block == 0 {
		return bad("truncated or inconsistent ids, or block 0")
	}
	if ids[len(ids)-1] != last {
		return bad(fmt.Sprintf("ids end at %d, key names %d", ids[len(ids)-1], last))
	}
	return Span{Thread: string(k[:i]), BlockID: block, MessageIDs: ids}, nil
}

// spanFirst returns the first message id of a span record without
// decoding the rest (0 if it does not decode).
func spanFirst(v []byte) uint64 {
	if len(v) == 0 || v[0] != spanVersion {
		return 0
	}
	p := v[1:]
	for range 2 { // block, count
		_, n := binary.Uvarint(p)
		if n <= 0 {
			return 0
		}
		p = p[n:]
	}
	first, n := binary.Uvarint(p)
	if n <= 0 {
		return 0
	}
	return first
}

// spanCursor is a cursor on thread_spans confined to one thread.
type spanCursor struct {
	c      *bolt.Cursor
	prefix []byte
}

func newSpanCursor(tx *bolt.Tx, thread string) spanCursor {
	return spanCursor{c: tx.Bucket(kv.BucketThreadSpans).Cursor(), prefix: append([]byte(thread), 0)}
}

func (s spanCursor) in(k []byte) bool {
	return k != nil && len(k) == len(s.prefix)+8 && bytes.HasPrefix(k, s.prefix)
}

// seek positions the cursor on the thread's span that may hold id and
// decodes it; ok is false when id lies past the thread's sealed spans (or
// the span there does not decode: Verify reports it).
func (s spanCursor) seek(id uint64) (sp Span, k []byte, ok bool) {
	k, v := s.c.Seek(spanKey(string(s.prefix[:len(s.prefix)-1]), id))
	if !s.in(k) {
		return Span{}, k, false
	}
	sp, err := DecodeSpan(k, v)
	return sp, k, err == nil
}

// before returns the last message id of the span before the one at key k
// (k nil: the thread's last span), or 0.
func (s spanCursor) before(k []byte) uint64 {
	var pk []byte
	if k == nil {
		pk, _ = s.c.Last()
	} else {
		s.c.Seek(k)
		pk, _ = s.c.Prev()
	}
	if !s.in(pk) {
		return 0
	}
	return kv.ID(pk[len(s.prefix):])
}

// after returns the first message id of the span after the one at key k,
// or 0.
func (s spanCursor) after(k []byte) uint64 {
	s.c.Seek(k)
	nk, nv := s.c.Next()
	if !s.in(nk) {
		return 0
	}
	return spanFirst(nv)
}

// MessageBlock returns the block a message of thread was sealed into, or 0
// while it is in its thread's open tail (or is no message of thread).
func MessageBlock(tx *bolt.Tx, thread string, msgID uint64) uint64 {
	sp, _, ok := newSpanCursor(tx, thread).seek(msgID)
	if !ok || !slices.Contains(sp.MessageIDs, msgID) {
		return 0
	}
	return sp.BlockID
}

// Neighbours returns the ids of the messages just before and after msg id
// in thread (0 where there is none). A thread's messages are its sealed
// ones, listed by its spans, followed by its open tail, listed by the
// thread record.
func Neighbours(tx *bolt.Tx, thread string, id uint64) (prev, next uint64) {
	_, prev, next = Locate(tx, thread, id)
	return prev, next
}

// Locate returns MessageBlock and Neighbours of message id of thread in one
// lookup.
func Locate(tx *bolt.Tx, thread string, id uint64) (block, prev, next uint64) {
	sc := newSpanCursor(tx, thread)
	sp, k, ok := sc.seek(id)
	if ok {
		i := slices.Index(sp.MessageIDs, id)
		if i < 0 {
			return 0, 0, 0 // within the span's range, but another thread's
		}
		if i > 0 {
			prev = sp.MessageIDs[i-1]
		} else {
			prev = sc.before(k)
		}
		if i+1 < len(sp.MessageIDs) {
			return sp.BlockID, prev, sp.MessageIDs[i+1]
		}
		if next = sc.after(k); next == 0 {
			if tail := openTail(tx, thread); len(tail) > 0 {
				next = tail[0]
			}
		}
		return sp.BlockID, prev, next
	}
	if sc.in(k) {
		return 0, 0, 0 // a span that does not decode
	}
	tail := openTail(tx, thread)
	i := slices.Index(tail, id)
	if i < 0 {
		return 0, 0, 0
	}
	if i+1 < len(tail) {
		next = tail[i+1]
	}
	if i > 0 {
		return 0, tail[i-1], next
	}
	// The tail's first message follows the thread's last sealed one.
	return 0, sc.before(k), next
}

// openTail returns thread's open tail (nil if the record is missing or
// unreadable: then only the sealed messages count).
func openTail(tx *bolt.Tx, thread string) []uint64 {
	th, ok, err := GetThread(tx, thread)
	if err != nil || !ok {
		return nil
	}
	return th.OpenTail
}

// MigrateSpans writes the thread_spans entry of every block that
// thread_blocks lists and deletes the two maps they replace
// (message_block, thread_messages), inside tx: the format 3 → 4 step. A
// block that does not decode gets no span (Verify reports the block).
func MigrateSpans(tx *bolt.Tx) (written, skipped int, err error) {
	if tx.Bucket(kv.BucketThreadSpans) == nil {
		if _, err := tx.CreateBucket(kv.BucketThreadSpans); err != nil {
			return 0, 0, err
		}
	}
	type entry struct {
		thread string
		block  uint64
	}
	var todo []entry
	// Collect first: Puts reposition cursors of other buckets' pages too.
	err = tx.Bucket(kv.BucketThreadBlocks).ForEach(func(k, v []byte) error {
		i := bytes.IndexByte(k, 0)
		if i < 0 {
			skipped++
			return nil
		}
		todo = append(todo, entry{thread: string(k[:i]), block: kv.ID(v)})
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	for _, e := range todo {
		b, err := GetBlock(tx, e.block)
		if err != nil || b.Thread != e.thread || len(b.MessageIDs) == 0 {
			skipped++
			continue
		}
		if err := putSpan(tx, e.thread, e.block, b.MessageIDs); err != nil {
			skipped++
			continue
		}
		written++
	}
	for _, name := range [][]byte{kv.BucketMessageBlock, kv.BucketThreadMsgs} {
		if tx.Bucket(name) != nil {
			if err := tx.DeleteBucket(name); err != nil {
				return 0, 0, err
			}
		}
	}
	return written, skipped, nil
}
