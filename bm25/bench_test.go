package bm25_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stratagate/stratagate/bm25"
)

// benchMessage is a ~200-byte chat message typical of agent memory.
const benchMessage = "Yesterday Mia told me she's moving to Berlin in March 2024; " +
	"we decided to switch the team's project tracker to Linear, and she " +
	"prefers oat-milk coffee over tea at our weekly planning meetings."

func BenchmarkAppendTerms(b *testing.B) {
	dst := make([]string, 0, 64)
	b.SetBytes(int64(len(benchMessage)))
	b.ReportAllocs()
	for b.Loop() {
		dst = bm25.AppendTerms(dst[:0], benchMessage)
	}
}

func BenchmarkAppendTermsCJK(b *testing.B) {
	const msg = "昨天米娅告诉我她三月要搬到柏林，我们决定把项目管理工具换成Linear，她喜欢燕麦奶咖啡。"
	dst := make([]string, 0, 64)
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		dst = bm25.AppendTerms(dst[:0], msg)
	}
}

func BenchmarkTopKPush(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	scores := make([]float64, 4096)
	for i := range scores {
		scores[i] = rng.Float64() * 20
	}
	top := bm25.NewTopK(100)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		top.Push(uint64(i), scores[i&4095])
		i++
	}
}

func BenchmarkRRF(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	lists := make([][]uint64, 2)
	for l := range lists {
		lists[l] = make([]uint64, 100)
		for i := range lists[l] {
			lists[l][i] = uint64(rng.IntN(300))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = bm25.RRF(bm25.RRFK, lists...)
	}
}

func BenchmarkScore(b *testing.B) {
	p := bm25.DefaultParams
	sum := 0.0
	for b.Loop() {
		sum += p.Score(3, 120, 100, 2.5)
	}
	_ = sum
}
