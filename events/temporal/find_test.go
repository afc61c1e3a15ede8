package temporal_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/events/temporal"
)

// want is one expected match: its text and, when start is non-zero, its
// interval start and precision.
type want struct {
	text  string
	start time.Time
	prec  temporal.Precision
}

var findCases = []struct {
	name string
	text string
	ref  time.Time
	want []want
}{
	{"two events", "I moved to Seattle last Saturday and start work next Monday.", refMon,
		[]want{{"last Saturday", d(2023, 5, 6), pD}, {"next Monday", d(2023, 5, 15), pD}}},
	// A bare weekday is the last one, unless its sentence speaks of the
	// future (refMon is Monday 8 May 2023).
	{"bare weekday, past", "I went to the gym on Friday.", refMon,
		[]want{{"on Friday", d(2023, 5, 5), pD}}},
	{"bare weekday, will", "I'll call the landlord on Friday.", refMon,
		[]want{{"on Friday", d(2023, 5, 12), pD}}},
	{"bare weekday, going to", "We are going to meet Wednesday at the cafe.", refMon,
		[]want{{"Wednesday", d(2023, 5, 10), pD}}},
	{"bare weekday, the same day next week", "The movers will come on Monday.", refMon,
		[]want{{"on Monday", d(2023, 5, 15), pD}}},
	{"future cue in another sentence", "I will rest. We met on Friday.", refMon,
		[]want{{"on Friday", d(2023, 5, 5), pD}}},
	{"yesterday", "Yesterday I went to an LGBTQ support group.", refMon,
		[]want{{"Yesterday", d(2023, 5, 7), pD}}},
	{"explicit date mid-sentence", "We got married on 7 May 2023 in Lisbon.", refOct,
		[]want{{"on 7 May 2023", d(2023, 5, 7), pD}}},
	{"month-first with comma year", "The concert was on May 7th, 2023, and it rained.", refOct,
		[]want{{"on May 7th, 2023", d(2023, 5, 7), pD}}},
	{"in May vs may the verb", "I may go back in May if the visa works.", refMon,
		[]want{{"in May", d(2023, 5, 1), pM}}},
	{"cued year", "I graduated in 2019 and have worked here since 2020.", refMon,
		[]want{{"in 2019", d(2019, 1, 1), pY}, {"since 2020", d(2020, 1, 1), pR}}},
	{"years ago", "She started painting four years ago, after a hard year.", refThuMa,
		[]want{{"four years ago", d(2019, 1, 1), pY}}},
	{"weekends ago", "We went camping two weekends ago with the kids.", refMonJu,
		[]want{{"two weekends ago", d(2023, 7, 8), pR}}},
	{"vague kept", "I met him a while ago and recently we talked again.", refMon,
		[]want{{"a while ago", time.Time{}, pU}, {"recently", time.Time{}, pU}}},
	{"duration and since", "I've been running for 4 years, ever since 2019.", refMon,
		[]want{{"for 4 years", time.Time{}, pY}, {"ever since 2019", d(2019, 1, 1), pR}}},
	{"day with time", "Let's meet tomorrow at 3pm near the station.", refMon,
		[]want{{"tomorrow at 3pm", hm(2023, 5, 9, 15, 0), pI}}},
	{"time before day", "The call is at 9:30am on Friday, I think.", refMon,
		[]want{{"at 9:30am on Friday", hm(2023, 5, 5, 9, 30), pI}}},
	{"seasons", "Last summer we hiked; this winter we ski.", refWedJu,
		[]want{{"Last summer", d(2022, 6, 1), pS}, {"this winter", d(2023, 12, 1), pS}}},
	{"season with year", "The trip in the summer of 2022 was amazing.", refOct,
		[]want{{"in the summer of 2022", d(2022, 6, 1), pS}}},
	{"part of month", "The adoption should finish in early June, maybe late June.", refMon,
		[]want{{"in early June", d(2023, 6, 1), pR}, {"late June", d(2023, 6, 21), pR}}},
	{"anchored weekday", "It was the Sunday before 25 May 2023 when it happened.", refOct,
		[]want{{"the Sunday before 25 May 2023", d(2023, 5, 21), pD}}},
	{"iso date", "Deployed 2023-05-07, rolled back 2023/05/09.", refOct,
		[]want{{"2023-05-07", d(2023, 5, 7), pD}, {"2023/05/09", d(2023, 5, 9), pD}}},
	{"ambiguous numeric kept as unknown", "The form says 7/5/2023 but 13/5/2023 on page two.", refOct,
		[]want{{"7/5/2023", time.Time{}, pU}, {"13/5/2023", d(2023, 5, 13), pD}}},
	{"relative weeks and months", "Last week was rough, next month will be better.", refMon,
		[]want{{"Last week", d(2023, 5, 1), pW}, {"next month", d(2023, 6, 1), pM}}},
	{"past range", "Over the past 5 years I've read a lot.", refMon,
		[]want{{"Over the past 5 years", hm(2018, 5, 8, 13, 56), pY}}},
	{"from to", "I lived there from 2015 to 2018, then moved.", refMon,
		[]want{{"from 2015 to 2018", d(2015, 1, 1), pR}}},
	{"future", "The results come in three days, the visa in 2 weeks.", refMon,
		[]want{{"in three days", d(2023, 5, 11), pD}, {"in 2 weeks", d(2023, 5, 22), pW}}},
	{"chinese", "我昨天去了公园，上周六也去了，三年前第一次去。", refMon,
		[]want{{"昨天", d(2023, 5, 7), pD}, {"上周六", d(2023, 5, 6), pD}, {"三年前", d(2020, 1, 1), pY}}},
	{"chinese date", "她在2023年5月7日出生。", refOct,
		[]want{{"2023年5月7日", d(2023, 5, 7), pD}}},
	{"punctuation around", "(yesterday) — and \"last Friday\"...", refMonAu,
		[]want{{"yesterday", d(2023, 8, 13), pD}, {"last Friday", d(2023, 8, 11), pD}}},
	{"the week before", "I saw her the week before, at the market.", refFri,
		[]want{{"the week before", d(2023, 5, 29), pW}}},
	{"earlier this year", "Earlier this year I changed jobs.", refMon,
		[]want{{"Earlier this year", d(2023, 1, 1), pR}}},
	{"hedged", "It was around May 2021, sometime last week he said.", refMon,
		[]want{{"around May 2021", d(2021, 5, 1), pM}, {"sometime last week", d(2023, 5, 1), pW}}},
	{"recurrence skipped", "We meet every Tuesday, but this Tuesday we met at noon.", refMon,
		[]want{{"this Tuesday", d(2023, 5, 9), pD}}},
	{"week of month", "We met in the last week of May and again on the 4th of July.", refMon,
		[]want{{"in the last week of May", d(2023, 5, 25), pR}, {"on the 4th of July", d(2023, 7, 4), pD}}},
	{"hedge does not license a bare number", "I have around 2000 photos from last year.", refMon,
		[]want{{"last year", d(2022, 1, 1), pY}}},
}

