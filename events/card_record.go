package events

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/stratagate/stratagate/kv"
)

// Card record versions. Version 1 is cardRecord in msgpack; version 2
// (written from file format 4) is a binary layout of the same fields,
// the lifecycle first so that GetLifecycle reads a few bytes:
//
//	version 2 card record
//	+----+-----------+----------------+------------+----------------+
//	| 02 | lifecycle | prev lifecycle | id uvarint | superseded by  |
//	+----+-----------+----------------+------------+----------------+
//	| scope | thread | block uvarint | source msgs | title | summary  |
//	| tags | quotes | type | status | participants | entities       |
//	| criticality | mentioned, happened start, happened end, created  |
//	| time text | precision | basis | approx byte | supersedes      |
//	| conflicts                                                      |
//	+----------------------------------------------------------------+
//	strings: uvarint length, bytes; string lists: count, strings; id
//	lists: count, then zigzag varint differences (the first from 0);
//	times: 0 (none) or 1, zigzag Unix nanoseconds, zigzag offset (s).
//
// At 20k bench turns a card went from ~472 to ~345 bytes (msgpack's 27
// field names and its time maps), and reading the fields an extraction
// shows of an earlier card no longer goes through reflection.
const (
	cardVersionV1 byte = 1
	cardVersion   byte = 2
	// blockCardsVersion is the version of a block_events record (the ids
	// of a block's cards, msgpack).
	blockCardsVersion byte = 1
)

// encodeCard returns r's version 2 record.
func encodeCard(r *cardRecord) []byte {
	n := 64 + len(r.Scope) + len(r.Thread) + len(r.Title) + len(r.Summary) + len(r.TimeText) + 3*(len(r.Msgs)+len(r.Supersedes)+len(r.Conflicts))
	for _, l := range [][]string{r.Tags, r.Quotes, r.Participants, r.Entities} {
		for _, s := range l {
			n += len(s) + 2
		}
	}
	w := cardWriter{v: make([]byte, 0, n)}
	w.v = append(w.v, cardVersion)
	w.str(r.Lifecycle)
	w.str(r.PrevLifecycle)
	w.uvarint(r.ID)
	w.uvarint(r.SupersededBy)
	w.str(r.Scope)
	w.str(r.Thread)
	w.uvarint(r.Block)
	w.ids(r.Msgs)
	w.str(r.Title)
	w.str(r.Summary)
	w.strs(r.Tags)
	w.strs(r.Quotes)
	w.str(r.Type)
	w.str(r.Status)
	w.strs(r.Participants)
	w.strs(r.Entities)
	w.str(r.Criticality)
	for _, s := range []kv.Stamp{r.Mentioned, r.HStart, r.HEnd, r.Created} {
		w.stamp(s)
	}
	w.str(r.TimeText)
	w.str(r.Precision)
	w.str(r.Basis)
	if r.Approx {
		w.v = append(w.v, 1)
	} else {
		w.v = append(w.v, 0)
	}
	w.ids(r.Supersedes)
	w.ids(r.Conflicts)
	return w.v
}

type cardWriter struct{ v []byte }

func (w *cardWriter) uvarint(x uint64) { w.v = binary.AppendUvarint(w.v, x) }

func (w *cardWriter) str(s string) {
	w.uvarint(uint64(len(s)))
	w.v = append(w.v, s...)
}

func (w *cardWriter) strs(l []string) {
	w.uvarint(uint64(len(l)))
	for _, s := range l {
		w.str(s)
	}
}

func (w *cardWriter) ids(l []uint64) {
	w.uvarint(uint64(len(l)))
	var prev uint64
	for _, id := range l {
		w.v = binary.AppendVarint(w.v, int64(id-prev))
		prev = id
	}
}

func (w *cardWriter) stamp(s kv.Stamp) {
	if !s.Set {
		w.v = append(w.v, 0)
		return
	}
	w.v = append(w.v, 1)
	w.v = binary.AppendVarint(w.v, s.N)
	w.v = binary.AppendVarint(w.v, int64(s.Off))
}

var errCardRecord = errors.New("truncated or inconsistent")

