package kv_test

import (
	"time"

	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

type inner struct {
	A int    `msgpack:"a"`
	B string `msgpack:"b"`
}

type record struct {
	ID    uint64   `msgpack:"i"`
	Name  string   `msgpack:"n"`
	Data  []byte   `msgpack:"d"`
	Tags  []string `msgpack:"t"`
	Flag  bool     `msgpack:"f"`
	Score int64    `msgpack:"s"`
	Sub   *inner   `msgpack:"u"`
	Note  string   `msgpack:"o,omitempty"`
}

func sampleRecord() record {
	return record{
		ID:    42,
		Name:  "thread-α",
		Data:  []byte{0, 1, 2, 0xff},
		Tags:  []string{"x", "", "yz"},
		Flag:  true,
		Score: -7,
		Sub:   &inner{A: 3, B: "inner"},
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		in   record
	}{
		{"zero", record{}},
		{"full", sampleRecord()},
		{"extremes", record{ID: math.MaxUint64, Score: math.MinInt64, Name: string(bytes.Repeat([]byte("z"), 70000)), Data: make([]byte, 300)}},
		{"omitempty set", record{Note: "kept"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := kv.Encode(1, tc.in)
			require.NoError(t, err)
			require.NotEmpty(t, data)
			assert.Equal(t, byte(1), data[0], "first byte is the version")

			var out record
			ver, err := kv.Decode(data, &out, 1)
			require.NoError(t, err)
			assert.Equal(t, byte(1), ver)
			assert.Equal(t, tc.in, out)

			// Encoding through a pointer gives the same bytes.
			data2, err := kv.Encode(1, &tc.in)
			require.NoError(t, err)
			assert.Equal(t, data, data2)
		})
	}
}

func TestEncodeDeterministic(t *testing.T) {
	r := sampleRecord()
	a, err := kv.Encode(3, r)
	require.NoError(t, err)
	for range 10 {
		b, err := kv.Encode(3, r)
		require.NoError(t, err)
		require.Equal(t, a, b)
	}
}

func TestEncodeUnsupportedValue(t *testing.T) {
	_, err := kv.Encode(1, struct {
		C chan int `msgpack:"c"`
	}{C: make(chan int)})
	require.Error(t, err)
}

func TestDecodeCopies(t *testing.T) {
	in := sampleRecord()
	data, err := kv.Encode(1, in)
	require.NoError(t, err)

	var out record
	_, err = kv.Decode(data, &out, 1)
	require.NoError(t, err)
	require.Equal(t, in, out)

	// Scribble over the input: the decoded value must not alias it.
	for i := range data {
		data[i] = 0xAA
	}
	assert.Equal(t, in, out)
	assert.Equal(t, []byte{0, 1, 2, 0xff}, out.Data)
	assert.Equal(t, "thread-α", out.Name)
	assert.Equal(t, []string{"x", "", "yz"}, out.Tags)
}

func TestDecodeVersions(t *testing.T) {
	data, err := kv.Encode(2, sampleRecord())
	require.NoError(t, err)

	cases := []struct {
		name     string
		accepted []byte
		wantErr  error
	}{
		{"exact", []byte{2}, nil},
		{"one of several", []byte{1, 2, 3}, nil},
		{"older only", []byte{1}, kv.ErrVersionMismatch},
		{"newer only", []byte{3}, kv.ErrVersionMismatch},
		{"none accepted", nil, kv.ErrVersionMismatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out record
			ver, err := kv.Decode(data, &out, tc.accepted...)
			assert.Equal(t, byte(2), ver, "the version found is returned either way")
			if tc.wantErr == nil {
				require.NoError(t, err)
				assert.Equal(t, sampleRecord(), out)
				return
			}
			require.Error(t, err)
			assert.True(t, errors.Is(err, tc.wantErr), "got %v", err)
			assert.False(t, errors.Is(err, kv.ErrCorrupt), "a version mismatch is not corruption: %v", err)
		})
	}
}

func TestDecodeCorrupt(t *testing.T) {
	good, err := kv.Encode(1, sampleRecord())
	require.NoError(t, err)

	cases := []struct {
		name string
		data []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"version byte only", []byte{1}},
		{"truncated by one", good[:len(good)-1]},
		{"truncated in half", good[:len(good)/2]},
		{"truncated after header", good[:3]},
		{"trailing byte", append(bytes.Clone(good), 0x00)},
		{"trailing record", append(bytes.Clone(good), good[1:]...)},
		{"not a map", []byte{1, 0xa3, 'a', 'b', 'c'}}, // a str where a struct is expected
		{"reserved code", []byte{1, 0xc1}},
		{"wrong field type", func() []byte {
			b, err := kv.Encode(1, struct {
				Name []int `msgpack:"n"`
			}{Name: []int{1}})
			require.NoError(t, err)
			return b
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out record
			_, err := kv.Decode(tc.data, &out, 1)
			require.Error(t, err)
			assert.True(t, errors.Is(err, kv.ErrCorrupt), "got %v", err)
		})
	}
}

