package layers

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/stratagate/stratagate/kv"
)

// Thread record versions. Version 1 is Thread in msgpack; version 2
// (written from file format 4) is a binary layout. Every Append reads and
// rewrites its thread's record, and in the middle of a tail the record
// lists a dozen pending receipts: version 1 took 9.0 µs and 80
// allocations to decode and 4.6 µs to encode (BenchmarkThreadRecord).
//
//	version 2 thread record
//	+----+-------------+--------------+----------------------------------+
//	| 02 | name (l, b) | scope (l, b) | created, last at: seconds zigzag |
//	|    |             |              | varint + nanoseconds uvarint     |
//	+----+-------------+--------------+----------------------------------+
//	| turns, blocks uvarint, open turns zigzag | open tail: count, ids   |
//	| receipts: count, then each: id (l, b), turn uvarint, count, ids     |
//	+---------------------------------------------------------------------+
//	ids: each as a zigzag varint difference from the one before (the
//	first from 0); (l, b): uvarint length, then the bytes.
const (
	threadVersionV1 byte = 1
	threadVersion   byte = 2
)

// encodeThread returns th's version 2 record.
func encodeThread(th *Thread) []byte {
	n := 1 + len(th.Name) + len(th.Scope) + 8*binary.MaxVarintLen64 + 3*len(th.OpenTail)
	for _, r := range th.Receipts {
		n += len(r.ID) + 2*binary.MaxVarintLen64 + 3*len(r.MessageIDs)
	}
	v := make([]byte, 0, n)
	str := func(s string) {
		v = binary.AppendUvarint(v, uint64(len(s)))
		v = append(v, s...)
	}
	at := func(t time.Time) {
		v = binary.AppendVarint(v, t.Unix())
		v = binary.AppendUvarint(v, uint64(t.Nanosecond()))
	}
	ids := func(ids []uint64) {
		v = binary.AppendUvarint(v, uint64(len(ids)))
		var prev uint64
		for _, id := range ids {
			v = binary.AppendVarint(v, int64(id-prev))
			prev = id
		}
	}
	v = append(v, threadVersion)
	str(th.Name)
	str(th.Scope)
	at(th.Created)
	at(th.LastAt)
	v = binary.AppendUvarint(v, th.Turns)
	v = binary.AppendUvarint(v, th.Blocks)
	v = binary.AppendVarint(v, int64(th.OpenTurns))
	ids(th.OpenTail)
	v = binary.AppendUvarint(v, uint64(len(th.Receipts)))
	for _, r := range th.Receipts {
		str(r.ID)
		v = binary.AppendUvarint(v, r.Turn)
		ids(r.MessageIDs)
	}
	return v
}

var errThreadRecord = errors.New("truncated or inconsistent")

// threadReader reads a version 2 record; the first failure sticks.
type threadReader struct {
	p   []byte
	err error
}

func (r *threadReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.p)
	if n <= 0 {
		r.err = errThreadRecord
		return 0
	}
	r.p = r.p[n:]
	return x
}

func (r *threadReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Varint(r.p)
	if n <= 0 {
		r.err = errThreadRecord
		return 0
	}
	r.p = r.p[n:]
	return x
}

// count reads a list length; each element takes at least a byte, so a
// count beyond the bytes left is damage, refused before any allocation.
func (r *threadReader) count() int {
	c := r.uvarint()
	if r.err == nil && c > uint64(len(r.p)) {
		r.err = errThreadRecord
	}
	if r.err != nil {
		return 0
	}
	return int(c)
}

func (r *threadReader) str() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	s := string(r.p[:n])
	r.p = r.p[n:]
	return s
}

func (r *threadReader) time() time.Time {
	sec, nsec := r.varint(), r.uvarint()
	if r.err == nil && nsec >= 1e9 {
		r.err = errThreadRecord
	}
	if r.err != nil {
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).UTC()
}

func (r *threadReader) ids() []uint64 {
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

// decodeThreadV2 decodes a version 2 thread record.
func decodeThreadV2(v []byte) (Thread, error) {
	r := threadReader{p: v[1:]}
	th := Thread{Name: r.str(), Scope: r.str(), Created: r.time(), LastAt: r.time()}
	th.Turns, th.Blocks = r.uvarint(), r.uvarint()
	openTurns := r.varint()
	th.OpenTail = r.ids()
	if n := r.count(); n > 0 {
		th.Receipts = make([]PendingReceipt, 0, n)
		for range n {
			p := PendingReceipt{ID: r.str(), Turn: r.uvarint(), MessageIDs: r.ids()}
			th.Receipts = append(th.Receipts, p)
		}
	}
	// Counters that disagree with the tail are Verify's to report
	// (thread.counters), not a record that cannot be read.
	if r.err == nil && len(r.p) != 0 {
		r.err = errThreadRecord
	}
	if r.err != nil {
		return Thread{}, fmt.Errorf("%w: version 2 thread record: %v", kv.ErrCorrupt, r.err)
	}
	th.OpenTurns = int(openTurns)
	return th, nil
}

// decodeThread decodes a thread record of either version.
func decodeThread(v []byte) (Thread, error) {
	if len(v) > 0 && v[0] == threadVersion {
		return decodeThreadV2(v)
	}
	var th Thread
	if _, err := kv.Decode(v, &th, threadVersionV1); err != nil {
		return Thread{}, err
	}
	th.Created, th.LastAt = th.Created.UTC(), th.LastAt.UTC()
	return th, nil
}
