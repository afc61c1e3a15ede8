package locomo

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// miniFixture (testdata/mini.json, shared with cmd/sgbench's tests) is a
// small conversation in the LoCoMo schema, written for these tests: two
// sessions of five and three turns, questions of every category, evidence
// in the "D1:2; D2:1" form, an unresolvable id (D9:9) and a malformed one
// (D1-5), a question without evidence and a gold answer that is no date.
const miniFixture = "testdata/mini.json"

// miniIDs are the message ids the tests give the fixture's dia_ids.
var miniIDs = map[string]uint64{
	"D1:1": 101, "D1:2": 102, "D1:3": 103, "D1:4": 104, "D1:5": 105,
	"D2:1": 106, "D2:2": 107, "D2:3": 108,
}

func loadMini(t *testing.T) (*Conversation, Mapping) {
	t.Helper()
	convs, err := Load(miniFixture)
	require.NoError(t, err)
	require.Len(t, convs, 1)
	c := &convs[0]
	var refs []stratagate.TurnRef
	for _, g := range c.TurnDiaIDs() {
		var ref stratagate.TurnRef
		for _, dia := range g {
			ref.MessageIDs = append(ref.MessageIDs, miniIDs[dia])
		}
		refs = append(refs, ref)
	}
	m, err := c.MessageMap(refs)
	require.NoError(t, err)
	return c, m
}

func TestRecall(t *testing.T) {
	for _, tc := range []struct {
		name            string
		gold, retrieved []string
		recall          float64
		hit             bool
	}{
		{"all", []string{"D1:1"}, []string{"D1:3", "D1:1"}, 1, true},
		{"none", []string{"D1:1"}, []string{"D1:3"}, 0, false},
		{"half", []string{"D1:1", "D1:2"}, []string{"D1:2", "D2:2"}, 0.5, true},
		{"nothing retrieved", []string{"D1:1", "D1:2"}, nil, 0, false},
		{"duplicate gold counts once", []string{"D1:1", "D1:1", "D1:2"}, []string{"D1:1"}, 0.5, true},
		{"duplicate retrieved counts once", []string{"D1:1", "D1:2", "D1:3"}, []string{"D1:1", "D1:1"}, 1.0 / 3, true},
		{"no gold", nil, []string{"D1:1"}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, h := Recall(tc.gold, tc.retrieved)
			assert.InDelta(t, tc.recall, r, 1e-12)
			assert.Equal(t, tc.hit, h)
		})
	}
	m := Mapping{IDToDia: map[uint64]string{1: "D1:1", 2: "D1:2", 3: "D1:1"}}
	assert.Equal(t, []string{"D1:2", "D1:1"}, m.Dias([]uint64{2, 9, 1, 3, 2}), "unknown ids and repeats dropped")
	assert.Nil(t, m.Dias(nil))
}

func steps(n int) []stratagate.Step { return make([]stratagate.Step, n) }

func ids(dias ...string) []uint64 {
	var out []uint64
	for _, d := range dias {
		out = append(out, miniIDs[d])
	}
	return out
}

func each(dias ...string) [][]uint64 {
	var out [][]uint64
	for _, d := range dias {
		out = append(out, []uint64{miniIDs[d]})
	}
	return out
}

func dayEvidence(start time.Time, days int, precision string, dias ...string) stratagate.Evidence {
	return stratagate.Evidence{MessageIDs: ids(dias...), HappenedStart: start, HappenedEnd: start.AddDate(0, 0, days), Precision: precision}
}

