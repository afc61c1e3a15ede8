package heuristic_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

func TestExtractSampleIsValid(t *testing.T) {
	for _, n := range []int{1, 3, 12} {
		t.Run(fmt.Sprintf("blocks of %d turns", n), func(t *testing.T) {
			ins, outs, _ := chainSample(t, n, true)
			total := 0
			for i := range outs {
				total += len(outs[i].Events)
				// Context messages are never cited.
				ids := map[uint64]bool{}
				for _, m := range ins[i].Messages {
					ids[m.ID] = true
				}
				for _, e := range outs[i].Events {
					for _, id := range e.MessageIDs {
						assert.True(t, ids[id])
					}
				}
			}
			assert.Greater(t, total, 40, "the sample has many events")
		})
	}
}

func TestExtractDeterministic(t *testing.T) {
	blocks := sampleBlocks(t, 12)
	first := make([]string, len(blocks))
	for i, in := range blocks {
		first[i], _ = extractRaw(t, in)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, in := range blocks {
				raw, err := heuristic.Model{}.Complete(context.Background(), model.Request{Task: model.TaskExtractEvents, Input: *in})
				assert.NoError(t, err)
				assert.Equal(t, first[i], raw)
			}
		}()
	}
	wg.Wait()
}

func TestExtractLeoMoves(t *testing.T) {
	in := turnInput(t, "atlas-s4-t01", "atlas-s4-t02")
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	e := eventQuoting(t, out, "I moved last Saturday")
	assert.Equal(t, "I moved last Saturday.", e.Quotes[0])
	assert.Equal(t, "life_event", e.EventType)
	assert.Equal(t, "completed", e.Status)
	assert.Equal(t, "identity", e.Criticality)
	assert.Equal(t, "last Saturday", e.TimeText)
	assert.Contains(t, e.Participants, "Leo Park")
	assert.Equal(t, "Leo Park moved last Saturday", e.Title)
	assert.Equal(t, "Leo Park: I moved last Saturday.", e.Summary)

	// Leo starts his job: a life event in the future.
	job := eventQuoting(t, out, "I start at Cascadia Labs on Monday")
	assert.Equal(t, "life_event", job.EventType)
	assert.Equal(t, "on Monday", job.TimeText)
	assert.Contains(t, job.Entities, "Cascadia Labs")
}

func TestExtractKiwiAdoption(t *testing.T) {
	in := turnInput(t, "atlas-s4-t02")
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	e := eventQuoting(t, out, "We picked up Kiwi yesterday")
	assert.Contains(t, []string{"life_event", "activity"}, e.EventType)
	assert.Equal(t, "yesterday", e.TimeText)
	assert.Equal(t, "completed", e.Status)
	assert.Contains(t, append(slices.Clone(e.Participants), e.Entities...), "Kiwi")
	assert.Contains(t, e.Participants, "Mia Chen")

	adopted := eventQuoting(t, out, "I adopted a parrot")
	assert.Equal(t, "life_event", adopted.EventType)
	assert.Equal(t, "identity", adopted.Criticality)
}

func TestExtractLaunchCorrectionSupersedes(t *testing.T) {
	first := turnInput(t, "atlas-s2-t05")
	_, out1 := extractRaw(t, first)
	earlier := eventQuoting(t, out1, "May 20")
	existing := asExisting(out1, 500)

	in := turnInput(t, "atlas-s3-t02")
	in.Existing = existing
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	e := eventQuoting(t, out, "Actually, the launch is not on May 20")
	assert.Equal(t, "change", e.EventType)
	assert.Equal(t, "June 3rd", e.TimeText, "the new date, not the negated old one")
	assert.Equal(t, "planned", e.Status)
	require.Len(t, e.Supersedes, 1)
	var sup model.ExistingEvent
	for _, x := range existing {
		if x.ID == e.Supersedes[0] {
			sup = x
		}
	}
	assert.Contains(t, sup.Quotes[0], "May 20", "supersedes the launch date event")
	assert.Equal(t, earlier.Quotes, sup.Quotes)
	assert.Empty(t, e.ConflictsWith)

	// Without the earlier event there is nothing to supersede.
	in.Existing = nil
	_, out = extractRaw(t, in)
	assert.Empty(t, eventQuoting(t, out, "Actually, the launch").Supersedes)
}

