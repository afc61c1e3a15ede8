package events

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// The rank table (bucket events.rank) holds, per card, the fields Search
// reads from candidates it does not return: the thread (Query.Thread and
// the use weight's turn count), the times (InRange, time fit, chronology),
// lifecycle, criticality and successor (the use weight). Reading them
// there costs a fixed-width copy where the card record costs a msgpack
// decode of text-heavy bytes. It is derived from the events bucket and
// written by the same calls (putRecord, PutRawRecord), in the same
// transaction; the bucket's sequence follows the events bucket's, so a
// table written before cards were added by a build without it is seen to
// be out of date (CurrentRanks) and rebuilt (RebuildRanks).
//
// A value, key = event id (8 bytes BE):
//
//	0      version (1)
//	1      lifecycle: 0 other, 1 active, 2 superseded, 3 forgotten, 4 undone
//	2      criticality: 0 routine (or other), 1 preference, 2 identity, 3 safety
//	3      flags: 1 MentionedAt set, 2 HappenedStart set, 4 HappenedEnd set
//	4–11   SupersededBy (u64 BE)
//	12–19  MentionedAt, UTC ns (i64 BE; 0 when unset)
//	20–27  HappenedStart, UTC ns
//	28–35  HappenedEnd, UTC ns
//	36–    thread name (UTF-8, the rest of the value)
const (
	rankVersion byte = 1
	rankFixed        = 36
)

const (
	rankMentioned byte = 1 << iota
	rankStart
	rankEnd
	rankFlags = rankMentioned | rankStart | rankEnd
)

var rankLifecycles = [...]Lifecycle{"", LifecycleActive, LifecycleSuperseded, LifecycleForgotten, LifecycleUndone}

var rankCriticalities = [...]Criticality{CriticalityRoutine, CriticalityPreference, CriticalityIdentity, CriticalitySafety}

// rankRecord is the part of a card record the rank table holds: decoding
// only these fields skips the text (title, summary, quotes), which is most
// of a record's bytes.
type rankRecord struct {
	ID           uint64   `msgpack:"i"`
	Thread       string   `msgpack:"th"`
	Criticality  string   `msgpack:"cr"`
	Mentioned    kv.Stamp `msgpack:"ma"`
	HStart       kv.Stamp `msgpack:"hs"`
	HEnd         kv.Stamp `msgpack:"he"`
	Lifecycle    string   `msgpack:"l"`
	SupersededBy uint64   `msgpack:"sb,omitempty"`
}

// decodeRankFields decodes the rank fields of a card record of either version.
func decodeRankFields(v []byte) (rankRecord, error) {
	if binaryCard(v) {
		c, err := decodeCard(v)
		if err != nil {
			return rankRecord{}, err
		}
		return c.rank(), nil
	}
	var r rankRecord
	_, err := kv.Decode(v, &r, cardVersionV1)
	return r, err
}

func (r *cardRecord) rank() rankRecord {
	return rankRecord{ID: r.ID, Thread: r.Thread, Criticality: r.Criticality, Mentioned: r.Mentioned,
		HStart: r.HStart, HEnd: r.HEnd, Lifecycle: r.Lifecycle, SupersededBy: r.SupersededBy}
}

// appendRank appends r's rank table value to dst.
func appendRank(dst []byte, r *rankRecord) []byte {
	var lc, cr, flags byte
	for i, l := range rankLifecycles {
		if i > 0 && string(l) == r.Lifecycle {
			lc = byte(i)
		}
	}
	for i, c := range rankCriticalities {
		if string(c) == r.Criticality {
			cr = byte(i)
		}
	}
	stamp := func(s kv.Stamp, flag byte) uint64 {
		if !s.Set {
			return 0
		}
		flags |= flag
		return uint64(s.N)
	}
	m, hs, he := stamp(r.Mentioned, rankMentioned), stamp(r.HStart, rankStart), stamp(r.HEnd, rankEnd)
	dst = append(dst, rankVersion, lc, cr, flags)
	dst = binary.BigEndian.AppendUint64(dst, r.SupersededBy)
	dst = binary.BigEndian.AppendUint64(dst, m)
	dst = binary.BigEndian.AppendUint64(dst, hs)
	dst = binary.BigEndian.AppendUint64(dst, he)
	return append(dst, r.Thread...)
}

