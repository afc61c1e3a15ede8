package events

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
)

// ErrNotFound is returned for an unknown event id.
var ErrNotFound = kv.ErrNotFound

// ErrInvalidCard marks a proposed card that failed validation.
var ErrInvalidCard = errors.New("sg: invalid event card")

// cardRecord is Card as stored.
type cardRecord struct {
	ID            uint64   `msgpack:"i"`
	Scope         string   `msgpack:"sc"`
	Thread        string   `msgpack:"th"`
	Block         uint64   `msgpack:"b"`
	Msgs          []uint64 `msgpack:"m"`
	Title         string   `msgpack:"ti"`
	Summary       string   `msgpack:"su"`
	Tags          []string `msgpack:"tg,omitempty"`
	Quotes        []string `msgpack:"q,omitempty"`
	Type          string   `msgpack:"ty"`
	Status        string   `msgpack:"st"`
	Participants  []string `msgpack:"p,omitempty"`
	Entities      []string `msgpack:"en,omitempty"`
	Criticality   string   `msgpack:"cr"`
	Mentioned     kv.Stamp `msgpack:"ma"`
	HStart        kv.Stamp `msgpack:"hs"`
	HEnd          kv.Stamp `msgpack:"he"`
	TimeText      string   `msgpack:"tt,omitempty"`
	Precision     string   `msgpack:"pr"`
	Basis         string   `msgpack:"ba"`
	Approx        bool     `msgpack:"ap,omitempty"`
	Lifecycle     string   `msgpack:"l"`
	PrevLifecycle string   `msgpack:"pl,omitempty"` // restored by Restore
	Supersedes    []uint64 `msgpack:"sp,omitempty"`
	SupersededBy  uint64   `msgpack:"sb,omitempty"`
	Conflicts     []uint64 `msgpack:"cf,omitempty"`
	Created       kv.Stamp `msgpack:"c"`
}

func (c *Card) record(prev Lifecycle) cardRecord {
	return cardRecord{
		ID: c.ID, Scope: c.Scope, Thread: c.Thread, Block: c.SourceBlockID, Msgs: c.SourceMessageIDs,
		Title: c.Title, Summary: c.Summary, Tags: c.Tags, Quotes: c.Quotes, Type: string(c.EventType),
		Status: string(c.Status), Participants: c.Participants, Entities: c.Entities, Criticality: string(c.Criticality),
		Mentioned: kv.ToStamp(c.Temporal.MentionedAt), HStart: kv.ToStamp(c.Temporal.HappenedStart), HEnd: kv.ToStamp(c.Temporal.HappenedEnd),
		TimeText: c.Temporal.OriginalText, Precision: c.Temporal.Precision, Basis: c.Temporal.Basis, Approx: c.Temporal.Approx,
		Lifecycle: string(c.Lifecycle), PrevLifecycle: string(prev), Supersedes: c.SupersedesEventIDs,
		SupersededBy: c.SupersededBy, Conflicts: c.ConflictsWithEventIDs, Created: kv.ToStamp(c.CreatedAt),
	}
}

func (r *cardRecord) card() Card {
	return Card{
		ID: r.ID, Scope: r.Scope, Thread: r.Thread, SourceBlockID: r.Block, SourceMessageIDs: r.Msgs,
		Title: r.Title, Summary: r.Summary, Tags: r.Tags, Quotes: r.Quotes, EventType: Type(r.Type),
		Status: Status(r.Status), Participants: r.Participants, Entities: r.Entities, Criticality: Criticality(r.Criticality),
		Temporal: Temporal{
			MentionedAt: r.Mentioned.Time(), HappenedStart: r.HStart.Time(), HappenedEnd: r.HEnd.Time(),
			OriginalText: r.TimeText, Precision: r.Precision, Basis: r.Basis, Approx: r.Approx,
		},
		Lifecycle: Lifecycle(r.Lifecycle), SupersedesEventIDs: r.Supersedes, SupersededBy: r.SupersededBy,
		ConflictsWithEventIDs: r.Conflicts, CreatedAt: r.Created.Time(),
	}
}

