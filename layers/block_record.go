package layers

import (
	"fmt"
	"time"

	"github.com/stratagate/stratagate/kv"
)

// Block record versions. Version 1 (msgpack) stored the L3 and L4
// renderings as text; version 2 (msgpack) stores only the renderer
// version and RenderSum of them, and L3 and L4 are rendered from the
// messages on read (they are a pure function of L5); version 3 (written
// from file format 7) holds version 2's fields in a binary layout:
//
//	version 3 block record
//	+----+------------+--------+-------+-------------+-------+-------------+
//	| 03 | id uvarint | thread | scope | seq uvarint | state | message ids |
//	+----+------------+--------+-------+-------------+-------+-------------+
//	| turn first uvarint | turn last uvarint | first at | last at          |
//	| title | tags | summary | facts: count, then (text, message ids) each |
//	| render version uvarint | render hash | L5 hash | derived hash         |
//	| created | ready | err                                                |
//	+----------------------------------------------------------------------+
//	strings and hashes: uvarint length, bytes; string lists: count,
//	strings; id lists: count, then zigzag varint differences (the first
//	from 0); times: zigzag Unix seconds, nanoseconds uvarint, and for
//	first at and last at the UTC offset in seconds (zigzag), which created
//	and ready (UTC) do not have. The zero time is stored as its Unix
//	seconds, like any other.
//
// Readers accept all three; a writable Open rewrites version 1 records
// (see the root package's migrate.go); version 2 records stay as they are
// (a pending one becomes version 3 when its derivation stores it). msgpack decoded a record through
// reflection, ~11 µs a block, and spelled its 21 field names in every
// record.
const (
	blockVersionV1 byte = 1
	blockVersionV2 byte = 2
	blockVersion   byte = 3
)

// encodeBlock returns b's version 3 record (without L3 and L4).
func encodeBlock(b *Block) []byte {
	n := 160 + len(b.Thread) + len(b.Scope) + len(b.Title) + len(b.Summary) + len(b.Err) +
		3*len(b.MessageIDs) + len(b.RenderHash) + len(b.L5Hash) + len(b.DerivedHash)
	for _, t := range b.Tags {
		n += len(t) + 1
	}
	for _, f := range b.Facts {
		n += len(f.Text) + 2 + 3*len(f.MessageIDs)
	}
	w := kv.Writer{B: make([]byte, 0, n)}
	w.Byte(blockVersion)
	w.Uvarint(b.ID)
	w.Str(b.Thread)
	w.Str(b.Scope)
	w.Uvarint(b.Seq)
	w.Str(string(b.State))
	w.IDs(b.MessageIDs)
	w.Uvarint(b.TurnFirst)
	w.Uvarint(b.TurnLast)
	writeTime(&w, b.FirstAt)
	w.Varint(int64(b.FirstOffset))
	writeTime(&w, b.LastAt)
	w.Varint(int64(b.LastOffset))
	w.Str(b.Title)
	w.Strs(b.Tags)
	w.Str(b.Summary)
	w.Uvarint(uint64(len(b.Facts)))
	for _, f := range b.Facts {
		w.Str(f.Text)
		w.IDs(f.MessageIDs)
	}
	w.Uvarint(uint64(b.RenderVersion))
	w.Str(string(b.RenderHash))
	w.Str(string(b.L5Hash))
	w.Str(string(b.DerivedHash))
	writeTime(&w, b.CreatedAt)
	writeTime(&w, b.ReadyAt)
	w.Str(b.Err)
	return w.B
}

// writeTime appends t's instant as Unix seconds and nanoseconds (block
// and thread records).
func writeTime(w *kv.Writer, t time.Time) {
	w.Varint(t.Unix())
	w.Uvarint(uint64(t.Nanosecond()))
}

// decodeBlockV3 decodes a version 3 record; v[0] is its version byte.
// Strings and hashes are copied: a Block never aliases bbolt's pages.
func decodeBlockV3(v []byte) (Block, error) {
	r := kv.Reader{Rest: v[1:]}
	b := Block{ID: r.Uvarint(), Thread: r.Str(), Scope: r.Str(), Seq: r.Uvarint(), State: State(r.Str()), MessageIDs: r.IDs()}
	b.TurnFirst, b.TurnLast = r.Uvarint(), r.Uvarint()
	var first, last time.Time
	first, b.FirstOffset = readTime(&r), readOffset(&r)
	last, b.LastOffset = readTime(&r), readOffset(&r)
	b.FirstAt, b.LastAt = first.In(zone(b.FirstOffset)), last.In(zone(b.LastOffset))
	b.Title, b.Tags, b.Summary = r.Str(), r.Strs(), r.Str()
	if n := r.Count(); n > 0 {
		b.Facts = make([]Fact, 0, n)
		for range n {
			b.Facts = append(b.Facts, Fact{Text: r.Str(), MessageIDs: r.IDs()})
		}
	}
	rv := r.Uvarint()
	if r.Err == nil && rv > 1<<32-1 {
		r.Err = kv.ErrField
	}
	b.RenderVersion = uint32(rv)
	b.RenderHash, b.L5Hash, b.DerivedHash = readBytes(&r), readBytes(&r), readBytes(&r)
	b.CreatedAt, b.ReadyAt = readTime(&r).UTC(), readTime(&r).UTC()
	b.Err = r.Str()
	if err := r.End(); err != nil {
		return Block{}, fmt.Errorf("layers: block: %w: version 3 record: %v", kv.ErrCorrupt, err)
	}
	if len(b.Facts) == 0 {
		b.Facts = nil // a count of 0 and a damaged list read alike
	}
	return b, nil
}

// readTime reads what writeTime wrote, in UTC.
func readTime(r *kv.Reader) time.Time {
	sec, nsec := r.Varint(), r.Uvarint()
	if r.Err == nil && nsec >= 1e9 {
		r.Err = kv.ErrField
	}
	if r.Err != nil {
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}

// readOffset reads a UTC offset in seconds.
func readOffset(r *kv.Reader) int32 {
	off := r.Varint()
	// Any int32, as version 2 held: a record must not become unreadable
	// by being rewritten.
	if r.Err == nil && (off < -1<<31 || off >= 1<<31) {
		r.Err = kv.ErrField
	}
	if r.Err != nil {
		return 0
	}
	return int32(off)
}

// readBytes reads a string field as a fresh byte slice (nil when empty).
func readBytes(r *kv.Reader) []byte {
	s := r.StrBytes()
	if len(s) == 0 {
		return nil
	}
	return append([]byte(nil), s...)
}