func TestExtractTeaToCoffee(t *testing.T) {
	first := turnInput(t, "atlas-s1-t08")
	_, out1 := extractRaw(t, first)
	tea := eventQuoting(t, out1, "I'm a tea person")
	assert.Equal(t, "preference", tea.EventType)
	assert.Equal(t, "preference", tea.Criticality)
	existing := asExisting(out1, 700)
	var teaID uint64
	for _, x := range existing {
		if x.Quotes[0] == tea.Quotes[0] {
			teaID = x.ID
		}
	}

	in := turnInput(t, "atlas-s4-t03")
	in.Existing = existing
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	linked := false
	for _, e := range out.Events {
		if slices.Contains(e.Supersedes, teaID) || slices.Contains(e.ConflictsWith, teaID) {
			linked = true
		}
	}
	assert.True(t, linked, "the switch to coffee supersedes or conflicts with the tea preference")
	used := eventQuoting(t, out, "I used to be a tea person")
	assert.Equal(t, []uint64{teaID}, used.Supersedes)
	coffee := eventQuoting(t, out, "switched to coffee")
	assert.Equal(t, "preference", coffee.EventType)
	assert.Equal(t, "completed", coffee.Status)
}

func TestExtractPreferenceConflict(t *testing.T) {
	day := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
	in := &model.ExtractInput{BlockID: 9, Thread: "t", Messages: []model.DeriveMessage{
		{ID: 1, Role: "user", Speaker: "Mia Chen", At: day, Content: "I prefer coffee in the morning."},
		{ID: 2, Role: "user", Speaker: "Leo Park", At: day, Content: "I prefer tabs."},
	}, Existing: []model.ExistingEvent{
		{ID: 40, Title: "Mia prefers tea", Summary: "Mia Chen: I prefer tea.", EventType: "preference", Participants: []string{"Mia Chen"}, Quotes: []string{"I prefer tea."}},
		{ID: 41, Title: "Mia loves window seats", Summary: "Mia Chen: I love window seats.", EventType: "preference", Participants: []string{"Mia"}, Quotes: []string{"I love window seats."}},
		{ID: 42, Title: "Leo prefers tabs", Summary: "Leo Park: I prefer tabs.", EventType: "preference", Participants: []string{"Leo Park"}, Quotes: []string{"I prefer tabs."}},
		{ID: 43, Title: "Mia prefers coffee", Summary: "Mia Chen: I prefer coffee.", EventType: "fact", Participants: []string{"Mia Chen"}, Quotes: []string{"Mia prefers tea."}},
	}}
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	mia := eventQuoting(t, out, "I prefer coffee")
	assert.Equal(t, "preference", mia.EventType)
	assert.Equal(t, []uint64{40}, mia.ConflictsWith, "same person, same verb, other object")
	assert.Empty(t, mia.Supersedes)
	leo := eventQuoting(t, out, "I prefer tabs")
	assert.Empty(t, leo.ConflictsWith, "same value is no conflict")

	// A correction cue turns the conflict into a supersede.
	in.Messages[0].Content = "Actually, I prefer coffee now, not tea."
	_, out = extractRaw(t, in)
	mia = eventQuoting(t, out, "I prefer coffee")
	assert.Empty(t, mia.ConflictsWith)
	assert.Equal(t, []uint64{43}, mia.Supersedes, "most shared words, ties to the newest")
}