// TestEvalMini scores hand-made channel results on the mini fixture with
// k = 3 and checks every figure.
func TestEvalMini(t *testing.T) {
	c, m := loadMini(t)
	require.Len(t, c.QA, 9)
	assert.Equal(t, []string{"D1:2", "D2:1"}, c.QA[2].Evidence)
	assert.Equal(t, []string{"D9:9"}, c.QA[4].Unresolved)
	assert.Equal(t, []string{"D1-5"}, c.QA[5].Unresolved)

	answer := func(verdict string, rounds int, ev ...stratagate.Evidence) stratagate.Answer {
		return stratagate.Answer{Text: "answer", Verdict: verdict, Evidence: ev, Trace: steps(rounds)}
	}
	results := []Result{
		// 0, cat 4, gold D1:1.
		{Raw: each("D1:3", "D1:1", "D1:5", "D1:2"), Events: [][]uint64{ids("D1:3", "D1:4"), ids("D1:1")},
			Answer: answer("sufficient", 2), AskMessages: ids("D1:1")},
		// 1, cat 2, gold D1:1 ("7 May 2023"): raw finds it at rank 4 only.
		{Raw: each("D1:2", "D1:3", "D1:4", "D1:1"), Events: [][]uint64{ids("D1:1", "D1:2")},
			Answer: answer("sufficient", 1, dayEvidence(day(2023, 5, 7), 1, "day", "D1:1")), AskMessages: ids("D1:1")},
		// 2, cat 1, gold D1:2 D2:1.
		{Raw: each("D1:2", "D2:3"), Answer: answer("partial", 4)},
		// 3, cat 3, no gold: not scored.
		{Raw: each("D1:1"), Answer: answer("sufficient", 1), AskMessages: ids("D1:5")},
		// 4, cat 2, gold D2:1 (27 May 2023): the answer cites no gold turn
		// and dates it with the whole week, which is coarser.
		{Raw: each("D2:1"), Events: [][]uint64{ids("D2:2", "D2:3")},
			Answer: answer("sufficient", 2, dayEvidence(day(2023, 5, 22), 7, "week", "D2:2")), AskMessages: ids("D2:2")},
		// 5, cat 4, gold D1:4.
		{Raw: each("D1:5", "D1:4"), Events: [][]uint64{ids("D1:4"), ids("D1:3")},
			Answer: answer("sufficient", 3), AskMessages: ids("D1:4")},
		// 6, cat 1, gold D2:2 D1:1 D1:3.
		{Raw: each("D2:2", "D1:1", "D1:5"), Events: [][]uint64{ids("D1:1", "D1:3", "D2:2")},
			Answer: answer("sufficient", 2), AskMessages: ids("D2:2")},
		// 7, cat 5: skipped.
		{Raw: each("D1:4"), Answer: answer("sufficient", 1), AskMessages: ids("D1:4")},
		// 8, cat 2, gold "a few weeks": not a date.
		{Raw: each("D1:2"), Answer: answer("wrong", 3)},
	}
	e := NewEval(3)
	for qi, r := range results {
		_, ok := e.Add(c, m, qi, r)
		assert.Equal(t, qi != 7, ok, "qa %d", qi)
	}
	assert.Equal(t, 8, e.Questions)
	assert.Equal(t, 1, e.Adversarial)
	assert.Equal(t, 2, e.Unresolved)
	require.Len(t, e.Items, 8)

	type cat struct {
		recall, hit float64
		n           int
	}
	check := func(name string, ch *Channel, all cat, by map[int]cat) {
		t.Helper()
		assert.Equal(t, 1, ch.NoGold, name)
		assert.Equal(t, all.n, ch.All.N, name)
		assert.InDelta(t, all.recall, ch.All.RecallAtK(), 1e-9, name)
		assert.InDelta(t, all.hit, ch.All.HitAtK(), 1e-9, name)
		for k := 1; k <= 4; k++ {
			want, got := by[k], ch.ByCategory[k]
			assert.Equal(t, want.n, got.N, "%s category %d", name, k)
			assert.InDelta(t, want.recall, got.RecallAtK(), 1e-9, "%s category %d", name, k)
			assert.InDelta(t, want.hit, got.HitAtK(), 1e-9, "%s category %d", name, k)
		}
	}
	// Raw recall: 1, 0 (rank 4 > k), 1/2, –, 1, 1, 2/3, –, 1.
	check("raw", &e.Raw, cat{(4 + 0.5 + 2.0/3) / 7, 6.0 / 7, 7}, map[int]cat{
		1: {(0.5 + 2.0/3) / 2, 1, 2}, 2: {2.0 / 3, 2.0 / 3, 3}, 4: {1, 1, 2},
	})
	// Events: 1, 1, 0, –, 0, 1, 1, –, 0.
	check("events", &e.Events, cat{4.0 / 7, 4.0 / 7, 7}, map[int]cat{
		1: {0.5, 0.5, 2}, 2: {1.0 / 3, 1.0 / 3, 3}, 4: {1, 1, 2},
	})
	// Ask: 1, 1, 0, –, 0, 1, 1/3, –, 0.
	check("ask", &e.Ask.Channel, cat{(3 + 1.0/3) / 7, 4.0 / 7, 7}, map[int]cat{
		1: {1.0 / 6, 0.5, 2}, 2: {1.0 / 3, 1.0 / 3, 3}, 4: {1, 1, 2},
	})
	a := &e.Ask
	assert.Equal(t, 8, a.Questions)
	assert.Equal(t, map[string]int{"sufficient": 6, "partial": 1, "wrong": 1}, a.Verdicts)
	assert.Equal(t, 6, a.Sufficient)
	assert.Equal(t, 5, a.SufficientScored, "question 3 has no gold")
	assert.Equal(t, 1, a.FalseSufficient, "question 4")
	assert.InDelta(t, 0.2, a.FalseSufficientRate(), 1e-12)
	assert.Equal(t, 2, a.Abstentions)
	assert.InDelta(t, 18.0/8, a.MeanRounds(), 1e-12)

	assert.Equal(t, TemporalTally{Questions: 3, Unparsed: 1, Scored: 2, Correct: 1}, e.Temporal)
	assert.InDelta(t, 0.5, e.Temporal.Accuracy(), 1e-12)

	it := e.Items[1]
	assert.Equal(t, []string{"D1:2", "D1:3", "D1:4"}, it.Raw, "cut to k")
	assert.True(t, it.TemporalScored)
	assert.True(t, it.TemporalCorrect)
	assert.Equal(t, "2023-05-07T00:00:00Z/2023-05-08T00:00:00Z", it.GoldInterval)
	it = e.Items[4]
	assert.True(t, it.TemporalScored)
	assert.False(t, it.TemporalCorrect)
	assert.Equal(t, "2023-05-27T00:00:00Z/2023-05-28T00:00:00Z", it.GoldInterval, "the Saturday before the session of D2:1")
	assert.Equal(t, []string{"D2:2", "D2:3"}, it.Events)
	assert.Equal(t, 6, e.Items[6].QA)
	assert.InDelta(t, 2.0/3, e.Items[6].RawRecall, 1e-12)
	assert.False(t, e.Items[7].TemporalScored, "question 8: gold is no date")

	// An empty evaluation reports zeros, not NaN.
	var z Eval
	assert.Zero(t, z.Raw.All.RecallAtK())
	assert.Zero(t, z.Ask.MeanRounds())
	assert.Zero(t, z.Ask.FalseSufficientRate())
	assert.Zero(t, z.Temporal.Accuracy())
}

