package layers_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/wal"
)

func validOutput() model.DeriveOutput {
	return model.DeriveOutput{
		Title:   "  Atlas moves to Postgres  ",
		Tags:    []string{" Postgres ", "ATLAS", "migration"},
		Summary: "\tMia asked whether Atlas should move to Postgres; the assistant said to migrate shard 1 first.\n",
		Facts: []model.DeriveFact{
			{Text: " Shard 1 migrates first ", MessageIDs: []uint64{2}},
			{Text: "Mia proposed Postgres", MessageIDs: []uint64{1, 3}},
		},
	}
}

func TestValidateDerived(t *testing.T) {
	blockMsgs := []uint64{1, 2, 3, 4}

	t.Run("valid output is trimmed and tags lower-cased", func(t *testing.T) {
		out := validOutput()
		require.NoError(t, layers.ValidateDerived(&out, blockMsgs))
		assert.Equal(t, "Atlas moves to Postgres", out.Title)
		assert.Equal(t, []string{"postgres", "atlas", "migration"}, out.Tags)
		assert.Equal(t, "Mia asked whether Atlas should move to Postgres; the assistant said to migrate shard 1 first.", out.Summary)
		assert.Equal(t, "Shard 1 migrates first", out.Facts[0].Text)
		assert.Equal(t, []uint64{2}, out.Facts[0].MessageIDs)
	})

	runes := func(n int) string { return strings.Repeat("é", n) } // 2 bytes each: limits are runes
	nTags := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "tag" + string(rune('a'+i))
		}
		return out
	}
	nFacts := func(n int) []model.DeriveFact {
		out := make([]model.DeriveFact, n)
		for i := range out {
			out[i] = model.DeriveFact{Text: "fact", MessageIDs: []uint64{1}}
		}
		return out
	}
	nCites := func(n int) []uint64 {
		out := make([]uint64, n)
		for i := range out {
			out[i] = blockMsgs[i%len(blockMsgs)]
		}
		return out
	}
	tests := []struct {
		name string
		mut  func(o *model.DeriveOutput)
		ok   bool
	}{
		{"80-rune title", func(o *model.DeriveOutput) { o.Title = runes(80) }, true},
		{"600-rune summary", func(o *model.DeriveOutput) { o.Summary = runes(600) }, true},
		{"8 tags", func(o *model.DeriveOutput) { o.Tags = nTags(8) }, true},
		{"32-rune tag", func(o *model.DeriveOutput) { o.Tags = []string{runes(32)} }, true},
		{"12 facts", func(o *model.DeriveOutput) { o.Facts = nFacts(12) }, true},
		{"0 facts", func(o *model.DeriveOutput) { o.Facts = nil }, true},
		{"240-rune fact", func(o *model.DeriveOutput) { o.Facts[0].Text = runes(240) }, true},
		{"8 cites", func(o *model.DeriveOutput) { o.Facts[0].MessageIDs = nCites(8) }, true},
		{"1 tag", func(o *model.DeriveOutput) { o.Tags = []string{"x"} }, true},

		{"empty title", func(o *model.DeriveOutput) { o.Title = "" }, false},
		{"blank title", func(o *model.DeriveOutput) { o.Title = " \t\n " }, false},
		{"81-rune title", func(o *model.DeriveOutput) { o.Title = runes(81) }, false},
		{"empty summary", func(o *model.DeriveOutput) { o.Summary = "" }, false},
		{"601-rune summary", func(o *model.DeriveOutput) { o.Summary = runes(601) }, false},
		{"0 tags", func(o *model.DeriveOutput) { o.Tags = nil }, false},
		{"9 tags", func(o *model.DeriveOutput) { o.Tags = nTags(9) }, false},
		{"duplicate tags", func(o *model.DeriveOutput) { o.Tags = []string{"go", "db", "go"} }, false},
		{"duplicate tags after lower-casing", func(o *model.DeriveOutput) { o.Tags = []string{"Go", "go"} }, false},
		{"duplicate tags after trimming", func(o *model.DeriveOutput) { o.Tags = []string{"go", " GO "} }, false},
		{"empty tag", func(o *model.DeriveOutput) { o.Tags = []string{"ok", " "} }, false},
		{"33-rune tag", func(o *model.DeriveOutput) { o.Tags = []string{runes(33)} }, false},
		{"13 facts", func(o *model.DeriveOutput) { o.Facts = nFacts(13) }, false},
		{"241-rune fact", func(o *model.DeriveOutput) { o.Facts[0].Text = runes(241) }, false},
		{"empty fact", func(o *model.DeriveOutput) { o.Facts[1].Text = "  " }, false},
		{"fact with 0 cites", func(o *model.DeriveOutput) { o.Facts[0].MessageIDs = nil }, false},
		{"fact with 9 cites", func(o *model.DeriveOutput) { o.Facts[0].MessageIDs = nCites(9) }, false},
		{"fact citing outside the block", func(o *model.DeriveOutput) { o.Facts[1].MessageIDs = []uint64{1, 5} }, false},
		{"fact citing message 0", func(o *model.DeriveOutput) { o.Facts[0].MessageIDs = []uint64{0} }, false},
		{"invalid UTF-8 in title", func(o *model.DeriveOutput) { o.Title = "Atlas \xff" }, false},
		{"invalid UTF-8 in summary", func(o *model.DeriveOutput) { o.Summary = "sum\xc3" }, false},
		{"invalid UTF-8 in fact", func(o *model.DeriveOutput) { o.Facts[0].Text = "\xe4\xbdfact" }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := validOutput()
			tc.mut(&out)
			err := layers.ValidateDerived(&out, blockMsgs)
			if tc.ok {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.True(t, errors.Is(err, layers.ErrInvalidDerivation), "want ErrInvalidDerivation, got %v", err)
		})
	}
	t.Run("no block messages: any cite fails", func(t *testing.T) {
		out := validOutput()
		assert.ErrorIs(t, layers.ValidateDerived(&out, nil), layers.ErrInvalidDerivation)
		out = validOutput()
		out.Facts = nil
		assert.NoError(t, layers.ValidateDerived(&out, nil))
	})
}

