package locomo

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Duration answers. Some gold answers are lengths of time ("4 years",
// "six months", "Mel has been married for 5 years."), not dates: ParseGold
// rejects them and the temporal tally leaves them out. DurationTally
// scores them on their own, against the first length of time in the Ask
// answer's text.

// Day counts of the units a duration may use. A month is a twelfth of a
// mean Gregorian year.
const (
	daysPerYear  = 365.25
	daysPerMonth = daysPerYear / 12
)

var durationUnits = map[string]float64{
	"hour": 1.0 / 24, "hours": 1.0 / 24,
	"day": 1, "days": 1,
	"week": 7, "weeks": 7,
	"fortnight": 14, "fortnights": 14,
	"month": daysPerMonth, "months": daysPerMonth,
	"year": daysPerYear, "years": daysPerYear,
	"decade": 10 * daysPerYear, "decades": 10 * daysPerYear,
}

// durationWords are the count words of durations: number words to
// ninety-nine ("twenty-five" is read as twenty + five), and the article.
var durationWords = map[string]float64{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
	"thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
	"eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
	"fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}

// vagueWords make a count name no length ("a few years", "several
// months"): such a duration is skipped.
var vagueWords = map[string]bool{"few": true, "several": true, "some": true, "many": true}

// frequencyWords before a count make it a frequency, not a length
// ("once a week", "three times a year", "every two days", "per month").
var frequencyWords = map[string]bool{"once": true, "twice": true, "thrice": true, "times": true, "every": true, "each": true, "per": true}

// notLengthAfter after a unit make the phrase no length: "ago" makes a
// date ("3 years ago"), "old" an age ("5 years old").
var notLengthAfter = map[string]bool{"ago": true, "old": true, "back": true}

// durationToken splits text into words and numbers ("1.5" is one number).
var durationToken = regexp.MustCompile(`[a-z]+|\d+(?:\.\d+)?`)

// ParseDuration returns the first length of time in text, in days
// (approximate: a month is 30.44 days, a year 365.25): a count — digits,
// a number word to ninety-nine, "a"/"an", "a couple (of)" = 2, "half a" =
// 0.5, with "and a half" adding 0.5 — followed by an hour, day, week,
// fortnight, month, year or decade unit ("4 years", "three months",
// "about 2 weeks", "a year and a half", "one and a half years"). Vague
// counts ("a few years"), frequencies ("once a week", "three times a
// year"), dates ("3 years ago") and ages ("5 years old") are skipped. ok
// is false when text holds no length of time.
func ParseDuration(text string) (days float64, ok bool) {
	toks := durationToken.FindAllString(strings.ToLower(text), -1)
	for i := range toks {
		if d, n, ok := durationAt(toks, i); ok {
			if (i > 0 && frequencyWords[toks[i-1]]) || (i+n < len(toks) && notLengthAfter[toks[i+n]]) {
				continue
			}
			return d, true
		}
	}
	return 0, false
}

// durationAt parses a duration starting at toks[i]: its length in days and
// its token count.
func durationAt(toks []string, i int) (days float64, n int, ok bool) {
	at := func(k int) string {
		if k < len(toks) {
			return toks[k]
		}
		return ""
	}
	count, j := 0.0, i
	switch {
	case at(j) == "half" && (at(j+1) == "a" || at(j+1) == "an"):
		count, j = 0.5, j+2
	case at(j) == "a" && at(j+1) == "couple", at(j) == "couple":
		if at(j) == "a" {
			j++
		}
		count, j = 2, j+1
		if at(j) == "of" {
			j++
		}
	case (at(j) == "a" || at(j) == "an") && vagueWords[at(j+1)], vagueWords[at(j)]:
		return 0, 0, false
	default:
		if v, err := strconv.ParseFloat(at(j), 64); err == nil && at(j)[0] >= '0' && at(j)[0] <= '9' {
			count, j = v, j+1
		} else if v, isWord := durationWords[at(j)]; isWord {
			count, j = v, j+1
			if v >= 20 {
				if u, unit := durationWords[at(j)]; unit && u < 10 && at(j) != "a" && at(j) != "an" {
					count, j = v+u, j+1
				}
			}
		} else {
			return 0, 0, false
		}
	}
	half := func(k int) bool { return at(k) == "and" && at(k+1) == "a" && at(k+2) == "half" }
	if half(j) {
		count, j = count+0.5, j+3
	}
	per, isUnit := durationUnits[at(j)]
	if !isUnit || count <= 0 || math.IsInf(count, 0) {
		return 0, 0, false
	}
	j++
	if half(j) {
		count, j = count+0.5, j+3
	}
	return count * per, j - i, true
}

// durationQuestion matches questions that ask for a length of time.
var durationQuestion = regexp.MustCompile(`^\s*how\s+(?:long|many\s+(?:hours|days|weeks|months|years|decades))\b`)

// GoldDuration reports whether the gold answer of question is a length of
// time and returns it in days: either the whole answer is one duration
// (hedges such as "about", "for", "over" and a final period aside:
// "4 years", "about two weeks"), or the question asks how long / how many
// days…years and the answer holds one ("She has been married for 5
// years.").
func GoldDuration(question, gold string) (days float64, ok bool) {
	days, ok = ParseDuration(gold)
	if !ok {
		return 0, false
	}
	if durationQuestion.MatchString(strings.ToLower(question)) {
		return days, true
	}
	toks := durationToken.FindAllString(strings.ToLower(gold), -1)
	k := 0
	for k < len(toks) && durationHedges[toks[k]] {
		k++
	}
	if _, n, whole := durationAt(toks, k); whole && k+n == len(toks) {
		return days, true
	}
	return 0, false
}

// durationHedges may precede a whole-answer duration.
var durationHedges = map[string]bool{
	"about": true, "around": true, "approximately": true, "roughly": true, "nearly": true,
	"almost": true, "over": true, "for": true, "just": true, "more": true, "less": true,
	"than": true, "at": true, "least": true, "most": true, "only": true,
}

// DurationTolerance is the relative error a duration answer may have:
// an answer of a days is correct for gold g when |a − g| ≤ max(0.5 day,
// 15% of g). Below a week the day count must match; "3 years" for
// "4 years" (25% off) is wrong, "about 3.5 years" is right, "two weeks"
// for "a fortnight" is right.
const DurationTolerance = 0.15

// DurationCorrect reports whether answer length a (days) matches gold g.
func DurationCorrect(g, a float64) bool {
	return math.Abs(a-g) <= math.Max(0.5, DurationTolerance*g)
}

// DurationTally scores the answers to questions whose gold is a length of
// time (GoldDuration): the first duration of the answer text
// (ParseDuration) must match the gold (DurationCorrect). Correct ≤
// Scored; NoDuration counts the scored answers without a duration
// (wrong).
type DurationTally struct {
	Scored, Correct, NoDuration int
}

// Add scores one answer; scored is false when the gold is no duration.
func (t *DurationTally) Add(question, gold, answer string) (scored, correct bool) {
	g, ok := GoldDuration(question, gold)
	if !ok {
		return false, false
	}
	t.Scored++
	a, ok := ParseDuration(answer)
	if !ok {
		t.NoDuration++
		return true, false
	}
	if DurationCorrect(g, a) {
		t.Correct++
		return true, true
	}
	return true, false
}

// Accuracy is Correct / Scored (0 when nothing was scored).
func (t DurationTally) Accuracy() float64 {
	if t.Scored == 0 {
		return 0
	}
	return float64(t.Correct) / float64(t.Scored)
}
