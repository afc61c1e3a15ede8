package layers

import (
	"testing"
	"time"

	"github.com/stratagate/stratagate/kv"
)

func BenchmarkDecodeMessage(b *testing.B) {
	m := Message{ID: 12345, Thread: "t07", Turn: 77, Role: "user", Speaker: "Caroline",
		Content: "I went to the LGBTQ support group yesterday and it was so powerful, the stories people shared were inspiring.",
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
