package gate_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events/temporal"
	"github.com/stratagate/stratagate/gate"
)

// now is Tuesday 20 June 2023, 10:00 UTC.
var now = time.Date(2023, 6, 20, 10, 0, 0, 0, time.UTC)

func terms(s string) []string { return bm25.AppendTerms(nil, s) }

func TestAnalyze(t *testing.T) {
	type tm struct {
		start     string // 2006-01-02
		precision temporal.Precision
	}
	tests := []struct {
		q        string
		wh       string
		wantTime bool
		wantList bool
		entities []string
		time     *tm
		terms    []string // must all be in Terms (as raw words)
		notTerms []string // must not be in Terms
	}{
		{q: "Which pets does Mia have?", wh: gate.WhWhich, wantList: true, entities: []string{"Mia"}, terms: []string{"pets", "Mia"}},
		{q: "When did Caroline give a speech at a school?", wh: gate.WhWhen, wantTime: true, entities: []string{"Caroline"}, terms: []string{"speech", "school", "give"}, notTerms: []string{"when"}},
		{q: "How long ago did Mia move to New York?", wh: gate.WhHowLong, wantTime: true, entities: []string{"Mia", "New York"}, terms: []string{"move", "york"}, notTerms: []string{"long", "ago"}},
		{q: "How long has Tom worked at Acme?", wh: gate.WhHowLong, entities: []string{"Tom", "Acme"}, terms: []string{"worked"}, notTerms: []string{"long"}},
		{q: "How many books has Mia read in 2022?", wh: gate.WhHowMany, wantList: true, entities: []string{"Mia"}, time: &tm{"2022-01-01", temporal.PrecisionYear}, terms: []string{"books"}, notTerms: []string{"many", "2022"}},
		{q: "Do you remember when Tom's sister got married?", wh: gate.WhWhen, wantTime: true, entities: []string{"Tom"}, terms: []string{"sister", "married"}, notTerms: []string{"remember"}},
		{q: "What did Mia do last week?", wh: gate.WhWhat, entities: []string{"Mia"}, time: &tm{"2023-06-12", temporal.PrecisionWeek}, notTerms: []string{"last", "week"}},
		{q: "In which city does Mia live?", wh: gate.WhWhich, entities: []string{"Mia"}, terms: []string{"city", "live"}},
		{q: "Is Mia allergic to peanuts?", wh: gate.WhYesNo, entities: []string{"Mia"}, terms: []string{"allergic", "peanuts"}},
		{q: "Where did Caroline and Melanie go camping in May 2023?", wh: gate.WhWhere, entities: []string{"Caroline", "Melanie"}, time: &tm{"2023-05-01", temporal.PrecisionMonth}, terms: []string{"camping"}, notTerms: []string{"may"}},
		{q: "Who is Mia's favourite author?", wh: gate.WhWho, entities: []string{"Mia"}, terms: []string{"author"}},
		{q: "Why did Tom quit his job?", wh: gate.WhWhy, entities: []string{"Tom"}, terms: []string{"quit", "job"}},
		{q: "What are Mia's hobbies?", wh: gate.WhWhat, wantList: true, entities: []string{"Mia"}, terms: []string{"hobbies"}},
		{q: "List all the drinks Mia likes.", wh: gate.WhOther, wantList: true, entities: []string{"Mia"}, terms: []string{"drinks"}, notTerms: []string{"list"}},
		{q: "What year did Mia start working at Google?", wh: gate.WhWhen, wantTime: true, entities: []string{"Mia", "Google"}, terms: []string{"start"}, notTerms: []string{"year"}},
		{q: "Which city did Mia move to?", wh: gate.WhWhich, entities: []string{"Mia"}, terms: []string{"city"}},
		{q: "Caroline gave a speech when?", wh: gate.WhWhen, wantTime: true, entities: []string{"Caroline"}, terms: []string{"speech"}},
		{q: "Does Mia know where Tom lives?", wh: gate.WhYesNo, entities: []string{"Mia", "Tom"}},
		{q: "Did Mia visit Paris on 7 May 2023?", wh: gate.WhYesNo, entities: []string{"Mia", "Paris"}, time: &tm{"2023-05-07", temporal.PrecisionDay}, terms: []string{"visit"}},
		{q: "Can you tell me what Mia said about Python?", wh: gate.WhWhat, entities: []string{"Mia", "Python"}, notTerms: []string{"tell"}},
		{q: "Mia 什么时候搬家的？", wh: gate.WhWhen, wantTime: true, entities: []string{"Mia"}, terms: []string{"搬家"}},
		{q: "米娅有哪些宠物？", wh: gate.WhWhich, wantList: true, terms: []string{"宠物"}},
		{q: "米娅喜欢咖啡吗？", wh: gate.WhYesNo, terms: []string{"咖啡"}},
		{q: "Tell me about Mia.", wh: gate.WhOther, entities: []string{"Mia"}},
	}
	for _, tc := range tests {
		t.Run(tc.q, func(t *testing.T) {
			q := gate.Analyze(tc.q, now)
			assert.Equal(t, tc.q, q.Text)
			assert.Equal(t, tc.wh, q.WH)
			assert.Equal(t, tc.wantTime, q.WantsTime, "WantsTime")
			assert.Equal(t, tc.wantList, q.WantsList, "WantsList")
			assert.Equal(t, tc.entities, q.Entities)
			if tc.time == nil {
				assert.Nil(t, q.Time)
			} else if assert.NotNil(t, q.Time) {
				assert.Equal(t, tc.time.start, q.Time.Start.Format("2006-01-02"))
				assert.Equal(t, tc.time.precision, q.Time.Precision)
			}
			for _, w := range tc.terms {
				for _, term := range terms(w) {
					assert.Contains(t, q.Terms, term)
				}
			}
			for _, w := range tc.notTerms {
				for _, term := range terms(w) {
					assert.NotContains(t, q.Terms, term)
				}
			}
			// Terms ⊆ Expanded, Query is Expanded joined, no duplicates.
			assert.Subset(t, q.Expanded, q.Terms)
			seen := map[string]bool{}
			for _, e := range q.Expanded {
				assert.False(t, seen[e], "duplicate %q", e)
				seen[e] = true
			}
			assert.Equal(t, len(q.Expanded), len(terms(q.Query)), "Query re-tokenizes to as many terms")
		})
	}
}

