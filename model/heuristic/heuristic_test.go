package heuristic_test

import (
	"context"
	"errors"
	"fmt"
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

// Limits the layers package enforces on derived output.
const (
	maxTitleRunes   = 80
	maxTags         = 8
	maxTagRunes     = 32
	maxSummaryRunes = 600
	maxFacts        = 12
	maxFactRunes    = 240
	maxFactCites    = 8
)

var (
	day1 = time.FixedZone("CET", 3600)
	day2 = time.FixedZone("PST", -8*3600)
)

// at returns 2024-03-04 plus min minutes in CET.
func at(min int) time.Time { return time.Date(2024, 3, 4, 9, min, 0, 0, day1) }

// realisticBlock is a 12-turn conversation plus one tool call and its
// result, spanning two calendar days.
func realisticBlock() *model.DeriveInput {
	return &model.DeriveInput{BlockID: 7, Thread: "mia/atlas", Messages: []model.DeriveMessage{
		{ID: 101, Role: "user", Speaker: "Mia Chen", At: at(0), Content: "Hi! I'm planning the storage layer for Atlas, our booking app. Should we go with Postgres or MongoDB?"},
		{ID: 102, Role: "assistant", At: at(1), Content: "For Atlas the bookings are relational: customers, rooms and reservations reference each other. Postgres handles that well with foreign keys and transactions, while MongoDB would make those joins awkward."},
		{ID: 103, Role: "user", Speaker: "Mia Chen", At: at(3), Content: "Makes sense. Our team already runs Postgres for the billing service, so ops know it."},
		{ID: 104, Role: "assistant", At: at(4), Content: "That is a strong argument. Reusing Postgres means one backup process and one set of dashboards."},
		{ID: 105, Role: "user", Speaker: "Mia Chen", At: at(6), Content: "Ok, decided. Let's use Postgres for Atlas. Where should we host it?"},
		{ID: 106, Role: "assistant", ToolName: "search_docs", At: at(6), Content: `{"query": "managed Postgres hosting Europe"}`},
		{ID: 107, Role: "tool", ToolName: "search_docs", At: at(7), Content: "Fly.io offers managed Postgres clusters in 30 regions. Supabase offers hosted Postgres with auth."},
		{ID: 108, Role: "assistant", At: at(7), Content: "Fly.io runs managed Postgres in Frankfurt, close to your users in Lisbon. Supabase is another option if you want auth included."},
		{ID: 109, Role: "user", Speaker: "Mia Chen", At: at(9), Content: "I prefer Fly.io, since the API already deploys there."},
		{ID: 110, Role: "assistant", At: at(10), Content: "Good choice. Plan: create the Postgres cluster on Fly.io this week, then migrate the schema."},
		{ID: 111, Role: "user", Speaker: "Mia Chen", At: at(12), Content: "The deadline for the migration is March 15.\nActually, make that March 22 — the launch moved a week."},
		{ID: 112, Role: "assistant", At: at(13), Content: "Noted: the migration deadline is March 22, and the launch is one week later than planned."},
		{ID: 113, Role: "user", Speaker: "Mia Chen", At: time.Date(2024, 3, 5, 8, 0, 0, 0, day2), Content: "Thanks! I'll tell Sam about Postgres tomorrow."},
		{ID: 114, Role: "assistant", At: time.Date(2024, 3, 5, 8, 1, 0, 0, day2), Content: "You're welcome. Good luck with the Atlas launch!"},
	}}
}

// derive runs the model on in and decodes its output strictly.
func derive(t testing.TB, in any) (string, model.DeriveOutput) {
	t.Helper()
	raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskDeriveBlock, Input: in})
	require.NoError(t, err)
	var out model.DeriveOutput
	require.NoError(t, model.Decode(raw, &out), "raw output: %s", raw)
	return raw, out
}

