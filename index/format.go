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
	chunkShift = 8
	chunkSize  = 1 << chunkShift

	statsVersion   byte = 1
	docVersion     byte = 1
	termVersion    byte = 1
	postingVersion byte = 1
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
}

// docRecord is what the index keeps per document.
type docRecord struct {
	ID       uint64   `msgpack:"i"`
	Scope    string   `msgpack:"s"`
	Lens     []uint32 `msgpack:"l"`
	Keywords []string `msgpack:"k,omitempty"`
	Start    int64    `msgpack:"a,omitempty"`
	End      int64    `msgpack:"b,omitempty"`
	HasTime  bool     `msgpack:"h,omitempty"`
}

// termRecord is fixed-width: version, df u32, maxTF u16, gen u64.
type termRecord struct {
	DF    uint32
	MaxTF uint16
	Gen   uint64
}

const termRecordLen = 1 + 4 + 2 + 8

func (r termRecord) encode() []byte {
	b := make([]byte, termRecordLen)
	b[0] = termVersion
	binary.BigEndian.PutUint32(b[1:], r.DF)
	binary.BigEndian.PutUint16(b[5:], r.MaxTF)
	binary.BigEndian.PutUint64(b[7:], r.Gen)
	return b
}

func decodeTermRecord(b []byte) (termRecord, error) {
	if len(b) != termRecordLen || b[0] != termVersion {
		return termRecord{}, fmt.Errorf("index: %w: term record of %d bytes, version %v", kv.ErrCorrupt, len(b), first(b))
	}
	return termRecord{
		DF:    binary.BigEndian.Uint32(b[1:]),
		MaxTF: binary.BigEndian.Uint16(b[5:]),
		Gen:   binary.BigEndian.Uint64(b[7:]),
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

// chunk is one decoded posting chunk: sorted doc numbers with their term
// frequencies and field lengths. On disk:
//
//	+---------+---------+----------------+-----------------+------------+-------------+
//	| version | n (u16) | roaring length | roaring bitmap  | tf n×u16   | len n×u32   |
//	| 1 byte  | BE      | u32 BE         | (portable fmt)  | BE         | BE          |
//	+---------+---------+----------------+-----------------+------------+-------------+
//
// tf is capped at 65535 (BM25 saturates long before that).
type chunk struct {
	docs []uint32
	tfs  []uint16
	lens []uint32
}

func (c *chunk) encode() ([]byte, error) {
	bm := roaring.New()
	bm.AddMany(c.docs)
	bm.RunOptimize()
	var rb bytes.Buffer
	if _, err := bm.WriteTo(&rb); err != nil {
		return nil, err
	}
	n := len(c.docs)
	out := make([]byte, 0, 7+rb.Len()+6*n)
	out = append(out, postingVersion)
	out = binary.BigEndian.AppendUint16(out, uint16(n))
	out = binary.BigEndian.AppendUint32(out, uint32(rb.Len()))
	out = append(out, rb.Bytes()...)
	for _, tf := range c.tfs {
		out = binary.BigEndian.AppendUint16(out, tf)
	}
	for _, l := range c.lens {
		out = binary.BigEndian.AppendUint32(out, l)
	}
	return out, nil
}

// decodeChunk appends a chunk's postings to dst. It copies: nothing it
// returns aliases b (which may be bbolt memory).
func decodeChunk(b []byte, dst *chunk) error {
	bad := func(why string) error { return fmt.Errorf("index: %w: posting chunk: %s", kv.ErrCorrupt, why) }
	if len(b) < 7 || b[0] != postingVersion {
		return bad("header")
	}
	n := int(binary.BigEndian.Uint16(b[1:]))
	rl := int(binary.BigEndian.Uint32(b[3:]))
	if n == 0 || n > chunkSize || 7+rl+6*n != len(b) {
		return bad("length")
	}
	bm := roaring.New()
	if err := bm.UnmarshalBinary(b[7 : 7+rl]); err != nil { // copies
		return bad(err.Error())
	}
	if int(bm.GetCardinality()) != n {
		return bad("cardinality")
	}
	start := len(dst.docs)
	dst.docs = slicesGrow(dst.docs, n)
	it := bm.Iterator()
	for i := start; it.HasNext(); i++ {
		dst.docs[i] = it.Next()
	}
	p := 7 + rl
	for i := 0; i < n; i++ {
		dst.tfs = append(dst.tfs, binary.BigEndian.Uint16(b[p+2*i:]))
	}
	p += 2 * n
	for i := 0; i < n; i++ {
		dst.lens = append(dst.lens, binary.BigEndian.Uint32(b[p+4*i:]))
	}
	return nil
}

func slicesGrow(s []uint32, n int) []uint32 {
	if cap(s)-len(s) < n {
		ns := make([]uint32, len(s), len(s)+n+len(s)/2)
		copy(ns, s)
		s = ns
	}
	return s[:len(s)+n]
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
	bm := roaring.New()
	if err := bm.UnmarshalBinary(b[1:]); err != nil {
		return nil, fmt.Errorf("index: %w: bitmap chunk: %v", kv.ErrCorrupt, err)
	}
	return bm, nil
}

// Key helpers.

func termKey(dst []byte, field uint8, term string) []byte {
	dst = append(dst[:0], field)
	return append(dst, term...)
}

func postKey(dst []byte, field uint8, term string, ch uint32) []byte {
	dst = termKey(dst, field, term)
	dst = append(dst, 0)
	return binary.BigEndian.AppendUint32(dst, ch)
}

func kwKey(dst []byte, kw string, ch uint32) []byte {
	dst = append(dst[:0], kw...)
	dst = append(dst, 0)
	return binary.BigEndian.AppendUint32(dst, ch)
}

func docKey(d uint32) []byte { return binary.BigEndian.AppendUint32(nil, d) }

// timeKey orders signed nanoseconds correctly as bytes.
func timeKey(start int64, d uint32) []byte {
	k := binary.BigEndian.AppendUint64(nil, uint64(start)^(1<<63))
	return binary.BigEndian.AppendUint32(k, d)
}

func timeKeyStart(k []byte) int64 { return int64(binary.BigEndian.Uint64(k) ^ (1 << 63)) }

func decodeDocRecord(v []byte, rec *docRecord) error {
	_, err := kv.Decode(v, rec, docVersion)
	return err
}
