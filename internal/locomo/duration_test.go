package locomo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// TestParseDuration reads the first length of time of sentences written
// for this test.
func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		text string
		days float64 // 0: ok=false
	}{
		{"4 years", 4 * 365.25},
		{"three months", 3 * 365.25 / 12},
		{"about 2 weeks", 14},
		{"10 days", 10},
		{"a fortnight", 14},
		{"a year and a half", 1.5 * 365.25},
		{"one and a half years", 1.5 * 365.25},
		{"half a year", 0.5 * 365.25},
		{"a couple of weeks", 14},
		{"twenty-five years", 25 * 365.25},
		{"1.5 months", 1.5 * 365.25 / 12},
		{"two decades", 20 * 365.25},
		{"6 hours", 0.25},
		{"She has been married for 5 years.", 5 * 365.25},
		{"We met 3 years ago and have dated for 2 years.", 2 * 365.25}, // "ago" is a date
		{"I go twice a week and have done so for six months.", 6 * 365.25 / 12},
		// No length of time.
		{"once a week", 0},
		{"three times a year", 0},
		{"every two days", 0},
		{"per month", 0},
		{"3 years ago", 0},
		{"my son is 5 years old", 0},
		{"a few years", 0},
		{"several months", 0},
		{"recently", 0},
		{"May 2023", 0},
		{"2 cats and a dog", 0},
		{"", 0},
	} {
		t.Run(tc.text, func(t *testing.T) {
			days, ok := ParseDuration(tc.text)
			if tc.days == 0 {
				assert.False(t, ok, "got %v days", days)
				return
			}
			require.True(t, ok)
			assert.InDelta(t, tc.days, days, 1e-9)
		})
	}
}

// TestGoldDuration: a gold answer is a duration when it is one as a whole,
// or when the question asks how long.
func TestGoldDuration(t *testing.T) {
	for _, tc := range []struct {
		question, gold string
		days           float64 // 0: not a duration gold
	}{
		{"How long has Ana played chess?", "6 years", 6 * 365.25},
		{"How long has Ana lived in the city?", "Ana has lived there for 3 years.", 3 * 365.25},
		{"How many weeks did the course last?", "It lasted eight weeks", 56},
		{"When did Ben start running?", "about two weeks", 14},
		{"What did Ben pack?", "two bags for 3 days", 0}, // neither whole nor asked
		{"How often does Ana swim?", "twice a month", 0},
		{"How long ago did Ben move?", "4 years ago", 0}, // a date, ParseGold's
		{"How long has Ben done pottery?", "a few weeks", 0},
		{"When did Ana adopt a cat?", "7 May 2023", 0},
	} {
		t.Run(tc.gold, func(t *testing.T) {
			days, ok := GoldDuration(tc.question, tc.gold)
			if tc.days == 0 {
				assert.False(t, ok, "got %v days", days)
				return
			}
			require.True(t, ok)
			assert.InDelta(t, tc.days, days, 1e-9)
		})
	}
}

func TestDurationCorrect(t *testing.T) {
	y := 365.25
	for _, tc := range []struct {
		name string
		g, a float64
		want bool
	}{
		{"same", 4 * y, 4 * y, true},
		{"3.5 for 4 years (12.5% off)", 4 * y, 3.5 * y, true},
		{"3 for 4 years (25% off)", 4 * y, 3 * y, false},
		{"5 for 4 years", 4 * y, 5 * y, false},
		{"a fortnight for two weeks", 14, 14, true},
		{"13 days for two weeks", 14, 13, true},
		{"10 days for two weeks", 14, 10, false},
		{"2 days for 1 day", 1, 2, false},
		{"11 for 10 days", 10, 11, true},
		{"12 for 10 days", 10, 12, false},
		{"6 months for half a year", y / 2, 6 * y / 12, true},
		{"5 for 6 months", 6 * y / 12, 5 * y / 12, false},
	} {
		assert.Equal(t, tc.want, DurationCorrect(tc.g, tc.a), tc.name)
	}
}

// TestDurationTally scores answers against duration golds, through Eval.
func TestDurationTally(t *testing.T) {
	var d DurationTally
	assert.Zero(t, d.Accuracy())
	scored, correct := d.Add("How long has Ana played chess?", "6 years", "She said she has played for six years.")
	assert.True(t, scored && correct)
	scored, correct = d.Add("How long has Ana played chess?", "6 years", "since she was 4 years old")
	assert.True(t, scored)
	assert.False(t, correct, "an age is no duration")
	scored, correct = d.Add("How long has Ana played chess?", "6 years", "for 3 years")
	assert.True(t, scored)
	assert.False(t, correct)
	scored, _ = d.Add("When did Ana adopt a cat?", "7 May 2023", "7 May 2023")
	assert.False(t, scored)
	assert.Equal(t, DurationTally{Scored: 3, Correct: 1, NoDuration: 1}, d)
	assert.InDelta(t, 1.0/3, d.Accuracy(), 1e-12)

	// Eval tallies every measured question whose gold is a duration: the
	// mini fixture's question 8 ("a few weeks") is vague, so it is scored
	// only once its gold names a length.
	c, m := loadMini(t)
	ans := stratagate.Answer{Text: "about 5 weeks, since the spring", Verdict: "sufficient"}
	e := NewEval(3)
	e.Add(c, m, 8, Result{Answer: ans})
	assert.Zero(t, e.Duration.Scored, "a few weeks")
	c.QA[8].Answer = "five weeks"
	e.Add(c, m, 8, Result{Answer: ans})
	assert.Equal(t, DurationTally{Scored: 1, Correct: 1}, e.Duration)
}
