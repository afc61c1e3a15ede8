// Package temporal resolves temporal expressions in conversation text
// against a reference time — the timestamp of the message that contains
// them — so that an event card can keep apart when something was
// mentioned (the message time) from when it happened (the resolved
// interval).
//
//	ref := time.Date(2023, 5, 8, 14, 0, 0, 0, time.FixedZone("", 2*3600))
//	r := temporal.Resolve("yesterday", ref)
//	// r.Start = 2023-05-07 00:00 +02:00, r.End = 2023-05-08 00:00 +02:00,
//	// r.Precision = "day", r.Basis = "relative"
//	for _, m := range temporal.Find("I moved last Saturday and start next Monday.", ref) {
//		fmt.Println(m.Text, m.Start, m.Offset)
//	}
//
// Pure Go, standard library only, no I/O, safe for concurrent use, never
// panics on any input.
//
// # The rule: never invent precision
//
// Text the resolver does not understand resolves to Precision "unknown",
// Basis "unknown", zero Start and End, and the text kept. Vague expressions
// ("a while ago", "recently", "lately", "the other day", "back then",
// "someday", "at some point", "in the past", "years ago", "since then")
// are recognised — Find reports them so the text is kept — but they name no
// interval and resolve to unknown too. Ambiguity is never guessed away
// silently: "7/5/2023" (D/M or M/D?) is unknown, a bare clock time "at
// 10:30" (am or pm?) does not attach to a day, and where the grammar does
// choose (the year of "7 May", the tense of "on Friday") the Basis says
// "inferred". Coarse expressions carry Approx.
//
// # Conventions
//
//   - Intervals are half-open, [Start, End): "yesterday" ends at today's
//     midnight, "May 2023" at 1 June 2023 00:00.
//   - All arithmetic happens in ref's location (the message's own UTC
//     offset), calendar-aware, so days across a DST change are 23 or 25
//     hours long. Results carry ref's location.
//   - Weeks are ISO weeks: Monday 00:00 to the next Monday 00:00.
//   - Seasons are meteorological, northern hemisphere: spring = March–May,
//     summer = June–August, autumn/fall = September–November, winter =
//     December–February. A winter belongs to the year of its December:
//     "winter 2022" is [2022-12-01, 2023-03-01).
//   - Instants: a clock time resolves to PrecisionInstant with a one-hour
//     interval starting at the stated time ("at 3:30pm" → [15:30, 16:30)).
//     "N hours/minutes ago" uses the clock hour containing ref − N.
//   - Precision names the unit the expression speaks in: one calendar
//     unit, or, for vague counts ("a few days ago") and look-back ranges
//     ("over the past 5 years"), a run of that unit. PrecisionRange is for
//     intervals that are not a calendar unit: weekends, parts of months,
//     "since X", "from X to Y", "earlier this year".
//   - Basis: explicit when the text carries an absolute date, relative when
//     computed from ref, inferred when the resolver chose a documented
//     default, said when the text names no time but reports the event as
//     just done (the day the message was said, see Message-dated reports),
//     unknown when there is no interval. Combined forms take the weaker
//     basis of their parts (explicit > relative > inferred > said).
//   - Durations ("for 4 years") are not dates: Duration is set, Start/End
//     are zero, Known() is false, Precision names the unit (hours use
//     "instant"), Basis is unknown.
//
// # Grammar
//
// Matching is case-insensitive and tolerant of punctuation (commas,
// periods, quotes and parentheses around an expression). Examples assume
// ref = Monday 8 May 2023, 13:56.
//
// Relative days — one calendar day relative to ref's day:
//
//	today, tonight, this morning/afternoon/evening, earlier/later today → 8 May
//	so far today, right now, just now, a moment ago, moments ago        → 8 May
//	yesterday, last night (the evening belongs to the day before)       → 7 May
//	the day before yesterday → 6 May;  tomorrow → 9 May;  the day after tomorrow → 10 May
//
// A part of day may follow any day ("yesterday morning", "Friday night");
// it does not narrow the interval.
//
// Counts — digits (up to six), number words to ninety-nine
// ("twenty-five"), "a"/"an", "a couple (of)" = 2; units second, minute,
// hour, day, week, fortnight, month, year:
//
//	3 days ago, three days back         → the day 3 days before ref's day (5 May)
//	2 weeks ago                         → the ISO week containing ref's day − 14 days
//	two months ago                      → the calendar month two before ref's (March 2023)
//	four years ago                      → the calendar year ref.Year − 4 (2019)
//	3 hours ago                         → the clock hour containing ref − 3h, instant
//	two weekends ago                    → Sat–Sun of the ISO week two weeks before ref's
//	two Fridays ago                     → the Friday 7 days before "last Friday"
//	in three days, 2 days from now      → the same rules forwards (11 May, 10 May)
//	about/around/nearly/over 3 years ago → as without the hedge, Approx
//
// Vague counts — "a few", "few", "several", "some" — give a run of units,
// Approx: days 2–7 ago ("a few days ago" → [1 May, 7 May)), weeks, months
// and years 2–5 ago ("a few years ago" → [2018-01-01, 2022-01-01)), hours
// 2–5, minutes 2–15; forwards likewise ("in a few days").
//
// Last / this / next (also "this past" = last, "this coming", "coming",
// "upcoming" = next):
//
//	last/this/next week     → the ISO week before/containing/after ref's
//	last/this/next month    → the calendar month before/of/after ref's
//	last/this/next year     → the calendar year before/of/after ref's
//	last/this/next weekend  → Sat–Sun of the ISO week before/of/after ref's
//	                          ("this weekend" said on Sunday is that weekend)
//	last Saturday           → the latest Saturday strictly before ref's day
//	                          (said on a Saturday: 7 days earlier)
//	next Friday             → the earliest Friday strictly after ref's day
//	this Monday             → the Monday of ref's ISO week
//	Friday, on Friday       → like "last Friday" (conversation mostly reports
//	                          the past), Basis inferred; "next"/"this coming"
//	                          select the future, and so does, in Find, a
//	                          sentence with will, 'll, shall, won't, gonna,
//	                          going to, plan(s/ning) to, scheduled,
//	                          upcoming, until or till ("I'll call you on
//	                          Friday" → the earliest Friday after ref's day)
//	Friday last/this/next week → that weekday of the named ISO week
//	last/this/next May      → the latest May before ref's month / May of ref's
//	                          year / the earliest May after ref's month
//	the week before         → the week before ref's week (= last week)
//	the week/month/year before last, … after next → two units back/forward
//
// Seasons (see Conventions):
//
//	last summer   → the latest summer that ended by the start of ref's
//	                season (said in July 2023: summer 2022; in October 2023:
//	                summer 2023)
//	next winter   → the earliest winter starting after ref's season starts
//	this spring   → the spring of ref's year (this winter: the one holding
//	                ref's January–February when ref is in them, else the one
//	                starting in December of ref's year)
//	summer 2022, the summer of 2022, fall 2021 → explicit
//	in/during/over/throughout [the] summer     → the occurrence nearest ref,
//	                                             inferred
//
// "fall" needs a year or last/this/next ("I broke my arm in the fall" is no
// season).
//
// Absolute dates — day precision, explicit; the year must be four digits
// (1000–2999):
//
//	7 May 2023, 7th May 2023, 7 May, 2023, 7th of May 2023, the 7th of May 2023
//	May 7th, 2023, May 7, 2023, May 7 2023, Sept. 3, 2021, May the 7th
//	Sunday, 7 May 2023  (a leading weekday is accepted, not checked)
//	2023-05-07, 2023/05/07  (year first)
//	13/5/2023, 5/13/2023, 5/5/2023  → a part above 12 (or equal parts)
//	                                  decides D/M vs M/D
//	7/5/2023  → unknown (ambiguous); Find still reports it
//	7/5, 5/7  → unknown; Find ignores them (could be fractions)
//	7 May, May 7, the 4th of July → the occurrence nearest ref (always within
//	                                about ±6 months), Basis inferred
//
// Months: "May 2023", "May, 2023", "May of 2023" → the month, explicit. A
// bare month needs a cue: "in May", "during March" → the occurrence
// nearest ref, inferred (so does Resolve("June") as a whole expression).
//
// Years — four digits 1900–2100, needing a cue because bare numbers are
// usually not years ("room 2022", "around 2000 photos"):
//
//	in/during/over/throughout 2022, of 2022, the year 2022 → year, explicit
//	since 2019 → [2019-01-01, ref), range (see Ranges)
//	Resolve("2022") (the whole expression) → year, explicit
//
// Month words that are ordinary words in lower case — "may", "march",
// "mar" — need a year, an ordinal day ("may 7th"), "of" ("7th of may") or
// a cue ("in may"); "I may go" and "we march 5 miles" match nothing.
// Abbreviated months ("Jan", "Sept.") need a day or a year. Abbreviated
// weekdays (mon, tue, tues, wed, thu, thur, thurs, fri, sat, sun) count
// only after last/this/next ("last Tues", "next Fri"), and "sat", "sun"
// and "wed", which are words ("this sun is hot"), only capitalised.
//
// Times of day — attach to a day-precision expression, giving an instant:
//
//	yesterday at 3pm, at 3pm yesterday, 3pm on Friday, 7 May 2023 at 9:30am,
//	2023-05-07 08:15, tomorrow at noon, last night at 11 p.m., at midnight
//	yesterday
//
// Accepted clock forms: 3pm, 3 pm, 3 p.m., 3:30pm, 15:00 and 12:30 (hour
// 12–23), 09:30 (leading zero = 24-hour clock), noon, midday, midnight. A
// time alone ("at 3pm") resolves to unknown: which day is not said.
//
// Parts of months, years and weeks — PrecisionRange, Approx:
//
//	early June, beginning/start of June    → days 1–10
//	mid June, mid-June, middle of June     → days 11–20
//	late June, end of June                 → day 21 to the month's end
//	early/mid/late 2022                    → Jan–Apr / May–Aug / Sep–Dec
//	end of the week, early next week       → Fri–Sun / Mon–Tue (mid: Wed–Thu)
//	the end of the month, beginning of next month, end of last year
//	                                       → the same thirds of that unit
//	the first/second/third/fourth week of June → days 1–7 / 8–14 / 15–21 / 22–28
//	the last week of June                  → the month's last seven days
//	the first/last weekend of June         → its first/last Saturday + Sunday
//
// A month without a year takes the nearest occurrence (inferred); "the
// end of the month" uses days 21–end of ref's month, like "end of June".
//
// Earlier/later — PrecisionRange, not Approx (both ends are exact):
//
//	earlier this week/month/year, earlier in the year → [unit start, end of ref's day)
//	so far this week/month/year                       → the same
//	later this week/month/year                        → [ref's day, unit end)
//
// Anchored forms — relative to a day named in the text; Basis from it:
//
//	the Sunday before 25 May 2023 → the latest Sunday strictly before (21 May)
//	the Friday after May 7, 2023  → the earliest Friday strictly after
//	the day before/after 7 May    → ±1 day
//	the week of 7 May 2023        → the ISO week containing it
//	the week before/after 7 May   → the ISO week before/after that one
//	the weekend of 7 May          → Sat–Sun of its ISO week
//
// Ranges:
//
//	since 2019, ever since last May → [start of X, ref), PrecisionRange
//	from 2019 to 2021, from May 1 until May 3, between Monday and Wednesday
//	                                → [start of X, end of Y) when X starts
//	                                  before Y ends (bare months/years are
//	                                  licensed inside)
//	over/in/during/for/within the past/last 5 years, the past few years,
//	over the past year              → [ref − N units, ref) exactly (not
//	                                  calendar-aligned), Precision of the
//	                                  unit (clock units: range), Duration
//	                                  set; the preposition is required when
//	                                  N is omitted
//
// Durations — Duration set, not a date (seconds and minutes have no field
// and are not matched):
//
//	for 4 years, for two weeks, for a fortnight, for 5 hours, 3 months long,
//	two weeks long, for about 18 months (Approx), for a few years (count 3,
//	Approx)
//
// Hedges — "around", "approximately", "roughly", "circa", "sometime",
// "some time" before any point expression keep its interval and set Approx
// ("sometime last week", "around May 2021"). A hedge licenses nothing by
// itself: in free text "around 2000" is not a year.
//
// Chinese — relative basis unless noted:
//
//	昨天/昨日/昨晚 (−1 day), 前天 (−2), 今天/今日/今晚, 明天/明日 (+1), 后天 (+2)
//	上周/上个星期/上星期/上礼拜, 这周/本周, 下周/下个星期 → ISO weeks;
//	  followed by 一…六/日/天 → that weekday of the week (上周六)
//	周六/星期六/礼拜六 alone → the latest strictly before ref's day, inferred
//	上个月/上月, 这个月/本月, 下个月/下月 → months
//	去年, 前年, 今年, 明年, 后年 → years
//	N年前, N个月前, N天前, N周前/N个星期前, N小时前 (also 以前/之前, and 后/以后/之后
//	  for the future); N = digits or 一…九十九 with 两; 几 = a few (Approx)
//	2023年5月7日 (or 号), 2023年5月, 2023年 → explicit; 5月7日, 5月 → nearest, inferred
//
// Message-dated reports — "just" + a past verb, precision day, Basis said:
//
//	I just opened my bakery, we've just finished, just adopted a cat → 8 May
//	(the match is "just opened": Resolve("just opened") gives the same)
//
// A report of something just done happened on the day it was said. The
// verb after "just" must be a past form that reports an event: a
// lower-case word of five letters or more in -ed (not -eed: "need"), or
// an irregular past or participle ("got", "went", "done", "been"); forms
// equal to the base ("put", "read") are left out because "I just read
// books" is present. Emphatic "just" dates nothing: verbs of wanting,
// thinking, feeling and seeming ("I just wanted to say", "it just felt
// right", "I just had to share"), -ed state adjectives ("just tired"),
// and of course "just a friend", "just like", "just in case". In free
// text the words before "just" must leave it a report of the present:
// not after "had"/'d ("I had just moved when we met" is dated by the
// story), a form of "be" ("I'm just tired", "it was just released"),
// "not" ("not just"), or a modal with have ("should have just asked").
// Find drops the reading in a question ("Have you just moved?") and in a
// sentence that holds another dated expression, which states the time
// itself ("I just finished the race on Sunday" → last Sunday). A bare
// past tense ("I opened a bakery") stays undated: the design's rule.
//
// # Find
//
// Find tokenises the text (letter runs, digit runs, single Han characters,
// single punctuation marks) and at each token takes the longest expression
// starting there, then continues after it: leftmost-longest,
// non-overlapping, in order. Offsets are byte offsets into the text, and
// each match's text resolves with Resolve to the identical Resolution. A
// match never starts or ends inside a letter/digit run ("room2022",
// "2022s"), and recurrences ("every Tuesday", "each summer") are skipped.
// Prepositions that license or carry meaning ("in May", "since 2019",
// "for 4 years", "in three days") are part of the match, and "on"/"at"
// are absorbed ("on 7 May 2023"); anaphoric expressions that depend on the
// story rather than ref ("two days later", "the next day", "that summer")
// are not matched.
package temporal
