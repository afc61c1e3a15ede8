package kv_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

func TestBinaryRecordRoundTrip(t *testing.T) {
	stamps := []kv.Stamp{{}, {N: 1, Set: true}, {N: -5e18, Off: -18 * 3600, Set: true}, {N: math.MaxInt64, Off: 14 * 3600, Set: true}}
	ids := [][]uint64{nil, {7}, {9, 3, 3, math.MaxUint64, 0}, {1, 2, 3, 4}}
	strs := [][]string{nil, {""}, {"a", "ünï", ""}}
	var w kv.Writer
	for i := range 4 {
		w.Uvarint(uint64(i) << 40)
		w.Varint(-int64(i))
		w.Str(string(rune('a' + i)))
		w.Strs(strs[i%len(strs)])
		w.IDs(ids[i])
		w.Stamp(stamps[i])
		w.Bool(i%2 == 1)
	}
	r := kv.Reader{Rest: w.B}
	for i := range 4 {
		assert.Equal(t, uint64(i)<<40, r.Uvarint())
		assert.Equal(t, -int64(i), r.Varint())
		if i%2 == 0 {
			assert.Equal(t, string(rune('a'+i)), r.Str())
		} else {
			assert.Equal(t, []byte{byte('a' + i)}, r.StrBytes())
		}
		assert.Equal(t, strs[i%len(strs)], r.Strs())
		if i == 3 {
			r.SkipIDs()
		} else {
			assert.Equal(t, ids[i], r.IDs())
		}
		assert.Equal(t, stamps[i], r.Stamp())
		assert.Equal(t, i%2 == 1, r.Bool())
	}
	require.NoError(t, r.End())
}

// A reader fails on every truncation of a record and on what no writer
// writes, and the failure sticks: later reads return zero values.
func TestBinaryRecordDamage(t *testing.T) {
	var w kv.Writer
	w.Str("hello")
	w.Strs([]string{"x", "yz"})
	w.IDs([]uint64{5, 1, 900})
	w.Stamp(kv.Stamp{N: 12345, Off: 3600, Set: true})
	w.Bool(true)
	read := func(r *kv.Reader) {
		r.Str()
		r.Strs()
		r.IDs()
		r.Stamp()
		r.Bool()
	}
	for n := range len(w.B) {
		r := kv.Reader{Rest: w.B[:n]}
		read(&r)
		assert.ErrorIs(t, r.End(), kv.ErrField, "cut at %d", n)
	}
	r := kv.Reader{Rest: append(w.B, 0)}
	read(&r)
	assert.ErrorIs(t, r.End(), kv.ErrField, "a trailing byte")

	for name, v := range map[string][]byte{
		"count beyond the record": {0x05, 'a'},
		"bool byte 2":             {0x02},
		"offset beyond int32":     {0x01, 0x00, 0x80, 0x80, 0x80, 0x80, 0x20},
		"unterminated varint":     {0xff},
	} {
		r := kv.Reader{Rest: v}
		switch name {
		case "bool byte 2":
			assert.False(t, r.Bool())
		case "offset beyond int32":
			assert.Equal(t, kv.Stamp{N: 0, Set: true}, r.Stamp(), "decoded, then refused")
		default:
			assert.Empty(t, r.Str())
		}
		assert.ErrorIs(t, r.Err, kv.ErrField, name)
		assert.Zero(t, r.Uvarint(), "%s: the failure sticks", name)
	}
}
