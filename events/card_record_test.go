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

// encodeCardV2 writes r as a version 2 record (what files of format 4
// hold from before version 3), for the tests of reading them.
func encodeCardV2(r *cardRecord) []byte {
	w := cardWriter{}
	w.head(cardVersionV2, r)
	w.Str(r.Title)
	w.Str(r.Summary)
	w.Strs(r.Tags)
	w.Strs(r.Quotes)
	w.Str(r.Type)
	w.Str(r.Status)
	w.Strs(r.Participants)
	w.Strs(r.Entities)
	w.Str(r.Criticality)
	w.tail(r)
	return w.B
}

// repetitiveCardRecord is a card whose texts repeat each other, as the
// heuristic model's do: the title is the quote without its stop, the
// summary the speaker and the quote, a participant and an entity are
// names in them.
func repetitiveCardRecord() cardRecord {
	r := fullCardRecord()
	r.Quotes = []string{"Noah told me last week that the garden work is blocked.", "blocked"}
	r.Title = "Noah told me last week that the garden work is blocked"
	r.Summary = "Oscar Novak: Noah told me last week that the garden work is blocked."
	r.Participants = []string{"Oscar Novak", "Ann"}
	r.Entities = []string{"Noah", "garden work"}
	r.Tags = []string{"noah", "garden"}
	return r
}

// TestCardRecordV3: every field survives a version 3 record, with and
// without texts that repeat each other; versions 1 and 2 of the same card
// decode to the same card; version 3 is the smallest, by what the texts
// repeat; GetLifecycle's reader and the rank fields read every version.
func TestCardRecordV3(t *testing.T) {
	for _, r := range []cardRecord{fullCardRecord(), repetitiveCardRecord(), {ID: 1, Lifecycle: "active"}} {
		v3 := encodeCard(&r)
		require.Equal(t, cardVersion, v3[0])
		got, err := decodeCard(v3)
		require.NoError(t, err)
		assert.Equal(t, r, got)
		v2 := encodeCardV2(&r)
		fromV2, err := decodeCard(v2)
		require.NoError(t, err)
		assert.Equal(t, r, fromV2)
		v1, err := kv.Encode(cardVersionV1, &r)
		require.NoError(t, err)
		old, err := decodeCard(v1)
		require.NoError(t, err)
		assert.Equal(t, r.card(), old.card(), "every version decodes to the same card")
		assert.Less(t, len(v2), len(v1))
		assert.LessOrEqual(t, len(v3), len(v2)+6, "a text that repeats nothing costs at most a byte more")
		for _, v := range [][]byte{v1, v2, v3} {
			lc, err := decodeLifecycle(v)
			require.NoError(t, err)
			assert.Equal(t, r.Lifecycle, lc)
			rr, err := decodeRankFields(v)
			require.NoError(t, err)
			assert.Equal(t, r.rank(), rr)
		}
	}
}

// The repeated texts are stored once: the title, the first quote, a
// participant and the entity "Noah" are references (a few bytes each).
func TestCardRecordV3References(t *testing.T) {
	r := repetitiveCardRecord()
	v2, v3 := encodeCardV2(&r), encodeCard(&r)
	saved := len(r.Title) + len(r.Quotes[0]) + len("Oscar Novak") + len("Noah")
	assert.LessOrEqual(t, len(v3), len(v2)-saved+4*4, "v2 %d bytes, v3 %d", len(v2), len(v3))
	got, err := decodeCard(v3)
	require.NoError(t, err)
	assert.Equal(t, r.Title, got.Title)
	assert.Equal(t, r.Quotes, got.Quotes)
	assert.Equal(t, r.Participants, got.Participants)
}

// textRecord returns a version 3 record up to its texts, then texts as
// given (raw bytes), then nothing: a decoder must fail inside the texts.
func textRecord(texts ...byte) []byte {
	w := cardWriter{}
	w.head(cardVersion, &cardRecord{Lifecycle: "active", ID: 1, Scope: "global", Thread: "t", Block: 1})
	return append(w.B, texts...)
}

func TestCardRecordDamage(t *testing.T) {
	r := fullCardRecord()
	good := encodeCard(&r)
	goodV2 := encodeCardV2(&r)
	for name, v := range map[string][]byte{
		"version only":       {cardVersion},
		"cut":                good[:len(good)/2],
		"one byte short":     good[:len(good)-1],
		"trailing byte":      append(append([]byte(nil), good...), 0),
		"huge count":         {cardVersion, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"bad approx":         badApprox(t, r),
		"v2 cut":             goodV2[:len(goodV2)/2],
		"v2 trailing byte":   append(append([]byte(nil), goodV2...), 0),
		"literal too long":   textRecord(2*40, 'a', 'b'),
		"reference, no text": textRecord(2*3+1, 0, 0),
		"reference past src": textRecord(2*4, 'a', 'b', 'c', 'd', 1, 2*3+1, 1, 0),
		"reference past end": textRecord(2*4, 'a', 'b', 'c', 'd', 1, 2*3+1, 0, 2),
		"reference huge off": textRecord(2*4, 'a', 'b', 'c', 'd', 1, 2*3+1, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := decodeCard(v)
			assert.ErrorIs(t, err, kv.ErrCorrupt)
		})
	}
}

// A reference within bounds decodes: the record cut after the texts is
// refused for what follows them, not for the reference.
func TestCardRecordV3ReferenceBounds(t *testing.T) {
	v := textRecord(2*4, 'a', 'b', 'c', 'd', 1, 2*3+1, 0, 1)
	r := cardReader{Reader: kv.Reader{Rest: v[len(textRecord()):]}}
	assert.Equal(t, "abcd", r.text())
	assert.Equal(t, 1, r.Count())
	assert.Equal(t, "bcd", r.text())
	require.NoError(t, r.Err)
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
// of its thread (version 1: msgpack into the shown fields only; versions
// 2 and 3: the whole record), and a full decode.
func BenchmarkCardRecord(b *testing.B) {
	r := fullCardRecord()
	v1, err := kv.Encode(cardVersionV1, &r)
	require.NoError(b, err)
	v3 := encodeCard(&r)
	rep := repetitiveCardRecord()
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
	}{{"v1/full", v1}, {"v2/full", encodeCardV2(&r)}, {"v3/full", v3}, {"v3/repetitive", encodeCard(&rep)}} {
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
