package bm25_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/bm25"
)

func TestRRF(t *testing.T) {
	cases := []struct {
		name  string
		k     int
		lists [][]uint64
		want  []bm25.Ranked
	}{
		{
			name:  "formula",
			k:     bm25.RRFK,
			lists: [][]uint64{{1, 2, 3}, {3, 1, 4}},
			want: []bm25.Ranked{
				{ID: 1, Score: 1.0/61 + 1.0/62},
				{ID: 3, Score: 1.0/63 + 1.0/61},
				{ID: 2, Score: 1.0 / 62},
				{ID: 4, Score: 1.0 / 63},
			},
		},
		{
			name:  "equal scores and best ranks: id ascending",
			k:     bm25.RRFK,
			lists: [][]uint64{{6, 5}, {5, 6}},
			want: []bm25.Ranked{
				{ID: 5, Score: 1.0/61 + 1.0/62},
				{ID: 6, Score: 1.0/61 + 1.0/62},
			},
		},
		{
			// With k = 0, id 1 scores 1/2 + 1/2 = 1 = 1/1, exactly the
			// score of ids 2, 3 and 4 that are first somewhere; their best
			// rank 1 beats id 1's best rank 2 despite its smaller id.
			name:  "equal scores: best rank before id",
			k:     0,
			lists: [][]uint64{{2}, {3, 1}, {4, 1}},
			want: []bm25.Ranked{
				{ID: 2, Score: 1},
				{ID: 3, Score: 1},
				{ID: 4, Score: 1},
				{ID: 1, Score: 1},
			},
		},
		{
			name:  "negative k means RRFK",
			k:     -5,
			lists: [][]uint64{{9}},
			want:  []bm25.Ranked{{ID: 9, Score: 1.0 / 61}},
		},
		{
			name:  "duplicate in a list counts once at its best rank",
			k:     bm25.RRFK,
			lists: [][]uint64{{7, 8, 7}},
			want:  []bm25.Ranked{{ID: 7, Score: 1.0 / 61}, {ID: 8, Score: 1.0 / 62}},
		},
		{name: "no lists", k: bm25.RRFK, lists: nil, want: nil},
		{name: "empty lists", k: bm25.RRFK, lists: [][]uint64{{}, nil}, want: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := bm25.RRF(tc.k, tc.lists...)
			require.Len(t, got, len(tc.want))
			for i := range tc.want {
				assert.Equal(t, tc.want[i].ID, got[i].ID, "rank %d", i)
				assert.InDelta(t, tc.want[i].Score, got[i].Score, 1e-15, "rank %d", i)
			}
		})
	}
}

func TestRRFSymmetricSumsTie(t *testing.T) {
	// Id 20 has ranks (1, 2, 7) and id 10 ranks (7, 1, 2) in the three
	// lists. Summed in list order, (1/61 + 1/62) + 1/67 and
	// (1/67 + 1/61) + 1/62 differ in the last bit; RRF sums largest first,
	// so the scores are identical and the id decides.
	filler := uint64(100)
	list := func(at map[int]uint64) []uint64 {
		l := make([]uint64, 7)
		for i := range l {
			if id, ok := at[i+1]; ok {
				l[i] = id
			} else {
				filler++
				l[i] = filler
			}
		}
		return l
	}
	lists := [][]uint64{
		list(map[int]uint64{1: 20, 7: 10}),
		list(map[int]uint64{1: 10, 2: 20}),
		list(map[int]uint64{2: 10, 7: 20}),
	}
	got := bm25.RRF(bm25.RRFK, lists...)
	require.GreaterOrEqual(t, len(got), 2)
	assert.Equal(t, uint64(10), got[0].ID)
	assert.Equal(t, uint64(20), got[1].ID)
	assert.Equal(t, got[0].Score, got[1].Score)
	assert.Equal(t, got, bm25.RRF(bm25.RRFK, lists...), "deterministic")
}

func TestRRFWeighted(t *testing.T) {
	lists := [][]uint64{{1, 2}, {2, 1}}
	cases := []struct {
		name    string
		weights []float64
		first   uint64
		score1  float64
	}{
		{"nil weights are 1", nil, 1, 1.0/61 + 1.0/62},
		{"second list heavier", []float64{1, 3}, 2, 1.0/61 + 3.0/62},
		{"missing weight is 1", []float64{2}, 1, 2.0/61 + 1.0/62},
		{"negative weight is 0", []float64{-1, 1}, 2, 1.0 / 62},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := bm25.RRFWeighted(bm25.RRFK, tc.weights, lists...)
			require.Len(t, got, 2)
			assert.Equal(t, tc.first, got[0].ID)
			for _, r := range got {
				if r.ID == 1 {
					assert.InDelta(t, tc.score1, r.Score, 1e-15)
				}
			}
		})
	}
}
