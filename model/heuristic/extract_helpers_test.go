package heuristic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// sampleFile mirrors testdata/conversation.json (see testdata/README.md).
type sampleFile struct {
	Threads []struct {
		Thread string `json:"thread"`
		Scope  string `json:"scope"`
		Turns  []struct {
			Receipt  string `json:"receipt"`
			Messages []struct {
				Role       string    `json:"role"`
				Speaker    string    `json:"speaker"`
				At         time.Time `json:"at"`
				Content    string    `json:"content"`
				ToolName   string    `json:"tool_name"`
				ToolCallID string    `json:"tool_call_id"`
			} `json:"messages"`
		} `json:"turns"`
	} `json:"threads"`
	Questions []struct {
		Question         string   `json:"question"`
		Answer           string   `json:"answer"`
		EvidenceReceipts []string `json:"evidence_receipts"`
	} `json:"questions"`
}

// sampleTurn is one turn of the sample with message ids assigned in file
// order (1, 2, ...).
type sampleTurn struct {
	thread, receipt string
	msgs            []model.DeriveMessage
}

func loadSample(t testing.TB) []sampleTurn {
	t.Helper()
	data, err := os.ReadFile("../../testdata/conversation.json")
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f sampleFile
	require.NoError(t, dec.Decode(&f))
	var turns []sampleTurn
	id := uint64(0)
	for _, th := range f.Threads {
		for _, tu := range th.Turns {
			st := sampleTurn{thread: th.Thread, receipt: tu.Receipt}
			for _, m := range tu.Messages {
				id++
				st.msgs = append(st.msgs, model.DeriveMessage{ID: id, Role: m.Role, Speaker: m.Speaker, ToolName: m.ToolName, At: m.At, Content: m.Content})
			}
			turns = append(turns, st)
		}
	}
	return turns
}

// sampleBlocks splits the sample into blocks of n turns (a thread's last
// block may be shorter; blocks never span threads) with the neighbouring
// blocks as context.
func sampleBlocks(t testing.TB, n int) []*model.ExtractInput {
	turns := loadSample(t)
	var blocks []*model.ExtractInput
	var threads []string
	for i := 0; i < len(turns); {
		j := i
		var msgs []model.DeriveMessage
		for j < len(turns) && j-i < n && turns[j].thread == turns[i].thread {
			msgs = append(msgs, turns[j].msgs...)
			j++
		}
		blocks = append(blocks, &model.ExtractInput{BlockID: uint64(len(blocks) + 1), Thread: turns[i].thread, Messages: msgs})
		threads = append(threads, turns[i].thread)
		i = j
	}
	for i, b := range blocks {
		if i > 0 && threads[i-1] == threads[i] {
			b.Before = blocks[i-1].Messages
		}
		if i+1 < len(blocks) && threads[i+1] == threads[i] {
			b.After = blocks[i+1].Messages
		}
	}
	return blocks
}

func TestDumpSample(t *testing.T) {
	if os.Getenv("EXTRACT_DUMP") == "" {
		t.Skip("set EXTRACT_DUMP=1 to print the sample's cards")
	}
	_, outs, _ := chainSample(t, 12, false)
	for i, out := range outs {
		js, _ := json.MarshalIndent(out, "", " ")
		t.Logf("block %d:\n%s", i+1, js)
	}
}

func extractRaw(t testing.TB, in any) (string, model.ExtractOutput) {
	t.Helper()
	raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskExtractEvents, Input: in})
	require.NoError(t, err)
	var out model.ExtractOutput
	require.NoError(t, model.Decode(raw, &out), "raw: %s", raw)
	return raw, out
}

// Limits the events package enforces on a proposed card.
const (
	evMaxTitleRunes   = 120
	evMaxSummaryRunes = 600
	evMaxTags         = 8
	evMaxQuoteRunes   = 500
	evMaxCites        = 8
	evMaxNames        = 12
	evMaxNameRunes    = 64
	maxEventsPerBlock = 48
)

var (
	eventTypes  = []string{"decision", "preference", "plan", "change", "cancellation", "meeting", "life_event", "activity", "task_completed", "incident", "migration", "fact", "other"}
	statuses    = []string{"completed", "planned", "cancelled", "ongoing", "unknown"}
	criticality = []string{"routine", "preference", "identity", "safety"}
)