// requireValid checks out against every limit the layers package
// enforces, plus the stricter promises of the heuristic model.
func requireValid(t *testing.T, in *model.DeriveInput, raw string, out model.DeriveOutput) {
	t.Helper()
	require.True(t, utf8.ValidString(raw), "raw output is not valid UTF-8")
	text := func(field, s string, maxRunes int) {
		t.Helper()
		require.True(t, utf8.ValidString(s), "%s: invalid UTF-8", field)
		require.Equal(t, strings.TrimSpace(s), s, "%s: surrounding space", field)
		n := utf8.RuneCountInString(s)
		require.True(t, n >= 1 && n <= maxRunes, "%s: %d runes in %q", field, n, s)
	}
	text("title", out.Title, maxTitleRunes)
	text("summary", out.Summary, maxSummaryRunes)
	require.True(t, len(out.Tags) >= 1 && len(out.Tags) <= maxTags, "%d tags", len(out.Tags))
	seen := map[string]bool{}
	for _, tag := range out.Tags {
		text("tag", tag, maxTagRunes)
		require.Equal(t, strings.ToLower(tag), tag, "tag not lower-case")
		require.False(t, seen[tag], "duplicate tag %q", tag)
		seen[tag] = true
	}
	require.LessOrEqual(t, len(out.Facts), maxFacts)
	ids := map[uint64]bool{}
	for _, m := range in.Messages {
		ids[m.ID] = true
	}
	for i, f := range out.Facts {
		text(fmt.Sprintf("fact %d", i), f.Text, maxFactRunes)
		require.True(t, len(f.MessageIDs) >= 1 && len(f.MessageIDs) <= maxFactCites, "fact %d cites %d", i, len(f.MessageIDs))
		for _, id := range f.MessageIDs {
			require.True(t, ids[id], "fact %d cites unknown message %d", i, id)
		}
	}
}

// msgs builds user/assistant messages alternating, one per content.
func msgs(contents ...string) []model.DeriveMessage {
	out := make([]model.DeriveMessage, len(contents))
	for i, c := range contents {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		out[i] = model.DeriveMessage{ID: uint64(i + 1), Role: role, At: at(i), Content: c}
	}
	return out
}

func manyMessages(n int) []model.DeriveMessage {
	topics := []string{"Postgres", "Lisbon", "Pixel", "budget", "migration", "Kubernetes", "invoice", "coffee"}
	contents := make([]string, n)
	for i := range contents {
		contents[i] = fmt.Sprintf("Message %d is about %s and %s. We decided to revisit it on day %d!", i, topics[i%len(topics)], topics[(i*3+1)%len(topics)], i%7)
	}
	m := msgs(contents...)
	for i := range m {
		m[i].Speaker = fmt.Sprintf("Speaker %d", i%5)
	}
	return m
}

// longSpeakers has four speakers with 300-rune sentences, more than the
// summary can hold.
func longSpeakers() []model.DeriveMessage {
	m := make([]model.DeriveMessage, 4)
	for i := range m {
		m[i] = model.DeriveMessage{ID: uint64(i + 1), Role: "user", Speaker: fmt.Sprintf("S%d", i), Content: strings.Repeat("Atlas ", 50)}
	}
	return m
}

