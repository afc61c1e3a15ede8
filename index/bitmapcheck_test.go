package index

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/require"
)

// serialize writes bm as the index stores it (run-optimised).
func serialize(t testing.TB, bm *roaring.Bitmap) []byte {
	bm.RunOptimize()
	var b bytes.Buffer
	_, err := bm.WriteTo(&b)
	require.NoError(t, err)
	return b.Bytes()
}

// roaringAccepts reports whether roaring decodes b and its Validate
// passes, without panicking.
func roaringAccepts(b []byte) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	bm := roaring.New()
	if bm.UnmarshalBinary(b) != nil {
		return false
	}
	return bm.Validate() == nil
}

func randomBitmap(rng *rand.Rand) *roaring.Bitmap {
	bm := roaring.New()
	for range 1 + rng.IntN(4) {
		base := rng.Uint32N(1 << 20)
		switch rng.IntN(4) {
		case 0: // sparse: an array container
			for range 1 + rng.IntN(300) {
				bm.Add(base + rng.Uint32N(65536))
			}
		case 1: // dense: a bitmap container
			for range 4200 + rng.IntN(3000) {
				bm.Add(base + rng.Uint32N(65536))
			}
		case 2: // runs, as a thread's cards among other threads'
			for x := base; x < base+6000; x += 2 + rng.Uint32N(20) {
				bm.AddRange(uint64(x), uint64(x)+1+uint64(rng.IntN(4)))
			}
		default: // one long run
			bm.AddRange(uint64(base), uint64(base)+uint64(1+rng.IntN(200000)))
		}
	}
	return bm
}

func TestCheckBitmapAcceptsWhatRoaringWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range 100 {
		bm := randomBitmap(rng)
		b := serialize(t, bm)
		require.NoError(t, checkBitmap(b), "bitmap %d", i)
		got, err := unmarshalBitmap(b)
		require.NoError(t, err)
		require.True(t, got.Equals(bm))
	}
	// Every container kind, unoptimised too (no run containers: the
	// no-runs cookie and its offsets).
	bm := roaring.BitmapOf(1, 2, 3, 70000)
	var b bytes.Buffer
	_, err := bm.WriteTo(&b)
	require.NoError(t, err)
	require.NoError(t, checkBitmap(b.Bytes()))
	require.NoError(t, checkBitmap(serialize(t, roaring.New())))
}

func TestCheckBitmapRejects(t *testing.T) {
	valid := serialize(t, roaring.BitmapOf(1, 5, 9))
	runs := roaring.New()
	runs.AddRange(10, 20)
	runs.AddRange(30, 40)
	runValid := serialize(t, runs)
	// The run container's pairs start after cookie, run flags, one header
	// entry and the run count: 4+1+4+2 bytes.
	const firstRun = 11
	for _, c := range []struct {
		name string
		b    []byte
		edit func([]byte)
	}{
		{"empty", nil, nil},
		{"unknown cookie", valid, func(b []byte) { b[0] ^= 0xFF }},
		{"truncated", valid[:len(valid)-1], nil},
		{"trailing byte", append(append([]byte{}, valid...), 0), nil},
		{"array out of order", valid, func(b []byte) { b[len(b)-2], b[len(b)-1] = 0, 0 }},
		{"runs overlap", runValid, func(b []byte) { b[firstRun+4] = 15 }},
		{"runs touch", runValid, func(b []byte) { b[firstRun+4] = 20 }},
		{"run past 16 bits", runValid, func(b []byte) { b[firstRun+6], b[firstRun+7] = 0xFF, 0xFF }},
		{"empty run container", runValid[:firstRun], func(b []byte) {}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := append([]byte{}, c.b...)
			if c.edit != nil && len(b) > 0 {
				c.edit(b)
			}
			require.ErrorIs(t, checkBitmap(b), errBitmap)
			_, err := unmarshalBitmap(b)
			require.Error(t, err)
		})
	}
}

// FuzzCheckBitmap: whatever checkBitmap accepts, roaring decodes without
// panicking and its own Validate accepts, so skipping Validate is safe.
func FuzzCheckBitmap(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 8 {
		f.Add(serialize(f, randomBitmap(rng)))
	}
	f.Add(serialize(f, roaring.BitmapOf(1, 2, 3)))
	f.Fuzz(func(t *testing.T, b []byte) {
		if checkBitmap(b) == nil {
			require.True(t, roaringAccepts(b))
		}
	})
}
