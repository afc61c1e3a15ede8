package temporal_test

import (
	"testing"

	"github.com/stratagate/stratagate/events/temporal"
)

// benchSentence is a 200-byte English sentence with four expressions.
const benchSentence = "Yesterday I finally told my sister that I moved to Seattle last Saturday; " +
	"I start the new job next Monday and we plan a trip in early June, maybe the week of 7 May 2023, ok?!" +
	" Thanks for listening, Al."

func BenchmarkFind(b *testing.B) {
	if len(benchSentence) != 200 {
		b.Fatalf("sentence is %d bytes", len(benchSentence))
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(benchSentence)))
	for b.Loop() {
		temporal.Find(benchSentence, refMon)
	}
}

func BenchmarkResolve(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		temporal.Resolve("the sunday before 25 May 2023", refMon)
	}
}
