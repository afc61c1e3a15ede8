package locomo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/kv"
)

// EventTimeReport measures whether event cards date the events of temporal
// (category 2) questions. Questions = NoEvidence + Unparsed + Parsed and
// Exact ≤ Covered ≤ WithTime ≤ WithCard ≤ Parsed.
type EventTimeReport struct {
	Conversation string
	Questions    int // category-2 questions
	NoEvidence   int // no evidence id names a turn: no reference date
	Unparsed     int // the gold answer is not a date (ParseGold ok=false)
	Parsed       int
	WithCard     int // parsed, and some card cites a gold evidence message
	WithTime     int // ... and such a card has a known happened interval
	Covered      int // ... and such an interval contains (day gold) or overlaps (coarser gold) the gold interval
	Exact        int // ... and such an interval equals the gold interval
	// Unsealed counts the parsed questions whose evidence messages all sit
	// in an open tail (never sealed into a block, so never extracted).
	Unsealed int
	Cards    int // cards examined (all cards of the store, forgotten included)
	Items    []EventTimeItem
}

// EventTimeItem is the measurement of one category-2 question.
type EventTimeItem struct {
	QA                 int // index in Conversation.QA
	Gold               string
	Parsed             bool
	GoldStart, GoldEnd time.Time
	Precision          string
	// CardIDs are the cards citing a gold evidence message; TimedIDs those
	// of them with a known happened interval.
	CardIDs  []uint64
	TimedIDs []uint64
	Covered  bool
	Exact    bool
	Unsealed bool // every evidence message is in an open tail
}

// Fraction is Covered / Parsed (0 when nothing parsed).
func (r EventTimeReport) Fraction() float64 {
	if r.Parsed == 0 {
		return 0
	}
	return float64(r.Covered) / float64(r.Parsed)
}

// String is a one-line summary.
func (r EventTimeReport) String() string {
	return fmt.Sprintf("%s event time: questions=%d parsed=%d unparsed=%d no_evidence=%d with_card=%d with_time=%d covered=%d exact=%d fraction=%.3f (unsealed=%d cards=%d)",
		r.Conversation, r.Questions, r.Parsed, r.Unparsed, r.NoEvidence, r.WithCard, r.WithTime, r.Covered, r.Exact, r.Fraction(), r.Unsealed, r.Cards)
}

// MeasureEventTime measures, for every category-2 question of conv whose
// gold answer parses (ParseGold, with the date of the session holding the
// first evidence turn as reference), whether a card citing a gold evidence
// message has a happened interval that contains (day or finer gold) or
// overlaps (coarser gold) the gold interval. idToDia maps the stored
// message ids of conv to dia_ids (Mapping.IDToDia). Only cards of the
// given scopes count (empty: "global"); forgotten cards do not count.
//
// The root API cannot list cards by source message, so every card of the
// store is read with ExpandEvent, by id from 1 (ids are dense) until
// Stats counts them all.
func MeasureEventTime(ctx context.Context, mem *stratagate.Memory, conv *Conversation, idToDia map[uint64]string, scopes []string) (EventTimeReport, error) {
	rep := EventTimeReport{Conversation: conv.ID}
	if len(scopes) == 0 {
		scopes = []string{"global"}
	}
	cards, err := allCards(ctx, mem)
	if err != nil {
		return rep, err
	}
	rep.Cards = len(cards)
	threads, err := mem.Threads(ctx)
	if err != nil {
		return rep, err
	}
	tail := map[uint64]bool{}
	for _, th := range threads {
		for _, id := range th.OpenTail {
			tail[id] = true
		}
	}
	diaToID := make(map[string]uint64, len(idToDia))
	for id, dia := range idToDia {
		if old, ok := diaToID[dia]; !ok || id < old {
			diaToID[dia] = id
		}
	}
	// dia_id → cards citing it.
	byDia := map[string][]*events.Card{}
	for i := range cards {
		c := &cards[i]
		if events.Hidden(c.Lifecycle) || !slices.Contains(scopes, c.Scope) {
			continue
		}
		for _, id := range c.SourceMessageIDs {
			if dia, ok := idToDia[id]; ok {
				byDia[dia] = append(byDia[dia], c)
			}
		}
	}
	for qi := range conv.QA {
		q := &conv.QA[qi]
		if q.Category != CategoryTemporal {
			continue
		}
		rep.Questions++
		it := EventTimeItem{QA: qi, Gold: q.Answer}
		if len(q.Evidence) == 0 {
			rep.NoEvidence++
			rep.Items = append(rep.Items, it)
			continue
		}
		sess, _, _ := conv.Locate(q.Evidence[0])
		start, end, prec, ok := ParseGold(q.Answer, sess.Date)
		if !ok {
			rep.Unparsed++
			rep.Items = append(rep.Items, it)
			continue
		}
		rep.Parsed++
		it.Parsed, it.GoldStart, it.GoldEnd, it.Precision = true, start, end, prec
		fine := prec == "day" || prec == "instant"
		seen := map[uint64]bool{}
		for _, dia := range q.Evidence {
			for _, c := range byDia[dia] {
				if seen[c.ID] {
					continue
				}
				seen[c.ID] = true
				it.CardIDs = append(it.CardIDs, c.ID)
				cs, ce := c.Temporal.HappenedStart, c.Temporal.HappenedEnd
				if cs.IsZero() || ce.IsZero() || !ce.After(cs) {
					continue
				}
				it.TimedIDs = append(it.TimedIDs, c.ID)
				var hit bool
				if fine {
					hit = !cs.After(start) && !ce.Before(end)
				} else {
					hit = cs.Before(end) && start.Before(ce)
				}
				if hit {
					it.Covered = true
					if cs.Equal(start) && ce.Equal(end) {
						it.Exact = true
					}
				}
			}
		}
		if len(it.CardIDs) > 0 {
			rep.WithCard++
		} else {
			it.Unsealed = true
			for _, dia := range q.Evidence {
				if id, ok := diaToID[dia]; !ok || !tail[id] {
					it.Unsealed = false
				}
			}
			if it.Unsealed {
				rep.Unsealed++
			}
		}
		if len(it.TimedIDs) > 0 {
			rep.WithTime++
		}
		if it.Covered {
			rep.Covered++
		}
		if it.Exact {
			rep.Exact++
		}
		rep.Items = append(rep.Items, it)
	}
	return rep, nil
}

// maxIDGap bounds the run of missing ids allCards skips before it stops
// looking for the cards Stats counted.
const maxIDGap = 1024

// allCards reads every card of mem by id.
func allCards(ctx context.Context, mem *stratagate.Memory) ([]events.Card, error) {
	st, err := mem.Stats(ctx)
	if err != nil {
		return nil, err
	}
	want := st.Buckets[string(kv.BucketEvents)]
	var out []events.Card
	for id, gap := uint64(1), 0; len(out) < want && gap < maxIDGap; id++ {
		d, err := mem.ExpandEvent(ctx, id)
		if errors.Is(err, stratagate.ErrNotFound) {
			gap++
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("locomo: card %d: %w", id, err)
		}
		gap = 0
		out = append(out, d.Card)
	}
	if len(out) < want {
		return out, fmt.Errorf("locomo: found %d of %d cards by id", len(out), want)
	}
	return out, nil
}
