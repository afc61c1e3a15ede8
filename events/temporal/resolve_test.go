package temporal_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/events/temporal"
)

// Precision and basis shorthands for the tables.
const (
	pI = temporal.PrecisionInstant
	pD = temporal.PrecisionDay
	pW = temporal.PrecisionWeek
	pM = temporal.PrecisionMonth
	pS = temporal.PrecisionSeason
	pY = temporal.PrecisionYear
	pR = temporal.PrecisionRange
	pU = temporal.PrecisionUnknown

	bE = temporal.BasisExplicit
	bR = temporal.BasisRelative
	bI = temporal.BasisInferred
	bU = temporal.BasisUnknown
)

// d is midnight UTC of y-m-d.
func d(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }

// hm is h:m UTC on y-m-d.
func hm(y int, m time.Month, day, h, min int) time.Time {
	return time.Date(y, m, day, h, min, 0, 0, time.UTC)
}

// Reference times (UTC). Weekdays matter: see the comments.
var (
	refMon   = hm(2023, 5, 8, 13, 56) // Monday 8 May 2023 (LoCoMo "yesterday")
	refFri   = hm(2023, 6, 9, 10, 0)  // Friday 9 June 2023
	refThu   = hm(2023, 7, 6, 18, 0)  // Thursday 6 July 2023
	refMonAu = hm(2023, 8, 14, 9, 0)  // Monday 14 August 2023
	refMonJu = hm(2023, 7, 17, 9, 0)  // Monday 17 July 2023
	refFriAu = hm(2023, 8, 25, 9, 0)  // Friday 25 August 2023
	refThuMa = hm(2023, 5, 25, 9, 0)  // Thursday 25 May 2023
	refWedJu = hm(2023, 7, 12, 9, 0)  // Wednesday 12 July 2023
	refSunJu = hm(2023, 7, 16, 9, 0)  // Sunday 16 July 2023
	refOct   = hm(2023, 10, 10, 9, 0) // Tuesday 10 October 2023
	refJan   = hm(2024, 1, 15, 9, 0)  // Monday 15 January 2024
	refNov   = hm(2023, 11, 20, 9, 0) // Monday 20 November 2023
)

type resolveCase struct {
	text       string
	ref        time.Time
	start, end time.Time
	prec       temporal.Precision
	basis      temporal.Basis
	approx     bool
}

