package index

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// The three per-document tables (doc number → record id, record id → doc
// number, time index) are stored in chunks rather than one bbolt key per
// document: a key costs 16 bytes of page header plus the key itself, more
// than the entry. See doc.go for the layouts.

const (
	docShift = 6 // a docs chunk holds 64 consecutive doc numbers
	idShift  = 6 // an ids chunk holds the record ids with equal id>>6

	docsVersion byte = 2
	idsVersion  byte = 2
	timeVersion byte = 2

	// timeShift sets the time index's windows: 2^44 ns (about 4.9 hours).
	timeShift = 44
	// timeBlockBytes closes a time block, as blockBytes a posting block.
	timeBlockBytes = 512
)

// docsKey is the key of the docs chunk holding doc d (d ≥ 1).
func docsKey(d uint32) []byte { return binary.BigEndian.AppendUint32(nil, (d-1)>>docShift) }

// appendDoc records that doc d is record id. Doc numbers are dense, so d
// is the next entry of its chunk.
func appendDoc(docs *bolt.Bucket, d uint32, id uint64) error {
	k := docsKey(d)
	old := docs.Get(k)
	pos := int((d - 1) & (1<<docShift - 1))
	var v []byte
	var prev uint64
	if pos == 0 {
		if old != nil {
			return fmt.Errorf("%w: docs chunk %x exists before its first doc %d", kv.ErrCorrupt, k, d)
		}
		v = append(make([]byte, 0, 1+binary.MaxVarintLen64), docsVersion)
	} else {
		ids, err := decodeDocs(old, nil)
		if err != nil {
			return err
		}
		if len(ids) != pos {
			return fmt.Errorf("%w: docs chunk %x holds %d docs, doc %d is entry %d", kv.ErrCorrupt, k, len(ids), d, pos)
		}
		prev = ids[pos-1]
		v = append(make([]byte, 0, len(old)+binary.MaxVarintLen64), old...)
	}
	v = binary.AppendVarint(v, int64(id-prev))
	return docs.Put(k, v)
}

// decodeDocs appends the record ids of a docs chunk to dst: entry i is
// record id of doc chunk<<docShift + i + 1, each stored as the signed
// difference from the previous entry's id (the first from 0).
func decodeDocs(v []byte, dst []uint64) ([]uint64, error) {
	if len(v) < 2 || v[0] != docsVersion {
		return dst, fmt.Errorf("%w: docs chunk header", kv.ErrCorrupt)
	}
	var id uint64
	for p, n := 1, 0; p < len(v); n++ {
		delta, w := binary.Varint(v[p:])
		if w <= 0 || n == 1<<docShift {
			return dst, fmt.Errorf("%w: docs chunk entry %d", kv.ErrCorrupt, n)
		}
		p += w
		id += uint64(delta)
		if id == 0 {
			return dst, fmt.Errorf("%w: docs chunk entry %d: record id 0", kv.ErrCorrupt, n)
		}
		dst = append(dst, id)
	}
	return dst, nil
}

// idsKey is the key of the ids chunk holding record id.
func idsKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id>>idShift) }

// idEntry is one record id → doc number pair of an ids chunk.
type idEntry struct {
	low uint8 // id & 63
	doc uint32
}

// decodeIDs decodes an ids chunk: entries sorted by low, each a byte
// (id & 63) and the doc number as a signed difference from the previous
// entry's (the first from 0).
func decodeIDs(v []byte, dst []idEntry) ([]idEntry, error) {
	if len(v) < 3 || v[0] != idsVersion {
		return dst, fmt.Errorf("%w: ids chunk header", kv.ErrCorrupt)
	}
	var d int64
	for p := 1; p < len(v); {
		low := v[p]
		if low >= 1<<idShift || (len(dst) > 0 && low <= dst[len(dst)-1].low) {
			return dst, fmt.Errorf("%w: ids chunk entry %d", kv.ErrCorrupt, len(dst))
		}
		delta, w := binary.Varint(v[p+1:])
		if w <= 0 {
			return dst, fmt.Errorf("%w: ids chunk entry %d", kv.ErrCorrupt, len(dst))
		}
		p += 1 + w
		if d += delta; d < 1 || d > 1<<32-1 {
			return dst, fmt.Errorf("%w: ids chunk entry %d: doc %d", kv.ErrCorrupt, len(dst), d)
		}
		dst = append(dst, idEntry{low: low, doc: uint32(d)})
	}
	return dst, nil
}

func encodeIDs(es []idEntry) []byte {
	v := make([]byte, 0, 1+len(es)*4)
	v = append(v, idsVersion)
	var prev int64
	for _, e := range es {
		v = append(v, e.low)
		v = binary.AppendVarint(v, int64(e.doc)-prev)
		prev = int64(e.doc)
	}
	return v
}

