package locomo

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// TestParseGold covers the shapes of LoCoMo temporal gold answers with
// answers written for this test.
func TestParseGold(t *testing.T) {
	fri9June := time.Date(2023, 6, 9, 19, 55, 0, 0, time.UTC)
	mon17July := time.Date(2023, 7, 17, 14, 31, 0, 0, time.UTC)
	mon14Aug := time.Date(2023, 8, 14, 14, 24, 0, 0, time.UTC)
	type iv struct{ start, end time.Time }
	for _, tc := range []struct {
		answer    string
		ref       time.Time
		want      iv
		precision string // "" means ok=false
	}{
		// Absolute days.
		{"7 May 2023", fri9June, iv{day(2023, 5, 7), day(2023, 5, 8)}, "day"},
		{"May 7, 2023", fri9June, iv{day(2023, 5, 7), day(2023, 5, 8)}, "day"},
		{"7th May 2023", fri9June, iv{day(2023, 5, 7), day(2023, 5, 8)}, "day"},
		{"On 7 May, 2023", fri9June, iv{day(2023, 5, 7), day(2023, 5, 8)}, "day"},
		{`"7 May 2023."`, fri9June, iv{day(2023, 5, 7), day(2023, 5, 8)}, "day"},
		{"2023-05-07", fri9June, iv{day(2023, 5, 7), day(2023, 5, 8)}, "day"},
		{"12 August", mon14Aug, iv{day(2023, 8, 12), day(2023, 8, 13)}, "day"},
		// Months, years, seasons, parts.
		{"May 2023", fri9June, iv{day(2023, 5, 1), day(2023, 6, 1)}, "month"},
		{"June, 2023", fri9June, iv{day(2023, 6, 1), day(2023, 7, 1)}, "month"},
		{"in June 2023", fri9June, iv{day(2023, 6, 1), day(2023, 7, 1)}, "month"},
		{"2022", fri9June, iv{day(2022, 1, 1), day(2023, 1, 1)}, "year"},
		{"in 2022", fri9June, iv{day(2022, 1, 1), day(2023, 1, 1)}, "year"},
		{"around 2019", fri9June, iv{day(2019, 1, 1), day(2020, 1, 1)}, "year"},
		{"Summer 2022", fri9June, iv{day(2022, 6, 1), day(2022, 9, 1)}, "season"},
		{"early June 2023", fri9June, iv{day(2023, 6, 1), day(2023, 6, 11)}, "range"},
		// Relative to ref.
		{"Last year", fri9June, iv{day(2022, 1, 1), day(2023, 1, 1)}, "year"},
		{"12 years ago", fri9June, iv{day(2011, 1, 1), day(2012, 1, 1)}, "year"},
		{"last weekend", mon17July, iv{day(2023, 7, 15), day(2023, 7, 17)}, "range"},
		{"Since 2017", fri9June, iv{day(2017, 1, 1), day(2018, 1, 1)}, "year"},
		{"ever since May 2021", fri9June, iv{day(2021, 5, 1), day(2021, 6, 1)}, "month"},
		// Anchored forms the resolver knows.
		{"The week before 9 June 2023", fri9June, iv{day(2023, 5, 29), day(2023, 6, 5)}, "week"},
		{"The week after 9 June 2023", fri9June, iv{day(2023, 6, 12), day(2023, 6, 19)}, "week"},
		{"The week of 14 August 2023", mon14Aug, iv{day(2023, 8, 14), day(2023, 8, 21)}, "week"},
		{"The week before 13 August", mon14Aug, iv{day(2023, 7, 31), day(2023, 8, 7)}, "week"},
		{"The sunday before 25 May 2023", fri9June, iv{day(2023, 5, 21), day(2023, 5, 22)}, "day"},
		{"The Friday before 15 July 2023", mon17July, iv{day(2023, 7, 14), day(2023, 7, 15)}, "day"},
		{"Saturday before 23 August, 2023", mon14Aug, iv{day(2023, 8, 19), day(2023, 8, 20)}, "day"},
		{"the Tuesday after 20 July 2023", mon17July, iv{day(2023, 7, 25), day(2023, 7, 26)}, "day"},
		{"the day before 7 May 2023", fri9June, iv{day(2023, 5, 6), day(2023, 5, 7)}, "day"},
		// Anchored forms rewritten here.
		{"the weekend before 17 July 2023", mon17July, iv{day(2023, 7, 15), day(2023, 7, 17)}, "range"},
		{"The Weekend before 19 October 2023", mon17July, iv{day(2023, 10, 14), day(2023, 10, 16)}, "range"},
		{"two weekends before 17 July 2023", mon17July, iv{day(2023, 7, 8), day(2023, 7, 10)}, "range"},
		{"the weekend after 3 July 2023", mon17July, iv{day(2023, 7, 15), day(2023, 7, 17)}, "range"},
		{"two days before 7 May 2023", fri9June, iv{day(2023, 5, 5), day(2023, 5, 6)}, "day"},
		{"2 weeks before 9 June 2023", fri9June, iv{day(2023, 5, 22), day(2023, 5, 29)}, "week"},
		{"3 weeks after 3 July 2023", mon17July, iv{day(2023, 7, 24), day(2023, 7, 31)}, "week"},
		{"the month before 9 June 2023", fri9June, iv{day(2023, 5, 1), day(2023, 6, 1)}, "month"},
		{"the year before 9 June 2023", fri9June, iv{day(2022, 1, 1), day(2023, 1, 1)}, "year"},
		// Not dates.
		{"6 years", fri9June, iv{}, ""},
		{"for 3 months", fri9June, iv{}, ""},
		{"A few days before 10 August 2023", fri9June, iv{}, ""},
		{"a few years ago", fri9June, iv{}, ""},
		{"several weeks ago", fri9June, iv{}, ""},
		{"some months before 9 June 2023", fri9June, iv{}, ""},
		{"the weekend before June 2023", fri9June, iv{}, ""}, // anchor is not a day
		{"Tuesday or Wednesday", fri9June, iv{}, ""},
		{"Yes", fri9June, iv{}, ""},
		{"", fri9June, iv{}, ""},
		{"recently", fri9June, iv{}, ""},
	} {
		t.Run(tc.answer, func(t *testing.T) {
			start, end, prec, ok := ParseGold(tc.answer, tc.ref)
			if tc.precision == "" {
				assert.False(t, ok, "got [%v, %v) %s", start, end, prec)
				assert.True(t, start.IsZero() && end.IsZero() && prec == "")
				return
			}
			if assert.True(t, ok) {
				assert.Equal(t, tc.want.start, start, "start")
				assert.Equal(t, tc.want.end, end, "end")
				assert.Equal(t, tc.precision, prec)
				assert.Equal(t, time.UTC, start.Location())
			}
		})
	}
}

