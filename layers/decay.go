package layers

import "math"

// DefaultDecay is the default block-decay coefficient.
const DefaultDecay = 0.30

// levelFloors[i] is the lowest weight at which a block still shows at level
// 5-i: w ≥ 0.7 → L5, ≥ 0.5 → L4, ≥ 0.3 → L3, ≥ 0.15 → L2, ≥ 0.08 → L1, else
// L0. With the default coefficient that is L5 at age 0–1, L4 at 2, L3 at
// 3–4, L2 at 5–6, L1 at 7–8 and L0 from 9.
var levelFloors = [5]float64{0.7, 0.5, 0.3, 0.15, 0.08}

// Weight is a ready block's decay weight exp(-coef·age).
func Weight(age int, coef float64) float64 { return math.Exp(-coef * float64(age)) }

// LevelForWeight maps a decay weight to the level a block shows at.
func LevelForWeight(w float64) int {
	for i, f := range levelFloors {
		if w >= f {
			return 5 - i
		}
	}
	return 0
}

// Ages returns each block's age given a thread's blocks in Seq order: for a
// ready block, the number of ready blocks newer than it (the newest ready
// block has age 0); for a pending or failed block, -1, because only ready
// blocks age and are aged.
func Ages(blocks []Block) []int {
	ages := make([]int, len(blocks))
	n := 0
	for i := len(blocks) - 1; i >= 0; i-- {
		if blocks[i].State != StateReady {
			ages[i] = -1
			continue
		}
		ages[i] = n
		n++
	}
	return ages
}
