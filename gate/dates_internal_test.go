package gate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSentenceTime(t *testing.T) {
	now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	day := func(d int) TimeMention {
		s := time.Date(2024, 5, d, 0, 0, 0, 0, time.UTC)
		return TimeMention{Start: s, End: s.AddDate(0, 0, 1), Precision: "day", Basis: "relative"}
	}
	named := func(tm TimeMention, text, basis string) TimeMention {
		tm.Text, tm.Basis = text, basis
		return tm
	}
	for _, tc := range []struct {
		name, question, text string
		times                []TimeMention
		want                 string // Text of the chosen mention; "" = undated
	}{
		{"the sentence about the question, not the first time",
			"When did Ana start teaching pottery?",
			"We leave for the coast on Friday. I started teaching pottery at the studio.",
			[]TimeMention{named(day(31), "on Friday", "relative")}, ""},
		{"an explicit time beats the message's day in its sentence",
			"When did Ana join the choir?",
			"I just joined a choir last Tuesday and loved it.",
			[]TimeMention{named(day(28), "just joined", "said"), named(day(21), "last Tuesday", "relative")}, "last Tuesday"},
		{"a scene-setting sentence before",
			"When did Ana apply to the art school?",
			"Guess what I did this week? I finally applied to the art school!",
			[]TimeMention{named(day(27), "this week", "relative")}, "this week"},
		{"the next sentence about the question",
			"When did Ana meet up with her cousins and aunts?",
			"My cousins and aunts keep me sane. Here's a photo from when we met up last week!",
			[]TimeMention{named(day(20), "last week", "relative")}, "last week"},
		{"the best sentence's own time first",
			"When did Ana adopt the kitten?",
			"We move house next month. I adopted the kitten yesterday!",
			[]TimeMention{named(day(15), "next month", "relative"), named(day(31), "yesterday", "relative")}, "yesterday"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := Analyze(tc.question, now)
			tm, ok := sentenceTime(q, tc.text, tc.times)
			if tc.want == "" {
				assert.False(t, ok, "dated by %q", tm.Text)
				return
			}
			assert.True(t, ok)
			assert.Equal(t, tc.want, tm.Text)
		})
	}
}

func TestGoingToIsAPlanOnlyAfterBe(t *testing.T) {
	for text, plan := range map[string]bool{
		"I'm going to start a pottery class.":            true,
		"We are going to the coast next month.":          true,
		"I started going to yoga classes with my sister": false,
		"Going to the market was fun.":                   false,
	} {
		assert.Equal(t, plan, isPlan(&Item{Ref: "m1", Text: text}), text)
	}
}

// Between two dated reports of equal cover, a time the text states wins
// over the day it was said.
func TestStatedDateBeforeSaidDay(t *testing.T) {
	said := time.Date(2024, 5, 10, 9, 0, 0, 0, time.UTC)
	day := func(d int) (time.Time, time.Time) {
		s := time.Date(2024, 5, d, 0, 0, 0, 0, time.UTC)
		return s, s.AddDate(0, 0, 1)
	}
	s1, e1 := day(10)
	s2, e2 := day(4)
	justItem := Item{Ref: "m1", Kind: KindMessage, MessageIDs: []uint64{1}, Speaker: "Ana", MentionedAt: said,
		Text: "I just ran a charity race!", HappenedStart: s1, HappenedEnd: e1, Precision: "day", TimeText: "just ran",
		Times: []TimeMention{{Text: "just ran", Start: s1, End: e1, Precision: "day", Basis: "said"}}}
	lastItem := Item{Ref: "m2", Kind: KindMessage, MessageIDs: []uint64{2}, Speaker: "Ana", MentionedAt: said,
		Text: "Last Saturday I ran a charity race.", HappenedStart: s2, HappenedEnd: e2, Precision: "day", TimeText: "Last Saturday",
		Times: []TimeMention{{Text: "Last Saturday", Start: s2, End: e2, Precision: "day", Basis: "relative"}}}
	q := Analyze("When did Ana run a charity race?", said)
	s := NewSessionQuestion(q, Budget{})
	b := s.Observe(Batch{Strategy: SearchRawMemory, Items: []Item{justItem, lastItem}})
	a, err := HeuristicAssessor{}.Assess(t.Context(), q, b, s.State())
	assert.NoError(t, err)
	assert.Equal(t, "m2", a.EvidenceRefs[0])
}

func TestSentenceTimeSkipsAnotherEvent(t *testing.T) {
	now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	s := time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)
	q := Analyze("When did Ana start expanding her bakery's catering?", now)
	_, ok := sentenceTime(q, "I'm expanding my bakery's catering to offices. I'm also hosting a bread fair at the bakery next month.",
		[]TimeMention{{Text: "next month", Start: s, End: s.AddDate(0, 1, 0), Precision: "month", Basis: "relative"}})
	assert.False(t, ok, "the fair's month is not the catering's")
}

func TestMentionTimeQuestion(t *testing.T) {
	now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	q := Analyze("When did Ana mention the lighthouse?", now)
	assert.True(t, q.MentionTime)
	said := time.Date(2024, 5, 3, 18, 30, 0, 0, time.UTC)
	start, end, prec, _, ok := dateOf(q, &Item{Ref: "m1", Text: "We walked to the lighthouse!", MentionedAt: said})
	assert.True(t, ok)
	assert.Equal(t, "day", prec)
	assert.Equal(t, time.Date(2024, 5, 3, 0, 0, 0, 0, time.UTC), start)
	assert.Equal(t, start.AddDate(0, 0, 1), end)
	assert.False(t, Analyze("When did Ana visit the lighthouse?", now).MentionTime)
}