func TestAnalyzeExpansion(t *testing.T) {
	q := gate.Analyze("Which pets does Mia have?", now)
	for _, w := range []string{"cat", "parrot", "dog", "hamster", "conure", "kitten", "puppy", "宠物"} {
		for _, term := range terms(w) {
			assert.Contains(t, q.Expanded, term, w)
		}
	}
	assert.Contains(t, q.Query, "cat")
	assert.Contains(t, q.Query, "parrot")

	// Chinese synonyms lead to the concept too.
	zh := gate.Analyze("米娅有哪些宠物？", now)
	assert.Contains(t, zh.Expanded, "cat")
	assert.Contains(t, zh.Expanded, "parrot")

	for _, tc := range []struct{ q, word string }{
		{"Where does Mia live?", "apartment"},
		{"What is Tom's job?", "employer"},
		{"Tell me about Mia's family.", "daughter"},
		{"What does Mia drink in the morning?", "coffee"},
		{"Which tools does Sam use?", "framework"},
		{"Where did Mia travel?", "vacation"},
		{"What hobby does Tom have?", "music"},
		{"When did Caroline give a speech?", "gave"},
		{"When did Caroline give a speech?", "talk"},
		{"When did Mia go to the hospital?", "went"},
		{"Does Mia like coffee?", "咖啡"},
	} {
		q := gate.Analyze(tc.q, now)
		for _, term := range terms(tc.word) {
			assert.Contains(t, q.Expanded, term, "%s → %s", tc.q, tc.word)
		}
	}
}

func TestAnalyzeZeroNowKeepsOnlyExplicitDates(t *testing.T) {
	q := gate.Analyze("What did Mia do last week?", time.Time{})
	assert.Nil(t, q.Time)
	q = gate.Analyze("What did Mia do on 7 May 2023?", time.Time{})
	require.NotNil(t, q.Time)
	assert.Equal(t, temporal.PrecisionDay, q.Time.Precision)
}

func TestAnalyzeDegenerate(t *testing.T) {
	for _, s := range []string{"", "?", "   ", "what", "\xff\xfe", "When?"} {
		q := gate.Analyze(s, now)
		require.NotNil(t, q)
		assert.Empty(t, q.Terms, "%q", s)
	}
}
