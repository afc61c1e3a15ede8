package events

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

// FuzzDecodeEventRecords feeds arbitrary bytes to the decoders of the card,
// rank, block_events and use records: none may panic, and whatever decodes
// must be usable (weight, time fit) and encode again.
func FuzzDecodeEventRecords(f *testing.F) {
	at := time.Date(2024, 3, 5, 19, 30, 0, 0, time.FixedZone("", -5*3600))
	c := Card{ID: 4, Scope: "global", Thread: "t", SourceBlockID: 2, SourceMessageIDs: []uint64{7, 8}, Title: "Moved",
		Summary: "Ann moved to Lisbon", Tags: []string{"move"}, Quotes: []string{"moved to Lisbon"}, EventType: "life_event",
		Status: "completed", Participants: []string{"Ann"}, Criticality: "identity", Lifecycle: "active",
		Temporal:  Temporal{MentionedAt: at, HappenedStart: at, HappenedEnd: at.Add(time.Hour), OriginalText: "today", Precision: "day"},
		CreatedAt: at}
	rec := c.record("")
	rep := repetitiveCardRecord()
	seeds := [][]byte{encodeCard(&rec), encodeCardV2(&rec), encodeCard(&rep)}
	for _, v := range []any{&rec, []uint64{4, 5}, &Use{Adoptions: 2, LastTurn: 9, LastAt: at}} {
		b, err := kv.Encode(cardVersionV1, v) // version 1 card, block_events and use records
		require.NoError(f, err)
		seeds = append(seeds, b)
	}
	for _, b := range seeds {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte{})
	f.Add([]byte{1, 0xdc, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, v []byte) {
		if c, err := Decode(v); err == nil {
			_ = eventTime(&c)
			_ = WeightFor(&c, Use{Adoptions: 3, LastTurn: 1 << 62}, true, 5)
			r := c.record("")
			_, err := kv.Encode(cardVersionV1, &r)
			require.NoError(t, err)
		}
		// Whatever a card record of any version holds, version 3 keeps
		// (compared in its encoding: an unset time's offset, or an empty
		// list against none, is nothing a reader sees).
		if r, err := decodeCard(v); err == nil {
			v3 := encodeCard(&r)
			again, err := decodeCard(v3)
			require.NoError(t, err)
			require.Equal(t, v3, encodeCard(&again))
			require.Equal(t, r.card().Title, again.card().Title)
			lc, err := decodeLifecycle(v)
			require.NoError(t, err)
			require.Equal(t, r.Lifecycle, lc)
		}
		if rr, err := decodeRankFields(v); err == nil {
			var rv rankView
			require.NoError(t, decodeRank(rr.ID, appendRank(nil, &rr), &rv))
		}
		var rv rankView
		_ = decodeRank(1, v, &rv)
		var ids []uint64
		_, _ = kv.Decode(v, &ids, blockCardsVersion)
		var u Use
		if _, err := kv.Decode(v, &u, useVersion); err == nil {
			_, err := kv.Encode(useVersion, &u)
			require.NoError(t, err)
		}
	})
}