func TestDeriveValid(t *testing.T) {
	longWord := strings.Repeat("x", 1<<20)
	longText := strings.Repeat("We will migrate Atlas to Postgres on Friday at 3pm. ", (1<<20)/52)
	names := make([]string, 20)
	for i := range names {
		names[i] = "Z" + strings.Repeat(string(rune('a'+i)), 31)
	}
	tests := []struct {
		name string
		in   *model.DeriveInput
	}{
		{"no messages", &model.DeriveInput{BlockID: 1}},
		{"empty message slice", &model.DeriveInput{Messages: []model.DeriveMessage{}}},
		{"one message", &model.DeriveInput{Messages: msgs("Let's use Postgres for Atlas.")}},
		{"empty content", &model.DeriveInput{Messages: msgs("", "")}},
		{"whitespace only", &model.DeriveInput{Messages: msgs(" \n\t ", "\u3000\u00a0")}},
		{"stopwords only", &model.DeriveInput{Messages: msgs("ok thanks", "yes sure, hello!")}},
		{"punctuation and digits only", &model.DeriveInput{Messages: msgs("1. 2. 3.", "!!! ??? 42")}},
		{"200 messages", &model.DeriveInput{Messages: manyMessages(200)}},
		{"chinese only", &model.DeriveInput{Messages: msgs("我们决定下周把数据库迁移到Postgres。", "好的，数据库迁移计划在周五完成！", "数据库迁移之前需要备份。")}},
		{"single han characters", &model.DeriveInput{Messages: msgs("好 的 是 我", "书")}},
		{"only tool messages", &model.DeriveInput{Messages: []model.DeriveMessage{
			{ID: 5, Role: "tool", ToolName: "search", At: at(0), Content: "Postgres results: 3 hits."},
			{ID: 6, Role: "assistant", ToolName: "search", At: at(1), Content: `{"q":"postgres"}`},
		}}},
		{"system message only", &model.DeriveInput{Messages: []model.DeriveMessage{{ID: 9, Role: "system", Content: "You are helpful. We will launch tomorrow."}}}},
		{"upper-case roles", &model.DeriveInput{Messages: []model.DeriveMessage{{ID: 1, Role: "USER", Content: "Lisbon trip planned for May."}, {ID: 2, Role: " Assistant ", Content: "Lisbon in May is lovely."}}}},
		{"1 MiB single word", &model.DeriveInput{Messages: msgs(longWord)}},
		{"1 MiB of sentences", &model.DeriveInput{Messages: msgs(longText, "ok")}},
		{"1 MiB sentence without stops", &model.DeriveInput{Messages: msgs(strings.Repeat("decided Postgres ", (1<<20)/17))}},
		{"invalid utf-8", &model.DeriveInput{Messages: []model.DeriveMessage{
			{ID: 1, Role: "user", Speaker: "Mi\xffa", At: at(0), Content: "Let's use Post\xc3gres \xff\xfe tomorrow.\xed\xa0\x80"},
			{ID: 2, Role: "assistant", At: at(1), Content: "\xff\xff\xff"},
		}}},
		{"long speaker name", &model.DeriveInput{Messages: []model.DeriveMessage{{ID: 1, Role: "user", Speaker: strings.Repeat("Mia Chen ", 100), Content: "We moved the launch to June."}}}},
		{"long capitalised names", &model.DeriveInput{Messages: msgs("Meet " + strings.Join(names, " and ") + " tomorrow.")}},
		{"tokens over 32 runes", &model.DeriveInput{Messages: msgs("see " + strings.Repeat("ab", 40) + " and " + strings.Repeat("ä", 33))}},
		{"case folding oddities", &model.DeriveInput{Messages: msgs("We flew to İstanbul and met ǅemal at the ΣΊΣΥΦΟΣ office.", "İstanbul again with ǅemal.")}},
		{"emoji and marks", &model.DeriveInput{Messages: msgs("Café\u0301 🎉🎉 rocks 🚀.", "नमस्ते दुनिया, हम कल मिलेंगे।")}},
		{"zero and mixed times", &model.DeriveInput{Messages: []model.DeriveMessage{
			{ID: 1, Role: "user", Content: "Plan the Lisbon offsite."},
			{ID: 2, Role: "assistant", At: time.Date(2024, 12, 31, 23, 30, 0, 0, time.FixedZone("", -5*3600)), Content: "Lisbon offsite planned."},
			{ID: 3, Role: "user", At: time.Date(2025, 1, 1, 5, 0, 0, 0, time.UTC), Content: "Great."},
		}}},
		{"duplicate ids", &model.DeriveInput{Messages: []model.DeriveMessage{{ID: 1, Role: "user", Content: "Decided: Postgres."}, {ID: 1, Role: "user", Content: "Decided: Postgres, really."}}}},
		{"many facts", &model.DeriveInput{Messages: manyMessages(40)}},
		{"realistic", realisticBlock()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw, out := derive(t, tc.in)
			requireValid(t, tc.in, raw, out)
		})
	}
}

func TestDeriveEmpty(t *testing.T) {
	_, out := derive(t, &model.DeriveInput{BlockID: 3})
	assert.Equal(t, "Empty block", out.Title)
	assert.Equal(t, []string{"empty"}, out.Tags)
	assert.NotEmpty(t, out.Summary)
	assert.Empty(t, out.Facts)
}

func TestDeriveDeterministic(t *testing.T) {
	tests := []struct {
		name string
		in   *model.DeriveInput
	}{
		{"realistic", realisticBlock()},
		{"200 messages", &model.DeriveInput{Messages: manyMessages(200)}},
		{"ties everywhere", &model.DeriveInput{Messages: msgs("alpha beta gamma delta epsilon zeta eta theta", "theta eta zeta epsilon delta gamma beta alpha")}},
		{"chinese", &model.DeriveInput{Messages: msgs("数据库迁移计划下周开始。", "数据库迁移很重要。")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			first, _ := derive(t, tc.in)
			for range 3 {
				again, _ := derive(t, tc.in)
				require.Equal(t, first, again)
			}
		})
	}
}

