package stratagate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// EventHit is one SearchEvents result: a compact view of an event card.
type EventHit struct {
	ID            uint64
	Title         string
	Summary       string
	EventType     string
	Status        string
	Precision     string
	Lifecycle     string
	TimeText      string
	Participants  []string
	MentionedAt   time.Time
	HappenedStart time.Time
	HappenedEnd   time.Time
	// SourceMessageIDs are the L5 messages the card cites.
	SourceMessageIDs []uint64
	Score            float64
}

// EventDetail is a card with everything needed to verify it.
type EventDetail struct {
	Card events.Card
	// Sources are the cited messages, verbatim, with their timestamps.
	Sources []Message
	// BlockSummary is the L1 summary of the card's source block.
	BlockSummary string
	// Weight is the card's current use weight.
	Weight float64
	// Supersedes, SupersededBy and Conflicts are the linked cards.
	Supersedes   []events.Card
	SupersededBy *events.Card
	Conflicts    []events.Card
}

// Use reports which memories an answer actually used. RecordMemoryUse is
// the only writer of weights.
type Use struct {
	ReceiptID    string
	AssessmentID string
	EventIDs     []uint64
	NodeIDs      []uint64
}

// ErrReceiptConflict is returned by Append and RecordMemoryUse for a
// receipt already recorded with different content (another turn; other
// ids).
var ErrReceiptConflict = errors.New("sg: receipt already recorded with different content")

const (
	observationEventsTag = "events"
)

// SearchEvents ranks event cards: BM25F over the card text fused by
// reciprocal-rank fusion (k = 60) with structured rankings — participants
// and entities named in the query, the event type the query implies, time
// overlap with a time expression in the query, first/latest intent by
// chronology, and the use weight as a prior. Candidates come only from
// lexical or exact structured matches: no match, no result. Forgotten cards
// are never returned. Query.Thread keeps the cards of that thread (an
// unknown thread is ErrNotFound); Query.From/To keep the cards whose
// happened interval overlaps [From, To], or, for a card without one, whose
// mention time lies in it. Each search is recorded as an Observation.
func (m *Memory) SearchEvents(ctx context.Context, q Query) ([]EventHit, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := checkQuery(&q); err != nil {
		return nil, err
	}
	now := m.opts.Clock()
	var hits []EventHit
	err = m.db.View(func(tx *bolt.Tx) error {
		if q.Thread != "" {
			if _, ok, err := layers.GetThread(tx, q.Thread); err != nil {
				return err
			} else if !ok {
				return notFound("thread", fmt.Sprintf("%q", q.Thread))
			}
		}
		ranked, err := events.Search(tx, m.events, events.Query{
			Text: q.Text, Terms: queryTerms(q.Text), Scopes: q.Scopes, Thread: q.Thread, Limit: q.Limit, Now: now,
			From: q.From, To: q.To,
		})
		if err != nil {
			return err
		}
		for _, r := range ranked {
			c, err := events.Get(tx, r.ID)
			if err != nil {
				return danglingRef("event index", "event", r.ID, err)
			}
			if c.ID != r.ID {
				return misfiled("event", r.ID, c.ID)
			}
			hits = append(hits, eventHit(&c, r.Score))
		}
		return nil
	})
	if err != nil {
		return nil, searchErr(err, q.Thread)
	}
	ids := make([]uint64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	m.observe(Observation{At: now.UTC(), Channel: observationEventsTag, Text: q.Text, Scopes: q.Scopes, Thread: q.Thread, Returned: ids})
	return hits, nil
}

func eventHit(c *events.Card, score float64) EventHit {
	return EventHit{
		ID: c.ID, Title: c.Title, Summary: c.Summary, EventType: string(c.EventType), Status: string(c.Status),
		Precision: c.Temporal.Precision, Lifecycle: string(c.Lifecycle), TimeText: c.Temporal.OriginalText,
		Participants: c.Participants, MentionedAt: c.Temporal.MentionedAt,
		HappenedStart: c.Temporal.HappenedStart, HappenedEnd: c.Temporal.HappenedEnd,
		SourceMessageIDs: c.SourceMessageIDs, Score: score,
	}
}

// ExpandEvent returns card id with its source messages (verbatim), its
// block's L1 summary, its weight and the cards it is linked to. Forgotten
// cards stay expandable.
func (m *Memory) ExpandEvent(ctx context.Context, id uint64) (EventDetail, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return EventDetail{}, err
	}
	defer release()
	var d EventDetail
	err = m.db.View(func(tx *bolt.Tx) error {
		c, err := events.Get(tx, id)
		if err != nil {
			return err
		}
		d.Card = c
		if d.Sources, err = layers.GetMessages(tx, c.SourceMessageIDs); err != nil {
			return err
		}
		if b, err := layers.GetBlock(tx, c.SourceBlockID); err == nil {
			d.BlockSummary = b.Summary
		} else if !errors.Is(err, kv.ErrNotFound) {
			return err
		}
		if d.Weight, err = events.Weight(tx, &c); err != nil {
			return err
		}
		for _, o := range c.SupersedesEventIDs {
			oc, err := events.Get(tx, o)
			if err != nil {
				return err
			}
			d.Supersedes = append(d.Supersedes, oc)
		}
		if c.SupersededBy != 0 {
			oc, err := events.Get(tx, c.SupersededBy)
			if err != nil {
				return err
			}
			d.SupersededBy = &oc
		}
		for _, o := range c.ConflictsWithEventIDs {
			oc, err := events.Get(tx, o)
			if err != nil {
				return err
			}
			d.Conflicts = append(d.Conflicts, oc)
		}
		return nil
	})
	return d, err
}

