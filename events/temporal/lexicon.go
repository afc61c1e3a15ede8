package temporal

import (
	"strings"
	"time"
)

// monthWord is a month name or abbreviation.
type monthWord struct {
	m    time.Month
	abbr bool
}

// monthWords maps lower-cased month names and abbreviations to months.
var monthWords = map[string]monthWord{
	"january": {time.January, false}, "jan": {time.January, true},
	"february": {time.February, false}, "feb": {time.February, true},
	"march": {time.March, false}, "mar": {time.March, true},
	"april": {time.April, false}, "apr": {time.April, true},
	"may":  {time.May, false},
	"june": {time.June, false}, "jun": {time.June, true},
	"july": {time.July, false}, "jul": {time.July, true},
	"august": {time.August, false}, "aug": {time.August, true},
	"september": {time.September, false}, "sep": {time.September, true}, "sept": {time.September, true},
	"october": {time.October, false}, "oct": {time.October, true},
	"november": {time.November, false}, "nov": {time.November, true},
	"december": {time.December, false}, "dec": {time.December, true},
}

// riskyMonth reports month words that are also ordinary English words
// ("I may go", "we march on", "mar the finish"). Written in lower case they
// need stronger evidence: a year, an ordinal day, "of", or a cue word.
func riskyMonth(s string) bool { return s == "may" || s == "march" || s == "mar" }

// weekdayWord is a weekday name, singular or plural.
type weekdayWord struct {
	d      time.Weekday
	plural bool
}

// weekdayWords maps lower-cased weekday names (no abbreviations: "sat",
// "sun" and "wed" are ordinary words) to weekdays.
var weekdayWords = map[string]weekdayWord{
	"monday": {time.Monday, false}, "mondays": {time.Monday, true},
	"tuesday": {time.Tuesday, false}, "tuesdays": {time.Tuesday, true},
	"wednesday": {time.Wednesday, false}, "wednesdays": {time.Wednesday, true},
	"thursday": {time.Thursday, false}, "thursdays": {time.Thursday, true},
	"friday": {time.Friday, false}, "fridays": {time.Friday, true},
	"saturday": {time.Saturday, false}, "saturdays": {time.Saturday, true},
	"sunday": {time.Sunday, false}, "sundays": {time.Sunday, true},
}

// weekdayAbbrs maps weekday abbreviations to weekdays. They are read only
// after last/this/next ("last Tues", "next Fri"): alone, "sat", "sun"
// and "wed" are ordinary words.
var weekdayAbbrs = map[string]time.Weekday{
	"mon": time.Monday, "tue": time.Tuesday, "tues": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "fri": time.Friday,
	"sat": time.Saturday, "sun": time.Sunday,
}

// riskyWeekdayAbbr reports the abbreviations that are words even after
// last/this/next ("this sun is hot", "the last sat down", "this wed
// couple"): they count only when capitalised ("last Sat").
func riskyWeekdayAbbr(s string) bool { return s == "sat" || s == "sun" || s == "wed" }

// smallNumbers maps number words below twenty (and the articles) to values.
var smallNumbers = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
	"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
	"twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}

// tensNumbers maps the tens words to values ("twenty-five" combines).
var tensNumbers = map[string]int{
	"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
	"seventy": 70, "eighty": 80, "ninety": 90,
}

// unit is a calendar or clock unit counted by relative expressions.
type unit uint8

const (
	uNone unit = iota
	uSecond
	uMinute
	uHour
	uDay
	uWeek
	uFortnight
	uMonth
	uYear
)

// unitWords maps unit nouns to units.
var unitWords = map[string]unit{
	"second": uSecond, "seconds": uSecond,
	"minute": uMinute, "minutes": uMinute,
	"hour": uHour, "hours": uHour,
	"day": uDay, "days": uDay,
	"week": uWeek, "weeks": uWeek,
	"fortnight": uFortnight, "fortnights": uFortnight,
	"month": uMonth, "months": uMonth,
	"year": uYear, "years": uYear,
}