func TestDeriveConcurrent(t *testing.T) {
	in := realisticBlock()
	want, _ := derive(t, in)
	var m heuristic.Model // the zero value is usable and shareable
	var wg sync.WaitGroup
	got := make([]string, 8)
	errs := make([]error, 8)
	for i := range got {
		wg.Go(func() {
			got[i], errs[i] = m.Complete(context.Background(), model.Request{Task: model.TaskDeriveBlock, Input: in})
		})
	}
	wg.Wait()
	for i := range got {
		require.NoError(t, errs[i])
		require.Equal(t, want, got[i])
	}
}

func TestDeriveInputForms(t *testing.T) {
	in := realisticBlock()
	byPtr, _ := derive(t, in)
	tests := []struct {
		name  string
		input any
	}{
		{"pointer", in},
		{"value", *in},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw, _ := derive(t, tc.input)
			require.Equal(t, byPtr, raw)
		})
	}
}

func TestDeriveRealistic(t *testing.T) {
	in := realisticBlock()
	raw, out := derive(t, in)
	requireValid(t, in, raw, out)
	t.Logf("output: %s", raw)

	t.Run("tags", func(t *testing.T) {
		assert.Contains(t, out.Tags, "postgres")
		assert.Contains(t, out.Tags, "atlas")
		assert.Contains(t, out.Tags, "fly.io")
		assert.Len(t, out.Tags, 5)
	})
	t.Run("title", func(t *testing.T) {
		assert.Equal(t, "Postgres, Atlas and Fly.io", out.Title)
	})
	t.Run("summary", func(t *testing.T) {
		assert.True(t, strings.HasPrefix(out.Summary, "2024-03-04 to 2024-03-05: Mia Chen: "), out.Summary)
		assert.Contains(t, out.Summary, " Assistant: ")
		assert.Less(t, strings.Index(out.Summary, "Mia Chen:"), strings.Index(out.Summary, "Assistant:"))
	})
	t.Run("facts", func(t *testing.T) {
		byText := map[string][]uint64{}
		for _, f := range out.Facts {
			byText[f.Text] = f.MessageIDs
		}
		assert.Equal(t, []uint64{105}, byText["Let's use Postgres for Atlas."])
		assert.Equal(t, []uint64{109}, byText["I prefer Fly.io, since the API already deploys there."])
		assert.Equal(t, []uint64{111}, byText["The deadline for the migration is March 15."])
		assert.Equal(t, []uint64{111}, byText["Actually, make that March 22 — the launch moved a week."])
		assert.Equal(t, []uint64{113}, byText["I'll tell Sam about Postgres tomorrow."])
	})
	t.Run("facts skip tool messages", func(t *testing.T) {
		for _, f := range out.Facts {
			assert.NotContains(t, f.MessageIDs, uint64(106))
			assert.NotContains(t, f.MessageIDs, uint64(107))
		}
	})
	t.Run("facts in message order", func(t *testing.T) {
		for i := 1; i < len(out.Facts); i++ {
			assert.LessOrEqual(t, out.Facts[i-1].MessageIDs[0], out.Facts[i].MessageIDs[0])
		}
	})
}