// lookupID returns the doc number of record id in the ids table.
func lookupID(ids *bolt.Bucket, id uint64) (uint32, bool, error) {
	v := ids.Get(idsKey(id))
	if v == nil {
		return 0, false, nil
	}
	var buf [1 << idShift]idEntry
	es, err := decodeIDs(v, buf[:0])
	if err != nil {
		return 0, false, err
	}
	low := uint8(id & (1<<idShift - 1))
	for _, e := range es {
		if e.low == low {
			return e.doc, true, nil
		}
	}
	return 0, false, nil
}

// putID sets record id's doc number (d > 0) or removes it (d == 0).
func putID(ids *bolt.Bucket, id uint64, d uint32) error {
	k := idsKey(id)
	var buf [1<<idShift + 1]idEntry
	es := buf[:0]
	if v := ids.Get(k); v != nil {
		var err error
		if es, err = decodeIDs(v, es); err != nil {
			return err
		}
	}
	low := uint8(id & (1<<idShift - 1))
	i := 0
	for i < len(es) && es[i].low < low {
		i++
	}
	switch {
	case i < len(es) && es[i].low == low && d == 0:
		es = append(es[:i], es[i+1:]...)
	case i < len(es) && es[i].low == low:
		es[i].doc = d
	case d == 0:
		return nil
	default:
		es = append(es[:i], append([]idEntry{{low: low, doc: d}}, es[i:]...)...)
	}
	if len(es) == 0 {
		return ids.Delete(k)
	}
	return ids.Put(k, encodeIDs(es))
}

// forEachID calls fn for every record id of the ids table, in id order.
func forEachID(ids *bolt.Bucket, fn func(id uint64, d uint32) error) error {
	var buf [1 << idShift]idEntry
	c := ids.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 8 {
			return fmt.Errorf("%w: ids chunk key %x", kv.ErrCorrupt, k)
		}
		es, err := decodeIDs(v, buf[:0])
		if err != nil {
			return fmt.Errorf("ids chunk %x: %w", k, err)
		}
		hi := binary.BigEndian.Uint64(k) << idShift
		for _, e := range es {
			if err := fn(hi|uint64(e.low), e.doc); err != nil {
				return err
			}
		}
	}
	return nil
}

// timeWindow is the sortable window key of a start time: the sign bit
// flipped so that negative times sort first.
func timeWindow(start int64) uint64 { return uint64(start>>timeShift) ^ (1 << 63) }

// windowBase is the first instant of window w.
func windowBase(w uint64) int64 { return int64(w^(1<<63)) << timeShift }

func timeBlockKey(w uint64, first uint32) []byte {
	return binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint64(nil, w), first)
}

// addTime records doc d's interval in the time index: appended to the last
// block of its start's window, or a new block keyed by d.
func addTime(tb *bolt.Bucket, d uint32, start, end int64) error {
	w := timeWindow(start)
	var v []byte
	var key []byte
	c := tb.Cursor()
	k, old := c.Seek(timeBlockKey(w, ^uint32(0)))
	if k == nil {
		k, old = c.Last()
	} else if len(k) != 12 || binary.BigEndian.Uint64(k) != w || binary.BigEndian.Uint32(k[8:]) != ^uint32(0) {
		k, old = c.Prev()
	}
	if k != nil && len(k) == 12 && binary.BigEndian.Uint64(k) == w && len(old) < timeBlockBytes {
		if len(old) < 1 || old[0] != timeVersion {
			return fmt.Errorf("%w: time block %x header", kv.ErrCorrupt, k)
		}
		key = append([]byte(nil), k...)
		v = append(make([]byte, 0, len(old)+3*binary.MaxVarintLen64), old...)
	} else {
		key = timeBlockKey(w, d)
		v = append(make([]byte, 0, 1+3*binary.MaxVarintLen64), timeVersion)
	}
	v = binary.AppendUvarint(v, uint64(start-windowBase(w)))
	v = binary.AppendUvarint(v, uint64(end-start))
	v = binary.AppendUvarint(v, uint64(d))
	return tb.Put(key, v)
}

// decodeTimes calls fn for each entry of the time block of window w.
func decodeTimes(w uint64, v []byte, fn func(d uint32, start, end int64)) error {
	if len(v) < 4 || v[0] != timeVersion {
		return fmt.Errorf("%w: time block header", kv.ErrCorrupt)
	}
	base := windowBase(w)
	for p := 1; p < len(v); {
		off, n1 := binary.Uvarint(v[p:])
		if n1 <= 0 || off >= 1<<timeShift {
			return fmt.Errorf("%w: time block entry", kv.ErrCorrupt)
		}
		p += n1
		span, n2 := binary.Uvarint(v[p:])
		if n2 <= 0 || span > 1<<63-1 {
			return fmt.Errorf("%w: time block entry", kv.ErrCorrupt)
		}
		p += n2
		d, n3 := binary.Uvarint(v[p:])
		if n3 <= 0 || d == 0 || d > 1<<32-1 {
			return fmt.Errorf("%w: time block entry", kv.ErrCorrupt)
		}
		p += n3
		start := base + int64(off)
		fn(uint32(d), start, start+int64(span))
	}
	return nil
}