func TestValidateDerivedInvalidUTF8TagIsRejected(t *testing.T) {
	out := validOutput()
	out.Tags = []string{"Tag\xff"}
	err := layers.ValidateDerived(&out, []uint64{1, 2, 3})
	assert.ErrorIs(t, err, layers.ErrInvalidDerivation)
}

// fakeModel returns a fixed output and records the requests it saw.
type fakeModel struct {
	mu    sync.Mutex
	out   string
	err   error
	calls int
	reqs  []model.Request
}

func (f *fakeModel) Name() string { return "fake" }

func (f *fakeModel) Complete(ctx context.Context, req model.Request) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.reqs = append(f.reqs, req)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return f.out, f.err
}

func (f *fakeModel) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// deriveFixture is a DB with one sealed block of 2 turns (messages 1–4),
// one open turn (messages 5–6), and its queued derive job.
type deriveFixture struct {
	db    *kv.DB
	job   wal.Job
	block layers.Block
}

func newDeriveFixture(t *testing.T) deriveFixture {
	t.Helper()
	db := openDB(t)
	appendTurns(t, db, "t", "session:s1", 1, 3, 2)
	var f deriveFixture
	f.db = db
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		q, err := wal.Queue(tx)
		require.NoError(t, err)
		require.Len(t, q, 1)
		f.job = q[0]
		f.block, err = layers.GetBlock(tx, f.job.Target)
		return err
	}))
	require.Equal(t, []uint64{1, 2, 3, 4}, f.block.MessageIDs)
	return f
}

var readyNow = time.Date(2024, 3, 12, 8, 0, 0, 0, zoneIndia)

func jsonOut(t *testing.T, o model.DeriveOutput) string {
	t.Helper()
	b, err := json.Marshal(o)
	require.NoError(t, err)
	return string(b)
}

func messagesSnapshot(t *testing.T, db *kv.DB) map[string]string {
	t.Helper()
	all := snapshot(t, db)
	out := map[string]string{}
	for k, v := range all {
		if strings.HasPrefix(k, "messages") || strings.HasPrefix(k, "thread_spans") {
			out[k] = v
		}
	}
	return out
}

