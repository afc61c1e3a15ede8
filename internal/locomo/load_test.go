package locomo

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// fixture is a tiny conversation in the LoCoMo schema, written for these
// tests: two sessions with turns (the first odd-sized, with an image turn),
// one dated session without turns, unknown fields, a malformed evidence
// entry and a numeric answer.
const fixture = `[
  {
    "sample_id": "conv-x",
    "extra_top_level": {"anything": [1, 2]},
    "conversation": {
      "speaker_a": "Ana",
      "speaker_b": "Ben",
      "session_2_date_time": "9:05 am on 3 June, 2023",
      "session_2": [
        {"speaker": "Ben", "dia_id": "D2:1", "text": "Back from the coast."},
        {"speaker": "Ana", "dia_id": "D2:02", "text": "How was the drive?"}
      ],
      "session_1_date_time": "1:56 pm on 8 May, 2023",
      "session_1": [
        {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a cat yesterday."},
        {"speaker": "Ben", "dia_id": "D1:2", "text": "Look at this!", "img_url": ["http://example.invalid/x.jpg"], "blip_caption": "a photo of a kayak", "query": "kayak"},
        {"speaker": "Ana", "dia_id": "D1:3", "text": "Nice.", "unknown_turn_field": true}
      ],
      "session_3_date_time": "12:09 am on 13 September, 2023"
    },
    "qa": [
      {"question": "When did Ana adopt a cat?", "answer": "7 May 2023", "evidence": ["D1:1"], "category": 2},
      {"question": "Which year?", "answer": 2022, "evidence": ["D1:2; D2:1", "D9:9"], "category": 2},
      {"question": "What did Ben buy?", "adversarial_answer": "a kayak", "evidence": ["D1:02"], "category": 5}
    ],
    "event_summary": {"ignored": true}
  }
]`

func writeFixture(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "locomo.json")
	require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
	return p
}

func TestLoad(t *testing.T) {
	convs, err := Load(writeFixture(t, fixture))
	require.NoError(t, err)
	require.Len(t, convs, 1)
	c := convs[0]
	assert.Equal(t, "conv-x", c.ID)
	assert.Equal(t, "Ana", c.SpeakerA)
	assert.Equal(t, "Ben", c.SpeakerB)
	require.Len(t, c.Sessions, 3)
	for i, s := range c.Sessions {
		assert.Equal(t, i+1, s.N)
	}
	s1 := c.Sessions[0]
	assert.Equal(t, time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC), s1.Date)
	require.Len(t, s1.Turns, 3)
	assert.Equal(t, Turn{DiaID: "D1:2", Speaker: "Ben", Text: "Look at this!", BlipCaption: "a photo of a kayak",
		At: time.Date(2023, 5, 8, 13, 56, 1, 0, time.UTC)}, s1.Turns[1])
	assert.Equal(t, s1.Date.Add(2*time.Second), s1.Turns[2].At)
	assert.Equal(t, "D2:2", c.Sessions[1].Turns[1].DiaID, "dia_ids are normalised")
	assert.Equal(t, time.Date(2023, 9, 13, 0, 9, 0, 0, time.UTC), c.Sessions[2].Date)
	assert.Empty(t, c.Sessions[2].Turns, "a dated session without turns is kept")
	assert.Equal(t, 5, c.TurnCount())

	require.Len(t, c.QA, 3)
	assert.Equal(t, QA{Question: "When did Ana adopt a cat?", Answer: "7 May 2023", Evidence: []string{"D1:1"},
		RawEvidence: []string{"D1:1"}, Category: 2}, c.QA[0])
	assert.Equal(t, "2022", c.QA[1].Answer, "numeric answer")
	assert.Equal(t, []string{"D1:2", "D2:1"}, c.QA[1].Evidence)
	assert.Equal(t, []string{"D1:2; D2:1", "D9:9"}, c.QA[1].RawEvidence)
	assert.Equal(t, []string{"D9:9"}, c.QA[1].Unresolved)
	assert.Equal(t, "", c.QA[2].Answer)
	assert.Equal(t, "a kayak", c.QA[2].AdversarialAnswer)
	assert.Equal(t, []string{"D1:2"}, c.QA[2].Evidence)

	s, turn, ok := c.Locate("D2:1")
	require.True(t, ok)
	assert.Equal(t, 2, s.N)
	assert.Equal(t, "Back from the coast.", turn.Text)
	_, _, ok = c.Locate("D9:9")
	assert.False(t, ok)
}

