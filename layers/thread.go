package layers

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

const threadVersion byte = 1

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
}

// GetThread reads thread name; ok is false when it does not exist.
func GetThread(tx *bolt.Tx, name string) (th Thread, ok bool, err error) {
	v := tx.Bucket(kv.BucketThreads).Get([]byte(name))
	if v == nil {
		return Thread{}, false, nil
	}
	if _, err := kv.Decode(v, &th, threadVersion); err != nil {
		return Thread{}, false, fmt.Errorf("layers: thread %q: %w", name, err)
	}
	th.Created, th.LastAt = th.Created.UTC(), th.LastAt.UTC()
	return th, true, nil
}

// PutThread stores th.
func PutThread(tx *bolt.Tx, th *Thread) error {
	v, err := kv.Encode(threadVersion, th)
	if err != nil {
		return err
	}
	return tx.Bucket(kv.BucketThreads).Put([]byte(th.Name), v)
}

// ListThreads returns every thread in name order.
func ListThreads(tx *bolt.Tx) ([]Thread, error) {
	var out []Thread
	err := tx.Bucket(kv.BucketThreads).ForEach(func(k, v []byte) error {
		var th Thread
		if _, err := kv.Decode(v, &th, threadVersion); err != nil {
			return fmt.Errorf("layers: thread %q: %w", k, err)
		}
		th.Created, th.LastAt = th.Created.UTC(), th.LastAt.UTC()
		out = append(out, th)
		return nil
	})
	return out, err
}