// Forget hides event id from search. The card, its provenance and its
// links stay and ExpandEvent still shows it; Restore undoes it. Forgetting
// a forgotten card is a no-op.
func (m *Memory) Forget(ctx context.Context, eventID uint64) error {
	return m.setForgotten(ctx, eventID, true)
}

// Restore undoes Forget.
func (m *Memory) Restore(ctx context.Context, eventID uint64) error {
	return m.setForgotten(ctx, eventID, false)
}

func (m *Memory) setForgotten(ctx context.Context, id uint64, forget bool) error {
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	if m.opts.ReadOnly {
		return ErrReadOnly
	}
	return m.db.Update(func(tx *bolt.Tx) error {
		changed, err := events.SetForgotten(tx, id, forget)
		if err != nil || !changed {
			return err
		}
		if err := bumpRevision(tx); err != nil {
			return err
		}
		if forget {
			err = m.events.Delete(tx, id)
		} else {
			err = m.events.Undelete(tx, id)
		}
		if err != nil {
			return err
		}
		// Graph state derived from the event appears or disappears with it.
		return graph.Reindex(tx, m.graph, graph.EventNodes(tx, id))
	})
}

const useReceiptVersion byte = 1

type useReceipt struct {
	AssessmentID string   `msgpack:"a"`
	EventIDs     []uint64 `msgpack:"e"`
	NodeIDs      []uint64 `msgpack:"n"`
	Reinforced   []uint64 `msgpack:"r,omitempty"` // events adopted: EventIDs plus those behind NodeIDs
	At           int64    `msgpack:"t"`
}

// RecordMemoryUse records that an answer used the given memories: each
// event's adoption count grows and its decay clock restarts. It is the
// only writer of weights. Adoption is gated by a sufficient assessment:
// AssessmentID must name one recorded in this file (by Ask, or by
// RecordAssessment for an application that drives gate.Session itself),
// and every event and node of the use must be cited by it; otherwise the
// error wraps ErrInvalidInput and ErrAssessment. It is idempotent by
// ReceiptID (the same receipt with different ids is ErrReceiptConflict).
// Unknown ids are ErrNotFound. Whatever the error, nothing is written.
func (m *Memory) RecordMemoryUse(ctx context.Context, u Use) error {
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	if m.opts.ReadOnly {
		return ErrReadOnly
	}
	if err := checkName("receipt id", u.ReceiptID, true); err != nil {
		return err
	}
	if err := checkName("assessment id", u.AssessmentID, true); err != nil {
		return err
	}
	if len(u.EventIDs) == 0 && len(u.NodeIDs) == 0 {
		return invalid(ErrEmpty, "use names no event or node")
	}
	now := m.opts.Clock()
	return m.db.Update(func(tx *bolt.Tx) error { return recordUse(tx, &u, now) })
}

// recordUse is RecordMemoryUse inside tx.
func recordUse(tx *bolt.Tx, u *Use, now time.Time) error {
	askedEvents := slices.Compact(slices.Sorted(slices.Values(u.EventIDs)))
	nodes := slices.Compact(slices.Sorted(slices.Values(u.NodeIDs)))
	rb := tx.Bucket(kv.BucketUseReceipts)
	if v := rb.Get([]byte(u.ReceiptID)); v != nil {
		var prev useReceipt
		if _, err := kv.Decode(v, &prev, useReceiptVersion); err != nil {
			return err
		}
		if prev.AssessmentID != u.AssessmentID || !slices.Equal(prev.EventIDs, askedEvents) || !slices.Equal(prev.NodeIDs, nodes) {
			return fmt.Errorf("%w: %q", ErrReceiptConflict, u.ReceiptID)
		}
		return nil // already recorded
	}
	rec, err := getAssessment(tx, u.AssessmentID)
	if err != nil {
		return err
	}
	if err := checkBacked(&rec, askedEvents, nodes); err != nil {
		return err
	}
	evs := slices.Clone(askedEvents)
	// Graph evidence reinforces the active events behind the node's
	// current facts and edges.
	for _, n := range nodes {
		v, err := graph.Expand(tx, n, now, false)
		if err != nil {
			return err
		}
		for _, f := range v.Facts {
			evs = append(evs, f.SourceEventIDs...)
		}
		for _, e := range v.Edges {
			evs = append(evs, e.SourceEventIDs...)
		}
	}
	evs = slices.Compact(slices.Sorted(slices.Values(evs)))
	for _, id := range evs {
		if _, err := events.Get(tx, id); err != nil {
			return err
		}
	}
	for _, id := range evs {
		if err := events.Adopt(tx, id, now); err != nil {
			return err
		}
	}
	v, err := kv.Encode(useReceiptVersion, &useReceipt{AssessmentID: u.AssessmentID, EventIDs: askedEvents, NodeIDs: nodes, Reinforced: evs, At: now.UnixNano()})
	if err != nil {
		return err
	}
	return rb.Put([]byte(u.ReceiptID), v)
}
