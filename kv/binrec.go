package kv

import (
	"encoding/binary"
	"errors"
)

// Binary records. The msgpack records of the first formats spell out
// every field name and decode through reflection; the records read most
// often (messages, cards, graph records) have binary layouts instead,
// written and read with Writer and Reader:
//
//	uvarint, zigzag varint    encoding/binary's varints
//	string                    uvarint length, then the bytes
//	string list               uvarint count, then the strings
//	id list                   uvarint count, then zigzag varint
//	                          differences, the first from 0 (any order)
//	stamp                     0 (none), or 1, zigzag Unix nanoseconds,
//	                          zigzag UTC offset in seconds
//	bool                      one byte, 0 or 1
//
// A record is its version byte, then its fields in a fixed order; a
// decoder refuses a record that ends early or has bytes left over.

// ErrField is what a Reader fails with: a field runs past the record's
// end, or holds a value its type cannot (a count beyond the bytes left, a
// bool byte other than 0 or 1). Decoders wrap it with ErrCorrupt.
var ErrField = errors.New("truncated or inconsistent field")

// Writer appends the fields of a binary record to B.
type Writer struct{ B []byte }

// Byte appends b.
func (w *Writer) Byte(b byte) { w.B = append(w.B, b) }

// Uvarint appends x.
func (w *Writer) Uvarint(x uint64) { w.B = binary.AppendUvarint(w.B, x) }

// Varint appends x, zigzag encoded.
func (w *Writer) Varint(x int64) { w.B = binary.AppendVarint(w.B, x) }

// Str appends s with its length.
func (w *Writer) Str(s string) {
	w.Uvarint(uint64(len(s)))
	w.B = append(w.B, s...)
}

// Strs appends l's count and its strings.
func (w *Writer) Strs(l []string) {
	w.Uvarint(uint64(len(l)))
	for _, s := range l {
		w.Str(s)
	}
}

// IDs appends l's count and the differences between its ids, so that a
// list of nearby ids takes a byte or two per id in whatever order.
func (w *Writer) IDs(l []uint64) {
	w.Uvarint(uint64(len(l)))
	var prev uint64
	for _, id := range l {
		w.Varint(int64(id - prev))
		prev = id
	}
}

// Stamp appends s.
func (w *Writer) Stamp(s Stamp) {
	if !s.Set {
		w.Byte(0)
		return
	}
	w.Byte(1)
	w.Varint(s.N)
	w.Varint(int64(s.Off))
}

// Bool appends b as one byte.
func (w *Writer) Bool(b bool) {
	if b {
		w.Byte(1)
		return
	}
	w.Byte(0)
}

// Reader reads the fields of a binary record from Rest. The first failure
// sticks in Err: later reads return zero values, so a decoder reads every
// field and checks Err (or End) once.
type Reader struct {
	Rest []byte
	Err  error
}

// Uvarint reads a uvarint.
func (r *Reader) Uvarint() uint64 {
	if r.Err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.Rest)
	if n <= 0 {
		r.Err = ErrField
		return 0
	}
	r.Rest = r.Rest[n:]
	return x
}

// Varint reads a zigzag varint.
func (r *Reader) Varint() int64 {
	if r.Err != nil {
		return 0
	}
	x, n := binary.Varint(r.Rest)
	if n <= 0 {
		r.Err = ErrField
		return 0
	}
	r.Rest = r.Rest[n:]
	return x
}

// Count reads a length or count. Every element takes at least a byte, so
// a count beyond what is left is damage, refused before anything is
// allocated.
func (r *Reader) Count() int {
	c := r.Uvarint()
	if r.Err == nil && c > uint64(len(r.Rest)) {
		r.Err = ErrField
	}
	if r.Err != nil {
		return 0
	}
	return int(c)
}

// Str reads a string, copied out of the record.
func (r *Reader) Str() string {
	n := r.Count()
	if r.Err != nil || n == 0 {
		return ""
	}
	s := string(r.Rest[:n])
	r.Rest = r.Rest[n:]
	return s
}

// StrBytes reads a string without copying it: the bytes alias the record
// (and bbolt's page), for a comparison that must not allocate.
func (r *Reader) StrBytes() []byte {
	n := r.Count()
	if r.Err != nil {
		return nil
	}
	s := r.Rest[:n:n]
	r.Rest = r.Rest[n:]
	return s
}

// Strs reads a string list (nil when empty).
func (r *Reader) Strs() []string { return r.List(r.Str) }

// List reads a count, then that many strings with read (nil when empty).
func (r *Reader) List(read func() string) []string {
	n := r.Count()
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		out = append(out, read())
	}
	if r.Err != nil {
		return nil
	}
	return out
}

// IDs reads an id list (nil when empty).
func (r *Reader) IDs() []uint64 {
	n := r.Count()
	if n == 0 {
		return nil
	}
	out := make([]uint64, 0, n)
	var prev uint64
	for range n {
		prev += uint64(r.Varint())
		out = append(out, prev)
	}
	if r.Err != nil {
		return nil
	}
	return out
}

// SkipIDs reads past an id list without allocating.
func (r *Reader) SkipIDs() {
	for n := r.Count(); n > 0 && r.Err == nil; n-- {
		r.Varint()
	}
}

// Stamp reads a stamp.
func (r *Reader) Stamp() Stamp {
	set := r.Bool()
	if !set || r.Err != nil {
		return Stamp{}
	}
	nanos, off := r.Varint(), r.Varint()
	if r.Err == nil && (off < -1<<31 || off >= 1<<31) {
		r.Err = ErrField
	}
	return Stamp{N: nanos, Off: int32(off), Set: true}
}

// Bool reads a bool byte.
func (r *Reader) Bool() bool {
	if r.Err != nil {
		return false
	}
	if len(r.Rest) == 0 || r.Rest[0] > 1 {
		r.Err = ErrField
		return false
	}
	b := r.Rest[0] == 1
	r.Rest = r.Rest[1:]
	return b
}

// End returns Err, or ErrField if bytes are left after the last field.
func (r *Reader) End() error {
	if r.Err == nil && len(r.Rest) != 0 {
		r.Err = ErrField
	}
	return r.Err
}
