package temporal

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestStartersComplete checks that the starter-word filter in Find only
// skips work: results with and without it are identical.
func TestStartersComplete(t *testing.T) {
	ref := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	words := strings.Fields(`yesterday last Saturday the sunday before 25 May 2023 7/5/2023 in early June
		for 4 years since 2019 from to between and a few days ago about three weeks back over
		the past 5 years at 3pm noon on Friday this coming weekend of mid - late end beginning
		summer fall of 2022 year earlier later this week month some time around recently
		the other day couple of twenty five 2023-05-07 13 / 5 , . 昨天 上周 三年前 2023年5月7日
		ever next Monday tonight morning x foo I may go march 9:30 am p.m. the week before last`)
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 4000; i++ {
		var sb strings.Builder
		for k := 1 + r.IntN(10); k > 0; k-- {
			sb.WriteString(words[r.IntN(len(words))])
			if r.IntN(4) != 0 {
				sb.WriteByte(' ')
			}
		}
		text := sb.String()
		with := Find(text, ref)
		skipStarters = true
		without := Find(text, ref)
		skipStarters = false
		if !reflect.DeepEqual(with, without) {
			t.Fatalf("%q: starter filter changed the result:\n%+v\n%+v", text, with, without)
		}
	}
}