func TestDeriveHandlerSuccess(t *testing.T) {
	f := newDeriveFixture(t)
	fm := &fakeModel{out: "```json\n" + jsonOut(t, validOutput()) + "\n```"}
	h := layers.DeriveHandler(f.db, fm, func() time.Time { return readyNow })
	require.NotNil(t, h.Run)
	require.NotNil(t, h.OnFail)
	msgsBefore := messagesSnapshot(t, f.db)

	apply, err := h.Run(context.Background(), f.job)
	require.NoError(t, err)
	require.NotNil(t, apply)
	assert.Equal(t, 1, fm.Calls())

	t.Run("request", func(t *testing.T) {
		req := fm.reqs[0]
		assert.Equal(t, model.TaskDeriveBlock, req.Task)
		assert.NotEmpty(t, req.System)
		assert.True(t, strings.HasPrefix(req.Prompt, "Block:\n"))
		in, ok := req.Input.(*model.DeriveInput)
		require.True(t, ok, "Input is *model.DeriveInput, got %T", req.Input)
		assert.Equal(t, f.block.ID, in.BlockID)
		assert.Equal(t, "t", in.Thread)
		require.Len(t, in.Messages, 4)
		msgs := blockMessages(t, f.db, f.block)
		for i, m := range in.Messages {
			assert.Equal(t, msgs[i].ID, m.ID)
			assert.Equal(t, msgs[i].Role, m.Role)
			assert.Equal(t, msgs[i].Content, m.Content)
			assert.True(t, msgs[i].At.Equal(m.At))
		}
		var fromPrompt model.DeriveInput
		require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(req.Prompt, "Block:\n")), &fromPrompt))
		assert.Equal(t, f.block.ID, fromPrompt.BlockID)
		assert.Len(t, fromPrompt.Messages, 4)
	})

	t.Run("Run writes nothing", func(t *testing.T) {
		require.NoError(t, f.db.View(func(tx *bolt.Tx) error {
			b, err := layers.GetBlock(tx, f.block.ID)
			require.NoError(t, err)
			assert.Equal(t, layers.StatePending, b.State)
			return nil
		}))
	})

	require.NoError(t, f.db.Update(func(tx *bolt.Tx) error { return apply(tx) }))

	t.Run("block ready", func(t *testing.T) {
		var b layers.Block
		require.NoError(t, f.db.View(func(tx *bolt.Tx) error {
			var err error
			b, err = layers.GetBlock(tx, f.block.ID)
			return err
		}))
		assert.Equal(t, layers.StateReady, b.State)
		assert.Equal(t, "Atlas moves to Postgres", b.Title)
		assert.Equal(t, []string{"postgres", "atlas", "migration"}, b.Tags)
		assert.Equal(t, "Mia asked whether Atlas should move to Postgres; the assistant said to migrate shard 1 first.", b.Summary)
		assert.Equal(t, []layers.Fact{
			{Text: "Shard 1 migrates first", MessageIDs: []uint64{2}},
			{Text: "Mia proposed Postgres", MessageIDs: []uint64{1, 3}},
		}, b.Facts)
		assert.True(t, b.ReadyAt.Equal(readyNow), "ReadyAt %v", b.ReadyAt)
		assert.Equal(t, time.UTC, b.ReadyAt.Location())
		assert.Empty(t, b.Err)

		// Sealed levels and L5 untouched.
		assert.Equal(t, f.block.L3, b.L3)
		assert.Equal(t, f.block.L4, b.L4)
		assert.Equal(t, f.block.L5Hash, b.L5Hash)
		assert.Equal(t, f.block.MessageIDs, b.MessageIDs)
		assert.Equal(t, f.block.Seq, b.Seq)
		assert.True(t, f.block.CreatedAt.Equal(b.CreatedAt))
		assert.True(t, f.block.FirstAt.Equal(b.FirstAt))
		assert.Equal(t, offsetOf(f.block.FirstAt), offsetOf(b.FirstAt))
		assert.Equal(t, offsetOf(f.block.LastAt), offsetOf(b.LastAt))
		assert.Equal(t, msgsBefore, messagesSnapshot(t, f.db), "messages unchanged")
		msgs := blockMessages(t, f.db, b)
		assert.Equal(t, b.L5Hash, layers.L5Hash(msgs), "L5Hash still binds the messages")
		for _, m := range msgs {
			assert.Equal(t, m.Hash(), m.SHA256)
		}

		for lvl := range 6 {
			_, err := layers.Render(&b, lvl, msgs)
			assert.NoError(t, err, "L%d renders once ready", lvl)
		}
	})

	t.Run("already ready: no model call, no-op apply", func(t *testing.T) {
		before := snapshot(t, f.db)
		fm2 := &fakeModel{out: "garbage"}
		h2 := layers.DeriveHandler(f.db, fm2, time.Now)
		apply, err := h2.Run(context.Background(), f.job)
		require.NoError(t, err)
		require.NoError(t, f.db.Update(func(tx *bolt.Tx) error { return apply(tx) }))
		assert.Zero(t, fm2.Calls())
		assert.Equal(t, before, snapshot(t, f.db))
	})
}

func TestDeriveHandlerDoubleApplyKeepsFirst(t *testing.T) {
	f := newDeriveFixture(t)
	first := validOutput()
	second := validOutput()
	second.Title = "Second title"
	a1, err := layers.DeriveHandler(f.db, &fakeModel{out: jsonOut(t, first)}, func() time.Time { return readyNow }).Run(context.Background(), f.job)
	require.NoError(t, err)
	a2, err := layers.DeriveHandler(f.db, &fakeModel{out: jsonOut(t, second)}, time.Now).Run(context.Background(), f.job)
	require.NoError(t, err)
	require.NoError(t, f.db.Update(func(tx *bolt.Tx) error { return a1(tx) }))
	require.NoError(t, f.db.Update(func(tx *bolt.Tx) error { return a2(tx) }))
	require.NoError(t, f.db.View(func(tx *bolt.Tx) error {
		b, err := layers.GetBlock(tx, f.block.ID)
		require.NoError(t, err)
		assert.Equal(t, "Atlas moves to Postgres", b.Title, "L0–L2 are filled once")
		assert.True(t, b.ReadyAt.Equal(readyNow))
		return nil
	}))
}

