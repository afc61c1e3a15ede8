package kv_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

type fuzzInner struct {
	X int8   `msgpack:"x"`
	Y string `msgpack:"y"`
}

type fuzzRecord struct {
	S string     `msgpack:"s"`
	N int64      `msgpack:"n"`
	U uint32     `msgpack:"u"`
	B []byte     `msgpack:"b"`
	L []string   `msgpack:"l"`
	F bool       `msgpack:"f"`
	P *fuzzInner `msgpack:"p"`
	I []uint16   `msgpack:"i"`
}

func FuzzDecode(f *testing.F) {
	seeds := []any{
		fuzzRecord{},
		fuzzRecord{S: "hello", N: -1, U: 7, B: []byte{1, 2}, L: []string{"a", ""}, F: true, P: &fuzzInner{X: -3, Y: "z"}, I: []uint16{1, 65535}},
		fuzzRecord{B: []byte{}, L: []string{}},
		struct {
			S int `msgpack:"s"` // wrong type for S
		}{5},
		struct {
			Other string `msgpack:"zz"` // unknown field
		}{"x"},
	}
	for _, s := range seeds {
		b, err := kv.Encode(1, s)
		require.NoError(f, err)
		f.Add(b)
		f.Add(b[:len(b)-1])
		f.Add(append(append([]byte{}, b...), 0))
		f.Add(append([]byte{2}, b[1:]...))
	}
	f.Add([]byte{})
	f.Add([]byte{1})
	f.Add([]byte{1, 0xc0})                   // nil
	f.Add([]byte{1, 0x90})                   // empty array
	f.Add([]byte{1, 0x80})                   // empty map
	f.Add([]byte{1, 0xc1})                   // reserved
	f.Add([]byte{1, 0xdf, 0xff, 0xff, 0xff}) // map32 with a huge length, no body
	f.Add([]byte{1, 0xc6, 0x7f, 0xff, 0xff}) // bin32 with a huge length, no body

	f.Fuzz(func(t *testing.T, data []byte) {
		var v fuzzRecord
		ver, err := kv.Decode(data, &v, 1)
		if err != nil {
			if !errors.Is(err, kv.ErrCorrupt) && !errors.Is(err, kv.ErrVersionMismatch) {
				t.Fatalf("Decode error is neither ErrCorrupt nor ErrVersionMismatch: %v", err)
			}
			return
		}
		require.Equal(t, byte(1), ver)

		enc, err := kv.Encode(1, v)
		require.NoError(t, err)
		var w fuzzRecord
		_, err = kv.Decode(enc, &w, 1)
		require.NoError(t, err, "re-encoded value must decode")
		require.Equal(t, v, w)

		// Re-encoding is a fixed point.
		enc2, err := kv.Encode(1, w)
		require.NoError(t, err)
		require.Equal(t, enc, enc2)
	})
}
