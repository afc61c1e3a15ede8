package layers_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/stratagate/stratagate/layers"
)

func TestDecayLevels(t *testing.T) {
	assert.Equal(t, 0.30, layers.DefaultDecay)
	tests := []struct {
		age   int
		level int
	}{
		{0, 5}, {1, 5}, {2, 4}, {3, 3}, {4, 3}, {5, 2}, {6, 2}, {7, 1}, {8, 1}, {9, 0}, {20, 0}, {1000, 0},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("age %d", tc.age), func(t *testing.T) {
			w := layers.Weight(tc.age, 0.30)
			assert.InDelta(t, math.Exp(-0.30*float64(tc.age)), w, 1e-12)
			assert.Equal(t, tc.level, layers.LevelForWeight(w))
		})
	}
	t.Run("monotone non-increasing in age", func(t *testing.T) {
		prevW, prevL := math.Inf(1), 5
		for age := 0; age <= 100; age++ {
			w := layers.Weight(age, layers.DefaultDecay)
			l := layers.LevelForWeight(w)
			assert.LessOrEqual(t, w, prevW, "age %d", age)
			assert.LessOrEqual(t, l, prevL, "age %d", age)
			assert.GreaterOrEqual(t, l, 0)
			prevW, prevL = w, l
		}
	})
	t.Run("weight 1 at age 0 for any coefficient", func(t *testing.T) {
		for _, c := range []float64{0, 0.1, 0.3, 2} {
			assert.Equal(t, 1.0, layers.Weight(0, c))
		}
		assert.Equal(t, 5, layers.LevelForWeight(layers.Weight(50, 0)), "no decay keeps L5")
	})
}

func TestLevelForWeightFloors(t *testing.T) {
	tests := []struct {
		w     float64
		level int
	}{
		{1, 5}, {0.7, 5}, {0.6999, 4}, {0.5, 4}, {0.4999, 3}, {0.3, 3}, {0.2999, 2},
		{0.15, 2}, {0.1499, 1}, {0.08, 1}, {0.0799, 0}, {0, 0}, {-1, 0}, {2, 5},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.w), func(t *testing.T) {
			assert.Equal(t, tc.level, layers.LevelForWeight(tc.w))
		})
	}
}

func TestAges(t *testing.T) {
	st := func(ss ...layers.State) []layers.Block {
		out := make([]layers.Block, len(ss))
		for i, s := range ss {
			out[i] = layers.Block{ID: uint64(i + 1), Seq: uint64(i + 1), State: s}
		}
		return out
	}
	R, P, F := layers.StateReady, layers.StatePending, layers.StateFailed
	tests := []struct {
		name   string
		blocks []layers.Block
		want   []int
	}{
		{"mixed", st(R, P, R, F, R), []int{2, -1, 1, -1, 0}},
		{"empty", nil, []int{}},
		{"all ready", st(R, R, R), []int{2, 1, 0}},
		{"all pending", st(P, P), []int{-1, -1}},
		{"pending newest does not age", st(R, R, P, P), []int{1, 0, -1, -1}},
		{"failed oldest", st(F, R), []int{-1, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, layers.Ages(tc.blocks))
		})
	}
}

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcd", 1},
		{"abcde", 2},
		{"abcdefgh", 2},
		{"你好", 2},
		{"你好abcd", 3},
		{"你好abcde", 4},
		{"こんにちは", 5},
		{"カタカナ", 4},
		{"안녕", 2},
		{"é", 1},       // 2 bytes
		{"éé", 1},      // 4 bytes
		{"ééé", 2},     // 6 bytes
		{"🙂", 1},       // 4 bytes
		{"🙂a", 2},      // 5 bytes
		{"，。", 2},      // CJK punctuation is not Han: 6 bytes
		{"中 a", 1 + 1}, // one Han + 2 other bytes
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%q", tc.s), func(t *testing.T) {
			assert.Equal(t, tc.want, layers.EstimateTokens(tc.s))
		})
	}
	t.Run("subadditive", func(t *testing.T) {
		parts := []string{"", "a", "abc", "你好", "ab你", "🙂", "xyzzy"}
		for _, a := range parts {
			for _, b := range parts {
				assert.LessOrEqual(t, layers.EstimateTokens(a+b), layers.EstimateTokens(a)+layers.EstimateTokens(b), "%q+%q", a, b)
			}
		}
	})
}
