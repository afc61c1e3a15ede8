package stratagate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/events/temporal"
	"github.com/stratagate/stratagate/index"
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

// ErrReceiptConflict is returned by RecordMemoryUse for a receipt already
// recorded with different ids.
var ErrReceiptConflict = errors.New("sg: receipt already recorded with different content")

const (
	observationEventsTag = "events"
	lexicalCandidates    = 100
	structuredCandidates = 100
)

// typeCues maps query words onto the event type they imply.
var typeCues = map[string]events.Type{
	"decide": events.TypeDecision, "decided": events.TypeDecision, "decision": events.TypeDecision,
	"choose": events.TypeDecision, "chose": events.TypeDecision, "pick": events.TypeDecision, "picked": events.TypeDecision,
	"prefer": events.TypePreference, "prefers": events.TypePreference, "preference": events.TypePreference,
	"favorite": events.TypePreference, "favourite": events.TypePreference, "like": events.TypePreference, "likes": events.TypePreference,
	"plan": events.TypePlan, "plans": events.TypePlan, "planning": events.TypePlan, "planned": events.TypePlan,
	"change": events.TypeChange, "changed": events.TypeChange, "switch": events.TypeChange, "switched": events.TypeChange,
	"cancel": events.TypeCancellation, "cancelled": events.TypeCancellation, "canceled": events.TypeCancellation,
	"meet": events.TypeMeeting, "met": events.TypeMeeting, "meeting": events.TypeMeeting,
	"move": events.TypeLifeEvent, "moved": events.TypeLifeEvent, "adopt": events.TypeLifeEvent, "adopted": events.TypeLifeEvent,
	"married": events.TypeLifeEvent, "born": events.TypeLifeEvent, "job": events.TypeLifeEvent,
	"trip": events.TypeActivity, "visit": events.TypeActivity, "visited": events.TypeActivity, "went": events.TypeActivity,
	"finish": events.TypeTaskCompleted, "finished": events.TypeTaskCompleted, "completed": events.TypeTaskCompleted,
	"bug": events.TypeIncident, "outage": events.TypeIncident, "incident": events.TypeIncident,
	"migrate": events.TypeMigration, "migrated": events.TypeMigration, "migration": events.TypeMigration,
}