// TestParseGoldShapes covers the week, weekend, range, misspelt-month and
// part-of-month shapes, with answers written for this test.
func TestParseGoldShapes(t *testing.T) {
	ref := time.Date(2023, 6, 9, 19, 55, 0, 0, time.UTC)
	type iv struct{ start, end time.Time }
	for _, tc := range []struct {
		answer    string
		want      iv
		precision string // "" means ok=false
	}{
		// Weeks and weekends of a month, with or without the article.
		{"the first week of May 2023", iv{day(2023, 5, 1), day(2023, 5, 8)}, "range"},
		{"First week of March 2023", iv{day(2023, 3, 1), day(2023, 3, 8)}, "range"},
		{"the second weekend of June 2023", iv{day(2023, 6, 10), day(2023, 6, 12)}, "range"},
		{"third weekend of September 2023", iv{day(2023, 9, 16), day(2023, 9, 18)}, "range"},
		{"The last weekend of April 2023", iv{day(2023, 4, 29), day(2023, 5, 1)}, "range"},
		{"the weekend before 16 May, 2023", iv{day(2023, 5, 13), day(2023, 5, 15)}, "range"},
		{"The week before 12 April 2023", iv{day(2023, 4, 3), day(2023, 4, 10)}, "week"},
		// Ranges: the bare end borrows the month and year of the other.
		{"5–6 November 2022", iv{day(2022, 11, 5), day(2022, 11, 7)}, "range"},
		{"12-14 March 2023", iv{day(2023, 3, 12), day(2023, 3, 15)}, "range"},
		{"November 5-6, 2022", iv{day(2022, 11, 5), day(2022, 11, 7)}, "range"},
		{"between 19 and 24 October 2023", iv{day(2023, 10, 19), day(2023, 10, 25)}, "range"},
		{"from 3 to 7 March 2023", iv{day(2023, 3, 3), day(2023, 3, 8)}, "range"},
		{"from 28 February to 2 March 2023", iv{day(2023, 2, 28), day(2023, 3, 3)}, "range"},
		{"between June 30 and July 2, 2023", iv{day(2023, 6, 30), day(2023, 7, 3)}, "range"},
		{"2019–2021", iv{day(2019, 1, 1), day(2022, 1, 1)}, "range"},
		// Misspelt months: one edit from a month name.
		{"Feburary 2023", iv{day(2023, 2, 1), day(2023, 3, 1)}, "month"},         // swapped letters
		{"Novmber 2022", iv{day(2022, 11, 1), day(2022, 12, 1)}, "month"},        // a letter left out
		{"Septmber 3, 2023", iv{day(2023, 9, 3), day(2023, 9, 4)}, "day"},        // a letter left out
		{"14 Decemberr 2022", iv{day(2022, 12, 14), day(2022, 12, 15)}, "day"},   // a letter too many
		{"Agust 2023", iv{day(2023, 8, 1), day(2023, 9, 1)}, "month"},            // a letter left out
		{"Octobar 2023", iv{day(2023, 10, 1), day(2023, 11, 1)}, "month"},        // a letter changed
		{"5-6 Novembr 2022", iv{day(2022, 11, 5), day(2022, 11, 7)}, "range"},    // in a range
		{"April.2023", iv{day(2023, 4, 1), day(2023, 5, 1)}, "month"},            // a period for a space
		{"late May 2023", iv{day(2023, 5, 21), day(2023, 6, 1)}, "range"},        // days 21–end
		{"early May 2023", iv{day(2023, 5, 1), day(2023, 5, 11)}, "range"},       // days 1–10
		{"mid May 2023", iv{day(2023, 5, 11), day(2023, 5, 21)}, "range"},        // days 11–20
		{"mid-November 2022", iv{day(2022, 11, 11), day(2022, 11, 21)}, "range"}, // days 11–20
		// Not dates.
		{"a few days before 10 May 2023", iv{}, ""}, // vague
		{"from 7 to 3 March 2023", iv{}, ""},        // ends reversed
		{"between 5 and 9", iv{}, ""},               // no month
		{"match 2023", iv{}, ""},                    // an English word, not March
		{"Jane 2023", iv{}, ""},                     // June is too short to correct
		{"The Friday before 2` May 2023", iv{}, ""}, // a stray mark in the day: not guessed
		{"a tree-planting day", iv{}, ""},
	} {
		t.Run(tc.answer, func(t *testing.T) {
			start, end, prec, ok := ParseGold(tc.answer, ref)
			if tc.precision == "" {
				assert.False(t, ok, "got [%v, %v) %s", start, end, prec)
				return
			}
			if assert.True(t, ok) {
				assert.Equal(t, tc.want.start, start, "start")
				assert.Equal(t, tc.want.end, end, "end")
				assert.Equal(t, tc.precision, prec)
			}
		})
	}
}

func TestEditDistance1(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"feburary", "february", true}, // neighbours swapped
		{"novmber", "november", true},  // deletion
		{"novembre", "november", true}, // swap at the end
		{"decemberr", "december", true},
		{"octobar", "october", true},
		{"november", "november", false}, // no edit
		{"novenbre", "november", false}, // two edits
		{"brebmevon", "november", false},
		{"nov", "november", false},
		{"ab", "ba", true},
	} {
		assert.Equal(t, tc.want, editDistance1(tc.a, tc.b), "%s / %s", tc.a, tc.b)
		assert.Equal(t, tc.want, editDistance1(tc.b, tc.a), "%s / %s", tc.b, tc.a)
	}
	assert.Equal(t, "march 2023", fixMonths("marhc 2023"))
	assert.Equal(t, "arch 2023", fixMonths("arch 2023"), "an English word")
	assert.Equal(t, "in october, 2023", fixMonths("in octobre, 2023"))
}
