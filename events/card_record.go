package events

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/stratagate/stratagate/kv"
)

// Card record versions. Version 1 is cardRecord in msgpack; version 2
// (file format 4) is a binary layout of the same fields, the lifecycle
// first so that GetLifecycle reads a few bytes; version 3 is version 2
// with the card's texts (summary, quotes, title, tags, participants,
// entities) moved together, each either literal or a reference to a
// piece of one written before it:
//
//	version 3 card record
//	+----+-----------+----------------+------------+----------------+
//	| 03 | lifecycle | prev lifecycle | id uvarint | superseded by  |
//	+----+-----------+----------------+------------+----------------+
//	| scope | thread | block uvarint | source msgs                    |
//	| texts: summary | quotes | title | tags | participants | entities |
//	| type | status | criticality                                     |
//	| mentioned, happened start, happened end, created                |
//	| time text | precision | basis | approx byte | supersedes        |
//	| conflicts                                                      |
//	+----------------------------------------------------------------+
//	strings: uvarint length, bytes; string lists: count, strings; id
//	lists: count, then zigzag varint differences (the first from 0);
//	times: 0 (none) or 1, zigzag Unix nanoseconds, zigzag offset (s).
//	A text is a uvarint h: h even, h/2 literal bytes follow; h odd, it is
//	the (h-1)/2 bytes at offset off of the src'th text before it (src,
//	off uvarints). Version 2 has the same fields, the texts plain strings
//	in the order title, summary, tags, quotes, type, status,
//	participants, entities, criticality.
//
// At 20k bench turns a card went from ~472 to ~345 bytes in version 2
// (msgpack's 27 field names and its time maps). Version 3 removes what a
// card repeats of itself: the heuristic model's title is its quote, its
// summary the speaker and the quote, and names recur in the texts; a
// model that paraphrases pays a bit per text.
const (
	cardVersionV1 byte = 1
	cardVersionV2 byte = 2
	cardVersion   byte = 3
	// blockCardsVersion is the version of a block_events record (the ids
	// of a block's cards, msgpack).
	blockCardsVersion byte = 1
)

// binaryCard reports whether v is a version 2 or 3 card record (else
// version 1, msgpack, or damage).
func binaryCard(v []byte) bool {
	return len(v) > 0 && (v[0] == cardVersionV2 || v[0] == cardVersion)
}

// encodeCard returns r's version 3 record.
func encodeCard(r *cardRecord) []byte {
	n := 64 + len(r.Scope) + len(r.Thread) + len(r.Title) + len(r.Summary) + len(r.TimeText) + 3*(len(r.Msgs)+len(r.Supersedes)+len(r.Conflicts))
	for _, l := range [][]string{r.Tags, r.Quotes, r.Participants, r.Entities} {
		for _, s := range l {
			n += len(s) + 2
		}
	}
	var texts [16]string
	w := cardWriter{v: make([]byte, 0, n), texts: texts[:0]}
	w.head(cardVersion, r)
	w.text(r.Summary)
	w.textList(r.Quotes)
	w.text(r.Title)
	w.textList(r.Tags)
	w.textList(r.Participants)
	w.textList(r.Entities)
	w.str(r.Type)
	w.str(r.Status)
	w.str(r.Criticality)
	w.tail(r)
	return w.v
}

// head writes what versions 2 and 3 share before the card's texts.
func (w *cardWriter) head(version byte, r *cardRecord) {
	w.v = append(w.v, version)
	w.str(r.Lifecycle)
	w.str(r.PrevLifecycle)
	w.uvarint(r.ID)
	w.uvarint(r.SupersededBy)
	w.str(r.Scope)
	w.str(r.Thread)
	w.uvarint(r.Block)
	w.ids(r.Msgs)
}

// tail writes what versions 2 and 3 share after the card's texts.
func (w *cardWriter) tail(r *cardRecord) {
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
}

// cardWriter appends a record; texts are the texts written so far, which
// a later text may refer to.
type cardWriter struct {
	v     []byte
	texts []string
}

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

