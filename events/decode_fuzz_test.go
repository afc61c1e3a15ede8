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
	for _, v := range []any{&rec, []uint64{4, 5}, &Use{Adoptions: 2, LastTurn: 9, LastAt: at}} {
		b, err := kv.Encode(cardVersion, v)
		require.NoError(f, err)
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
			_, err := kv.Encode(cardVersion, &r)
			require.NoError(t, err)
		}
		var rr rankRecord
		if _, err := kv.Decode(v, &rr, cardVersion); err == nil {
			var rv rankView
			require.NoError(t, decodeRank(rr.ID, appendRank(nil, &rr), &rv))
		}
		var rv rankView
		_ = decodeRank(1, v, &rv)
		var ids []uint64
		_, _ = kv.Decode(v, &ids, cardVersion)
		var u Use
		if _, err := kv.Decode(v, &u, useVersion); err == nil {
			_, err := kv.Encode(useVersion, &u)
			require.NoError(t, err)
		}
	})
}