func getRecord(tx *bolt.Tx, id uint64) (cardRecord, error) {
	v := tx.Bucket(kv.BucketEvents).Get(kv.Key(id))
	if v == nil {
		return cardRecord{}, fmt.Errorf("event %d: %w", id, ErrNotFound)
	}
	r, err := decodeCard(v)
	if err != nil {
		return cardRecord{}, fmt.Errorf("event %d: %w", id, err)
	}
	return r, nil
}

// existingRecord is the part of cardRecord an extraction shows the model
// of a thread's earlier cards: decoding only it (msgpack skips the other
// fields without building them) halves the cost of the up to maxExisting
// cards each extraction reads.
type existingRecord struct {
	ID           uint64   `msgpack:"i"`
	Title        string   `msgpack:"ti"`
	Summary      string   `msgpack:"su"`
	Quotes       []string `msgpack:"q,omitempty"`
	Type         string   `msgpack:"ty"`
	Participants []string `msgpack:"p,omitempty"`
	Entities     []string `msgpack:"en,omitempty"`
	Lifecycle    string   `msgpack:"l"`
}

// getExisting reads what an extraction shows of card id, and its lifecycle,
// through c, a cursor on the events bucket (loadSource reads many cards).
func getExisting(c *bolt.Cursor, id uint64) (model.ExistingEvent, Lifecycle, error) {
	var r existingRecord
	k := kv.Key(id)
	got, v := c.Seek(k)
	if !bytes.Equal(got, k) || v == nil {
		return model.ExistingEvent{}, "", fmt.Errorf("event %d: %w", id, ErrNotFound)
	}
	if binaryCard(v) {
		c, err := decodeCard(v)
		if err != nil {
			return model.ExistingEvent{}, "", fmt.Errorf("event %d: %w", id, err)
		}
		r = existingRecord{ID: c.ID, Title: c.Title, Summary: c.Summary, Quotes: c.Quotes, Type: c.Type,
			Participants: c.Participants, Entities: c.Entities, Lifecycle: c.Lifecycle}
	} else if _, err := kv.Decode(v, &r, cardVersionV1); err != nil {
		return model.ExistingEvent{}, "", fmt.Errorf("event %d: %w", id, err)
	}
	return model.ExistingEvent{
		ID: r.ID, Title: r.Title, Summary: r.Summary, EventType: r.Type,
		Participants: r.Participants, Entities: r.Entities, Quotes: r.Quotes,
	}, Lifecycle(r.Lifecycle), nil
}

func putRecord(tx *bolt.Tx, r *cardRecord) error {
	if err := tx.Bucket(kv.BucketEvents).Put(kv.Key(r.ID), encodeCard(r)); err != nil {
		return err
	}
	return putRank(tx, r)
}

// GetLifecycle reads only card id's lifecycle (graph views check the
// source events of every fact they show).
func GetLifecycle(tx *bolt.Tx, id uint64) (Lifecycle, error) {
	v := tx.Bucket(kv.BucketEvents).Get(kv.Key(id))
	if v == nil {
		return "", fmt.Errorf("event %d: %w", id, ErrNotFound)
	}
	lc, err := decodeLifecycle(v)
	if err != nil {
		return "", fmt.Errorf("event %d: %w", id, err)
	}
	return Lifecycle(lc), nil
}

// Get reads card id.
func Get(tx *bolt.Tx, id uint64) (Card, error) {
	r, err := getRecord(tx, id)
	if err != nil {
		return Card{}, err
	}
	return r.card(), nil
}

// Decode decodes a stored card record.
func Decode(v []byte) (Card, error) {
	r, err := decodeCard(v)
	if err != nil {
		return Card{}, err
	}
	return r.card(), nil
}

