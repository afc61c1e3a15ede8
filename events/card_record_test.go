package events

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

func fullCardRecord() cardRecord {
	at := time.Date(2024, 3, 5, 19, 30, 0, 123, time.FixedZone("", -5*3600))
	c := Card{ID: 1 << 40, Scope: "project:atlas", Thread: "t", SourceBlockID: 9, SourceMessageIDs: []uint64{70, 71, 69},
		Title: "Moved", Summary: "Ann moved to a new flat", Tags: []string{"move", "home"}, Quotes: []string{"we moved", ""},
		EventType: "life_event", Status: "completed", Participants: []string{"Ann", "Ben"}, Entities: []string{"flat"},
		Criticality: "identity", Lifecycle: "superseded", SupersedesEventIDs: []uint64{3, 2}, SupersededBy: 12, ConflictsWithEventIDs: []uint64{5},
		Temporal: Temporal{MentionedAt: at, HappenedStart: at.Add(-48 * time.Hour), HappenedEnd: at.UTC(), OriginalText: "two days ago",
			Precision: "day", Basis: "relative", Approx: true},
		CreatedAt: at.Add(time.Minute)}
	return c.record("active")
}

// TestCardRecordV2: every field survives a version 2 record, a version 1
// record of the same card decodes to the same card, the record is smaller,
// and GetLifecycle's reader finds the lifecycle in either.
func TestCardRecordV2(t *testing.T) {
	for _, r := range []cardRecord{fullCardRecord(), {ID: 1, Lifecycle: "active"}} {
		v2 := encodeCard(&r)
		got, err := decodeCard(v2)
		require.NoError(t, err)
		assert.Equal(t, r, got)
		v1, err := kv.Encode(cardVersionV1, &r)
		require.NoError(t, err)
		old, err := decodeCard(v1)
		require.NoError(t, err)
		assert.Equal(t, r.card(), old.card(), "both versions decode to the same card")
		assert.Less(t, len(v2), len(v1))
		for _, v := range [][]byte{v1, v2} {
			lc, err := decodeLifecycle(v)
			require.NoError(t, err)
			assert.Equal(t, r.Lifecycle, lc)
			rr, err := decodeRankFields(v)
			require.NoError(t, err)
			assert.Equal(t, r.rank(), rr)
		}
	}
}

func TestCardRecordV2Damage(t *testing.T) {
	r := fullCardRecord()
	good := encodeCard(&r)
	for name, v := range map[string][]byte{
		"version only":   {cardVersion},
		"cut":            good[:len(good)/2],
		"one byte short": good[:len(good)-1],
		"trailing byte":  append(append([]byte(nil), good...), 0),
		"huge count":     {cardVersion, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"bad approx":     badApprox(t, r),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := decodeCard(v)
			assert.ErrorIs(t, err, kv.ErrCorrupt)
		})
	}
}

// badApprox returns r's record with the approx byte set to 2.
func badApprox(t *testing.T, r cardRecord) []byte {
	r.Supersedes, r.Conflicts, r.Approx = nil, nil, true
	v := encodeCard(&r)
	require.Equal(t, byte(1), v[len(v)-3], "approx, then two empty id lists")
	v[len(v)-3] = 2
	return v
}

// BenchmarkCardRecord: the decode an extraction does for each earlier card
// of its thread (version 1: msgpack into the shown fields only; version
// 2: the whole record), and a full decode.
func BenchmarkCardRecord(b *testing.B) {
	r := fullCardRecord()
	v1, err := kv.Encode(cardVersionV1, &r)
	require.NoError(b, err)
	v2 := encodeCard(&r)
	b.Run("v1/shown", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var e existingRecord
			if _, err := kv.Decode(v1, &e, cardVersionV1); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, c := range []struct {
		name string
		v    []byte
	}{{"v1/full", v1}, {"v2/full", v2}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportMetric(float64(len(c.v)), "bytes/record")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeCard(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