// rankView is a decoded rank table value.
type rankView struct {
	id, supersededBy      uint64
	lifecycle             Lifecycle
	criticality           Criticality
	mentioned, start, end time.Time // zero when unset; in UTC, as only instants are compared
	thread                []byte    // aliases the transaction's memory when read from the table
}

// decodeRank decodes value v of card id into dst.
func decodeRank(id uint64, v []byte, dst *rankView) error {
	if len(v) == 0 {
		return fmt.Errorf("event %d: %w: empty rank record", id, kv.ErrCorrupt)
	}
	if v[0] != rankVersion {
		return fmt.Errorf("event %d: %w: rank record version %d", id, kv.ErrVersionMismatch, v[0])
	}
	if len(v) < rankFixed || int(v[1]) >= len(rankLifecycles) || int(v[2]) >= len(rankCriticalities) || v[3]&^rankFlags != 0 {
		return fmt.Errorf("event %d: %w: malformed rank record", id, kv.ErrCorrupt)
	}
	at := func(off int, flag byte) time.Time {
		if v[3]&flag == 0 {
			return time.Time{}
		}
		return time.Unix(0, int64(binary.BigEndian.Uint64(v[off:]))).UTC()
	}
	*dst = rankView{
		id: id, supersededBy: binary.BigEndian.Uint64(v[4:]),
		lifecycle: rankLifecycles[v[1]], criticality: rankCriticalities[v[2]],
		mentioned: at(12, rankMentioned), start: at(20, rankStart), end: at(28, rankEnd),
		thread: v[rankFixed:],
	}
	return nil
}

// viewOf is the rank view of r, read from its card record (when the rank
// table lacks it).
func viewOf(r *rankRecord) rankView {
	v := rankView{id: r.ID, supersededBy: r.SupersededBy, lifecycle: Lifecycle(r.Lifecycle),
		criticality: Criticality(r.Criticality), thread: []byte(r.Thread)}
	if r.Mentioned.Set {
		v.mentioned = time.Unix(0, r.Mentioned.N).UTC()
	}
	if r.HStart.Set {
		v.start = time.Unix(0, r.HStart.N).UTC()
	}
	if r.HEnd.Set {
		v.end = time.Unix(0, r.HEnd.N).UTC()
	}
	return v
}

// card returns a Card with the fields of v set (those InRange, eventTime
// and WeightFor read, and the thread).
func (v *rankView) card() Card {
	return Card{ID: v.id, Thread: string(v.thread), Criticality: v.criticality, Lifecycle: v.lifecycle,
		SupersededBy: v.supersededBy, Temporal: Temporal{MentionedAt: v.mentioned, HappenedStart: v.start, HappenedEnd: v.end}}
}

// eventTime is eventTime of v's card.
func (v *rankView) eventTime() time.Time {
	if !v.start.IsZero() {
		return v.start
	}
	return v.mentioned
}

func rankBucket(tx *bolt.Tx) (*bolt.Bucket, error) {
	b := tx.Bucket(kv.BucketEventRank)
	if b == nil {
		return nil, fmt.Errorf("%w: no bucket %q", kv.ErrCorrupt, kv.BucketEventRank)
	}
	return b, nil
}

// putRank writes the rank table value of r.
func putRank(tx *bolt.Tx, r *cardRecord) error {
	b, err := rankBucket(tx)
	if err != nil {
		return err
	}
	rr := r.rank()
	return b.Put(kv.Key(r.ID), appendRank(make([]byte, 0, rankFixed+len(r.Thread)), &rr))
}

// CurrentRanks reports whether the rank table covers every card the
// events bucket's sequence has numbered (it is then current, unless a
// build without the table changed a card's lifecycle since).
func CurrentRanks(tx *bolt.Tx) bool {
	b := tx.Bucket(kv.BucketEventRank)
	return b != nil && b.Sequence() == tx.Bucket(kv.BucketEvents).Sequence()
}