// cardReader reads a version 2 record; the first failure sticks.
type cardReader struct {
	p   []byte
	err error
}

func (r *cardReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.p)
	if n <= 0 {
		r.err = errCardRecord
		return 0
	}
	r.p = r.p[n:]
	return x
}

func (r *cardReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Varint(r.p)
	if n <= 0 {
		r.err = errCardRecord
		return 0
	}
	r.p = r.p[n:]
	return x
}

// count reads a length; every element takes at least a byte, so a count
// beyond what is left is damage, refused before anything is allocated.
func (r *cardReader) count() int {
	c := r.uvarint()
	if r.err == nil && c > uint64(len(r.p)) {
		r.err = errCardRecord
	}
	if r.err != nil {
		return 0
	}
	return int(c)
}

func (r *cardReader) str() string {
	n := r.count()
	if r.err != nil || n == 0 {
		return ""
	}
	s := string(r.p[:n])
	r.p = r.p[n:]
	return s
}

func (r *cardReader) strs() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		out = append(out, r.str())
	}
	if r.err != nil {
		return nil
	}
	return out
}

func (r *cardReader) ids() []uint64 {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]uint64, 0, n)
	var prev uint64
	for range n {
		prev += uint64(r.varint())
		out = append(out, prev)
	}
	if r.err != nil {
		return nil
	}
	return out
}

func (r *cardReader) stamp() kv.Stamp {
	if r.err != nil {
		return kv.Stamp{}
	}
	if len(r.p) == 0 || r.p[0] > 1 {
		r.err = errCardRecord
		return kv.Stamp{}
	}
	set := r.p[0] == 1
	r.p = r.p[1:]
	if !set {
		return kv.Stamp{}
	}
	nanos, off := r.varint(), r.varint()
	if r.err == nil && (off < -1<<31 || off >= 1<<31) {
		r.err = errCardRecord
	}
	return kv.Stamp{N: nanos, Off: int32(off), Set: true}
}

// decodeCard decodes a card record of either version.
func decodeCard(v []byte) (cardRecord, error) {
	if len(v) == 0 || v[0] != cardVersion {
		var r cardRecord
		_, err := kv.Decode(v, &r, cardVersionV1)
		return r, err
	}
	r := cardReader{p: v[1:]}
	c := cardRecord{Lifecycle: r.str(), PrevLifecycle: r.str(), ID: r.uvarint(), SupersededBy: r.uvarint()}
	c.Scope, c.Thread, c.Block, c.Msgs = r.str(), r.str(), r.uvarint(), r.ids()
	c.Title, c.Summary, c.Tags, c.Quotes = r.str(), r.str(), r.strs(), r.strs()
	c.Type, c.Status, c.Participants, c.Entities, c.Criticality = r.str(), r.str(), r.strs(), r.strs(), r.str()
	c.Mentioned, c.HStart, c.HEnd, c.Created = r.stamp(), r.stamp(), r.stamp(), r.stamp()
	c.TimeText, c.Precision, c.Basis = r.str(), r.str(), r.str()
	if r.err == nil {
		if len(r.p) == 0 || r.p[0] > 1 {
			r.err = errCardRecord
		} else {
			c.Approx = r.p[0] == 1
			r.p = r.p[1:]
		}
	}
	c.Supersedes, c.Conflicts = r.ids(), r.ids()
	if r.err == nil && len(r.p) != 0 {
		r.err = errCardRecord
	}
	if r.err != nil {
		return cardRecord{}, fmt.Errorf("%w: version 2 card record: %v", kv.ErrCorrupt, r.err)
	}
	return c, nil
}

// decodeLifecycle reads only a card record's lifecycle.
func decodeLifecycle(v []byte) (string, error) {
	if len(v) == 0 || v[0] != cardVersion {
		var r struct {
			Lifecycle string `msgpack:"l"`
		}
		_, err := kv.Decode(v, &r, cardVersionV1)
		return r.Lifecycle, err
	}
	r := cardReader{p: v[1:]}
	lc := r.str()
	if r.err != nil {
		return "", fmt.Errorf("%w: version 2 card record: %v", kv.ErrCorrupt, r.err)
	}
	return lc, nil
}