func TestTemporalCorrect(t *testing.T) {
	may7 := day(2023, 5, 7)
	june := day(2023, 6, 1)
	sat := day(2023, 7, 15) // a weekend: 15–16 July
	for _, tc := range []struct {
		name         string
		gStart, gEnd time.Time
		aStart, aEnd time.Time
		want         bool
	}{
		{"same day", may7, may7.AddDate(0, 0, 1), may7, may7.AddDate(0, 0, 1), true},
		{"other day", may7, may7.AddDate(0, 0, 1), may7.AddDate(0, 0, 1), may7.AddDate(0, 0, 2), false},
		{"day before, touching", may7, may7.AddDate(0, 0, 1), may7.AddDate(0, 0, -1), may7, false},
		{"week holding the day is coarser", may7, may7.AddDate(0, 0, 1), day(2023, 5, 1), day(2023, 5, 8), false},
		{"month holding the day is coarser", may7, may7.AddDate(0, 0, 1), day(2023, 5, 1), day(2023, 6, 1), false},
		{"day in the gold month", june, june.AddDate(0, 1, 0), day(2023, 6, 9), day(2023, 6, 10), true},
		{"same month", june, june.AddDate(0, 1, 0), june, june.AddDate(0, 1, 0), true},
		{"next month", june, june.AddDate(0, 1, 0), june.AddDate(0, 1, 0), june.AddDate(0, 2, 0), false},
		{"31-day month for a 30-day gold month is coarser", june, june.AddDate(0, 1, 0), day(2023, 5, 1), day(2023, 6, 1), false},
		{"day of the gold weekend", sat, sat.AddDate(0, 0, 2), sat.AddDate(0, 0, 1), sat.AddDate(0, 0, 2), true},
		{"the gold weekend", sat, sat.AddDate(0, 0, 2), sat, sat.AddDate(0, 0, 2), true},
		{"week holding the weekend is coarser", sat, sat.AddDate(0, 0, 2), day(2023, 7, 10), day(2023, 7, 17), false},
		{"straddling, no coarser", sat, sat.AddDate(0, 0, 2), sat.AddDate(0, 0, -1), sat.AddDate(0, 0, 1), true},
		{"instant inside", may7, may7.AddDate(0, 0, 1), may7.Add(13 * time.Hour), may7.Add(13 * time.Hour), true},
		{"instant at the end", may7, may7.AddDate(0, 0, 1), may7.AddDate(0, 0, 1), may7.AddDate(0, 0, 1), false},
		{"instant at the start", may7, may7.AddDate(0, 0, 1), may7, may7, true},
		{"empty gold", may7, may7, may7, may7.AddDate(0, 0, 1), false},
		{"reversed answer", may7, may7.AddDate(0, 0, 1), may7.AddDate(0, 0, 1), may7, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, TemporalCorrect(tc.gStart, tc.gEnd, tc.aStart, tc.aEnd))
		})
	}
}