// vagueBounds gives the count range that "a few"/"several"/"some" stand
// for, per unit: "a few days ago" covers 2–7 days ago, "a few years ago"
// 2–5 years ago.
var vagueBounds = [...][2]int{
	uSecond: {2, 59}, uMinute: {2, 15}, uHour: {2, 5}, uDay: {2, 7},
	uWeek: {2, 5}, uFortnight: {2, 3}, uMonth: {2, 5}, uYear: {2, 5},
}

// vagueDurationCount is the count recorded in a Duration for "a few",
// "several" and "some" (Approx is set alongside).
const vagueDurationCount = 3

// season is a meteorological season of the northern hemisphere.
type season uint8

const (
	spring season = iota
	summer
	autumn
	winter
)

// seasonStartMonth is the first month of each season.
var seasonStartMonth = [...]time.Month{spring: time.March, summer: time.June, autumn: time.September, winter: time.December}

// seasonWords maps season names to seasons ("fall" needs a year or
// last/this/next, see lastThisNext and seasonYear).
var seasonWords = map[string]season{
	"spring": spring, "summer": summer, "autumn": autumn, "fall": autumn, "winter": winter,
}

// partsOfDay may follow a day expression without changing its interval.
var partsOfDay = map[string]bool{"morning": true, "afternoon": true, "evening": true, "night": true}

// phrase is a token sequence; Han phrases list one rune per token.
type phrase []string

// phrases splits each space-separated English phrase into tokens.
func phrases(list ...string) []phrase {
	out := make([]phrase, len(list))
	for i, s := range list {
		out[i] = strings.Fields(s)
	}
	return out
}

// vaguePhrases are temporal expressions that name no recoverable interval.
// Find reports them (so the text is kept) with Precision unknown.
var vaguePhrases = phrases(
	"recently", "lately", "a while ago", "a while back", "a little while ago",
	"some time ago", "sometime ago", "some time back", "a long time ago",
	"long ago", "not long ago", "a long while ago", "back then", "since then",
	"the other day", "someday", "some day", "at some point", "at one point",
	"in the past", "years ago", "months ago", "weeks ago", "days ago",
	"ages ago", "way back",
)

// pointHedges mark any point expression as approximate.
var pointHedges = phrases("around", "approximately", "roughly", "circa", "sometime", "some time")

// countHedges may precede a count ("about 3 years ago", "for over 2 weeks").
// The bool says whether the hedge makes the result approximate.
var countHedges = []struct {
	p      phrase
	approx bool
}{
	{phrase{"about"}, true}, {phrase{"around"}, true}, {phrase{"almost"}, true},
	{phrase{"nearly"}, true}, {phrase{"roughly"}, true}, {phrase{"approximately"}, true},
	{phrase{"over"}, true}, {phrase{"more", "than"}, true}, {phrase{"less", "than"}, true},
	{phrase{"just"}, false}, {phrase{"only"}, false}, {phrase{"exactly"}, false},
}

// cuePreps license bare months, years and seasons ("in May", "during
// 2022", "over the summer") and become part of the match.
var cuePreps = map[string]bool{"in": true, "during": true, "over": true, "throughout": true}

// plainPreps are absorbed into a match but license nothing ("on Friday",
// "at the end of June").
var plainPreps = map[string]bool{"on": true, "at": true}

// starters holds every word that can begin an expression. Find skips other
// words without parsing (a speed-up only; TestStartersComplete checks it
// changes nothing).
var starters = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`around approximately roughly circa sometime some
		in during over throughout on at within the day week weekend today tonight
		yesterday tomorrow this last next coming upcoming earlier later early late mid
		beginning start middle end year of for ever since from between noon midday
		midnight about almost nearly just only exactly more less a an couple few several
		right so moments`) {
		starters[w] = true
	}
	for w := range monthWords {
		starters[w] = true
	}
	for w := range weekdayWords {
		starters[w] = true
	}
	for w := range seasonWords {
		starters[w] = true
	}
	for w := range smallNumbers {
		starters[w] = true
	}
	for w := range tensNumbers {
		starters[w] = true
	}
	for _, list := range [][]phrase{vaguePhrases, pointHedges} {
		for _, ph := range list {
			starters[ph[0]] = true
		}
	}
	for _, h := range countHedges {
		starters[h.p[0]] = true
	}
}
