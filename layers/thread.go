package layers

import (
	"bytes"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// Thread is the per-thread bookkeeping record: its fixed scope and the
// open tail of turns not yet sealed into a block.
type Thread struct {
	Name      string    `msgpack:"n"`
	Scope     string    `msgpack:"s"`
	Created   time.Time `msgpack:"c"`
	Turns     uint64    `msgpack:"t"` // complete turns appended so far
	Blocks    uint64    `msgpack:"b"` // blocks sealed so far (= last block's Seq)
	OpenTail  []uint64  `msgpack:"o"` // message ids of the open tail, in order
	OpenTurns int       `msgpack:"ot"`
	LastAt    time.Time `msgpack:"la"` // time of the newest message
	// Receipts are the receipt ids of the open tail's turns. They move to
	// the receipts bucket when the tail is sealed (see receipt.go): an
	// Append then rewrites only the thread record it rewrites anyway,
	// not a leaf of the receipts bucket.
	Receipts []PendingReceipt `msgpack:"r,omitempty"`
}

// GetThread reads thread name; ok is false when it does not exist.
func GetThread(tx *bolt.Tx, name string) (th Thread, ok bool, err error) {
	v := tx.Bucket(kv.BucketThreads).Get([]byte(name))
	if v == nil {
		return Thread{}, false, nil
	}
	if th, err = decodeThread(v); err != nil {
		return Thread{}, false, fmt.Errorf("layers: thread %q: %w", name, err)
	}
	return th, true, nil
}

// PutThread stores th.
func PutThread(tx *bolt.Tx, th *Thread) error {
	return tx.Bucket(kv.BucketThreads).Put([]byte(th.Name), encodeThread(th))
}

// ListThreads returns every thread in name order.
func ListThreads(tx *bolt.Tx) ([]Thread, error) {
	var out []Thread
	err := tx.Bucket(kv.BucketThreads).ForEach(func(k, v []byte) error {
		th, err := decodeThread(v)
		if err != nil {
			return fmt.Errorf("layers: thread %q: %w", k, err)
		}
		out = append(out, th)
		return nil
	})
	return out, err
}

// WalkThreadBlocks calls fn with the Seq and id of thread's blocks in Seq
// order starting at block from (backwards, towards Seq 1, when backward is
// set) until fn returns false or an error. It reads only the thread's
// block index, so a caller that needs a few blocks near one does not
// decode the whole thread.
func WalkThreadBlocks(tx *bolt.Tx, thread string, from uint64, backward bool, fn func(seq, id uint64) (bool, error)) error {
	prefix := append([]byte(thread), 0)
	c := tx.Bucket(kv.BucketThreadBlocks).Cursor()
	k, v := c.Seek(threadBlockKey(thread, from))
	if backward {
		if k == nil {
			k, v = c.Last()
		} else if !bytes.Equal(k, threadBlockKey(thread, from)) {
			k, v = c.Prev()
		}
	}
	for ; k != nil && bytes.HasPrefix(k, prefix) && len(k) == len(prefix)+8; k, v = step(c, backward) {
		more, err := fn(kv.ID(k[len(prefix):]), kv.ID(v))
		if err != nil || !more {
			return err
		}
	}
	return nil
}

func step(c *bolt.Cursor, backward bool) ([]byte, []byte) {
	if backward {
		return c.Prev()
	}
	return c.Next()
}
