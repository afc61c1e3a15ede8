package temporal_test

import (
	"fmt"
	"time"

	"github.com/stratagate/stratagate/events/temporal"
)

func ExampleResolve() {
	ref := time.Date(2023, 5, 8, 14, 0, 0, 0, time.FixedZone("", 2*60*60))
	for _, expr := range []string{"yesterday", "last week", "a few years ago", "for 4 years", "a while ago"} {
		r := temporal.Resolve(expr, ref)
		if r.Known() {
			fmt.Printf("%s: [%s, %s) %s %s approx=%v\n", expr, r.Start.Format("2006-01-02"),
				r.End.Format("2006-01-02"), r.Precision, r.Basis, r.Approx)
		} else if r.Duration != nil {
			fmt.Printf("%s: duration %+v\n", expr, *r.Duration)
		} else {
			fmt.Printf("%s: %s\n", expr, r.Precision)
		}
	}
	// Output:
	// yesterday: [2023-05-07, 2023-05-08) day relative approx=false
	// last week: [2023-05-01, 2023-05-08) week relative approx=false
	// a few years ago: [2018-01-01, 2022-01-01) year relative approx=true
	// for 4 years: duration {Years:4 Months:0 Weeks:0 Days:0 Hours:0 Approx:false}
	// a while ago: unknown
}

func ExampleFind() {
	ref := time.Date(2023, 5, 8, 14, 0, 0, 0, time.UTC)
	text := "I moved to Seattle last Saturday and start work next Monday."
	for _, m := range temporal.Find(text, ref) {
		fmt.Printf("%d %q %s %s\n", m.Offset, text[m.Offset:m.Offset+m.Length], m.Precision, m.Start.Format("2006-01-02"))
	}
	// Output:
	// 19 "last Saturday" day 2023-05-06
	// 48 "next Monday" day 2023-05-15
}