func TestDeriveRules(t *testing.T) {
	tests := []struct {
		name  string
		in    []model.DeriveMessage
		check func(t *testing.T, out model.DeriveOutput)
	}{
		{
			name: "stopwords and short words are not tags",
			in:   msgs("ok thanks, I think we should just get the Kafka cluster", "yes, the Kafka cluster"),
			check: func(t *testing.T, out model.DeriveOutput) {
				assert.Equal(t, []string{"kafka", "cluster"}, out.Tags)
			},
		},
		{
			name: "capitalised mid-sentence words beat equally frequent words",
			in:   msgs("the trip to Lisbon needs tickets"),
			check: func(t *testing.T, out model.DeriveOutput) {
				assert.Equal(t, "lisbon", out.Tags[0])
				assert.Equal(t, "Lisbon, tickets and trip", out.Title)
			},
		},
		{
			name: "sentence-initial capitals earn no bonus",
			in:   msgs("Tickets first. Then tickets twice, zebra zebra zebra."),
			check: func(t *testing.T, out model.DeriveOutput) {
				assert.Equal(t, []string{"zebra", "tickets", "twice"}, out.Tags)
				assert.Equal(t, "Zebra, tickets and twice", out.Title)
			},
		},
		{
			name: "ties are alphabetical",
			in:   msgs("delta charlie bravo"),
			check: func(t *testing.T, out model.DeriveOutput) {
				assert.Equal(t, []string{"bravo", "charlie", "delta"}, out.Tags)
			},
		},
		{
			name: "han bigrams",
			in:   msgs("数据库迁移。数据库备份。"),
			check: func(t *testing.T, out model.DeriveOutput) {
				// 数据 and 据库 occur twice, the rest once; ties sort by
				// UTF-8 bytes. The title skips bigrams that share a
				// character with one already chosen.
				assert.Equal(t, []string{"据库", "数据", "备份", "库备", "库迁"}, out.Tags)
				assert.Equal(t, "据库、备份、迁移", out.Title)
			},
		},
		{
			name: "no keywords falls back",
			in:   msgs("ok", "thanks!"),
			check: func(t *testing.T, out model.DeriveOutput) {
				assert.Equal(t, "Untitled block", out.Title)
				assert.Equal(t, []string{"untitled"}, out.Tags)
			},
		},
		{
			name: "tool-only summary",
			in: []model.DeriveMessage{
				{ID: 1, Role: "tool", ToolName: "x", At: at(0), Content: "result"},
			},
			check: func(t *testing.T, out model.DeriveOutput) {
				assert.Equal(t, "2024-03-04: 1 message with no user or assistant text.", out.Summary)
				assert.Empty(t, out.Facts)
			},
		},
		{
			name: "summary picks the most informative sentence per speaker",
			in: []model.DeriveMessage{
				{ID: 1, Role: "user", Speaker: "Ana", At: at(0), Content: "Hello there. Atlas needs Postgres."},
				{ID: 2, Role: "assistant", At: at(1), Content: "Sure! Postgres suits Atlas."},
				{ID: 3, Role: "user", Speaker: "Ana", At: at(2), Content: "Great"},
			},
			check: func(t *testing.T, out model.DeriveOutput) {
				assert.Equal(t, "2024-03-04: Ana: Atlas needs Postgres. Assistant: Postgres suits Atlas.", out.Summary)
			},
		},
		{
			name: "summary is cut at 600 runes with an ellipsis",
			in:   longSpeakers(),
			check: func(t *testing.T, out model.DeriveOutput) {
				assert.Equal(t, 600, utf8.RuneCountInString(out.Summary))
				assert.True(t, strings.HasSuffix(out.Summary, "…"))
			},
		},
		{
			name: "facts need a cue",
			in:   msgs("The sky is blue today.", "We will ship it on Friday.", "Nice weather here indeed."),
			check: func(t *testing.T, out model.DeriveOutput) {
				require.Len(t, out.Facts, 1)
				assert.Equal(t, model.DeriveFact{Text: "We will ship it on Friday.", MessageIDs: []uint64{2}}, out.Facts[0])
			},
		},
		{
			name: "may is a month only when capitalised",
			in:   msgs("It may rain on the hills.", "The fair opens in May this time."),
			check: func(t *testing.T, out model.DeriveOutput) {
				require.Len(t, out.Facts, 1)
				assert.Equal(t, uint64(2), out.Facts[0].MessageIDs[0])
			},
		},
		{
			name: "facts are deduplicated, capped at 12 and cleaned",
			in: msgs(
				"- We will   ship   on Friday.", "we will ship on friday.",
				"1 2 3", "Deadline is 1.", "Fact 2 here.", "Fact 3 here.", "Fact 4 here.", "Fact 5 here.",
				"Fact 6 here.", "Fact 7 here.", "Fact 8 here.", "Fact 9 here.", "Fact 10 here.", "Fact 11 here.",
				"Fact 12 here.", "Fact 13 here.",
			),
			check: func(t *testing.T, out model.DeriveOutput) {
				require.Len(t, out.Facts, 12)
				assert.Equal(t, "We will ship on Friday.", out.Facts[0].Text)
				assert.Equal(t, "Deadline is 1.", out.Facts[1].Text)
				assert.Equal(t, "Fact 11 here.", out.Facts[11].Text)
			},
		},
		{
			name: "long facts are cut at 240 runes",
			in:   msgs("We decided " + strings.Repeat("ä", 500)),
			check: func(t *testing.T, out model.DeriveOutput) {
				require.Len(t, out.Facts, 1)
				assert.Equal(t, 240, utf8.RuneCountInString(out.Facts[0].Text))
				assert.True(t, strings.HasSuffix(out.Facts[0].Text, "…"))
			},
		},
		{
			name: "chinese facts",
			in:   msgs("我们决定用Postgres。", "好的"),
			check: func(t *testing.T, out model.DeriveOutput) {
				require.Len(t, out.Facts, 1)
				assert.Equal(t, "我们决定用Postgres。", out.Facts[0].Text)
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &model.DeriveInput{Messages: tc.in}
			raw, out := derive(t, in)
			requireValid(t, in, raw, out)
			tc.check(t, out)
		})
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   *model.DeriveInput
	}{
		{"realistic", realisticBlock()},
		{"empty", &model.DeriveInput{}},
		{"html-ish", &model.DeriveInput{Messages: msgs(`We will use <Tags> & "quotes" \ tomorrow.`)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw, out := derive(t, tc.in)
			again, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskDeriveBlock, Input: tc.in})
			require.NoError(t, err)
			var out2 model.DeriveOutput
			require.NoError(t, model.Decode(again, &out2))
			require.Equal(t, out, out2)
			require.NotNil(t, out.Facts, "facts encode as [] rather than null")
			require.NotContains(t, raw, "\n")
		})
	}
}