// text writes s as a reference to the first earlier text holding it, if
// that is shorter than s itself, else literally.
func (w *cardWriter) text(s string) {
	if len(s) > 3 {
		for src, t := range w.texts {
			off := strings.Index(t, s)
			if off < 0 {
				continue
			}
			ref := binary.AppendUvarint(nil, uint64(len(s))<<1|1)
			ref = binary.AppendUvarint(ref, uint64(src))
			ref = binary.AppendUvarint(ref, uint64(off))
			if len(ref) < uvarintLen(uint64(len(s))<<1)+len(s) {
				w.v = append(w.v, ref...)
				w.texts = append(w.texts, s)
				return
			}
			break
		}
	}
	w.uvarint(uint64(len(s)) << 1)
	w.v = append(w.v, s...)
	w.texts = append(w.texts, s)
}

func (w *cardWriter) textList(l []string) {
	w.uvarint(uint64(len(l)))
	for _, s := range l {
		w.text(s)
	}
}

func uvarintLen(x uint64) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutUvarint(b[:], x)
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

// cardReader reads a version 2 or 3 record; the first failure sticks.
// texts are the version 3 texts read so far.
type cardReader struct {
	p     []byte
	err   error
	texts []string
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

func (r *cardReader) strs() []string { return r.list(r.str) }

// list reads a count, then that many strings with read.
func (r *cardReader) list(read func() string) []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		out = append(out, read())
	}
	if r.err != nil {
		return nil
	}
	return out
}

// text reads a version 3 text: literal, or a piece of an earlier text
// (shared with it, not copied).
func (r *cardReader) text() string {
	h := r.uvarint()
	if r.err != nil {
		return ""
	}
	var s string
	if h&1 == 0 {
		n := h >> 1
		if n > uint64(len(r.p)) {
			r.err = errCardRecord
			return ""
		}
		s = string(r.p[:n])
		r.p = r.p[n:]
	} else {
		n, src, off := h>>1, r.uvarint(), r.uvarint()
		if r.err != nil {
			return ""
		}
		if src >= uint64(len(r.texts)) || off > uint64(len(r.texts[src])) || n > uint64(len(r.texts[src]))-off {
			r.err = errCardRecord
			return ""
		}
		s = r.texts[src][off : off+n]
	}
	r.texts = append(r.texts, s)
	return s
}

func (r *cardReader) textList() []string { return r.list(r.text) }

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

// decodeCard decodes a card record of any version.
func decodeCard(v []byte) (cardRecord, error) {
	if !binaryCard(v) {
		var r cardRecord
		_, err := kv.Decode(v, &r, cardVersionV1)
		return r, err
	}
	version := v[0]
	r := cardReader{p: v[1:]}
	c := cardRecord{Lifecycle: r.str(), PrevLifecycle: r.str(), ID: r.uvarint(), SupersededBy: r.uvarint()}
	c.Scope, c.Thread, c.Block, c.Msgs = r.str(), r.str(), r.uvarint(), r.ids()
	if version == cardVersionV2 {
		c.Title, c.Summary, c.Tags, c.Quotes = r.str(), r.str(), r.strs(), r.strs()
		c.Type, c.Status, c.Participants, c.Entities, c.Criticality = r.str(), r.str(), r.strs(), r.strs(), r.str()
	} else {
		r.texts = make([]string, 0, 12) // one allocation for most cards' texts
		c.Summary, c.Quotes, c.Title, c.Tags = r.text(), r.textList(), r.text(), r.textList()
		c.Participants, c.Entities = r.textList(), r.textList()
		c.Type, c.Status, c.Criticality = r.str(), r.str(), r.str()
	}
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
		return cardRecord{}, fmt.Errorf("%w: version %d card record: %v", kv.ErrCorrupt, version, r.err)
	}
	return c, nil
}

// decodeLifecycle reads only a card record's lifecycle.
func decodeLifecycle(v []byte) (string, error) {
	if !binaryCard(v) {
		var r struct {
			Lifecycle string `msgpack:"l"`
		}
		_, err := kv.Decode(v, &r, cardVersionV1)
		return r.Lifecycle, err
	}
	r := cardReader{p: v[1:]}
	lc := r.str()
	if r.err != nil {
		return "", fmt.Errorf("%w: version %d card record: %v", kv.ErrCorrupt, v[0], r.err)
	}
	return lc, nil
}
