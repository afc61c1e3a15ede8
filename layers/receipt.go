package layers

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// Receipt record versions. Version 1 is Receipt in msgpack; version 2
// (written from file format 4) holds only what the messages do not:
//
//	version 2 receipt record
//	+----+----------------------+--------------------------------------+
//	| 02 | sealed block uvarint | the turn's message ids: count, first |
//	|    | (0: none)            | uvarint, then uvarint deltas ≥ 1     |
//	+----+----------------------+--------------------------------------+
//
// The thread and turn are read from the turn's first message (every
// message of a turn has them). 7 bytes for a two-message turn instead of
// ~35.
const (
	ReceiptVersionV1 byte = 1
	ReceiptVersion   byte = 2
)

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
	if r, err = DecodeReceipt(v); err != nil {
		return Receipt{}, false, fmt.Errorf("receipt %q: %w", id, err)
	}
	if r.Thread == "" {
		m, err := GetMessage(tx, r.MessageIDs[0])
		if err != nil {
			// A receipt of a turn whose messages are gone is damage, not
			// a receipt that is missing.
			return Receipt{}, false, fmt.Errorf("receipt %q: %w: its first message %d: %v", id, kv.ErrCorrupt, r.MessageIDs[0], err)
		}
		r.Thread, r.Turn = m.Thread, m.Turn
	}
	return r, true, nil
}

// DecodeReceipt decodes a receipts bucket record. A version 2 record does
// not hold the thread and turn: they are left empty, for the caller to
// take from the first message (GetReceipt does).
func DecodeReceipt(v []byte) (Receipt, error) {
	if len(v) == 0 || v[0] != ReceiptVersion {
		var r Receipt
		if _, err := kv.Decode(v, &r, ReceiptVersionV1); err != nil {
			return Receipt{}, err
		}
		if len(r.MessageIDs) == 0 || r.Thread == "" {
			return Receipt{}, fmt.Errorf("%w: version 1 receipt without messages or thread", kv.ErrCorrupt)
		}
		return r, nil
	}
	block, ids, err := parseIDRun(v[1:])
	if err != nil {
		return Receipt{}, fmt.Errorf("%w: version 2 receipt: %v", kv.ErrCorrupt, err)
	}
	return Receipt{MessageIDs: ids, SealedBlockID: block}, nil
}

// EncodeReceipt returns r's version 2 record. r.MessageIDs must be
// increasing (a turn's ids are); r.Thread and r.Turn are not stored.
func EncodeReceipt(r *Receipt) ([]byte, error) {
	if !increasing(r.MessageIDs) {
		return nil, fmt.Errorf("layers: receipt: message ids %v: none, or not increasing", r.MessageIDs)
	}
	return appendIDRun([]byte{ReceiptVersion}, r.SealedBlockID, r.MessageIDs), nil
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
	v, err := EncodeReceipt(r)
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