// fold lower-cases s and collapses white space, as the events package
// does when it checks names.
func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// requireValidExtract checks out against every rule the events package
// applies, plus the heuristic model's stricter promises: exactly one quote
// that is a byte-exact substring of the one cited message, which is a
// user or assistant message of the target block and no tool call.
func requireValidExtract(t *testing.T, in *model.ExtractInput, raw string, out model.ExtractOutput) {
	t.Helper()
	require.True(t, utf8.ValidString(raw))
	require.LessOrEqual(t, len(out.Events), maxEventsPerBlock)
	byID := map[uint64]*model.DeriveMessage{}
	for i := range in.Messages {
		byID[in.Messages[i].ID] = &in.Messages[i]
	}
	offered := map[uint64]bool{}
	for _, e := range in.Existing {
		offered[e.ID] = true
	}
	text := func(field, s string, maxRunes int) {
		t.Helper()
		require.True(t, utf8.ValidString(s), "%s: invalid UTF-8", field)
		require.Equal(t, strings.TrimSpace(s), s, "%s: surrounding space", field)
		n := utf8.RuneCountInString(s)
		require.True(t, n >= 1 && n <= maxRunes, "%s: %d runes in %q", field, n, s)
	}
	for _, e := range out.Events {
		text("title", e.Title, 80)
		require.LessOrEqual(t, utf8.RuneCountInString(e.Title), evMaxTitleRunes)
		text("summary", e.Summary, 300)
		require.LessOrEqual(t, len(e.Tags), evMaxTags)
		for _, tag := range e.Tags {
			text("tag", tag, evMaxNameRunes)
		}
		require.Len(t, e.MessageIDs, 1, "one cited message")
		require.LessOrEqual(t, len(e.MessageIDs), evMaxCites)
		m, ok := byID[e.MessageIDs[0]]
		require.True(t, ok, "cites %d, which is not in Messages", e.MessageIDs[0])
		require.Contains(t, []string{"user", "assistant"}, m.Role, "cites a %s message", m.Role)
		require.Empty(t, m.ToolName, "cites a tool call")
		require.Len(t, e.Quotes, 1)
		q := e.Quotes[0]
		text("quote", q, evMaxQuoteRunes)
		require.True(t, strings.Contains(m.Content, q), "quote %q is not a substring of message %d", q, m.ID)
		require.Contains(t, eventTypes, e.EventType)
		require.Contains(t, statuses, e.Status)
		require.Contains(t, criticality, e.Criticality)
		names := func(field string, list []string, speakers bool) {
			require.LessOrEqual(t, len(list), evMaxNames, field)
			for _, n := range list {
				text(field, n, evMaxNameRunes)
				ok := (speakers && strings.EqualFold(m.Speaker, n)) || strings.Contains(fold(m.Content), fold(n))
				require.True(t, ok, "%s %q is neither the speaker nor in message %d", field, n, m.ID)
			}
		}
		names("participant", e.Participants, true)
		names("entity", e.Entities, false)
		require.NotContains(t, e.Participants, "assistant")
		if e.TimeText != "" {
			text("time_text", e.TimeText, evMaxTitleRunes)
			require.Contains(t, q, e.TimeText, "time text outside the quote")
		}
		for _, id := range append(slices.Clone(e.Supersedes), e.ConflictsWith...) {
			require.True(t, offered[id], "links to %d, which was not offered", id)
		}
	}
}

// chainSample extracts every block of n turns in order, offering each
// block the cards of the earlier blocks of its thread (newest first, ids
// 1000, 1001, ...) as Existing, as the events package does.
func chainSample(t *testing.T, n int, check bool) (ins []*model.ExtractInput, outs []model.ExtractOutput, byID map[uint64]model.ExtractedEvent) {
	t.Helper()
	byID = map[uint64]model.ExtractedEvent{}
	existing := map[string][]model.ExistingEvent{}
	next := uint64(1000)
	for _, in := range sampleBlocks(t, n) {
		in.Existing = slices.Clone(existing[in.Thread])
		slices.Reverse(in.Existing)
		raw, out := extractRaw(t, in)
		if check {
			requireValidExtract(t, in, raw, out)
		}
		for _, e := range out.Events {
			byID[next] = e
			existing[in.Thread] = append(existing[in.Thread], model.ExistingEvent{
				ID: next, Title: e.Title, Summary: e.Summary, EventType: e.EventType,
				Participants: e.Participants, Entities: e.Entities, Quotes: e.Quotes,
			})
			next++
		}
		ins, outs = append(ins, in), append(outs, out)
	}
	return ins, outs, byID
}

// turnInput returns the messages of the sample turns with the given
// receipts as one target block.
func turnInput(t *testing.T, receipts ...string) *model.ExtractInput {
	t.Helper()
	in := &model.ExtractInput{BlockID: 1, Thread: "t"}
	for _, tu := range loadSample(t) {
		if slices.Contains(receipts, tu.receipt) {
			in.Messages = append(in.Messages, tu.msgs...)
		}
	}
	require.NotEmpty(t, in.Messages, "receipts %v", receipts)
	return in
}

// eventQuoting returns the event whose quote contains s.
func eventQuoting(t *testing.T, out model.ExtractOutput, s string) model.ExtractedEvent {
	t.Helper()
	for _, e := range out.Events {
		if strings.Contains(e.Quotes[0], s) {
			return e
		}
	}
	js, _ := json.MarshalIndent(out, "", "  ")
	require.FailNow(t, "no event quotes "+s, "%s", js)
	return model.ExtractedEvent{}
}

// asExisting turns extracted events into existing events with ids from
// first on.
func asExisting(out model.ExtractOutput, first uint64) []model.ExistingEvent {
	var ex []model.ExistingEvent
	for i, e := range out.Events {
		ex = append(ex, model.ExistingEvent{
			ID: first + uint64(i), Title: e.Title, Summary: e.Summary, EventType: e.EventType,
			Participants: e.Participants, Entities: e.Entities, Quotes: e.Quotes,
		})
	}
	return ex
}
