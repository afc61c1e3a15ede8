package index

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzDecodeRecords feeds arbitrary bytes to every decoder of the index's
// binary records (posting blocks, docs chunks, ids chunks, time blocks):
// none may panic, and whatever decodes must re-encode to the same bytes
// where the format has one encoding.
func FuzzDecodeRecords(f *testing.F) {
	var w blockWriter
	w.add(0, 1, 7)
	w.add(3, 9, 40)
	f.Add(uint32(5), w.encode())
	f.Add(uint32(1), []byte{docsVersion, 2, 4, 1})
	f.Add(uint32(0), encodeIDs([]idEntry{{1, 5}, {9, 7}}))
	f.Add(uint32(0), []byte{timeVersion, 1, 0, 1})
	f.Add(uint32(0), []byte{})
	f.Fuzz(func(t *testing.T, first uint32, v []byte) {
		var c chunk
		if decodeBlock(first, v, &c) == nil {
			require.Equal(t, len(c.docs), len(c.tfs))
			require.Equal(t, len(c.docs), len(c.lens))
			for i := 1; i < len(c.docs); i++ {
				require.Less(t, c.docs[i-1], c.docs[i])
			}
			if len(c.docs) > 0 {
				require.Equal(t, first, c.docs[0])
			}
			// The writer's encoding of what decoded holds the same
			// postings, under a bound at least as tight.
			var w blockWriter
			for i, d := range c.docs {
				delta := uint32(0)
				if i > 0 {
					delta = d - c.docs[i-1]
				}
				w.add(delta, c.tfs[i], c.lens[i])
			}
			var again chunk
			require.NoError(t, decodeBlock(first, w.encode(), &again))
			require.Equal(t, c, again)
		}
		if h, off, err := parseBlockHead(v); err == nil {
			// A cursor's reader on the same block: no panic, and on a block
			// that decodes, the postings decoding finds.
			p := &posting{raw: v[off:], blocks: []pblock{{first: first, end: uint32(len(v) - off), head: h}}, last: first + uint32(len(v))}
			var dc chunk
			ok := decodeBlock(first, v, &dc) == nil && len(dc.docs) > 0
			if ok {
				p.last = dc.docs[len(dc.docs)-1]
			}
			var rd postingReader
			rd.start(p, 0)
			var w chunk
			for i, d := 0, first; rd.more(); i++ {
				found, err := rd.skipTo(d, &w)
				if err != nil || !found {
					require.False(t, ok && (err != nil || i < len(dc.docs)), "reader: %v", err)
					break
				}
				if ok {
					require.Equal(t, dc.docs[i], w.docs[0])
					require.Equal(t, dc.tfs[i], w.tfs[0])
					require.Equal(t, dc.lens[i], w.lens[0])
				}
				d = w.docs[0] + 1
			}
		}
		if ids, err := decodeDocs(v, nil); err == nil {
			require.LessOrEqual(t, len(ids), 1<<docShift)
			out := []byte{docsVersion}
			var prev uint64
			for _, id := range ids {
				require.NotZero(t, id)
				out = binary.AppendVarint(out, int64(id-prev))
				prev = id
			}
			if canonicalVarints(v[1:], false) {
				require.Equal(t, v, out)
			}
		}
		if es, err := decodeIDs(v, nil); err == nil {
			require.LessOrEqual(t, len(es), 1<<idShift)
			if canonicalIDs(v) {
				require.Equal(t, v, encodeIDs(es))
			}
		}
		_ = decodeTimes(timeWindow(int64(first)), v, func(d uint32, start, end int64) {
			require.NotZero(t, d)
		})
	})
}

// canonicalVarints reports whether b is a sequence of minimally encoded
// varints (uvarints when unsigned): the only encoding the writers emit.
func canonicalVarints(b []byte, unsigned bool) bool {
	for len(b) > 0 {
		var n int
		var enc []byte
		if unsigned {
			var x uint64
			x, n = binary.Uvarint(b)
			enc = binary.AppendUvarint(nil, x)
		} else {
			var x int64
			x, n = binary.Varint(b)
			enc = binary.AppendVarint(nil, x)
		}
		if n <= 0 || len(enc) != n {
			return false
		}
		b = b[n:]
	}
	return true
}

// canonicalIDs reports whether the ids chunk v uses minimal varints.
func canonicalIDs(v []byte) bool {
	for p := 1; p < len(v); {
		x, n := binary.Varint(v[p+1:])
		if n <= 0 || len(binary.AppendVarint(nil, x)) != n {
			return false
		}
		p += 1 + n
	}
	return true
}

// The writers' encodings decode to what was written.
func TestRecordRoundTrips(t *testing.T) {
	var bw blockWriter
	want := chunk{}
	d := uint32(100)
	for i, tf := range []uint16{1, 2, 3, 4, 5, 300, 65535} {
		l := uint32(i*37 + 1)
		delta := uint32(0)
		if i > 0 {
			delta = uint32(i * 1000)
			d += delta
		}
		bw.add(delta, tf, l)
		want.docs = append(want.docs, d)
		want.tfs = append(want.tfs, tf)
		want.lens = append(want.lens, l)
	}
	var got chunk
	blk := bw.encode()
	require.NoError(t, decodeBlock(100, blk, &got))
	require.Equal(t, want, got)

	es := []idEntry{{0, 1}, {5, 1 << 30}, {63, 2}}
	back, err := decodeIDs(encodeIDs(es), nil)
	require.NoError(t, err)
	require.Equal(t, es, back)

	var times []int64
	v := []byte{timeVersion}
	w := timeWindow(-5e18)
	for i, start := range []int64{-5e18, -5e18 + 1, -5e18 + 1<<40} {
		v = binary.AppendUvarint(v, uint64(start-windowBase(w)))
		v = binary.AppendUvarint(v, uint64(i))
		v = binary.AppendUvarint(v, uint64(i+1))
		times = append(times, start)
	}
	var gotTimes []int64
	require.NoError(t, decodeTimes(w, v, func(d uint32, start, end int64) {
		gotTimes = append(gotTimes, start)
		require.Equal(t, start+int64(d-1), end)
	}))
	require.Equal(t, times, gotTimes)
}