// SearchEvents ranks event cards: BM25F over the card text fused by
// reciprocal-rank fusion (k = 60) with structured rankings — participants
// and entities named in the query, the event type the query implies, time
// overlap with a time expression in the query, first/latest intent by
// chronology, and the use weight as a prior. Candidates come only from
// lexical or exact structured matches: no match, no result. Forgotten cards
// are never returned. Each search is recorded as an Observation.
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
		lists, err := m.eventLists(tx, &q, now)
		if err != nil {
			return err
		}
		fused := bm25.RRF(bm25.RRFK, lists...)
		for _, r := range fused {
			if len(hits) == q.Limit {
				break
			}
			c, err := events.Get(tx, r.ID)
			if err != nil {
				return err
			}
			if q.Thread != "" && c.Thread != q.Thread {
				continue
			}
			hits = append(hits, eventHit(&c, r.Score))
		}
		return nil
	})
	if err != nil {
		return nil, err
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

// eventLists builds the ranked lists fused by SearchEvents.
func (m *Memory) eventLists(tx *bolt.Tx, q *Query, now time.Time) ([][]uint64, error) {
	var threadKW []string
	if q.Thread != "" {
		threadKW = []string{events.KeywordThread + q.Thread}
	}
	var lists [][]uint64
	candidates := map[uint64]bool{}
	add := func(rs []index.Result) {
		if len(rs) == 0 {
			return
		}
		l := make([]uint64, len(rs))
		for i, r := range rs {
			l[i] = r.ID
			candidates[r.ID] = true
		}
		lists = append(lists, l)
	}
	// Lexical: BM25F over the card fields.
	lex, err := m.events.Search(tx, index.Query{Terms: queryTerms(q.Text), Scopes: q.Scopes, Keywords: threadKW, K: lexicalCandidates})
	if err != nil {
		return nil, err
	}
	add(lex)
	// Structured: names, type, time.
	words := queryWords(q.Text)
	var people, entities []string
	var types []string
	for i, w := range words {
		keys := []string{w}
		if i+1 < len(words) {
			keys = append(keys, w+" "+words[i+1])
		}
		for _, k := range keys {
			if kw := events.KeywordParticipant + k; m.events.HasKeyword(tx, kw) && !slices.Contains(people, kw) {
				people = append(people, kw)
			}
			if kw := events.KeywordEntity + k; m.events.HasKeyword(tx, kw) && !slices.Contains(entities, kw) {
				entities = append(entities, kw)
			}
		}
		if t, ok := typeCues[w]; ok && !slices.Contains(types, events.KeywordType+string(t)) {
			types = append(types, events.KeywordType+string(t))
		}
	}
	for _, kws := range [][]string{people, entities, types} {
		if len(kws) == 0 {
			continue
		}
		rs, err := m.events.Select(tx, index.Select{Scopes: q.Scopes, AnyKeywords: kws, Limit: structuredCandidates})
		if err != nil {
			return nil, err
		}
		add(rs)
	}
	if tm := firstKnown(temporal.Find(q.Text, now)); tm != nil {
		rs, err := m.events.Select(tx, index.Select{Scopes: q.Scopes, From: tm.Start, To: tm.End.Add(-1), Limit: structuredCandidates})
		if err != nil {
			return nil, err
		}
		if err := byTimeFit(tx, rs, tm.Start, tm.End); err != nil {
			return nil, err
		}
		add(rs)
	}
	if len(candidates) == 0 {
		return nil, nil
	}
	// Chronology intent and the use-weight prior reorder the candidates;
	// they never add any.
	cards := make([]events.Card, 0, len(candidates))
	for id := range candidates {
		c, err := events.Get(tx, id)
		if err != nil {
			return nil, err
		}
		cards = append(cards, c)
	}
	slices.SortFunc(cards, func(a, b events.Card) int { return int(a.ID) - int(b.ID) })
	if dir := chronologyIntent(words); dir != 0 {
		sorted := slices.Clone(cards)
		slices.SortStableFunc(sorted, func(a, b events.Card) int {
			return dir * eventTime(&a).Compare(eventTime(&b))
		})
		ids := make([]uint64, len(sorted))
		for i := range sorted {
			ids[i] = sorted[i].ID
		}
		lists = append(lists, ids)
	}
	type weighted struct {
		id uint64
		w  float64
	}
	var ws []weighted
	for i := range cards {
		w, err := events.Weight(tx, &cards[i])
		if err != nil {
			return nil, err
		}
		if w > 0 {
			ws = append(ws, weighted{cards[i].ID, w})
		}
	}
	if len(ws) > 0 {
		slices.SortStableFunc(ws, func(a, b weighted) int {
			switch {
			case a.w > b.w:
				return -1
			case a.w < b.w:
				return 1
			}
			return 0
		})
		ids := make([]uint64, len(ws))
		for i := range ws {
			ids[i] = ws[i].id
		}
		lists = append(lists, ids)
	}
	return lists, nil
}

func eventTime(c *events.Card) time.Time {
	if !c.Temporal.HappenedStart.IsZero() {
		return c.Temporal.HappenedStart
	}
	return c.Temporal.MentionedAt
}

// chronologyIntent is -1 for "latest/now" questions, 1 for "first"
// questions, 0 otherwise.
func chronologyIntent(words []string) int {
	for _, w := range words {
		switch w {
		case "first", "earliest", "originally", "initially", "最早", "第一次":
			return 1
		case "latest", "last", "recent", "recently", "now", "currently", "current", "newest", "最近", "现在":
			return -1
		}
	}
	return 0
}

func firstKnown(ms []temporal.Match) *temporal.Resolution {
	for i := range ms {
		if ms[i].Known() {
			return &ms[i].Resolution
		}
	}
	return nil
}

// queryWords splits a query into lower-case words (letters, digits, dots
// inside words) for name and cue lookups.
func queryWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r == '.' || r == '-' || r == '\'' || isWordRune(r))
	})
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
		if forget {
			return m.events.Delete(tx, id)
		}
		return m.events.Undelete(tx, id)
	})
}