func TestExtractCitesOnlyTargetConversation(t *testing.T) {
	day := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
	ctxMsg := func(id uint64) model.DeriveMessage {
		return model.DeriveMessage{ID: id, Role: "user", Speaker: "Mia", At: day, Content: "I moved to Lisbon yesterday. We decided to use Postgres."}
	}
	in := &model.ExtractInput{BlockID: 2, Thread: "t",
		Before: []model.DeriveMessage{ctxMsg(1), ctxMsg(2)},
		Messages: []model.DeriveMessage{
			{ID: 3, Role: "assistant", ToolName: "shell", At: day, Content: `{"cmd": "I moved to Lisbon yesterday"}`},
			{ID: 4, Role: "tool", ToolName: "shell", At: day, Content: "I moved to Lisbon yesterday. We decided to use Postgres."},
			{ID: 5, Role: "system", At: day, Content: "I moved to Lisbon yesterday."},
			{ID: 6, Role: "assistant", At: day, Content: "I think we will use Postgres next week. Sounds good, I will remember that."},
		},
		After: []model.DeriveMessage{ctxMsg(7)},
	}
	raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskExtractEvents, Input: in})
	require.NoError(t, err)
	assert.Equal(t, `{"events":[]}`, raw, "context, tools, system and generic assistant text yield nothing")

	// An assistant restatement is a candidate; it has no participant.
	in.Messages[3].Content = "Decision recorded: Atlas uses Postgres instead of SQLite."
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	require.Len(t, out.Events, 1)
	e := out.Events[0]
	assert.Equal(t, []uint64{6}, e.MessageIDs)
	assert.Equal(t, "decision", e.EventType)
	assert.Equal(t, "Atlas uses Postgres instead of SQLite", e.Title)
	assert.Equal(t, "Assistant: Decision recorded: Atlas uses Postgres instead of SQLite.", e.Summary)
	assert.Empty(t, e.Participants)
	assert.Equal(t, []string{"Atlas", "Postgres", "SQLite"}, e.Entities)
}

