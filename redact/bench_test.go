package redact_test

import (
	"strings"
	"testing"

	"github.com/stratagate/stratagate/redact"
)

// sink keeps the compiler from discarding the work.
var sink string

// BenchmarkString measures 64 KiB of ordinary prose with nothing to
// redact (the common case: must not allocate) and the same prose with a
// secret every ~4 KiB.
func BenchmarkString(b *testing.B) {
	clean := prose(64 << 10)
	var dirty strings.Builder
	for i := 0; dirty.Len() < 64<<10; i++ {
		dirty.WriteString(clean[:4000])
		switch i % 4 {
		case 0:
			dirty.WriteString(" key " + openAI + " ")
		case 1:
			dirty.WriteString(" password=hunter2 ")
		case 2:
			dirty.WriteString(" Authorization: Bearer " + jwt + " ")
		case 3:
			dirty.WriteString(" https://u:p@h/ ")
		}
	}
	for _, bc := range []struct {
		name string
		text string
	}{{"prose64k", clean}, {"secrets64k", dirty.String()}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for b.Loop() {
				sink = redact.String(bc.text)
			}
		})
	}
}
