package index

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// frontierRef is the definition: the points no other point dominates
// (tf ≥ and length ≤, one strictly), one per (tf, length), by decreasing tf.
func frontierRef(tfs []uint16, lens []uint32) []tfLen {
	var out []tfLen
	for i := range tfs {
		p := tfLen{tfs[i], lens[i]}
		dominated := false
		for j := range tfs {
			q := tfLen{tfs[j], lens[j]}
			if q.tf >= p.tf && q.len <= p.len && (q.tf > p.tf || q.len < p.len) {
				dominated = true
				break
			}
		}
		dup := false
		for _, o := range out {
			dup = dup || o == p
		}
		if !dominated && !dup {
			out = append(out, p)
		}
	}
	// By decreasing tf (no two frontier points share a tf).
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].tf > out[j-1].tf; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func TestFrontier(t *testing.T) {
	cases := []struct {
		name string
		tfs  []uint16
		lens []uint32
	}{
		{"empty", nil, nil},
		{"one", []uint16{1}, []uint32{7}},
		{"dominated", []uint16{1, 2, 1}, []uint32{5, 4, 9}},
		{"tradeoff", []uint16{1, 3, 2}, []uint32{2, 20, 10}},
		{"large tf and length", []uint16{65535, 64, 63, 1}, []uint32{math.MaxUint32, 100, 50, 0}},
		{"same tf", []uint16{70, 70, 5, 5}, []uint32{9, 3, 8, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, frontierRef(c.tfs, c.lens), frontier(c.tfs, c.lens))
		})
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		n := r.IntN(200)
		tfs, lens := make([]uint16, n), make([]uint32, n)
		for i := range n {
			tfs[i] = uint16(1 + r.IntN(1+r.IntN(120)))
			lens[i] = uint32(r.IntN(300))
		}
		require.Equal(t, frontierRef(tfs, lens), frontier(tfs, lens))
	}
}