var resolveCases = []resolveCase{
	// LoCoMo shapes.
	{"yesterday", refMon, d(2023, 5, 7), d(2023, 5, 8), pD, bR, false},
	{"last week", refFri, d(2023, 5, 29), d(2023, 6, 5), pW, bR, false},
	{"last year", refThu, d(2022, 1, 1), d(2023, 1, 1), pY, bR, false},
	{"last Saturday", refMonAu, d(2023, 8, 12), d(2023, 8, 13), pD, bR, false},
	{"two weekends ago", refMonJu, d(2023, 7, 8), d(2023, 7, 10), pR, bR, false},
	{"last Friday", refMonAu, d(2023, 8, 11), d(2023, 8, 12), pD, bR, false},
	{"next month", refFriAu, d(2023, 9, 1), d(2023, 10, 1), pM, bR, false},
	{"the week before", refFri, d(2023, 5, 29), d(2023, 6, 5), pW, bR, false},
	{"four years ago", refThuMa, d(2019, 1, 1), d(2020, 1, 1), pY, bR, false},
	{"10 years ago", refThuMa, d(2013, 1, 1), d(2014, 1, 1), pY, bR, false},
	{"a few years ago", refThuMa, d(2018, 1, 1), d(2022, 1, 1), pY, bR, true},
	{"last summer", refWedJu, d(2022, 6, 1), d(2022, 9, 1), pS, bR, false},
	{"this weekend", refWedJu, d(2023, 7, 15), d(2023, 7, 17), pR, bR, false},
	{"this weekend (said on Sunday)", refSunJu, d(2023, 7, 15), d(2023, 7, 17), pR, bR, false},
	{"the sunday before 25 May 2023", refOct, d(2023, 5, 21), d(2023, 5, 22), pD, bE, false},
	{"the week of 7 May 2023", refOct, d(2023, 5, 1), d(2023, 5, 8), pW, bE, false},
	{"7 May 2023", refOct, d(2023, 5, 7), d(2023, 5, 8), pD, bE, false},
	{"May 2023", refOct, d(2023, 5, 1), d(2023, 6, 1), pM, bE, false},
	{"2022", refOct, d(2022, 1, 1), d(2023, 1, 1), pY, bE, false},
	{"June 2023", refOct, d(2023, 6, 1), d(2023, 7, 1), pM, bE, false},

	// Relative days.
	{"today", refMon, d(2023, 5, 8), d(2023, 5, 9), pD, bR, false},
	{"Today.", refMon, d(2023, 5, 8), d(2023, 5, 9), pD, bR, false},
	{"tonight", refMon, d(2023, 5, 8), d(2023, 5, 9), pD, bR, false},
	{"this morning", refMon, d(2023, 5, 8), d(2023, 5, 9), pD, bR, false},
	{"the day before yesterday", refMon, d(2023, 5, 6), d(2023, 5, 7), pD, bR, false},
	{"tomorrow", refMon, d(2023, 5, 9), d(2023, 5, 10), pD, bR, false},
	{"the day after tomorrow", refMon, d(2023, 5, 10), d(2023, 5, 11), pD, bR, false},
	{"last night", refMon, d(2023, 5, 7), d(2023, 5, 8), pD, bR, false},
	{"yesterday morning", refMon, d(2023, 5, 7), d(2023, 5, 8), pD, bR, false},
	{"YESTERDAY", refMon, d(2023, 5, 7), d(2023, 5, 8), pD, bR, false},

	// Times of day.
	{"yesterday at 3pm", refMon, hm(2023, 5, 7, 15, 0), hm(2023, 5, 7, 16, 0), pI, bR, false},
	{"at 3pm yesterday", refMon, hm(2023, 5, 7, 15, 0), hm(2023, 5, 7, 16, 0), pI, bR, false},
	{"yesterday at 15:30", refMon, hm(2023, 5, 7, 15, 30), hm(2023, 5, 7, 16, 30), pI, bR, false},
	{"tomorrow at noon", refMon, hm(2023, 5, 9, 12, 0), hm(2023, 5, 9, 13, 0), pI, bR, false},
	{"last night at 11 p.m.", refMon, hm(2023, 5, 7, 23, 0), hm(2023, 5, 8, 0, 0), pI, bR, false},
	{"7 May 2023 at 9:30am", refOct, hm(2023, 5, 7, 9, 30), hm(2023, 5, 7, 10, 30), pI, bE, false},
	{"2023-05-07 08:15", refOct, hm(2023, 5, 7, 8, 15), hm(2023, 5, 7, 9, 15), pI, bE, false},
	{"3 hours ago", refMon, hm(2023, 5, 8, 10, 0), hm(2023, 5, 8, 11, 0), pI, bR, false},

	// N units ago / in N units.
	{"3 days ago", refMon, d(2023, 5, 5), d(2023, 5, 6), pD, bR, false},
	{"three days ago", refMon, d(2023, 5, 5), d(2023, 5, 6), pD, bR, false},
	{"a couple of days ago", refMon, d(2023, 5, 6), d(2023, 5, 7), pD, bR, false},
	{"a few days ago", refMon, d(2023, 5, 1), d(2023, 5, 7), pD, bR, true},
	{"a week ago", refMon, d(2023, 5, 1), d(2023, 5, 8), pW, bR, false},
	{"2 weeks ago", refMon, d(2023, 4, 24), d(2023, 5, 1), pW, bR, false},
	{"several weeks ago", refMon, d(2023, 4, 3), d(2023, 5, 1), pW, bR, true},
	{"a month ago", refMon, d(2023, 4, 1), d(2023, 5, 1), pM, bR, false},
	{"two months ago", refMon, d(2023, 3, 1), d(2023, 4, 1), pM, bR, false},
	{"twenty-five years ago", refMon, d(1998, 1, 1), d(1999, 1, 1), pY, bR, false},
	{"about 3 years ago", refMon, d(2020, 1, 1), d(2021, 1, 1), pY, bR, true},
	{"2 years back", refMon, d(2021, 1, 1), d(2022, 1, 1), pY, bR, false},
	{"two Fridays ago", refMon, d(2023, 4, 28), d(2023, 4, 29), pD, bR, false},
	{"in three days", refMon, d(2023, 5, 11), d(2023, 5, 12), pD, bR, false},
	{"in 2 weeks", refMon, d(2023, 5, 22), d(2023, 5, 29), pW, bR, false},
	{"in a month", refMon, d(2023, 6, 1), d(2023, 7, 1), pM, bR, false},
	{"2 days from now", refMon, d(2023, 5, 10), d(2023, 5, 11), pD, bR, false},

	// last / this / next.
	{"last week", refMon, d(2023, 5, 1), d(2023, 5, 8), pW, bR, false},
	{"this week", refMon, d(2023, 5, 8), d(2023, 5, 15), pW, bR, false},
	{"next week", refMon, d(2023, 5, 15), d(2023, 5, 22), pW, bR, false},
	{"last month", refMon, d(2023, 4, 1), d(2023, 5, 1), pM, bR, false},
	{"this month", refMon, d(2023, 5, 1), d(2023, 6, 1), pM, bR, false},
	{"next month", refMon, d(2023, 6, 1), d(2023, 7, 1), pM, bR, false},
	{"this year", refMon, d(2023, 1, 1), d(2024, 1, 1), pY, bR, false},
	{"next year", refMon, d(2024, 1, 1), d(2025, 1, 1), pY, bR, false},
	{"the week before last", refMon, d(2023, 4, 24), d(2023, 5, 1), pW, bR, false},
	{"the year before last", refMon, d(2021, 1, 1), d(2022, 1, 1), pY, bR, false},
	{"last May", refMon, d(2022, 5, 1), d(2022, 6, 1), pM, bR, false},
	{"next March", refMon, d(2024, 3, 1), d(2024, 4, 1), pM, bR, false},

	// Weekdays and weekends.
	{"last Monday (said on a Monday)", refMon, d(2023, 5, 1), d(2023, 5, 2), pD, bR, false},
	{"next Friday", refMon, d(2023, 5, 12), d(2023, 5, 13), pD, bR, false},
	{"this coming Friday", refMon, d(2023, 5, 12), d(2023, 5, 13), pD, bR, false},
	{"this Friday", refMon, d(2023, 5, 12), d(2023, 5, 13), pD, bR, false},
	{"this Monday", refMon, d(2023, 5, 8), d(2023, 5, 9), pD, bR, false},
	{"Friday", refMon, d(2023, 5, 5), d(2023, 5, 6), pD, bI, false},
	{"on Friday", refMon, d(2023, 5, 5), d(2023, 5, 6), pD, bI, false},
	{"Friday night", refMon, d(2023, 5, 5), d(2023, 5, 6), pD, bI, false},
	{"at 9:30am on Friday", refMon, hm(2023, 5, 5, 9, 30), hm(2023, 5, 5, 10, 30), pI, bI, false},
	{"Friday last week", refMon, d(2023, 5, 5), d(2023, 5, 6), pD, bR, false},
	{"Tuesday next week", refMon, d(2023, 5, 16), d(2023, 5, 17), pD, bR, false},
	{"last weekend", refMon, d(2023, 5, 6), d(2023, 5, 8), pR, bR, false},
	{"next weekend", refMon, d(2023, 5, 20), d(2023, 5, 22), pR, bR, false},
	{"over the weekend", refMon, d(2023, 5, 6), d(2023, 5, 8), pR, bI, false},

	// Absolute dates.
	{"May 7th, 2023", refOct, d(2023, 5, 7), d(2023, 5, 8), pD, bE, false},
	{"May 7, 2023", refOct, d(2023, 5, 7), d(2023, 5, 8), pD, bE, false},
	{"7th of May 2023", refOct, d(2023, 5, 7), d(2023, 5, 8), pD, bE, false},
	{"the 7th of May, 2023", refOct, d(2023, 5, 7), d(2023, 5, 8), pD, bE, false},
	{"Sunday, 7 May 2023", refOct, d(2023, 5, 7), d(2023, 5, 8), pD, bE, false},
	{"on Sept. 3, 2021", refOct, d(2021, 9, 3), d(2021, 9, 4), pD, bE, false},
	{"2023-05-07", refOct, d(2023, 5, 7), d(2023, 5, 8), pD, bE, false},
	{"2023/05/07", refOct, d(2023, 5, 7), d(2023, 5, 8), pD, bE, false},
	{"13/5/2023", refOct, d(2023, 5, 13), d(2023, 5, 14), pD, bE, false},
	{"5/13/2023", refOct, d(2023, 5, 13), d(2023, 5, 14), pD, bE, false},
	{"5/5/2023", refOct, d(2023, 5, 5), d(2023, 5, 6), pD, bE, false},
	{"29 February 2024", refOct, d(2024, 2, 29), d(2024, 3, 1), pD, bE, false},
	{"May of 2022", refOct, d(2022, 5, 1), d(2022, 6, 1), pM, bE, false},
	{"in 2022", refOct, d(2022, 1, 1), d(2023, 1, 1), pY, bE, false},
	{"during 2021", refOct, d(2021, 1, 1), d(2022, 1, 1), pY, bE, false},
	{"the year 2020", refOct, d(2020, 1, 1), d(2021, 1, 1), pY, bE, false},

	// Dates without a year: nearest occurrence, inferred.
	{"7 May", refMon, d(2023, 5, 7), d(2023, 5, 8), pD, bI, false},
	{"May 7", refMon, d(2023, 5, 7), d(2023, 5, 8), pD, bI, false},
	{"December 25", refMon, d(2022, 12, 25), d(2022, 12, 26), pD, bI, false},
	{"January 3rd", refNov, d(2024, 1, 3), d(2024, 1, 4), pD, bI, false},
	{"in May", refMon, d(2023, 5, 1), d(2023, 6, 1), pM, bI, false},
	{"in December", refMon, d(2022, 12, 1), d(2023, 1, 1), pM, bI, false},
	{"June", refNov, d(2023, 6, 1), d(2023, 7, 1), pM, bI, false},

	// Seasons.
	{"summer 2022", refOct, d(2022, 6, 1), d(2022, 9, 1), pS, bE, false},
	{"the summer of 2021", refOct, d(2021, 6, 1), d(2021, 9, 1), pS, bE, false},
	{"winter 2022", refOct, d(2022, 12, 1), d(2023, 3, 1), pS, bE, false},
	{"fall 2021", refOct, d(2021, 9, 1), d(2021, 12, 1), pS, bE, false},
	{"last summer (said in autumn)", refOct, d(2023, 6, 1), d(2023, 9, 1), pS, bR, false},
	{"this spring", refMon, d(2023, 3, 1), d(2023, 6, 1), pS, bR, false},
	{"next winter", refMon, d(2023, 12, 1), d(2024, 3, 1), pS, bR, false},
	{"last winter (said in January)", refJan, d(2022, 12, 1), d(2023, 3, 1), pS, bR, false},
	{"this winter (said in January)", refJan, d(2023, 12, 1), d(2024, 3, 1), pS, bR, false},
	{"last fall", refMon, d(2022, 9, 1), d(2022, 12, 1), pS, bR, false},
	{"in the summer", refMon, d(2023, 6, 1), d(2023, 9, 1), pS, bI, false},
	{"over the winter", refMon, d(2022, 12, 1), d(2023, 3, 1), pS, bI, false},

	// Parts of months, years and weeks.
	{"early June 2023", refOct, d(2023, 6, 1), d(2023, 6, 11), pR, bE, true},
	{"mid-June 2023", refOct, d(2023, 6, 11), d(2023, 6, 21), pR, bE, true},
	{"late June 2023", refOct, d(2023, 6, 21), d(2023, 7, 1), pR, bE, true},
	{"end of June 2023", refOct, d(2023, 6, 21), d(2023, 7, 1), pR, bE, true},
	{"early June", refMon, d(2023, 6, 1), d(2023, 6, 11), pR, bI, true},
	{"the end of the month", refMon, d(2023, 5, 21), d(2023, 6, 1), pR, bR, true},
	{"beginning of next month", refMon, d(2023, 6, 1), d(2023, 6, 11), pR, bR, true},
	{"early 2022", refOct, d(2022, 1, 1), d(2022, 5, 1), pR, bE, true},
	{"the end of last year", refMon, d(2022, 9, 1), d(2023, 1, 1), pR, bR, true},
	{"the first week of June 2023", refOct, d(2023, 6, 1), d(2023, 6, 8), pR, bE, false},
	{"the last week of May", refMon, d(2023, 5, 25), d(2023, 6, 1), pR, bI, false},
	{"the first weekend of June 2023", refOct, d(2023, 6, 3), d(2023, 6, 5), pR, bE, false},
	{"the last weekend of June 2023", refOct, d(2023, 6, 24), d(2023, 6, 26), pR, bE, false},
	{"the second week of next month", refMon, d(2023, 6, 8), d(2023, 6, 15), pR, bR, false},
	{"end of the week", refMon, d(2023, 5, 12), d(2023, 5, 15), pR, bR, true},
	{"earlier this year", refMon, d(2023, 1, 1), d(2023, 5, 9), pR, bR, false},
	{"earlier this month", refMon, d(2023, 5, 1), d(2023, 5, 9), pR, bR, false},
	{"later this week", refMon, d(2023, 5, 8), d(2023, 5, 15), pR, bR, false},

	// Ranges.
	{"over the past 5 years", refMon, hm(2018, 5, 8, 13, 56), refMon, pY, bR, false},
	{"in the last two weeks", refMon, hm(2023, 4, 24, 13, 56), refMon, pW, bR, false},
	{"over the past year", refMon, hm(2022, 5, 8, 13, 56), refMon, pY, bR, false},
	{"since 2019", refMon, d(2019, 1, 1), refMon, pR, bE, false},
	{"since last May", refMon, d(2022, 5, 1), refMon, pR, bR, false},
	{"since yesterday", refMon, d(2023, 5, 7), refMon, pR, bR, false},
	{"from 2019 to 2021", refMon, d(2019, 1, 1), d(2022, 1, 1), pR, bE, false},
	{"between May 1 and May 5, 2023", refMon, d(2023, 5, 1), d(2023, 5, 6), pR, bI, false},
	{"from last Monday to Wednesday", refFri, d(2023, 6, 5), d(2023, 6, 8), pR, bI, false},

	// Anchored and hedged forms.
	{"the day after 7 May 2023", refOct, d(2023, 5, 8), d(2023, 5, 9), pD, bE, false},
	{"the Friday after May 7, 2023", refOct, d(2023, 5, 12), d(2023, 5, 13), pD, bE, false},
	{"the week after 7 May 2023", refOct, d(2023, 5, 8), d(2023, 5, 15), pW, bE, false},
	{"around 2020", refMon, d(2020, 1, 1), d(2021, 1, 1), pY, bE, true},
	{"sometime last week", refMon, d(2023, 5, 1), d(2023, 5, 8), pW, bR, true},
	{"some time in 2019", refMon, d(2019, 1, 1), d(2020, 1, 1), pY, bE, true},

	// Chinese.
	{"昨天", refMon, d(2023, 5, 7), d(2023, 5, 8), pD, bR, false},
	{"前天", refMon, d(2023, 5, 6), d(2023, 5, 7), pD, bR, false},
	{"今天", refMon, d(2023, 5, 8), d(2023, 5, 9), pD, bR, false},
	{"明天", refMon, d(2023, 5, 9), d(2023, 5, 10), pD, bR, false},
	{"上周", refMon, d(2023, 5, 1), d(2023, 5, 8), pW, bR, false},
	{"上个星期", refMon, d(2023, 5, 1), d(2023, 5, 8), pW, bR, false},
	{"下周", refMon, d(2023, 5, 15), d(2023, 5, 22), pW, bR, false},
	{"上周六", refMon, d(2023, 5, 6), d(2023, 5, 7), pD, bR, false},
	{"上个月", refMon, d(2023, 4, 1), d(2023, 5, 1), pM, bR, false},
	{"下个月", refMon, d(2023, 6, 1), d(2023, 7, 1), pM, bR, false},
	{"去年", refMon, d(2022, 1, 1), d(2023, 1, 1), pY, bR, false},
	{"今年", refMon, d(2023, 1, 1), d(2024, 1, 1), pY, bR, false},
	{"明年", refMon, d(2024, 1, 1), d(2025, 1, 1), pY, bR, false},
	{"3年前", refMon, d(2020, 1, 1), d(2021, 1, 1), pY, bR, false},
	{"三年前", refMon, d(2020, 1, 1), d(2021, 1, 1), pY, bR, false},
	{"十二年前", refMon, d(2011, 1, 1), d(2012, 1, 1), pY, bR, false},
	{"两天前", refMon, d(2023, 5, 6), d(2023, 5, 7), pD, bR, false},
	{"2023年5月7日", refOct, d(2023, 5, 7), d(2023, 5, 8), pD, bE, false},
	{"2023年5月", refOct, d(2023, 5, 1), d(2023, 6, 1), pM, bE, false},
	{"2022年", refOct, d(2022, 1, 1), d(2023, 1, 1), pY, bE, false},
}

