package index

import (
	"math/rand/v2"
	"testing"
)

// benchParts returns nf lists drawn from n docs, the first holding most
// of them and the others fewer (a common word's title, summary, quote and
// tag lists).
func benchParts(n, nf int) []*chunk {
	r := rand.New(rand.NewPCG(1, 1))
	parts := make([]*chunk, nf)
	for f := range parts {
		c := &chunk{}
		p := 0.9 / float64(f+1)
		for d := uint32(1); d <= uint32(n); d++ {
			if r.Float64() < p {
				c.docs, c.tfs, c.lens = append(c.docs, d), append(c.tfs, 1), append(c.lens, 10)
			}
		}
		parts[f] = c
	}
	return parts
}

// BenchmarkUnionOf merges a multi-field term's lists into its union and
// masks, as the first query after a write to any of them does.
func BenchmarkUnionOf(b *testing.B) {
	for _, nf := range []int{2, 4} {
		parts := benchParts(100_000, nf)
		b.Run(map[int]string{2: "fields=2", 4: "fields=4"}[nf], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p := &posting{}
				p.unionOf(parts)
			}
		})
	}
}
