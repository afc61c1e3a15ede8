package temporal_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stratagate/stratagate/events/temporal"
)

func TestZZExplore(t *testing.T) {
	ref := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	words := strings.Fields(`yesterday last Saturday the sunday before 25 May 2023 7/5/2023 in early June
		for 4 years since 2019 from to between and a few days ago about three weeks back over
		the past 5 years at 3pm noon on Friday this coming weekend of mid - late end beginning
		summer fall of 2022 year earlier later this week month some time around recently
		the other day couple of twenty five 2023-05-07 13 / 5 , . 昨天 上周 三年前 2023年5月7日 年 月 日 前 后 几 十 两 周 六
		ever next Monday tonight morning x foo I may go march 9:30 am p.m. the week before last day after 7 may 12 : 00 1999 2100 winter`)
	r := rand.New(rand.NewPCG(7, 8))
	fails := 0
	for i := 0; i < 300000 && fails < 15; i++ {
		var sb strings.Builder
		for k := 1 + r.IntN(9); k > 0; k-- {
			sb.WriteString(words[r.IntN(len(words))])
			if r.IntN(4) != 0 {
				sb.WriteByte(' ')
			}
		}
		text := sb.String()
		for _, m := range temporal.Find(text, ref) {
			span := text[m.Offset : m.Offset+m.Length]
			got := temporal.Resolve(span, ref)
			if !sameResolution(got, m.Resolution) {
				t.Errorf("%q: span %q\n find:    %v %v %s %s %v\n resolve: %v %v %s %s %v", text, span, m.Start, m.End, m.Precision, m.Basis, m.Approx, got.Start, got.End, got.Precision, got.Basis, got.Approx)
				fails++
			}
			if m.Known() && !m.Start.Before(m.End) {
				t.Errorf("empty %q", span)
			}
		}
	}
}
