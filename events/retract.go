package events

import (
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

// LifecycleUndone marks a card whose import batch was undone: hidden from
// search like a forgotten card, but final — Restore refuses it, since the
// decision that created it was taken back. The record stays so that ids
// are never reused and the import's provenance remains auditable.
const LifecycleUndone Lifecycle = "undone"

// ErrUndone is returned for a Forget or Restore of an undone card.
var ErrUndone = errors.New("sg: the event's import was undone")

// Hidden reports whether cards in lifecycle l are excluded from search
// (their index documents are tombstoned).
func Hidden(l Lifecycle) bool { return l == LifecycleForgotten || l == LifecycleUndone }

// Insert stores a card built outside extraction (an import decision),
// applies its supersede and conflict links like an extracted card's, and
// indexes it. The caller has validated c (bounds, quotes in its cited
// messages); Insert assigns c.ID.
func Insert(tx *bolt.Tx, ix *index.Index, c *Card) error {
	if err := insert(tx, c); err != nil {
		return err
	}
	_, err := ix.Add(tx, Doc(c))
	return err
}

// SetBlockCards records ids as the cards of block, which marks the block
// extracted: its extract job then stores nothing (an import block's cards
// come from the import's decisions, not from extraction).
func SetBlockCards(tx *bolt.Tx, block uint64, ids []uint64) error {
	v, err := kv.Encode(blockCardsVersion, ids)
	if err != nil {
		return err
	}
	return tx.Bucket(kv.BucketBlockEvents).Put(kv.Key(block), v)
}

// RawRecord returns a copy of card id's stored bytes, for an undo journal.
func RawRecord(tx *bolt.Tx, id uint64) ([]byte, error) {
	v := tx.Bucket(kv.BucketEvents).Get(kv.Key(id))
	if v == nil {
		return nil, fmt.Errorf("event %d: %w", id, ErrNotFound)
	}
	return slices.Clone(v), nil
}

// PutRawRecord stores raw (a RawRecord of card id) back, after checking
// that it decodes as card id.
func PutRawRecord(tx *bolt.Tx, id uint64, raw []byte) error {
	r, err := decodeCard(raw)
	if err != nil {
		return fmt.Errorf("event %d: %w", id, err)
	}
	if r.ID != id {
		return fmt.Errorf("event %d: %w: journal record says id %d", id, kv.ErrCorrupt, r.ID)
	}
	if err := tx.Bucket(kv.BucketEvents).Put(kv.Key(id), raw); err != nil {
		return err
	}
	return putRank(tx, &r)
}

// Retract moves card id to LifecycleUndone and tombstones its index
// document. It is idempotent.
func Retract(tx *bolt.Tx, ix *index.Index, id uint64) error {
	r, err := getRecord(tx, id)
	if err != nil {
		return err
	}
	cur := Lifecycle(r.Lifecycle)
	if cur == LifecycleUndone {
		return nil
	}
	r.Lifecycle, r.PrevLifecycle = string(LifecycleUndone), ""
	if err := putRecord(tx, &r); err != nil {
		return err
	}
	if cur == LifecycleForgotten {
		return nil // already tombstoned
	}
	return ix.Delete(tx, id)
}

// Unlink removes every reference card id holds to the cards in gone: a
// supersession by one of them is reverted (the card returns to the
// lifecycle it had before, kept in prev when the caller has no exact
// before-image) and conflict links to them are dropped. It reports
// whether the card changed.
func Unlink(tx *bolt.Tx, id uint64, gone map[uint64]bool, prev Lifecycle) (bool, error) {
	r, err := getRecord(tx, id)
	if err != nil {
		return false, err
	}
	changed := false
	if gone[r.SupersededBy] {
		r.SupersededBy, changed = 0, true
		if prev == "" || prev == LifecycleSuperseded {
			prev = LifecycleActive
		}
		switch Lifecycle(r.Lifecycle) {
		case LifecycleSuperseded:
			r.Lifecycle = string(prev)
		case LifecycleForgotten:
			if r.PrevLifecycle == string(LifecycleSuperseded) {
				r.PrevLifecycle = string(prev)
			}
		}
	}
	if n := len(r.Conflicts); n > 0 {
		r.Conflicts = slices.DeleteFunc(r.Conflicts, func(c uint64) bool { return gone[c] })
		changed = changed || len(r.Conflicts) != n
	}
	if !changed {
		return false, nil
	}
	return true, putRecord(tx, &r)
}