func TestDeriveHandlerErrors(t *testing.T) {
	outside := validOutput()
	outside.Facts[0].MessageIDs = []uint64{5} // the open tail's message
	tooLongTitle := validOutput()
	tooLongTitle.Title = strings.Repeat("t", 81)
	modelErr := errors.New("network down")

	tests := []struct {
		name   string
		out    string
		err    error
		target uint64
		is     error
	}{
		{"bad JSON", "not json at all", nil, 0, model.ErrBadOutput},
		{"prose around JSON", "Sure! " + jsonOut(t, validOutput()), nil, 0, model.ErrBadOutput},
		{"unknown field", `{"title":"x","tags":["a"],"summary":"s","facts":[],"extra":1}`, nil, 0, model.ErrBadOutput},
		{"trailing data", jsonOut(t, validOutput()) + " {}", nil, 0, model.ErrBadOutput},
		{"wrong type", `{"title":1,"tags":["a"],"summary":"s","facts":[]}`, nil, 0, model.ErrBadOutput},
		{"citation outside block", jsonOut(t, outside), nil, 0, layers.ErrInvalidDerivation},
		{"title too long", jsonOut(t, tooLongTitle), nil, 0, layers.ErrInvalidDerivation},
		{"model error", "", modelErr, 0, modelErr},
		{"unknown block", jsonOut(t, validOutput()), nil, 999, kv.ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newDeriveFixture(t)
			before := snapshot(t, f.db)
			job := f.job
			if tc.target != 0 {
				job.Target = tc.target
			}
			fm := &fakeModel{out: tc.out, err: tc.err}
			h := layers.DeriveHandler(f.db, fm, func() time.Time { return readyNow })
			apply, err := h.Run(context.Background(), job)
			require.Error(t, err)
			assert.Nil(t, apply)
			assert.ErrorIs(t, err, tc.is)
			if tc.target != 0 {
				assert.Zero(t, fm.Calls(), "no model call for a missing block")
			}
			assert.Equal(t, before, snapshot(t, f.db), "nothing changes")
		})
	}

	t.Run("cancelled context", func(t *testing.T) {
		f := newDeriveFixture(t)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		h := layers.DeriveHandler(f.db, &fakeModel{out: jsonOut(t, validOutput())}, time.Now)
		_, err := h.Run(ctx, f.job)
		assert.ErrorIs(t, err, context.Canceled)
	})
}

func TestDeriveHandlerOnFail(t *testing.T) {
	f := newDeriveFixture(t)
	h := layers.DeriveHandler(f.db, &fakeModel{}, time.Now)
	require.NoError(t, f.db.Update(func(tx *bolt.Tx) error {
		return h.OnFail(tx, f.job, "model kept returning prose")
	}))
	var b layers.Block
	require.NoError(t, f.db.View(func(tx *bolt.Tx) error {
		var err error
		b, err = layers.GetBlock(tx, f.block.ID)
		return err
	}))
	assert.Equal(t, layers.StateFailed, b.State)
	assert.Equal(t, "model kept returning prose", b.Err)
	assert.Equal(t, f.block.L3, b.L3)
	assert.Equal(t, f.block.L4, b.L4)
	assert.Equal(t, f.block.L5Hash, b.L5Hash)
	assert.True(t, b.ReadyAt.IsZero())
	_, err := layers.Render(&b, 0, nil)
	assert.ErrorIs(t, err, layers.ErrNotReady)

	t.Run("unknown block is a no-op", func(t *testing.T) {
		before := snapshot(t, f.db)
		job := f.job
		job.Target = 12345
		require.NoError(t, f.db.Update(func(tx *bolt.Tx) error { return h.OnFail(tx, job, "x") }))
		assert.Equal(t, before, snapshot(t, f.db))
	})
}

func TestDeriveInput(t *testing.T) {
	msgs := renderMsgs()
	b := layers.Block{ID: 9, Thread: "th"}
	in := layers.DeriveInput(b, msgs)
	assert.Equal(t, uint64(9), in.BlockID)
	assert.Equal(t, "th", in.Thread)
	require.Len(t, in.Messages, len(msgs))
	for i, m := range msgs {
		dm := in.Messages[i]
		assert.Equal(t, model.DeriveMessage{ID: m.ID, Role: m.Role, Speaker: m.Speaker, ToolName: m.ToolName, At: m.At, Content: m.Content}, dm)
	}
}