func TestFindTable(t *testing.T) {
	require.GreaterOrEqual(t, len(findCases), 20)
	for _, tc := range findCases {
		t.Run(tc.name, func(t *testing.T) {
			got := temporal.Find(tc.text, tc.ref)
			var texts []string
			for _, m := range got {
				texts = append(texts, tc.text[m.Offset:m.Offset+m.Length])
			}
			var wantTexts []string
			for _, w := range tc.want {
				wantTexts = append(wantTexts, w.text)
			}
			require.Equal(t, wantTexts, texts)
			for i, w := range tc.want {
				m := got[i]
				assert.Equal(t, w.text, m.Text)
				assert.Equal(t, w.prec, m.Precision, w.text)
				if !w.start.IsZero() {
					assert.True(t, m.Start.Equal(w.start), "%s: start %v want %v", w.text, m.Start, w.start)
				} else {
					assert.False(t, m.Known())
				}
			}
			checkFind(t, tc.text, tc.ref, got)
		})
	}
}

func TestFindNegatives(t *testing.T) {
	for _, text := range []string{
		"I have 3 cats and 2 dogs.",
		"Upgrade to version 2.5 please.",
		"We stayed in room 2022 at the hotel.",
		"I may go, or I may not.",
		"May I ask a question?",
		"We march on, whatever happens.",
		"We march 5 miles every day.",
		"Call 555-1234 or 7/5 for details.",
		"It took 3 days to finish.",
		"The score was 21-7 at halftime.",
		"Pages 1900 to 2000 are missing.",
		"I broke my arm in the fall.",
		"Sunny sat under the sun on the sat.",
		"She is a summer intern.",
		"The fall of Rome was slow.",
		"He said it a second time.",
		"",
		"mar the surface, jan said",
		"This may help, and next march we will see.",
	} {
		t.Run(text, func(t *testing.T) {
			assert.Empty(t, temporal.Find(text, refMon))
		})
	}
}

// checkFind asserts the structural contract of Find's output.
func checkFind(t *testing.T, text string, ref time.Time, got []temporal.Match) {
	t.Helper()
	prev := 0
	for _, m := range got {
		require.GreaterOrEqual(t, m.Offset, prev, "ordered, non-overlapping")
		require.Greater(t, m.Length, 0)
		require.LessOrEqual(t, m.Offset+m.Length, len(text), "in bounds")
		span := text[m.Offset : m.Offset+m.Length]
		require.Equal(t, span, m.Text)
		assert.True(t, agreesAlone(span, m, ref), "span %q resolves identically: %+v in Find, %+v alone", span, m.Resolution, temporal.Resolve(span, ref))
		if m.Known() {
			assert.True(t, m.Start.Before(m.End))
		}
		prev = m.Offset + m.Length
	}
}
