package index

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/stratagate/stratagate/kv"
)

// See doc.go for the on-disk layout.

const (
	// A keyword bitmap chunk covers 4096 doc numbers.
	chunkShift = 12

	statsVersion   byte = 1
	docVersion     byte = 1
	termVersion    byte = 2
	postingVersion byte = 3
	kwVersion      byte = 1
)

var (
	bMeta   = []byte("meta")
	bDocs   = []byte("docs")
	bIDs    = []byte("ids")
	bTerms  = []byte("terms")
	bPost   = []byte("post")
	bKWMeta = []byte("kwmeta")
	bKW     = []byte("kw")
	bTime   = []byte("time")
	kStats  = []byte("stats")

	subBuckets = [][]byte{bMeta, bDocs, bIDs, bTerms, bPost, bKWMeta, bKW, bTime}
)

// stats is the index-wide record.
type stats struct {
	Docs     uint32   `msgpack:"d"` // documents ever added (tombstoned included)
	Live     uint32   `msgpack:"l"`
	Gen      uint64   `msgpack:"g"` // bumped by every Add and Delete
	TotalLen []uint64 `msgpack:"t"` // per field
	MaxSpan  int64    `msgpack:"s"` // longest End-Start of any doc, ns
	// Base is the Gen this incarnation of the index started at: 0 for an
	// index created from nothing, the first Gen after the drop for one
	// recreated by Drop. Doc numbers restart at 1 after a Drop, so Base
	// tells the in-memory doc number → record id table which incarnation
	// a transaction sees. Omitted when 0 (records written before it
	// existed decode as 0, which they are).
	Base uint64 `msgpack:"b,omitempty"`
	// Layout is the on-disk layout of the index's postings and per-doc
	// tables (see doc.go): layout for everything written now. Indexes
	// written before the field existed read as 0 (the layout with one key
	// per document and 256-doc posting chunks) and must be rebuilt.
	Layout uint8 `msgpack:"f,omitempty"`
}

// layout is the current index layout (stats.Layout). 4: posting blocks
// carry a header with their posting count and (tf, length) bound (posting
// version 3, block.go), which block-max pruning reads. 3 was the byte
// format of layout 2, bumped because what StrataGate indexes changed (the
// raw index gained a speaker field). Every index of an older layout is
// rebuilt on its next writable Open. Bump it whenever an index's bytes,
// documents or fields change.
const layout = 4

// termRecord is fixed-width: version, df u32, maxTF u16, last u32 (the
// newest doc with the term), block u32 (the first doc of the term's last
// posting block, where the next posting goes), gen u64 (last, so that
// Compare can drop it).
type termRecord struct {
	DF    uint32
	MaxTF uint16
	Last  uint32
	Block uint32
	Gen   uint64
}

const termRecordLen = 1 + 4 + 2 + 4 + 4 + 8

func (r termRecord) encode() []byte {
	b := make([]byte, termRecordLen)
	b[0] = termVersion
	binary.BigEndian.PutUint32(b[1:], r.DF)
	binary.BigEndian.PutUint16(b[5:], r.MaxTF)
	binary.BigEndian.PutUint32(b[7:], r.Last)
	binary.BigEndian.PutUint32(b[11:], r.Block)
	binary.BigEndian.PutUint64(b[15:], r.Gen)
	return b
}

func decodeTermRecord(b []byte) (termRecord, error) {
	if len(b) != termRecordLen || b[0] != termVersion {
		return termRecord{}, fmt.Errorf("index: %w: term record of %d bytes, version %v", kv.ErrCorrupt, len(b), first(b))
	}
	return termRecord{
		DF:    binary.BigEndian.Uint32(b[1:]),
		MaxTF: binary.BigEndian.Uint16(b[5:]),
		Last:  binary.BigEndian.Uint32(b[7:]),
		Block: binary.BigEndian.Uint32(b[11:]),
		Gen:   binary.BigEndian.Uint64(b[15:]),
	}, nil
}

// kwRecord is fixed-width: version, count u32, gen u64.
type kwRecord struct {
	Count uint32
	Gen   uint64
}

const kwRecordLen = 1 + 4 + 8

func (r kwRecord) encode() []byte {
	b := make([]byte, kwRecordLen)
	b[0] = kwVersion
	binary.BigEndian.PutUint32(b[1:], r.Count)
	binary.BigEndian.PutUint64(b[5:], r.Gen)
	return b
}

func decodeKWRecord(b []byte) (kwRecord, error) {
	if len(b) != kwRecordLen || b[0] != kwVersion {
		return kwRecord{}, fmt.Errorf("index: %w: keyword record of %d bytes", kv.ErrCorrupt, len(b))
	}
	return kwRecord{Count: binary.BigEndian.Uint32(b[1:]), Gen: binary.BigEndian.Uint64(b[5:])}, nil
}

func first(b []byte) any {
	if len(b) == 0 {
		return "none"
	}
	return b[0]
}

func encodeBitmap(bm *roaring.Bitmap) ([]byte, error) {
	bm.RunOptimize()
	var rb bytes.Buffer
	rb.WriteByte(kwVersion)
	if _, err := bm.WriteTo(&rb); err != nil {
		return nil, err
	}
	return rb.Bytes(), nil
}

func decodeBitmap(b []byte) (*roaring.Bitmap, error) {
	if len(b) < 1 || b[0] != kwVersion {
		return nil, fmt.Errorf("index: %w: bitmap chunk header", kv.ErrCorrupt)
	}
	bm, err := unmarshalBitmap(b[1:])
	if err != nil {
		return nil, fmt.Errorf("index: %w: bitmap chunk: %v", kv.ErrCorrupt, err)
	}
	return bm, nil
}

// unmarshalBitmap validates a serialized roaring bitmap (checkBitmap:
// sorted keys, cardinalities within bounds, well-formed containers) and
// decodes it: roaring trusts its input's headers, and a damaged one can
// make it index out of range, here or later in a set operation.
func unmarshalBitmap(b []byte) (bm *roaring.Bitmap, err error) {
	defer func() {
		if p := recover(); p != nil {
			bm, err = nil, fmt.Errorf("%v", p)
		}
	}()
	if err := checkBitmap(b); err != nil {
		return nil, err
	}
	bm = roaring.New()
	if err := bm.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	return bm, nil
}

// Key helpers.

func termKey(dst []byte, field uint8, term string) []byte {
	dst = append(dst[:0], field)
	return append(dst, term...)
}

// postKey is the key of the posting block of term starting at doc first.
func postKey(dst []byte, field uint8, term string, first uint32) []byte {
	dst = termKey(dst, field, term)
	dst = append(dst, 0)
	return binary.BigEndian.AppendUint32(dst, first)
}

func kwKey(dst []byte, kw string, ch uint32) []byte {
	dst = append(dst[:0], kw...)
	dst = append(dst, 0)
	return binary.BigEndian.AppendUint32(dst, ch)
}