func TestKeyID(t *testing.T) {
	cases := []struct {
		name string
		id   uint64
		key  []byte
	}{
		{"zero", 0, []byte{0, 0, 0, 0, 0, 0, 0, 0}},
		{"one", 1, []byte{0, 0, 0, 0, 0, 0, 0, 1}},
		{"256", 256, []byte{0, 0, 0, 0, 0, 0, 1, 0}},
		{"max", math.MaxUint64, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{"mixed", 0x0102030405060708, []byte{1, 2, 3, 4, 5, 6, 7, 8}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := kv.Key(tc.id)
			assert.Equal(t, tc.key, k)
			assert.Equal(t, tc.id, kv.ID(k))
		})
	}
}

func TestKeyIndependentSlices(t *testing.T) {
	a := kv.Key(1)
	b := kv.Key(1)
	a[7] = 9
	assert.Equal(t, uint64(1), kv.ID(b), "Key returns a fresh slice each call")
}

func TestKeyOrderMatchesNumericOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := []func() uint64{
		rng.Uint64,
		func() uint64 { return rng.Uint64N(1 << 16) },
		func() uint64 { return rng.Uint64N(1000) },
	}
	for i := range 3000 {
		g := gen[i%len(gen)]
		a, b := g(), g()
		want := 0
		switch {
		case a < b:
			want = -1
		case a > b:
			want = 1
		}
		require.Equal(t, want, bytes.Compare(kv.Key(a), kv.Key(b)), "a=%d b=%d", a, b)
		require.Equal(t, a, kv.ID(kv.Key(a)))
	}
}

func TestIDWrongSize(t *testing.T) {
	cases := []struct {
		name string
		k    []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"short", []byte{0, 0, 0, 0, 0, 0, 1}},
		{"long", []byte{0, 0, 0, 0, 0, 0, 0, 1, 0}},
		{"thread name", []byte("thread")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Zero(t, kv.ID(tc.k))
		})
	}
}

func TestDecodeHugeLengthPrefixIsCheap(t *testing.T) {
	type rec struct {
		B []byte   `msgpack:"b"`
		I []uint64 `msgpack:"i"`
	}
	cases := []struct {
		name string
		data []byte
	}{
		{"bin32 into []byte", []byte{1, 0x81, 0xa1, 'b', 0xc6, 0xff, 0xff, 0xff, 0xff}},
		{"str32 into []byte", []byte{1, 0x81, 0xa1, 'b', 0xdb, 0xff, 0xff, 0xff, 0xff}},
		{"array32 into []uint64", []byte{1, 0x81, 0xa1, 'i', 0xdd, 0x10, 0x00, 0x00, 0x00}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var v rec
			_, err := kv.Decode(tc.data, &v, 1)
			runtime.ReadMemStats(&after)
			require.Error(t, err)
			assert.True(t, errors.Is(err, kv.ErrCorrupt), "got %v", err)
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20),
				"decoding a %d-byte record must not allocate gigabytes", len(tc.data))
		})
	}
}

// TestDecodeMsgpackPanicIsCorrupt: msgpack panics decoding a nil into a
// struct-typed field (time.Time); Decode must return ErrCorrupt instead.
func TestDecodeMsgpackPanicIsCorrupt(t *testing.T) {
	type withTime struct {
		T time.Time `msgpack:"t"`
	}
	data := []byte{1, 0x81, 0xa1, 't', 0xc0} // version 1, {"t": nil}
	var v withTime
	_, err := kv.Decode(data, &v, 1)
	require.Error(t, err)
	assert.ErrorIs(t, err, kv.ErrCorrupt)
	// The pool still hands out working decoders.
	good, err := kv.Encode(1, &withTime{T: time.Unix(5, 0)})
	require.NoError(t, err)
	_, err = kv.Decode(good, &v, 1)
	require.NoError(t, err)
	assert.True(t, v.T.Equal(time.Unix(5, 0)))
}

// An unset stamp of a msgpack record decodes as the zero Stamp whatever
// instant or offset it carries; a set one decodes as stored.
func TestStampDecodesCanonical(t *testing.T) {
	type rec struct {
		A kv.Stamp `msgpack:"a"`
		B kv.Stamp `msgpack:"b"`
	}
	v, err := kv.Encode(1, &rec{A: kv.Stamp{N: 5, Off: 3600}, B: kv.Stamp{N: 7, Off: -60, Set: true}})
	require.NoError(t, err)
	var got rec
	_, err = kv.Decode(v, &got, 1)
	require.NoError(t, err)
	assert.Equal(t, rec{B: kv.Stamp{N: 7, Off: -60, Set: true}}, got)
}
