package index

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLeastPassing: the bisection over float bit patterns finds the exact
// least float a monotone test accepts, 0 and +Inf at the ends.
func TestLeastPassing(t *testing.T) {
	for _, want := range []float64{1e-300, 0.0056, 0.15113421224295406, 1, 3.5, 1e12, math.MaxFloat64} {
		got := leastPassing(func(p float64) bool { return p >= want })
		assert.Equal(t, want, got)
		assert.Equal(t, math.Nextafter(want, 0), math.Nextafter(got, 0))
	}
	assert.Equal(t, 0.0, leastPassing(func(float64) bool { return true }))
	assert.True(t, math.IsInf(leastPassing(func(float64) bool { return false }), 1))

	// The saturation scanUnion inverts: every pseudo-frequency at or past
	// the least passing one passes, the float just before it does not.
	idf, rest, threshold := 0.37, 0.25, 0.9
	passes := func(p float64) bool { return params.Saturate(p, idf)*ubSlack+rest >= threshold }
	least := leastPassing(passes)
	assert.True(t, passes(least))
	assert.False(t, passes(math.Nextafter(least, 0)))
}