// RebuildRanks regenerates the rank table in dst from the card records of
// src (the same transaction, or another file's for a check).
func RebuildRanks(src, dst *bolt.Tx) error {
	if dst.Bucket(kv.BucketEventRank) != nil {
		if err := dst.DeleteBucket(kv.BucketEventRank); err != nil {
			return err
		}
	}
	b, err := dst.CreateBucket(kv.BucketEventRank)
	if err != nil {
		return err
	}
	b.FillPercent = 0.9
	events := src.Bucket(kv.BucketEvents)
	if err := events.ForEach(func(k, v []byte) error {
		r, err := decodeRankFields(v)
		if err != nil {
			return fmt.Errorf("event %d: %w", kv.ID(k), err)
		}
		// A fresh value each time: bbolt keeps what Put is given until the
		// transaction commits.
		return b.Put(kv.Key(r.ID), appendRank(make([]byte, 0, rankFixed+len(r.Thread)), &r))
	}); err != nil {
		return err
	}
	return b.SetSequence(events.Sequence())
}

// ErrRankMismatch marks a rank table that differs from its rebuild.
var ErrRankMismatch = errors.New("sg: event rank table differs from the cards")

// CompareRanks checks that the rank table in tx equals fresh's (a
// RebuildRanks of the same cards), key by key and in sequence; the error
// wraps ErrRankMismatch and names the first difference.
func CompareRanks(tx, fresh *bolt.Tx) error {
	a, b := tx.Bucket(kv.BucketEventRank), fresh.Bucket(kv.BucketEventRank)
	name := string(kv.BucketEventRank)
	if a == nil || b == nil {
		if a == nil && b == nil {
			return nil
		}
		return fmt.Errorf("%w: %s: bucket missing", ErrRankMismatch, name)
	}
	if a.Sequence() != b.Sequence() {
		return fmt.Errorf("%w: %s: sequence %d, the events bucket's is %d", ErrRankMismatch, name, a.Sequence(), b.Sequence())
	}
	ca, cb := a.Cursor(), b.Cursor()
	ka, va := ca.First()
	kb, vb := cb.First()
	for ka != nil || kb != nil {
		switch {
		case ka == nil || (kb != nil && bytes.Compare(kb, ka) < 0):
			return fmt.Errorf("%w: %s: key %q missing", ErrRankMismatch, name, kb)
		case kb == nil || bytes.Compare(ka, kb) < 0:
			return fmt.Errorf("%w: %s: key %q names no card", ErrRankMismatch, name, ka)
		case !bytes.Equal(va, vb):
			return fmt.Errorf("%w: %s: value of key %q differs", ErrRankMismatch, name, ka)
		}
		ka, va = ca.Next()
		kb, vb = cb.Next()
	}
	return nil
}

// rankReader reads rank views of cards in ascending id order through one
// cursor (a bucket Get allocates a cursor and its stack each time). A
// card the table lacks (a table left behind by a build without it) is
// read from its card record.
type rankReader struct {
	tx     *bolt.Tx
	cur    *bolt.Cursor
	events *bolt.Bucket
	key    [8]byte
}

func (rr *rankReader) reset(tx *bolt.Tx) {
	*rr = rankReader{tx: tx}
	if b := tx.Bucket(kv.BucketEventRank); b != nil {
		rr.cur = b.Cursor()
	}
}

// read sets dst to card id's rank view. The index names id, so a card
// that is not stored at all means a damaged file (ErrCorrupt).
func (rr *rankReader) read(id uint64, dst *rankView) error {
	binary.BigEndian.PutUint64(rr.key[:], id)
	if rr.cur != nil {
		if k, v := rr.cur.Seek(rr.key[:]); bytes.Equal(k, rr.key[:]) {
			return decodeRank(id, v, dst)
		}
	}
	if rr.events == nil {
		rr.events = rr.tx.Bucket(kv.BucketEvents)
	}
	v := rr.events.Get(rr.key[:])
	if v == nil {
		return fmt.Errorf("%w: the event index names event %d, which is not stored", kv.ErrCorrupt, id)
	}
	r, err := decodeRankFields(v)
	if err != nil {
		return fmt.Errorf("event %d: %w", id, err)
	}
	*dst = viewOf(&r)
	return nil
}
