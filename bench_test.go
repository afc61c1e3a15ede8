package stratagate_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stratagate/stratagate"
)

// benchAppend measures one Append per iteration. With BlockTurns 12 every
// 12th Append also seals a block (and queues its derivation, which runs in
// the background on the heuristic model).
func benchAppend(b *testing.B, noSync bool) {
	path := filepath.Join(b.TempDir(), "bench.sg")
	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: noSync})
	if err != nil {
		b.Fatal(err)
	}
	defer mem.Close()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if _, err := mem.Append(ctx, turn("bench", i)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if err := mem.WaitIdle(ctx); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkAppendDurable(b *testing.B) { benchAppend(b, false) }
func BenchmarkAppendNoSync(b *testing.B)  { benchAppend(b, true) }

// BenchmarkAppendSeal measures the Append that completes a block: the turn
// plus sealing (L5 hash, L4, L3, indexes, derive job) in one transaction.
// Each iteration appends BlockTurns-1 untimed turns first.
func BenchmarkAppendSeal(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.sg")
	// The model never answers during the benchmark, so derivation does not
	// compete for the write lock; the jobs stay queued.
	sm := &scriptModel{gate: make(chan struct{})}
	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true, Model: sm})
	if err != nil {
		b.Fatal(err)
	}
	defer mem.Close()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		b.StopTimer()
		for range stratagate.DefaultBlockTurns - 1 {
			i++
			if _, err := mem.Append(ctx, turn("bench", i)); err != nil {
				b.Fatal(err)
			}
		}
		i++
		b.StartTimer()
		ref, err := mem.Append(ctx, turn("bench", i))
		if err != nil {
			b.Fatal(err)
		}
		if ref.SealedBlockID == 0 {
			b.Fatal(fmt.Sprintf("turn %d did not seal", i))
		}
	}
}

// BenchmarkAppendParallel shows group commit: concurrent durable Appends
// share fsyncs.
func BenchmarkAppendParallel(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.sg")
	mem, err := stratagate.Open(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer mem.Close()
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			if _, err := mem.Append(ctx, turn(fmt.Sprintf("p%p", pb), i)); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// benchBlocks returns a memory with 240 turns in one thread (20 blocks,
// derived) and the ids of its blocks, for the read benchmarks.
func benchBlocks(b *testing.B) (*stratagate.Memory, []uint64) {
	mem, _ := openMem(b, &stratagate.Options{NoSync: true})
	appendN(b, mem, "bench", 1, 240)
	waitIdle(b, mem)
	blocks, err := mem.Blocks(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]uint64, len(blocks))
	for i := range blocks {
		ids[i] = blocks[i].ID
	}
	return mem, ids
}

// BenchmarkExpandBlock reads one block at each level, cycling over the
// blocks: L3 and L4 cost a block read plus a rendering of its messages.
func BenchmarkExpandBlock(b *testing.B) {
	mem, ids := benchBlocks(b)
	for level := range 6 {
		b.Run(fmt.Sprintf("L%d", level), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := mem.ExpandBlock(ctx, ids[i%len(ids)], level); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkContext lays out the 20-block thread within a budget that fits
// the recent blocks at L4 and L3 and the older ones at L0–L2.
func BenchmarkContext(b *testing.B) {
	mem, _ := benchBlocks(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mem.Context(ctx, "bench", 4000); err != nil {
			b.Fatal(err)
		}
	}
}