func TestResolveTable(t *testing.T) {
	require.GreaterOrEqual(t, len(resolveCases), 100)
	for _, tc := range resolveCases {
		t.Run(tc.text, func(t *testing.T) {
			text := tc.text
			if k := len(text); k > 0 && text[k-1] == ')' { // strip a "(note)"
				for i := k - 1; i > 0; i-- {
					if text[i] == '(' {
						text = text[:i-1]
						break
					}
				}
			}
			got := temporal.Resolve(text, tc.ref)
			assert.Equal(t, text, got.Text)
			assert.Equal(t, tc.prec, got.Precision)
			assert.Equal(t, tc.basis, got.Basis)
			assert.Equal(t, tc.approx, got.Approx, "approx")
			assert.True(t, got.Start.Equal(tc.start), "start: got %v want %v", got.Start, tc.start)
			assert.True(t, got.End.Equal(tc.end), "end: got %v want %v", got.End, tc.end)
			assert.True(t, got.Known())
			assert.True(t, got.Start.Before(got.End))
			assert.Equal(t, tc.ref.Location(), got.Start.Location())
		})
	}
}

func TestResolveUnknown(t *testing.T) {
	for _, text := range []string{
		"a while ago", "recently", "someday", "7/5", "at some point", "",
		"lately", "the other day", "back then", "some time ago", "7/5/2023",
		"5/7", "at 3pm", "at 10:30", "blah", "I may go", "may", "March on",
		"next", "last", "the", "32 May 2023", "2023-13-01", "31 June 2023",
		"29 February 2023", "2023-02-30", "in the fall", "the 1990s", "3 cats",
		"version 2.5", "room 2022", "1850", "since then", "since next week",
		"from Friday to Monday next year", "yesterday and tomorrow", "   ",
	} {
		t.Run(text, func(t *testing.T) {
			got := temporal.Resolve(text, refMon)
			assert.Equal(t, text, got.Text)
			assert.Equal(t, pU, got.Precision)
			assert.Equal(t, bU, got.Basis)
			assert.True(t, got.Start.IsZero())
			assert.True(t, got.End.IsZero())
			assert.False(t, got.Known())
			assert.Nil(t, got.Duration)
		})
	}
}