func TestAnswerTime(t *testing.T) {
	may7 := day(2023, 5, 7)
	dated := stratagate.Evidence{HappenedStart: may7, HappenedEnd: may7.AddDate(0, 0, 1), Precision: "day"}
	other := stratagate.Evidence{HappenedStart: day(2022, 1, 1), HappenedEnd: day(2023, 1, 1), Precision: "year"}
	for _, tc := range []struct {
		name       string
		evidence   []stratagate.Evidence
		start, end time.Time
		ok         bool
	}{
		{"none", nil, time.Time{}, time.Time{}, false},
		{"undated", []stratagate.Evidence{{MessageIDs: []uint64{1}}}, time.Time{}, time.Time{}, false},
		{"unknown precision", []stratagate.Evidence{{HappenedStart: may7, HappenedEnd: may7.AddDate(0, 0, 1), Precision: "unknown"}}, time.Time{}, time.Time{}, false},
		{"first dated item", []stratagate.Evidence{{}, dated, other}, may7, may7.AddDate(0, 0, 1), true},
		{"order counts", []stratagate.Evidence{other, dated}, day(2022, 1, 1), day(2023, 1, 1), true},
		{"no end is an instant", []stratagate.Evidence{{HappenedStart: may7, Precision: "instant"}}, may7, may7, true},
		{"end before start is an instant", []stratagate.Evidence{{HappenedStart: may7, HappenedEnd: may7.Add(-time.Hour), Precision: "day"}}, may7, may7, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, e, ok := AnswerTime(tc.evidence)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.start, s)
			assert.Equal(t, tc.end, e)
		})
	}
}