func TestCompleteErrors(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	var nilInput *model.DeriveInput
	tests := []struct {
		name        string
		ctx         context.Context
		req         model.Request
		want        error
		unsupported bool
	}{
		{"cancelled", cancelled, model.Request{Task: model.TaskDeriveBlock, Input: realisticBlock()}, context.Canceled, false},
		{"deadline", expired, model.Request{Task: model.TaskDeriveBlock, Input: realisticBlock()}, context.DeadlineExceeded, false},
		{"unknown task", context.Background(), model.Request{Task: "extract_events", Input: realisticBlock()}, heuristic.ErrUnsupported, true},
		{"empty task", context.Background(), model.Request{}, heuristic.ErrUnsupported, true},
		{"import decisions are extmem's", context.Background(), model.Request{Task: model.TaskImportDecide, Input: &model.ImportDecideInput{}}, heuristic.ErrUnsupported, true},
		{"wrong input type", context.Background(), model.Request{Task: model.TaskDeriveBlock, Input: "hello"}, heuristic.ErrUnsupported, true},
		{"nil input", context.Background(), model.Request{Task: model.TaskDeriveBlock}, heuristic.ErrUnsupported, true},
		{"nil pointer input", context.Background(), model.Request{Task: model.TaskDeriveBlock, Input: nilInput}, heuristic.ErrUnsupported, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := heuristic.New().Complete(tc.ctx, tc.req)
			require.Error(t, err)
			assert.Empty(t, raw)
			assert.True(t, errors.Is(err, tc.want), "got %v", err)
			assert.Equal(t, tc.unsupported, errors.Is(err, heuristic.ErrUnsupported))
		})
	}
}

func TestName(t *testing.T) {
	assert.Equal(t, "heuristic", heuristic.New().Name())
	assert.Equal(t, "heuristic", heuristic.Model{}.Name())
}

func FuzzDeriveBlock(f *testing.F) {
	f.Add("Let's use Postgres for Atlas.", "Mia", "user")
	f.Add("数据库迁移计划下周开始。", "", "assistant")
	f.Add("\xff\xfe Actually, March 22.", "\xc3", "USER")
	f.Add("- * > ## 1. 2.", "  ", "tool")
	f.Fuzz(func(t *testing.T, content, speaker, role string) {
		in := &model.DeriveInput{Messages: []model.DeriveMessage{
			{ID: 1, Role: role, Speaker: speaker, Content: content},
			{ID: 2, Role: "assistant", Content: content + " " + content},
		}}
		raw, out := derive(t, in)
		requireValid(t, in, raw, out)
	})
}

func BenchmarkDeriveBlock(b *testing.B) {
	base := realisticBlock()
	in := &model.DeriveInput{BlockID: base.BlockID, Thread: base.Thread}
	for i := 0; len(in.Messages) < 24; i++ {
		m := base.Messages[i%len(base.Messages)]
		m.ID = uint64(1000 + i)
		in.Messages = append(in.Messages, m)
	}
	m := heuristic.New()
	req := model.Request{Task: model.TaskDeriveBlock, Input: in}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Complete(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