func TestLoadRejects(t *testing.T) {
	const date = `"session_1_date_time": "1:56 pm on 8 May, 2023"`
	for name, body := range map[string]string{
		"truncated":         `[{"sample_id": "c", "conversation": {`,
		"not a list":        `{"sample_id": "c"}`,
		"empty":             ``,
		"trailing data":     `[] []`,
		"no conversation":   `[{"sample_id": "c"}]`,
		"no dia_id":         `[{"conversation": {` + date + `, "session_1": [{"speaker": "A", "text": "hi"}]}}]`,
		"bad date":          `[{"conversation": {"session_1_date_time": "sometime in May", "session_1": []}}]`,
		"turns but no date": `[{"conversation": {"session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}]}}]`,
		"session not list":  `[{"conversation": {` + date + `, "session_1": {"speaker": "A"}}}]`,
		"answer object":     `[{"conversation": {` + date + `}, "qa": [{"question": "q", "answer": {"x": 1}, "evidence": [], "category": 2}]}]`,
		"evidence not list": `[{"conversation": {` + date + `}, "qa": [{"question": "q", "answer": "a", "evidence": "D1:1", "category": 2}]}]`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load(writeFixture(t, body))
			require.Error(t, err)
			t.Log(err)
		})
	}
	_, err := Load(filepath.Join(t.TempDir(), "missing.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestParseDateTime(t *testing.T) {
	want := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	for _, s := range []string{"1:56 pm on 8 May, 2023", "1:56 PM on 8 may 2023", " 1:56  pm on May 8, 2023 "} {
		got, err := ParseDateTime(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	got, err := ParseDateTime("12:09 am on 13 September, 2023")
	require.NoError(t, err)
	assert.Equal(t, time.Date(2023, 9, 13, 0, 9, 0, 0, time.UTC), got)
	_, err = ParseDateTime("8 May 2023")
	assert.Error(t, err)
}

func TestTurnsAndMessageMap(t *testing.T) {
	convs, err := Load(writeFixture(t, fixture))
	require.NoError(t, err)
	c := &convs[0]

	turns := c.Turns("locomo", "global")
	require.Len(t, turns, 3, "session 1: 2+1 messages, session 2: 2")
	assert.Equal(t, [][]string{{"D1:1", "D1:2"}, {"D1:3"}, {"D2:1", "D2:2"}}, c.TurnDiaIDs())
	assert.Equal(t, []string{"conv-x-D1:1", "conv-x-D1:3", "conv-x-D2:1"},
		[]string{turns[0].ReceiptID, turns[1].ReceiptID, turns[2].ReceiptID})
	for _, tu := range turns {
		assert.Equal(t, "locomo", tu.Thread)
		assert.Equal(t, "global", tu.Scope)
	}
	assert.Equal(t, stratagate.Message{Role: "user", Speaker: "Ben", Content: "Look at this! [image: a photo of a kayak]",
		At: time.Date(2023, 5, 8, 13, 56, 1, 0, time.UTC)}, turns[0].Messages[1])
	assert.Equal(t, "I adopted a cat yesterday.", turns[0].Messages[0].Content)
	assert.Len(t, turns[1].Messages, 1, "a session boundary ends a turn")

	assert.Equal(t, "[image: a kayak]", (&Turn{BlipCaption: "a kayak"}).Content())
	assert.Equal(t, "[no text]", (&Turn{}).Content())

	ctx := context.Background()
	mem, err := stratagate.Open(filepath.Join(t.TempDir(), "sg.db"), &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	m, err := Ingest(ctx, mem, c, "locomo", "global")
	require.NoError(t, err)
	require.Len(t, m.IDToDia, 5)
	require.Len(t, m.DiaToID, 5)
	for id, dia := range m.IDToDia {
		assert.Equal(t, id, m.DiaToID[dia])
		msgs, err := mem.Messages(ctx, id)
		require.NoError(t, err)
		_, turn, ok := c.Locate(dia)
		require.True(t, ok)
		assert.Equal(t, turn.Content(), msgs[0].Content, dia)
		assert.True(t, turn.At.Equal(msgs[0].At), dia)
	}
	// Ingesting again stores nothing new and maps the same ids.
	again, err := Ingest(ctx, mem, c, "locomo", "global")
	require.NoError(t, err)
	assert.Equal(t, m, again)

	// Mismatched refs are errors.
	_, err = c.MessageMap(nil)
	assert.Error(t, err)
	_, err = c.MessageMap([]stratagate.TurnRef{{MessageIDs: []uint64{1}}, {MessageIDs: []uint64{3}}, {MessageIDs: []uint64{4, 5}}})
	assert.Error(t, err)
}

// TestMeasureEventTimeFixture runs the measurement end to end on the
// fixture; the counts must add up whatever the heuristic model extracts.
func TestMeasureEventTimeFixture(t *testing.T) {
	convs, err := Load(writeFixture(t, fixture))
	require.NoError(t, err)
	c := &convs[0]
	ctx := context.Background()
	mem, err := stratagate.Open(filepath.Join(t.TempDir(), "sg.db"), &stratagate.Options{NoSync: true, BlockTurns: 1})
	require.NoError(t, err)
	defer mem.Close()
	m, err := Ingest(ctx, mem, c, "locomo", "global")
	require.NoError(t, err)
	require.NoError(t, mem.WaitIdle(ctx))
	rep, err := MeasureEventTime(ctx, mem, c, m.IDToDia, nil)
	require.NoError(t, err)
	t.Log(rep)
	assert.Equal(t, 2, rep.Questions)
	assert.Equal(t, 2, rep.Parsed)
	checkReport(t, rep)
	require.Len(t, rep.Items, 2)
	assert.Equal(t, day(2023, 5, 7), rep.Items[0].GoldStart)
	assert.Equal(t, day(2022, 1, 1), rep.Items[1].GoldStart)

	// With the default block size nothing is sealed: no card, and every
	// parsed question is counted as unsealed.
	mem2, err := stratagate.Open(filepath.Join(t.TempDir(), "sg2.db"), &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem2.Close()
	m2, err := Ingest(ctx, mem2, c, "locomo", "global")
	require.NoError(t, err)
	require.NoError(t, mem2.WaitIdle(ctx))
	rep, err = MeasureEventTime(ctx, mem2, c, m2.IDToDia, []string{"global"})
	require.NoError(t, err)
	checkReport(t, rep)
	assert.Equal(t, 0, rep.Cards)
	assert.Equal(t, 2, rep.Unsealed)
	assert.Zero(t, rep.Fraction())
}

func checkReport(t *testing.T, rep EventTimeReport) {
	t.Helper()
	assert.Equal(t, rep.Questions, rep.NoEvidence+rep.Unparsed+rep.Parsed)
	assert.LessOrEqual(t, rep.Exact, rep.Covered)
	assert.LessOrEqual(t, rep.Covered, rep.WithTime)
	assert.LessOrEqual(t, rep.WithTime, rep.WithCard)
	assert.LessOrEqual(t, rep.WithCard, rep.Parsed)
	assert.LessOrEqual(t, rep.Unsealed, rep.Parsed-rep.WithCard)
	assert.Len(t, rep.Items, rep.Questions)
	f := rep.Fraction()
	assert.True(t, f >= 0 && f <= 1, "fraction %v", f)
}