func TestTemporalTally(t *testing.T) {
	c, _ := loadMini(t)
	may7 := day(2023, 5, 7)
	var tt TemporalTally
	// Question 1: gold 7 May 2023.
	it := tt.Add(c, &c.QA[1], nil)
	assert.Equal(t, GoldParsed, it.Status)
	assert.False(t, it.Dated)
	assert.False(t, it.Correct, "no resolved interval is wrong")
	it = tt.Add(c, &c.QA[1], []stratagate.Evidence{{HappenedStart: may7, HappenedEnd: may7.AddDate(0, 0, 1), Precision: "day"}})
	assert.True(t, it.Correct)
	it = tt.Add(c, &c.QA[1], []stratagate.Evidence{{HappenedStart: day(2023, 5, 1), HappenedEnd: day(2023, 6, 1), Precision: "month"}})
	assert.True(t, it.Dated)
	assert.False(t, it.Correct, "coarser")
	// Question 8: "a few weeks" is no date.
	it = tt.Add(c, &c.QA[8], []stratagate.Evidence{{HappenedStart: may7, HappenedEnd: may7.AddDate(0, 0, 1), Precision: "day"}})
	assert.Equal(t, GoldUnparsed, it.Status)
	// Question 3 has no evidence: no reference date.
	it = tt.Add(c, &c.QA[3], nil)
	assert.Equal(t, GoldNoEvidence, it.Status)
	assert.Equal(t, TemporalTally{Questions: 5, NoEvidence: 1, Unparsed: 1, Scored: 3, Correct: 1, NoInterval: 1}, tt)
	assert.InDelta(t, 1.0/3, tt.Accuracy(), 1e-12)
}

// TestEvalRun runs the channels on a real store built from the mini
// fixture (one block per turn, so cards are extracted) and checks that the
// counts add up and that AnswerMessages expands event-only evidence.
func TestEvalRun(t *testing.T) {
	convs, err := Load(miniFixture)
	require.NoError(t, err)
	c := &convs[0]
	ctx := context.Background()
	mem, err := stratagate.Open(filepath.Join(t.TempDir(), "sg.db"), &stratagate.Options{NoSync: true, BlockTurns: 1})
	require.NoError(t, err)
	defer mem.Close()
	m, err := Ingest(ctx, mem, c, c.ID, "global")
	require.NoError(t, err)
	require.NoError(t, mem.WaitIdle(ctx))

	e := NewEval(5)
	calls := 0
	require.NoError(t, e.Run(ctx, mem, c, m, nil, stratagate.AskOptions{}, func() { calls++ }))
	assert.Equal(t, 8, calls)
	assert.Equal(t, 8, e.Questions)
	assert.Equal(t, 1, e.Adversarial)
	for _, ch := range []*Channel{&e.Raw, &e.Events, &e.Ask.Channel} {
		assert.Equal(t, 7, ch.All.N)
		assert.Equal(t, 1, ch.NoGold)
		assert.True(t, ch.All.RecallAtK() >= 0 && ch.All.RecallAtK() <= 1)
		assert.LessOrEqual(t, ch.All.RecallAtK(), ch.All.HitAtK())
	}
	assert.Greater(t, e.Raw.All.Hits, 0, "the question words are in the gold turns")
	n := 0
	for _, v := range e.Ask.Verdicts {
		n += v
	}
	assert.Equal(t, 8, n)
	assert.Equal(t, e.Ask.Questions, e.Ask.Sufficient+e.Ask.Abstentions)
	for _, it := range e.Items {
		assert.LessOrEqual(t, len(it.Raw), 5)
	}

	// AnswerMessages: message ids in order without repeats; an event-only
	// item gives its card's sources; a missing card gives nothing.
	st, err := mem.Stats(ctx)
	require.NoError(t, err)
	require.Positive(t, st.Buckets["events"], "one block per turn: cards are extracted")
	d, err := mem.ExpandEvent(ctx, 1)
	require.NoError(t, err)
	got, err := AnswerMessages(ctx, mem, stratagate.Answer{Evidence: []stratagate.Evidence{
		{MessageIDs: []uint64{7, 3}}, {EventID: 1}, {MessageIDs: []uint64{3}}, {EventID: 1 << 40}, {NodeID: 4},
	}})
	require.NoError(t, err)
	want := []uint64{7, 3}
	for _, id := range d.Card.SourceMessageIDs {
		if id != 7 && id != 3 {
			want = append(want, id)
		}
	}
	assert.Equal(t, want, got)

	// An empty question searches nothing and abstains.
	r, err := Query(ctx, mem, "  ", 5, nil, stratagate.AskOptions{})
	require.NoError(t, err)
	assert.Equal(t, "partial", r.Answer.Verdict)
	assert.Empty(t, r.Raw)
}
