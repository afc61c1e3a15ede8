package events

import (
	"encoding/binary"
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
	w := cardWriter{Writer: kv.Writer{B: make([]byte, 0, n)}, texts: texts[:0]}
	w.head(cardVersion, r)
	w.text(r.Summary)
	w.textList(r.Quotes)
	w.text(r.Title)
	w.textList(r.Tags)
	w.textList(r.Participants)
	w.textList(r.Entities)
	w.Str(r.Type)
	w.Str(r.Status)
	w.Str(r.Criticality)
	w.tail(r)
	return w.B
}

// head writes what versions 2 and 3 share before the card's texts.
func (w *cardWriter) head(version byte, r *cardRecord) {
	w.B = append(w.B, version)
	w.Str(r.Lifecycle)
	w.Str(r.PrevLifecycle)
	w.Uvarint(r.ID)
	w.Uvarint(r.SupersededBy)
	w.Str(r.Scope)
	w.Str(r.Thread)
	w.Uvarint(r.Block)
	w.IDs(r.Msgs)
}

// tail writes what versions 2 and 3 share after the card's texts.
func (w *cardWriter) tail(r *cardRecord) {
	for _, s := range []kv.Stamp{r.Mentioned, r.HStart, r.HEnd, r.Created} {
		w.Stamp(s)
	}
	w.Str(r.TimeText)
	w.Str(r.Precision)
	w.Str(r.Basis)
	w.Bool(r.Approx)
	w.IDs(r.Supersedes)
	w.IDs(r.Conflicts)
}

// cardWriter appends a record; texts are the texts written so far, which
// a later text may refer to.
type cardWriter struct {
	kv.Writer
	texts []string
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
				w.B = append(w.B, ref...)
				w.texts = append(w.texts, s)
				return
			}
			break
		}
	}
	w.Uvarint(uint64(len(s)) << 1)
	w.B = append(w.B, s...)
	w.texts = append(w.texts, s)
}

func (w *cardWriter) textList(l []string) {
	w.Uvarint(uint64(len(l)))
	for _, s := range l {
		w.text(s)
	}
}

func uvarintLen(x uint64) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutUvarint(b[:], x)
}

// cardReader reads a version 2 or 3 record; the first failure sticks.
// texts are the version 3 texts read so far.
type cardReader struct {
	kv.Reader
	texts []string
}

// text reads a version 3 text: literal, or a piece of an earlier text
// (shared with it, not copied).
func (r *cardReader) text() string {
	h := r.Uvarint()
	if r.Err != nil {
		return ""
	}
	var s string
	if h&1 == 0 {
		n := h >> 1
		if n > uint64(len(r.Rest)) {
			r.Err = kv.ErrField
			return ""
		}
		s = string(r.Rest[:n])
		r.Rest = r.Rest[n:]
	} else {
		n, src, off := h>>1, r.Uvarint(), r.Uvarint()
		if r.Err != nil {
			return ""
		}
		if src >= uint64(len(r.texts)) || off > uint64(len(r.texts[src])) || n > uint64(len(r.texts[src]))-off {
			r.Err = kv.ErrField
			return ""
		}
		s = r.texts[src][off : off+n]
	}
	r.texts = append(r.texts, s)
	return s
}

func (r *cardReader) textList() []string { return r.List(r.text) }

// decodeCard decodes a card record of any version.
func decodeCard(v []byte) (cardRecord, error) {
	if !binaryCard(v) {
		var r cardRecord
		_, err := kv.Decode(v, &r, cardVersionV1)
		return r, err
	}
	version := v[0]
	r := cardReader{Reader: kv.Reader{Rest: v[1:]}}
	c := cardRecord{Lifecycle: r.Str(), PrevLifecycle: r.Str(), ID: r.Uvarint(), SupersededBy: r.Uvarint()}
	c.Scope, c.Thread, c.Block, c.Msgs = r.Str(), r.Str(), r.Uvarint(), r.IDs()
	if version == cardVersionV2 {
		c.Title, c.Summary, c.Tags, c.Quotes = r.Str(), r.Str(), r.Strs(), r.Strs()
		c.Type, c.Status, c.Participants, c.Entities, c.Criticality = r.Str(), r.Str(), r.Strs(), r.Strs(), r.Str()
	} else {
		r.texts = make([]string, 0, 12) // one allocation for most cards' texts
		c.Summary, c.Quotes, c.Title, c.Tags = r.text(), r.textList(), r.text(), r.textList()
		c.Participants, c.Entities = r.textList(), r.textList()
		c.Type, c.Status, c.Criticality = r.Str(), r.Str(), r.Str()
	}
	c.Mentioned, c.HStart, c.HEnd, c.Created = r.Stamp(), r.Stamp(), r.Stamp(), r.Stamp()
	c.TimeText, c.Precision, c.Basis = r.Str(), r.Str(), r.Str()
	c.Approx = r.Bool()
	c.Supersedes, c.Conflicts = r.IDs(), r.IDs()
	if err := r.End(); err != nil {
		return cardRecord{}, fmt.Errorf("%w: version %d card record: %v", kv.ErrCorrupt, version, err)
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
	r := cardReader{Reader: kv.Reader{Rest: v[1:]}}
	lc := r.Str()
	if r.Err != nil {
		return "", fmt.Errorf("%w: version %d card record: %v", kv.ErrCorrupt, v[0], r.Err)
	}
	return lc, nil
}
