package heuristic_test

// Fuzz targets for the heuristic model's text paths. Each feeds arbitrary
// text through Complete and then through the code validation its caller
// applies before anything is stored: layers.ValidateDerived for L0–L2,
// events.Build for event cards, graph.Apply for graph ops. Nothing may
// panic; output built from valid UTF-8 must pass validation (the model's
// documented promise); output built from invalid UTF-8 (which Append never
// stores) may only be rejected with the validator's typed error.

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// fuzzSeeds are the corpus every target starts from: ordinary sentences
// of each kind the rules read, plus the shapes that once broke them.
var fuzzSeeds = []string{
	"I adopted a puppy last Saturday.\nThat's wonderful! What's her name?\nHer name is Pepper.",
	"My sister lives in Lisbon. We're painting the kitchen this weekend.",
	"Or maybe we just stay home.",
	"Mel (Melanie Ross) starts on Monday. Postgres, aka PG, is our database.",
	"We decided to switch from npm to pnpm on 3 May 2023.",
	"I'm moving to Seattle next month!\nI moved.",
	"Call me Pri. Hello from Osaka!",
	"我们下周去北京。\n好的",
	"'s\n.\n...\n?\n(",
	"a.k.a\nis short for\nalso known as",
	"The launch of Atlas is on May 20, not on May 21.",
	"",
}

// fuzzMessages splits text into at most 12 messages (one per line) of two
// alternating speakers, one minute apart.
func fuzzMessages(text, speaker string) []model.DeriveMessage {
	lines := strings.Split(text, "\n")
	if len(lines) > 12 {
		lines = lines[:12]
	}
	at := time.Date(2024, 5, 8, 19, 0, 0, 0, time.FixedZone("", -7*3600))
	msgs := make([]model.DeriveMessage, 0, len(lines))
	for i, l := range lines {
		m := model.DeriveMessage{ID: uint64(100 + i), Role: "user", Speaker: speaker, At: at.Add(time.Duration(i) * time.Minute), Content: l}
		if i%2 == 1 {
			m.Role, m.Speaker = "assistant", ""
		}
		msgs = append(msgs, m)
	}
	return msgs
}

func FuzzDeriveMessages(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "Ana Lima")
	}
	f.Fuzz(func(t *testing.T, text, speaker string) {
		in := &model.DeriveInput{BlockID: 1, Thread: "t", Messages: fuzzMessages(text, speaker)}
		raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskDeriveBlock, Input: in})
		require.NoError(t, err)
		var out model.DeriveOutput
		require.NoError(t, model.Decode(raw, &out), "raw: %s", raw)
		ids := make([]uint64, len(in.Messages))
		for i, m := range in.Messages {
			ids[i] = m.ID
		}
		require.NoError(t, layers.ValidateDerived(&out, ids), "raw: %s", raw)
	})
}

func FuzzExtract(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "Ana Lima", "Ana adopted a puppy")
	}
	f.Fuzz(func(t *testing.T, text, speaker, existing string) {
		msgs := fuzzMessages(text, speaker)
		in := &model.ExtractInput{BlockID: 2, Thread: "t", Messages: msgs,
			Existing: []model.ExistingEvent{{ID: 900, Title: existing, Summary: existing, EventType: "fact", Quotes: []string{existing}}}}
		raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskExtractEvents, Input: in})
		require.NoError(t, err)
		var out model.ExtractOutput
		require.NoError(t, model.Decode(raw, &out), "raw: %s", raw)
		src := events.Source{
			Block:    layers.Block{ID: 2, Thread: "t", Scope: "global", State: layers.StateReady},
			Existing: map[uint64]bool{900: true},
			Now:      msgs[len(msgs)-1].At,
		}
		for _, m := range msgs {
			src.Block.MessageIDs = append(src.Block.MessageIDs, m.ID)
			src.Messages = append(src.Messages, layers.Message{ID: m.ID, Thread: "t", Role: m.Role, Speaker: m.Speaker, Content: m.Content, At: m.At})
		}
		valid := utf8.ValidString(text) && utf8.ValidString(speaker)
		for i := range out.Events {
			_, err := events.Build(&out.Events[i], &src)
			if valid {
				require.NoError(t, err, "card %d of %s", i, raw)
			} else if err != nil {
				require.ErrorIs(t, err, events.ErrInvalidCard)
			}
		}
	})
}

// rejections records the ops graph.Apply refuses (it logs them and goes
// on); the projector promises that it proposes none.
type rejections struct {
	mu      sync.Mutex
	reasons []string
}

func (r *rejections) Enabled(context.Context, slog.Level) bool { return true }
func (r *rejections) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *rejections) WithGroup(string) slog.Handler            { return r }
func (r *rejections) Handle(_ context.Context, rec slog.Record) error {
	if !strings.Contains(rec.Message, "rejected") && !strings.Contains(rec.Message, "dropped") {
		return nil
	}
	msg := rec.Message
	rec.Attrs(func(a slog.Attr) bool {
		msg += " " + a.String()
		return true
	})
	r.mu.Lock()
	r.reasons = append(r.reasons, msg)
	r.mu.Unlock()
	return nil
}

func FuzzProject(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "Mia Chen", "Melanie Ross")
	}
	// One store per fuzzing process; every input is applied in a
	// transaction that is rolled back, so inputs do not see each other.
	db, err := kv.Open(filepath.Join(f.TempDir(), "fuzz.sg"), kv.Options{NoSync: true})
	require.NoError(f, err)
	f.Cleanup(func() { _ = db.Close() })
	f.Fuzz(func(t *testing.T, text, speaker, known string) {
		lines := strings.Split(text, "\n")
		if len(lines) > 12 {
			lines = lines[:12]
		}
		in := &model.ProjectInput{Nodes: []model.KnownNode{{ID: 3, Kind: "person", Name: known, Aliases: []string{known}}}}
		batch := &graph.Batch{Scope: "global", Events: map[uint64]*graph.BatchEvent{}}
		at := time.Date(2024, 5, 8, 19, 0, 0, 0, time.UTC)
		for i, l := range lines {
			id := uint64(10 + i)
			// Each line is one card; its halves stand for title and quote.
			title, quote, _ := strings.Cut(l, "|")
			in.Events = append(in.Events, model.ProjectEvent{
				ID: id, Title: title, Summary: speaker + ": " + quote, Quotes: []string{quote, l},
				EventType: "fact", Status: []string{"unknown", "planned", "completed", "cancelled"}[i%4],
				Participants: []string{speaker}, Speakers: []string{speaker}, Entities: []string{known},
				MentionedAt: at.Format(time.RFC3339), TimeText: title,
			})
			batch.Events[id] = &graph.BatchEvent{ID: id, MentionedAt: at, Speakers: []string{speaker}}
		}
		raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskProjectGraph, Input: in})
		require.NoError(t, err)
		var out model.ProjectOutput
		require.NoError(t, model.Decode(raw, &out), "raw: %s", raw)
		rej := &rejections{}
		tx, err := db.Bolt().Begin(true)
		require.NoError(t, err)
		defer func() { _ = tx.Rollback() }()
		batch.Now = at
		_, err = graph.Apply(tx, batch, out.Ops, slog.New(rej))
		require.NoError(t, err)
		valid := utf8.ValidString(text) && utf8.ValidString(speaker) && utf8.ValidString(known)
		if valid {
			require.Empty(t, rej.reasons, "raw: %s", raw)
		}
	})
}