const useReceiptVersion byte = 1

type useReceipt struct {
	AssessmentID string   `msgpack:"a"`
	EventIDs     []uint64 `msgpack:"e"`
	NodeIDs      []uint64 `msgpack:"n"`
	At           int64    `msgpack:"t"`
}

// RecordMemoryUse records that an answer used the given memories: each
// event's adoption count grows and its decay clock restarts. It is the
// only writer of weights and is idempotent by ReceiptID (the same receipt
// with different ids is ErrReceiptConflict). Unknown ids are ErrNotFound
// and nothing is written.
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
	if err := checkName("assessment id", u.AssessmentID, false); err != nil {
		return err
	}
	if len(u.EventIDs) == 0 && len(u.NodeIDs) == 0 {
		return invalid(ErrEmpty, "use names no event or node")
	}
	evs := slices.Compact(slices.Sorted(slices.Values(u.EventIDs)))
	nodes := slices.Compact(slices.Sorted(slices.Values(u.NodeIDs)))
	now := m.opts.Clock()
	return m.db.Update(func(tx *bolt.Tx) error {
		rb := tx.Bucket(kv.BucketUseReceipts)
		if v := rb.Get([]byte(u.ReceiptID)); v != nil {
			var prev useReceipt
			if _, err := kv.Decode(v, &prev, useReceiptVersion); err != nil {
				return err
			}
			if prev.AssessmentID != u.AssessmentID || !slices.Equal(prev.EventIDs, evs) || !slices.Equal(prev.NodeIDs, nodes) {
				return fmt.Errorf("%w: %q", ErrReceiptConflict, u.ReceiptID)
			}
			return nil // already recorded
		}
		if len(nodes) > 0 {
			return notFound("graph node", nodes[0])
		}
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
		v, err := kv.Encode(useReceiptVersion, &useReceipt{AssessmentID: u.AssessmentID, EventIDs: evs, NodeIDs: nodes, At: now.UnixNano()})
		if err != nil {
			return err
		}
		return rb.Put([]byte(u.ReceiptID), v)
	})
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// byTimeFit orders cards overlapping [start, end) by how well their
// happened interval fits it: contained intervals first, narrower before
// wider, then by distance of their start from start, then by id.
func byTimeFit(tx *bolt.Tx, rs []index.Result, start, end time.Time) error {
	type fit struct {
		contained bool
		width     time.Duration
		dist      time.Duration
	}
	fits := make(map[uint64]fit, len(rs))
	for _, r := range rs {
		c, err := events.Get(tx, r.ID)
		if err != nil {
			return err
		}
		s, e := c.Temporal.HappenedStart, c.Temporal.HappenedEnd
		d := s.Sub(start)
		if d < 0 {
			d = -d
		}
		fits[r.ID] = fit{contained: !s.Before(start) && !e.After(end), width: e.Sub(s), dist: d}
	}
	slices.SortStableFunc(rs, func(a, b index.Result) int {
		fa, fb := fits[a.ID], fits[b.ID]
		switch {
		case fa.contained != fb.contained:
			if fa.contained {
				return -1
			}
			return 1
		case fa.width != fb.width:
			return cmpDur(fa.width, fb.width)
		case fa.dist != fb.dist:
			return cmpDur(fa.dist, fb.dist)
		}
		return int(a.ID) - int(b.ID)
	})
	return nil
}

func cmpDur(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
