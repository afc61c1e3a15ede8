package temporal_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stratagate/stratagate/events/temporal"
)

func TestZZDebug(t *testing.T) {
	ref := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	for _, s := range []string{
		"Melanie painted a lake sunrise last year, and the 1990s were fun.",
		"I've been married for 5 years; we met in the last week of May.",
		"The next day we left. The day before, we arrived.",
		"On 8 May, 2023 at 10:30 I ran. At 10:30 PM on May 7 too.",
		"It was in March 2022 that I quit, and in the spring I started again.",
		"Two days later she called. A day ago he called.",
		"We meet every Tuesday and on Sundays.",
		"In 2 hours, in 30 minutes, 5 minutes ago.",
		"He is 25 years old and was born 25 years ago.",
		"The first week of June, the last weekend, this past weekend.",
		"I'll do it later this month or early next year.",
		"since the day before yesterday; from May 1 to May 3; between Monday and Wednesday",
		"Summer is here. In summer we swim. During winter we ski.",
		"A decade ago, a few months ago, some weeks ago, several days ago.",
		"I'm going to Spain next summer and then next fall.",
		"They married in June of 2019 and divorced mid-2021.",
		"At noon, at midnight yesterday, 10am tomorrow.",
		"May 5 2021, Dec. 25, the 4th of July",
		"去年我在北京，下个月去上海，两个月后回来，几天前想好了。5月7日见。",
	} {
		fmt.Println(s)
		for _, m := range temporal.Find(s, ref) {
			fmt.Printf("   %q %s %s %v %s..%s %+v\n", m.Text, m.Precision, m.Basis, m.Approx, m.Start.Format("2006-01-02 15:04"), m.End.Format("2006-01-02 15:04"), m.Duration)
		}
	}
}
