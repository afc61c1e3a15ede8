package layers

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stratagate/stratagate/kv"
)

func BenchmarkDecodeMessage(b *testing.B) {
	m := Message{ID: 12345, Thread: "t07", Turn: 77, Role: "user", Speaker: "Marta",
		Content: "I went to the pottery class yesterday and it was so much fun, the bowls people made were beautiful.",
		At:      time.Date(2023, 5, 8, 13, 56, 0, 0, time.FixedZone("", 3600))}
	m.SHA256 = m.Hash()
	_, off := m.At.Zone()
	v1, err := kv.Encode(messageVersionV1, &messageRecord{ID: m.ID, Thread: m.Thread, Turn: m.Turn, Role: m.Role, Speaker: m.Speaker,
		Content: m.Content, AtNanos: m.At.UnixNano(), AtOffset: int32(off), SHA256: m.SHA256[:]})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		v    []byte
	}{{"v1", v1}, {"v2", encodeMessage(&m)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportMetric(float64(len(c.v)), "bytes/record")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeMessage(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecodeBlock decodes a derived block of 12 two-message turns
// (its summary, facts, tags and hashes) as version 2 (msgpack) and 3.
func BenchmarkDecodeBlock(b *testing.B) {
	at := time.Date(2024, 2, 5, 10, 10, 45, 379753187, time.FixedZone("", 3600))
	blk := Block{ID: 100, Thread: "t02-session-s02", Scope: "session:s02", Seq: 5, State: StateReady,
		TurnFirst: 49, TurnLast: 60, FirstAt: at, LastAt: at.Add(11 * time.Minute), FirstOffset: 3600, LastOffset: 3600,
		Title: "Pottery, glaze and kilns", Tags: []string{"pottery", "glaze", "kiln", "class", "bowl"},
		Summary:       "2024-02-05: Marta: " + strings.Repeat("the class moved to the new studio and ", 12) + "…",
		RenderVersion: RendererVersion, RenderHash: make([]byte, 32), L5Hash: make([]byte, 32), DerivedHash: make([]byte, 32),
		CreatedAt: at.UTC(), ReadyAt: at.Add(time.Second).UTC()}
	for i := range 24 {
		blk.MessageIDs = append(blk.MessageIDs, uint64(2570+i))
	}
	for i := range 3 {
		blk.Facts = append(blk.Facts, Fact{Text: fmt.Sprintf("We'll glaze the %d bowls next week at the studio.", i+2), MessageIDs: []uint64{uint64(2575 + 2*i)}})
	}
	v2, err := kv.Encode(blockVersionV2, &blk)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		v    []byte
	}{{"v2", v2}, {"v3", encodeBlock(&blk)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportMetric(float64(len(c.v)), "bytes/record")
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeBlock(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
