package events

// The search algorithm before the rank table (events.rank), kept as the
// reference the current Search must agree with exactly: it decodes the
// candidate cards' records to read the fields the rankings need.

import (
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events/temporal"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

func refSearch(tx *bolt.Tx, ix *index.Index, q Query) ([]bm25.Ranked, error) {
	ls, err := refLists(tx, ix, &q)
	if err != nil || len(ls) == 0 {
		return nil, err
	}
	fused := bm25.RRF(bm25.RRFK, ls...)
	out := fused[:0]
	for _, r := range fused {
		if q.Limit > 0 && len(out) == q.Limit {
			break
		}
		if q.Thread != "" || !q.From.IsZero() || !q.To.IsZero() {
			c, err := refIndexedCard(tx, r.ID)
			if err != nil {
				return nil, err
			}
			if q.Thread != "" && c.Thread != q.Thread {
				continue
			}
			if !InRange(&c, q.From, q.To) {
				continue
			}
		}
		out = append(out, r)
	}
	return out, nil
}

func refLists(tx *bolt.Tx, ix *index.Index, q *Query) ([][]uint64, error) {
	now := q.Now
	var threadKW []string
	if q.Thread != "" {
		threadKW = []string{KeywordThread + q.Thread}
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
	lex, err := ix.Search(tx, index.Query{Terms: q.Terms, Scopes: q.Scopes, Keywords: threadKW, K: lexicalCandidates})
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
			if kw := KeywordParticipant + k; ix.HasKeyword(tx, kw) && !slices.Contains(people, kw) {
				people = append(people, kw)
			}
			if kw := KeywordEntity + k; ix.HasKeyword(tx, kw) && !slices.Contains(entities, kw) {
				entities = append(entities, kw)
			}
		}
		if t, ok := typeCues[w]; ok && !slices.Contains(types, KeywordType+string(t)) {
			types = append(types, KeywordType+string(t))
		}
	}
	var lexKeys map[uint64][]string // keywords of the lexical candidates, read once
	for _, kws := range [][]string{people, entities, types} {
		if len(kws) == 0 {
			continue
		}
		rs, err := ix.Select(tx, index.Select{Scopes: q.Scopes, AnyKeywords: kws, Limit: structuredCandidates})
		if err != nil {
			return nil, err
		}
		// The cards of a named person (entity, type) that also match the
		// question's words come first, in lexical order; the rest follow
		// newest first. Newest-first alone would rank a person every card
		// involves by recency, above the cards the question is about. The
		// lexical matches are found among the lexical candidates, not only
		// among the newest cards Select returns: a person with more cards
		// than that would otherwise lose their older matching cards here.
		if lexKeys == nil {
			if lexKeys, err = refCardKeywords(tx, lex); err != nil {
				return nil, err
			}
		}
		list := make([]index.Result, 0, structuredCandidates)
		first := make(map[uint64]bool)
		for _, r := range lex {
			if len(list) < structuredCandidates && slices.ContainsFunc(lexKeys[r.ID], func(k string) bool { return slices.Contains(kws, k) }) {
				list = append(list, r)
				first[r.ID] = true
			}
		}
		for _, r := range rs {
			if len(list) < structuredCandidates && !first[r.ID] {
				list = append(list, r)
			}
		}
		add(list)
	}
	if tm := firstKnown(temporal.Find(q.Text, now)); tm != nil {
		rs, err := ix.Select(tx, index.Select{Scopes: q.Scopes, From: tm.Start, To: tm.End.Add(-1), Limit: structuredCandidates})
		if err != nil {
			return nil, err
		}
		if err := refByTimeFit(tx, rs, tm.Start, tm.End); err != nil {
			return nil, err
		}
		add(rs)
	}
	if len(candidates) == 0 {
		return nil, nil
	}
	// Chronology intent and the use-weight prior reorder the candidates;
	// they never add any.
	cards := make([]Card, 0, len(candidates))
	for id := range candidates {
		c, err := refGetRankView(tx, id)
		if err != nil {
			return nil, err
		}
		cards = append(cards, c)
	}
	slices.SortFunc(cards, func(a, b Card) int { return int(a.ID) - int(b.ID) })
	if dir := chronologyIntent(words); dir != 0 {
		sorted := slices.Clone(cards)
		slices.SortStableFunc(sorted, func(a, b Card) int {
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
		w, err := refPriorWeight(tx, &cards[i])
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

// refKeyRecord is the part of a card record its index keywords come from.
type refKeyRecord struct {
	Thread       string   `msgpack:"th"`
	Type         string   `msgpack:"ty"`
	Status       string   `msgpack:"st"`
	Participants []string `msgpack:"p,omitempty"`
	Entities     []string `msgpack:"en,omitempty"`
}

// cardKeywords returns the index keywords of each card of rs, decoding
// only the fields they come from.
func refCardKeywords(tx *bolt.Tx, rs []index.Result) (map[uint64][]string, error) {
	out := make(map[uint64][]string, len(rs))
	b := tx.Bucket(kv.BucketEvents)
	for _, r := range rs {
		v := b.Get(kv.Key(r.ID))
		if v == nil {
			return nil, fmt.Errorf("event %d: %w", r.ID, ErrNotFound)
		}
		c, err := decodeCard(v)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", r.ID, err)
		}
		k := refKeyRecord{Thread: c.Thread, Type: c.Type, Status: c.Status, Participants: c.Participants, Entities: c.Entities}
		out[r.ID] = Keywords(&Card{Thread: k.Thread, EventType: Type(k.Type), Status: Status(k.Status), Participants: k.Participants, Entities: k.Entities})
	}
	return out, nil
}

func refByTimeFit(tx *bolt.Tx, rs []index.Result, start, end time.Time) error {
	type fit struct {
		contained bool
		width     time.Duration
		dist      time.Duration
	}
	fits := make(map[uint64]fit, len(rs))
	for _, r := range rs {
		c, err := refIndexedCard(tx, r.ID)
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

func refPriorWeight(tx *bolt.Tx, c *Card) (float64, error) {
	u, ok, err := GetUse(tx, c.ID)
	if err != nil || !ok || u.Adoptions == 0 {
		return 0, err
	}
	return Weight(tx, c)
}

// refGetRankView reads card id with only the fields of rankRecord set.
func refGetRankView(tx *bolt.Tx, id uint64) (Card, error) {
	v := tx.Bucket(kv.BucketEvents).Get(kv.Key(id))
	if v == nil {
		return Card{}, fmt.Errorf("event %d: %w", id, ErrNotFound)
	}
	r, err := decodeRankFields(v)
	if err != nil {
		return Card{}, fmt.Errorf("event %d: %w", id, err)
	}
	c := Card{ID: r.ID, Thread: r.Thread, Criticality: Criticality(r.Criticality), Lifecycle: Lifecycle(r.Lifecycle), SupersededBy: r.SupersededBy}
	c.Temporal.MentionedAt = r.Mentioned.Time()
	c.Temporal.HappenedStart = r.HStart.Time()
	return c, nil
}

// refIndexedCard reads a card the event index returned. The index is derived
// from the cards, so a missing card means a damaged file: ErrCorrupt, not
// the caller's ErrNotFound.
func refIndexedCard(tx *bolt.Tx, id uint64) (Card, error) {
	c, err := Get(tx, id)
	if errors.Is(err, ErrNotFound) {
		return Card{}, fmt.Errorf("%w: the event index names event %d, which is not stored", kv.ErrCorrupt, id)
	}
	return c, err
}
