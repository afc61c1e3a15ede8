package bm25_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/bm25"
)

func bestFirst(a, b bm25.Ranked) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

func TestTopKMatchesSort(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	cases := []struct {
		name      string
		n, k      int
		distinct  int // number of distinct scores; small forces ties
		uniqueIDs bool
	}{
		{"many ties", 500, 10, 5, true},
		{"few ties", 1000, 25, 1 << 30, true},
		{"k larger than input", 7, 20, 3, true},
		{"k one", 300, 1, 4, true},
		{"repeated ids", 400, 15, 6, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for range 20 {
				all := make([]bm25.Ranked, tc.n)
				for i := range all {
					id := uint64(i)
					if !tc.uniqueIDs {
						id = uint64(rng.IntN(tc.n / 4))
					}
					all[i] = bm25.Ranked{ID: id, Score: float64(rng.IntN(tc.distinct)) / 4}
				}
				rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })

				top := bm25.NewTopK(tc.k)
				for _, r := range all {
					top.Push(r.ID, r.Score)
				}
				want := slices.Clone(all)
				slices.SortFunc(want, bestFirst)
				want = want[:min(tc.k, len(want))]

				got := top.Results(nil)
				require.Equal(t, want, got)
				require.Equal(t, len(want), top.Len())
				if len(all) >= tc.k {
					assert.Equal(t, want[len(want)-1].Score, top.Threshold())
				} else {
					assert.Equal(t, 0.0, top.Threshold())
				}
			}
		})
	}
}

func TestTopKEdges(t *testing.T) {
	t.Run("not full threshold is zero", func(t *testing.T) {
		top := bm25.NewTopK(3)
		top.Push(1, 5)
		top.Push(2, 4)
		assert.Equal(t, 0.0, top.Threshold())
		top.Push(3, 4.5)
		assert.Equal(t, 4.0, top.Threshold())
	})
	t.Run("tie on score keeps smaller id", func(t *testing.T) {
		top := bm25.NewTopK(1)
		top.Push(9, 1)
		top.Push(3, 1)
		top.Push(5, 1)
		assert.Equal(t, []bm25.Ranked{{ID: 3, Score: 1}}, top.Results(nil))
	})
	t.Run("zero and negative k keep nothing", func(t *testing.T) {
		for _, k := range []int{0, -4} {
			top := bm25.NewTopK(k)
			top.Push(1, 1)
			assert.Empty(t, top.Results(nil))
			assert.Equal(t, 0.0, top.Threshold())
		}
	})
	t.Run("NaN ignored", func(t *testing.T) {
		top := bm25.NewTopK(2)
		top.Push(1, math.NaN())
		top.Push(2, 1)
		assert.Equal(t, []bm25.Ranked{{ID: 2, Score: 1}}, top.Results(nil))
	})
	t.Run("results append and keep state", func(t *testing.T) {
		top := bm25.NewTopK(2)
		top.Push(1, 1)
		top.Push(2, 2)
		dst := top.Results([]bm25.Ranked{{ID: 99}})
		assert.Equal(t, []bm25.Ranked{{ID: 99}, {ID: 2, Score: 2}, {ID: 1, Score: 1}}, dst)
		assert.Equal(t, 2, top.Len())
		top.Reset()
		assert.Equal(t, 0, top.Len())
	})
	t.Run("huge k does not preallocate", func(t *testing.T) {
		top := bm25.NewTopK(math.MaxInt)
		top.Push(1, 1)
		assert.Equal(t, 1, top.Len())
	})
}

func TestTopKPushDoesNotAllocate(t *testing.T) {
	top := bm25.NewTopK(64)
	i := uint64(0)
	allocs := testing.AllocsPerRun(1000, func() {
		i++
		top.Push(i, float64(i%97))
	})
	assert.Zero(t, allocs)
}
