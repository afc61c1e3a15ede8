package layers

import (
	"fmt"
	"testing"
	"time"

	"github.com/stratagate/stratagate/kv"
)

// benchThread is a thread record as a bulk ingest leaves it mid-tail:
// eleven open turns of two messages, each with its receipt.
func benchThread() *Thread {
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	th := &Thread{Name: "t07-project-atlas", Scope: "project:atlas", Created: at, Turns: 911, Blocks: 75, LastAt: at.Add(time.Hour)}
	for k := range 11 {
		id := uint64(30000 + 40*k)
		th.OpenTail = append(th.OpenTail, id, id+1)
		th.Receipts = append(th.Receipts, PendingReceipt{ID: fmt.Sprintf("bench-t07-%06d", 900+k), Turn: uint64(900 + k), MessageIDs: []uint64{id, id + 1}})
	}
	th.OpenTurns = 11
	return th
}

func BenchmarkThreadRecord(b *testing.B) {
	th := benchThread()
	v1, err := kv.Encode(threadVersionV1, th)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		v    []byte
		enc  func() []byte
	}{
		{"v1", v1, func() []byte { v, _ := kv.Encode(threadVersionV1, th); return v }},
		{"v2", encodeThread(th), func() []byte { return encodeThread(th) }},
	} {
		b.Run(c.name+"/decode", func(b *testing.B) {
			b.ReportMetric(float64(len(c.v)), "bytes/record")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeThread(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/encode", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = c.enc()
			}
		})
	}
}