func TestResolveDurations(t *testing.T) {
	cases := []struct {
		text string
		want temporal.Duration
		prec temporal.Precision
	}{
		{"for 4 years", temporal.Duration{Years: 4}, pY},
		{"for two weeks", temporal.Duration{Weeks: 2}, pW},
		{"3 months long", temporal.Duration{Months: 3}, pM},
		{"two weeks long", temporal.Duration{Weeks: 2}, pW},
		{"for a day", temporal.Duration{Days: 1}, pD},
		{"for 5 hours", temporal.Duration{Hours: 5}, pI},
		{"for a fortnight", temporal.Duration{Weeks: 2}, pW},
		{"for a few years", temporal.Duration{Years: 3, Approx: true}, pY},
		{"for about 18 months", temporal.Duration{Months: 18, Approx: true}, pM},
		{"for a couple of months", temporal.Duration{Months: 2}, pM},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			got := temporal.Resolve(tc.text, refMon)
			require.NotNil(t, got.Duration)
			assert.Equal(t, tc.want, *got.Duration)
			assert.Equal(t, tc.prec, got.Precision)
			assert.Equal(t, bU, got.Basis)
			assert.Equal(t, tc.want.Approx, got.Approx)
			assert.True(t, got.Start.IsZero())
			assert.True(t, got.End.IsZero())
			assert.False(t, got.Known(), "a duration is not a date")
		})
	}
	t.Run("past range carries its duration", func(t *testing.T) {
		got := temporal.Resolve("over the past 5 years", refMon)
		require.NotNil(t, got.Duration)
		assert.Equal(t, temporal.Duration{Years: 5}, *got.Duration)
		assert.True(t, got.Known())
		got = temporal.Resolve("the past few years", refMon)
		assert.True(t, got.Approx)
		assert.True(t, got.Start.Equal(hm(2018, 5, 8, 13, 56)))
	})
	t.Run("minutes have no duration field", func(t *testing.T) {
		assert.Equal(t, pU, temporal.Resolve("for 30 minutes", refMon).Precision)
	})
}

