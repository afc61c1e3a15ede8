package temporal_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/events/temporal"
)

// vocabulary is every word the grammar reacts to (plus short function
// words); random words containing none of it must never resolve.
var vocabulary = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		january jan february feb march mar april apr may june jun july jul august aug
		september sep sept october oct november nov december dec
		monday tuesday wednesday thursday friday saturday sunday
		mondays tuesdays wednesdays thursdays fridays saturdays sundays
		spring summer autumn fall winter weekend weekends
		second seconds minute minutes hour hours day days week weeks fortnight fortnights
		month months year years today tonight yesterday tomorrow morning afternoon evening night
		noon midday midnight am pm ago back long for since ever from to until till through thru between and
		last this next past coming upcoming previous the of in on at during over throughout within
		early mid late beginning start middle end earlier later around approximately roughly circa
		sometime some time about almost nearly just only exactly more less than
		a an one two three four five six seven eight nine ten eleven twelve thirteen fourteen
		fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
		couple few several recently lately while ages way someday point other then now
		st nd rd th`) {
		vocabulary[w] = true
	}
}

func randomWord(r *rand.Rand) string {
	for {
		n := 2 + r.IntN(8)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + r.IntN(26))
			if r.IntN(5) == 0 {
				b[i] -= 'a' - 'A'
			}
		}
		if w := string(b); !vocabulary[strings.ToLower(w)] {
			return w
		}
	}
}

func TestRandomLettersStayUnknown(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5000; i++ {
		words := make([]string, 1+r.IntN(5))
		for k := range words {
			words[k] = randomWord(r)
		}
		text := strings.Join(words, " ")
		res := temporal.Resolve(text, refMon)
		require.Equal(t, pU, res.Precision, "%q", text)
		require.False(t, res.Known(), "%q", text)
		require.Empty(t, temporal.Find(text, refMon), "%q", text)
	}
}

func TestKnownImpliesNonEmptyInterval(t *testing.T) {
	refs := []time.Time{refMon, refFri, refSunJu, refJan, refNov,
		time.Date(2024, 2, 29, 23, 59, 0, 0, time.FixedZone("", -11*3600)),
		time.Date(2023, 12, 31, 0, 0, 0, 0, time.FixedZone("", 14*3600))}
	for _, tc := range resolveCases {
		for _, ref := range refs {
			res := temporal.Resolve(tc.text, ref)
			if res.Known() {
				assert.True(t, res.Start.Before(res.End), "%q at %v", tc.text, ref)
			}
		}
	}
	for _, tc := range findCases {
		for _, ref := range refs {
			checkFind(t, tc.text, ref, temporal.Find(tc.text, ref))
		}
	}
}

func TestZeroAndExtremeRefsNeverPanic(t *testing.T) {
	refs := []time.Time{{}, time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 0, 0, 0, time.UTC), time.Unix(0, 0).UTC()}
	texts := []string{"today", "yesterday", "next year", "999999 years ago", "in 999999 days",
		"since 2019", "over the past 999999 years", "last winter", "7 May", "in the summer"}
	for _, ref := range refs {
		for _, text := range texts {
			res := temporal.Resolve(text, ref)
			if res.Known() {
				assert.True(t, res.Start.Before(res.End), "%q at %v", text, ref)
				assert.GreaterOrEqual(t, res.Start.Year(), 1)
			} else if res.Duration == nil {
				assert.Equal(t, pU, res.Precision, "%q at %v", text, ref)
			}
			checkFind(t, "on "+text+" ok", ref, temporal.Find("on "+text+" ok", ref))
		}
	}
}

func TestRandomBytesNeverPanic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"May", "7", "/", "-", "2023", "年", "月", "日", "前", "last", " ", ",", "the",
		"before", "of", "week", "\xff", "é", "三", "ago", "3pm", ":", "in", "since", "from", "to", "a few"}
	for i := 0; i < 3000; i++ {
		var sb strings.Builder
		for k := r.IntN(12); k >= 0; k-- {
			if r.IntN(3) == 0 {
				sb.WriteByte(byte(r.IntN(256)))
			} else {
				sb.WriteString(pieces[r.IntN(len(pieces))])
				if r.IntN(2) == 0 {
					sb.WriteByte(' ')
				}
			}
		}
		text := sb.String()
		res := temporal.Resolve(text, refMon)
		if res.Known() {
			require.True(t, res.Start.Before(res.End), "%q", text)
		}
		checkFind(t, text, refMon, temporal.Find(text, refMon))
	}
}

// grammarSoup is vocabulary for random sentences that hit the grammar hard.
var grammarSoup = strings.Fields(`yesterday last Saturday the sunday before 25 May 2023 7/5/2023 in early June
	for 4 years since 2019 from to between and a few days ago about three weeks back over
	the past 5 years at 3pm noon on Friday this coming weekend of mid - late end beginning
	summer fall of 2022 year earlier later this week month some time around recently
	the other day couple of twenty five 2023-05-07 13 / 5 , . 昨天 上周 三年前 2023年5月7日 年 月 日 前 后 几 十 两 周 六
	ever next Monday tonight morning x foo I may go march 9:30 am p.m. the week before last day after 7 may 12 : 00
	1999 2100 winter first second weekend every each fortnight hours minutes 12th 31 Feb 29 2024 until through`)

// TestGrammarSoupProperties: on random mixtures of grammar words, Find's
// spans are well formed and each resolves identically with Resolve.
func TestGrammarSoupProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	refs := []time.Time{refMon, refSunJu, refJan}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := 0; i < n; i++ {
		var sb strings.Builder
		for k := 1 + r.IntN(9); k > 0; k-- {
			sb.WriteString(grammarSoup[r.IntN(len(grammarSoup))])
			if r.IntN(4) != 0 {
				sb.WriteByte(' ')
			}
		}
		text := sb.String()
		ref := refs[i%len(refs)]
		for _, m := range temporal.Find(text, ref) {
			span := text[m.Offset : m.Offset+m.Length]
			if !agreesAlone(span, m, ref) {
				t.Fatalf("%q: span %q resolves to %+v in Find but %+v alone", text, span, m.Resolution, temporal.Resolve(span, ref))
			}
			if m.Known() && !m.Start.Before(m.End) {
				t.Fatalf("%q: empty interval for %q", text, span)
			}
		}
		checkFind(t, text, ref, temporal.Find(text, ref))
	}
}