func TestExtractEmptyAndUnsupported(t *testing.T) {
	raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskExtractEvents, Input: &model.ExtractInput{BlockID: 1}})
	require.NoError(t, err)
	assert.Equal(t, `{"events":[]}`, raw)

	for _, input := range []any{nil, &model.DeriveInput{}, "text", (*model.ExtractInput)(nil)} {
		_, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskExtractEvents, Input: input})
		assert.True(t, errors.Is(err, heuristic.ErrUnsupported), "input %T: %v", input, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = heuristic.New().Complete(ctx, model.Request{Task: model.TaskExtractEvents, Input: &model.ExtractInput{}})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestExtractCapPrefersTimesAndDecisions(t *testing.T) {
	day := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
	in := &model.ExtractInput{BlockID: 1, Thread: "t"}
	for i := range 60 {
		in.Messages = append(in.Messages, model.DeriveMessage{ID: uint64(i + 1), Role: "user", Speaker: "Mia", At: day,
			Content: fmt.Sprintf("I will water plant number %d.", i)})
	}
	in.Messages = append(in.Messages,
		model.DeriveMessage{ID: 100, Role: "user", Speaker: "Mia", At: day, Content: "We decided to use Postgres."},
		model.DeriveMessage{ID: 101, Role: "user", Speaker: "Mia", At: day, Content: "I went to Porto yesterday."},
	)
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	require.Len(t, out.Events, maxEventsPerBlock)
	last := out.Events[len(out.Events)-2:]
	assert.Equal(t, []uint64{100}, last[0].MessageIDs)
	assert.Equal(t, []uint64{101}, last[1].MessageIDs)
	assert.Equal(t, []uint64{1}, out.Events[0].MessageIDs, "output stays in message order")
}

func TestExtractHugeAndInvalidInput(t *testing.T) {
	day := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
	huge := strings.Repeat("I moved to Lisbon yesterday and we decided to use Postgres instead. ", (1<<20)/68)
	noSpace := strings.Repeat("x", 1<<20)
	oneSentence := "I moved " + strings.Repeat("very far away ", (1<<20)/14) + "yesterday."
	in := &model.ExtractInput{BlockID: 1, Thread: "t", Messages: []model.DeriveMessage{
		{ID: 1, Role: "user", Speaker: "Mia", At: day, Content: huge},
		{ID: 2, Role: "user", Speaker: "Mia", At: day, Content: "I moved \xff\xfe yesterday. We decided to use Postgres on Monday.\xc3"},
		{ID: 3, Role: "user", Speaker: "\xffMia", At: day, Content: noSpace},
		{ID: 4, Role: "user", Speaker: "Mia", At: day, Content: oneSentence},
		{ID: 5, Role: "user", Speaker: "  Leo  ", At: day, Content: "I started running. Ich bin nach Berlin gezogen 🙂. 我昨天搬到了上海。"},
		{ID: 6, Role: "user", Speaker: "Leo", Content: "I moved to Porto yesterday. We will meet next Friday."},
	}, Existing: []model.ExistingEvent{{ID: 1, Title: "\xff", Summary: strings.Repeat("Lisbon ", 1000), Quotes: []string{"\xfe"}}}}
	start := time.Now()
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.NotEmpty(t, out.Events)
	sawZeroTime := false
	for _, e := range out.Events {
		assert.NotContains(t, e.Quotes[0], "\uFFFD")
		if e.MessageIDs[0] == 4 {
			q := e.Quotes[0]
			assert.True(t, strings.HasPrefix(oneSentence, q))
			assert.Greater(t, utf8.RuneCountInString(q), 480)
			assert.Equal(t, byte(' '), oneSentence[len(q)], "cut before a space")
		}
		if e.MessageIDs[0] == 6 {
			sawZeroTime = true
		}
		if e.MessageIDs[0] == 5 {
			assert.NotContains(t, e.Participants, "  Leo  ")
		}
	}
	assert.True(t, sawZeroTime, "a message without a time still yields events")
}

// benchBlock is a realistic 24-message block: two people and the
// assistant, with a tool call, plans, decisions and dates.
func benchBlock() *model.ExtractInput {
	day := time.Date(2024, 5, 8, 17, 30, 0, 0, time.FixedZone("PDT", -7*3600))
	at := func(min int) time.Time { return day.Add(time.Duration(min) * time.Minute) }
	msgs := []model.DeriveMessage{
		{Role: "user", Speaker: "Leo Park", Content: "Hello from Seattle! I moved last Saturday. The truck showed up four hours late but everything made it."},
		{Role: "assistant", Content: "Welcome to Seattle, Leo! Glad the move went well, late truck aside. How's the new place?"},
		{Role: "user", Speaker: "Leo Park", Content: "Small apartment in Capitol Hill, great coffee shop downstairs. I start at Cascadia Labs on Monday."},
		{Role: "user", Speaker: "Mia Chen", Content: "Big update from me too: I adopted a parrot! We picked up Kiwi yesterday, he's a green-cheeked conure. Pixel is extremely suspicious of him."},
		{Role: "assistant", Content: "Congratulations to both of you! Leo has a new city and job, and Mia's household is now Pixel the cat plus Kiwi the parrot."},
		{Role: "user", Speaker: "Mia Chen", Content: "Separate rooms for now. Also, Kiwi starts screaming at 6am sharp, so I've switched to coffee. I know, I know, I used to be a tea person."},
		{Role: "assistant", Content: "Updated: Mia now drinks coffee instead of tea. The 6am parrot alarm is a very good reason."},
		{Role: "user", Speaker: "Leo Park", Content: "Back to Atlas. I think we agreed: we'll deploy on Fly.io. Mia?"},
		{Role: "user", Speaker: "Mia Chen", Content: "Yes, we decided to deploy on Fly.io. One app for the API, one for the web, Postgres in the iad region, and maybe a second region in sea later now that Leo is there."},
		{Role: "assistant", Content: "Decision recorded: Atlas deploys on Fly.io, with the API and web as separate apps and Postgres in iad; a sea region is a later option."},
		{Role: "user", Speaker: "Mia Chen", Content: "Can you run the first deploy of the API?"},
		{Role: "assistant", ToolName: "shell", Content: `{"command":"fly deploy --app atlas-api --config apps/api/fly.toml"}`},
		{Role: "tool", ToolName: "shell", Content: strings.Repeat("==> Verifying app config\nValidating apps/api/fly.toml\n✓ Configuration is valid\n", 20)},
		{Role: "assistant", Content: "Deployed: atlas-api is live, migrations 0001–0003 applied. One problem: the migration step printed an API key; please rotate it."},
		{Role: "user", Speaker: "Mia Chen", Content: "Ugh, that's the debug line I added while chasing a migration bug. Removing it and rotating the key now."},
		{Role: "assistant", Content: "Good. Keep it in fly secrets from now on, and check that deploy logs aren't forwarded anywhere public."},
		{Role: "user", Speaker: "Leo Park", Content: "What about monitoring? At Cascadia everyone uses Grafana and I'd like the same for Atlas."},
		{Role: "assistant", Content: "Fly exposes Prometheus metrics for every app, and you can add that as a data source in Grafana. Leo, do you want to own it?"},
		{Role: "user", Speaker: "Leo Park", Content: "yes, I'll set it up this weekend."},
		{Role: "assistant", Content: "Great. Summary for tonight: Leo has moved to Seattle, Mia adopted Kiwi, Mia switched to coffee, Atlas deploys on Fly.io."},
		{Role: "user", Speaker: "Mia Chen", Content: "Actually, the launch is not on May 20 — it moved to June 3rd. My sister Ana will visit in two weeks."},
		{Role: "assistant", Content: "Correction recorded: the Atlas launch moves from Monday 20 May 2024 to Monday 3 June 2024."},
		{Role: "user", Speaker: "Leo Park", Content: "I cancelled the Tuesday sync, we'll meet next Thursday instead."},
		{Role: "assistant", Content: "Noted: the sync moves to next Thursday."},
	}
	for i := range msgs {
		msgs[i].ID = uint64(100 + i)
		msgs[i].At = at(i)
	}
	return &model.ExtractInput{BlockID: 5, Thread: "team-atlas", Messages: msgs,
		Existing: []model.ExistingEvent{
			{ID: 7, Title: "Mia Chen is a tea person", Summary: "Mia Chen: I'm a tea person, coffee keeps me up all night.", EventType: "preference", Participants: []string{"Mia Chen"}, Quotes: []string{"I'm a tea person, coffee keeps me up all night."}},
			{ID: 9, Title: "May 20 works for me, it's a Monday", Summary: "Mia Chen: May 20 works for me, it's a Monday.", EventType: "plan", Participants: []string{"Mia Chen"}, Quotes: []string{"May 20 works for me, it's a Monday."}},
		}}
}

func TestExtractBenchBlockIsValid(t *testing.T) {
	in := benchBlock()
	raw, out := extractRaw(t, in)
	requireValidExtract(t, in, raw, out)
	assert.Greater(t, len(out.Events), 12, "statements without cues add cards")
}

func BenchmarkExtractBlock(b *testing.B) {
	in := benchBlock()
	m := heuristic.New()
	req := model.Request{Task: model.TaskExtractEvents, Input: in}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Complete(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExtractBlockWithEarlier extracts the bench block with 40
// earlier cards of its thread to compare with (what events.loadSource
// gives a block once its thread has that many).
func BenchmarkExtractBlockWithEarlier(b *testing.B) {
	in := benchBlock()
	m := heuristic.New()
	ctx := context.Background()
	first, err := m.Complete(ctx, model.Request{Task: model.TaskExtractEvents, Input: in})
	if err != nil {
		b.Fatal(err)
	}
	var out model.ExtractOutput
	if err := json.Unmarshal([]byte(first), &out); err != nil {
		b.Fatal(err)
	}
	with := *in
	for i := 0; len(with.Existing) < 40; i++ {
		e := out.Events[i%len(out.Events)]
		with.Existing = append(with.Existing, model.ExistingEvent{ID: uint64(i + 1), Title: e.Title, Summary: e.Summary,
			EventType: e.EventType, Participants: e.Participants, Entities: e.Entities, Quotes: e.Quotes})
	}
	req := model.Request{Task: model.TaskExtractEvents, Input: &with}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Complete(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExtractSampleLinks follows the sample turn by turn (and three turns
// at a time): exactly the planted corrections supersede, nothing
// conflicts.
func TestExtractSampleLinks(t *testing.T) {
	for _, n := range []int{1, 3} {
		_, outs, byID := chainSample(t, n, false)
		var got []string
		for _, out := range outs {
			for _, e := range out.Events {
				for _, id := range e.Supersedes {
					got = append(got, e.Quotes[0]+" => "+byID[id].Quotes[0])
				}
				assert.Empty(t, e.ConflictsWith, "%q", e.Quotes[0])
			}
		}
		assert.Equal(t, []string{
			"Actually, the launch is not on May 20 — it moved to June 3rd. => May 20 works for me, it's a Monday.",
			"I know, I know, I used to be a tea person. => I'm a tea person, coffee keeps me up all night.",
			"Updated: Mia now drinks coffee instead of tea. => I'm a tea person, coffee keeps me up all night.",
		}, got, "blocks of %d turns", n)
	}
}