// ForEach calls fn for every card in id order.
func ForEach(tx *bolt.Tx, fn func(Card) error) error {
	return tx.Bucket(kv.BucketEvents).ForEach(func(_, v []byte) error {
		c, err := Decode(v)
		if err != nil {
			return err
		}
		return fn(c)
	})
}

// BlockCards returns the ids of the cards extracted from block, and
// whether the block's extraction has been stored at all (a block may
// legitimately yield no card).
func BlockCards(tx *bolt.Tx, block uint64) ([]uint64, bool, error) {
	v := tx.Bucket(kv.BucketBlockEvents).Get(kv.Key(block))
	if v == nil {
		return nil, false, nil
	}
	var ids []uint64
	if _, err := kv.Decode(v, &ids, blockCardsVersion); err != nil {
		return nil, true, err
	}
	return ids, true, nil
}

// insert stores a new card (assigning its id) and applies its supersede
// and conflict links to the earlier cards. Text of earlier cards is never
// rewritten: only their lifecycle and link fields change.
func insert(tx *bolt.Tx, c *Card) error {
	b := tx.Bucket(kv.BucketEvents)
	b.FillPercent = 0.9
	id, err := b.NextSequence()
	if err != nil {
		return err
	}
	c.ID = id
	for _, old := range c.SupersedesEventIDs {
		r, err := getRecord(tx, old)
		if err != nil {
			return err
		}
		r.SupersededBy = id
		if Lifecycle(r.Lifecycle) == LifecycleForgotten {
			r.PrevLifecycle = string(LifecycleSuperseded)
		} else {
			r.Lifecycle = string(LifecycleSuperseded)
		}
		if err := putRecord(tx, &r); err != nil {
			return err
		}
	}
	for _, other := range c.ConflictsWithEventIDs {
		r, err := getRecord(tx, other)
		if err != nil {
			return err
		}
		if !slices.Contains(r.Conflicts, id) {
			r.Conflicts = append(r.Conflicts, id)
		}
		if err := putRecord(tx, &r); err != nil {
			return err
		}
	}
	rec := c.record("")
	if err := putRecord(tx, &rec); err != nil {
		return err
	}
	// The rank table's sequence follows the events bucket's (see
	// CurrentRanks).
	ranks, err := rankBucket(tx)
	if err != nil {
		return err
	}
	ranks.FillPercent = 0.9
	return ranks.SetSequence(id)
}

// setForgotten moves a card to or from the forgotten lifecycle.
func setForgotten(tx *bolt.Tx, id uint64, forget bool) (Card, bool, error) {
	r, err := getRecord(tx, id)
	if err != nil {
		return Card{}, false, err
	}
	cur := Lifecycle(r.Lifecycle)
	if cur == LifecycleUndone {
		return Card{}, false, fmt.Errorf("event %d: %w", id, ErrUndone)
	}
	switch {
	case forget && cur == LifecycleForgotten, !forget && cur != LifecycleForgotten:
		return r.card(), false, nil // already so
	case forget:
		r.PrevLifecycle, r.Lifecycle = string(cur), string(LifecycleForgotten)
	default:
		r.Lifecycle = r.PrevLifecycle
		if r.Lifecycle == "" {
			r.Lifecycle = string(LifecycleActive)
		}
		r.PrevLifecycle = ""
	}
	if err := putRecord(tx, &r); err != nil {
		return Card{}, false, err
	}
	return r.card(), true, nil
}

// SetForgotten moves card id to (forget) or from the forgotten lifecycle
// and reports whether anything changed.
func SetForgotten(tx *bolt.Tx, id uint64, forget bool) (bool, error) {
	_, changed, err := setForgotten(tx, id, forget)
	return changed, err
}

// Encode returns the stored form of c (Decode's inverse), for tools and
// tests that inspect or repair files; writers use the extraction job.
func Encode(c *Card) ([]byte, error) {
	r := c.record("")
	return encodeCard(&r), nil
}
