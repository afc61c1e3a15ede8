package layers

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// ReceiptVersion is the record version of the receipts bucket.
const ReceiptVersion byte = 1

// Receipt is where the turn appended under a receipt id went: the record
// of the receipts bucket, keyed by the receipt id.
type Receipt struct {
	Thread     string   `msgpack:"th"`
	Turn       uint64   `msgpack:"tu"`
	MessageIDs []uint64 `msgpack:"m"`
	// SealedBlockID is the block the turn completed, or 0.
	SealedBlockID uint64 `msgpack:"b,omitempty"`
}

// PendingReceipt is a receipt of a turn still in its thread's open tail,
// kept in the thread record until the tail is sealed.
type PendingReceipt struct {
	ID         string   `msgpack:"i"`
	Turn       uint64   `msgpack:"t"`
	MessageIDs []uint64 `msgpack:"m"`
}

// GetReceipt returns the receipt id stored in the receipts bucket; ok is
// false when it is not there (it may still be pending in a thread record:
// see PendingReceiptOf).
func GetReceipt(tx *bolt.Tx, id string) (r Receipt, ok bool, err error) {
	v := tx.Bucket(kv.BucketReceipts).Get([]byte(id))
	if v == nil {
		return Receipt{}, false, nil
	}
	if _, err := kv.Decode(v, &r, ReceiptVersion); err != nil {
		return Receipt{}, false, fmt.Errorf("receipt %q: %w", id, err)
	}
	return r, true, nil
}

// PendingReceiptOf returns receipt id if thread's record holds it pending.
func PendingReceiptOf(tx *bolt.Tx, thread, id string) (r Receipt, ok bool, err error) {
	th, found, err := GetThread(tx, thread)
	if err != nil || !found {
		return Receipt{}, false, err
	}
	for _, p := range th.Receipts {
		if p.ID == id {
			return Receipt{Thread: th.Name, Turn: p.Turn, MessageIDs: p.MessageIDs}, true, nil
		}
	}
	return Receipt{}, false, nil
}

// putReceipt stores r under id in the receipts bucket.
func putReceipt(tx *bolt.Tx, id string, r *Receipt) error {
	v, err := kv.Encode(ReceiptVersion, r)
	if err != nil {
		return err
	}
	return tx.Bucket(kv.BucketReceipts).Put([]byte(id), v)
}

// flushReceipts moves th's pending receipts into the receipts bucket; the
// turn that seals the tail (sealed != 0) is recorded with its block.
func flushReceipts(tx *bolt.Tx, th *Thread, sealed uint64) error {
	for i := range th.Receipts {
		p := &th.Receipts[i]
		r := Receipt{Thread: th.Name, Turn: p.Turn, MessageIDs: p.MessageIDs}
		if p.Turn == th.Turns {
			r.SealedBlockID = sealed
		}
		if err := putReceipt(tx, p.ID, &r); err != nil {
			return err
		}
	}
	th.Receipts = nil
	return nil
}