func TestResolveUsesRefOffset(t *testing.T) {
	plus2 := time.FixedZone("+02:00", 2*60*60)
	ref := time.Date(2023, 5, 8, 14, 0, 0, 0, plus2)
	got := temporal.Resolve("yesterday", ref)
	assert.Equal(t, pD, got.Precision)
	assert.True(t, got.Start.Equal(time.Date(2023, 5, 7, 0, 0, 0, 0, plus2)))
	assert.True(t, got.End.Equal(time.Date(2023, 5, 8, 0, 0, 0, 0, plus2)))
	assert.Equal(t, plus2, got.Start.Location())
	_, off := got.Start.Zone()
	assert.Equal(t, 7200, off)

	// 00:30 on 8 May at +02:00 is still 7 May in UTC: "today" follows the
	// message's own offset.
	early := time.Date(2023, 5, 8, 0, 30, 0, 0, plus2)
	today := temporal.Resolve("today", early)
	assert.True(t, today.Start.Equal(time.Date(2023, 5, 8, 0, 0, 0, 0, plus2)))
	assert.Equal(t, 8, today.Start.Day())

	// Clock times are read in the same offset.
	at := temporal.Resolve("yesterday at 3pm", ref)
	assert.True(t, at.Start.Equal(time.Date(2023, 5, 7, 15, 0, 0, 0, plus2)))
}

func TestResolveAcrossDST(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	// DST began on Sunday 12 March 2023 in New York: that day is 23 hours.
	ref := time.Date(2023, 3, 13, 12, 0, 0, 0, ny)
	got := temporal.Resolve("yesterday", ref)
	assert.True(t, got.Start.Equal(time.Date(2023, 3, 12, 0, 0, 0, 0, ny)))
	assert.True(t, got.End.Equal(time.Date(2023, 3, 13, 0, 0, 0, 0, ny)))
	assert.Equal(t, 23*time.Hour, got.End.Sub(got.Start))
}

func TestOverlaps(t *testing.T) {
	r := temporal.Resolve("May 2023", refOct)
	assert.True(t, r.Overlaps(d(2023, 5, 31), d(2023, 6, 2)))
	assert.True(t, r.Overlaps(d(2023, 4, 1), d(2023, 7, 1)))
	assert.False(t, r.Overlaps(d(2023, 6, 1), d(2023, 6, 2)), "half-open: June 1 is outside")
	assert.False(t, r.Overlaps(d(2023, 4, 1), d(2023, 5, 1)), "half-open query end")
	assert.True(t, r.Overlaps(time.Time{}, d(2023, 5, 2)), "zero start is unbounded")
	assert.True(t, r.Overlaps(d(2023, 5, 30), time.Time{}), "zero end is unbounded")
	assert.False(t, r.Overlaps(d(2023, 5, 10), d(2023, 5, 10)), "empty query")
	assert.False(t, temporal.Resolve("recently", refOct).Overlaps(time.Time{}, time.Time{}))
	assert.False(t, temporal.Resolve("for 4 years", refOct).Overlaps(time.Time{}, time.Time{}))
}

func TestKnown(t *testing.T) {
	assert.False(t, temporal.Resolution{}.Known())
	assert.False(t, temporal.Resolution{Precision: pD}.Known())
	assert.True(t, temporal.Resolution{Precision: pD, Start: d(2023, 1, 1), End: d(2023, 1, 2)}.Known())
	assert.False(t, temporal.Resolution{Precision: pU, Start: d(2023, 1, 1)}.Known())
}
