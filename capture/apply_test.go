package capture_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/capture"
)

// oneByOne is a Store without AppendBatch (as a server client is): Apply
// appends its turns one at a time.
type oneByOne struct{ m *stratagate.Memory }

func (s oneByOne) Append(ctx context.Context, t stratagate.Turn) (stratagate.TurnRef, error) {
	return s.m.Append(ctx, t)
}
func (s oneByOne) Cursor(ctx context.Context, key string) (int64, error) {
	return s.m.Cursor(ctx, key)
}
func (s oneByOne) SetCursor(ctx context.Context, key string, off int64) error {
	return s.m.SetCursor(ctx, key, off)
}
func (s oneByOne) SearchEvents(ctx context.Context, q stratagate.Query) ([]stratagate.EventHit, error) {
	return s.m.SearchEvents(ctx, q)
}
func (s oneByOne) SearchRaw(ctx context.Context, q stratagate.Query) ([]stratagate.Hit, error) {
	return s.m.SearchRaw(ctx, q)
}
func (s oneByOne) Threads(ctx context.Context) ([]stratagate.Thread, error) {
	return s.m.Threads(ctx)
}

// applyBatchInput is 700 turns over three threads (three AppendBatch calls
// of 256 and one of 188) with what makes a batch fall back: a turn the store
// refuses (invalid UTF-8), a thread stored before under another scope, and
// turns whose receipts are stored already.
func applyBatchInput() capture.Batch {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var b capture.Batch
	for i := range 700 {
		th := fmt.Sprint("session-", i%3)
		content := fmt.Sprintf("turn %d of %s: we talked about the release plan", i, th)
		if i == 300 {
			content = "bad \xff text"
		}
		b.Turns = append(b.Turns, stratagate.Turn{
			Thread: th, Scope: "project:new", ReceiptID: fmt.Sprint("r", i),
			Messages: []stratagate.Message{
				{Role: "user", Content: content, At: at.Add(time.Duration(i) * time.Minute)},
				{Role: "assistant", Content: "noted: " + content, At: at.Add(time.Duration(i)*time.Minute + time.Second)},
			},
		})
		b.Origins = append(b.Origins, capture.Origin{Line: i + 1, Offset: int64(i * 100)})
	}
	b.Next = 70000
	return b
}

// openApplyTarget returns a memory holding what the batch runs into: thread
// session-2 under another scope, and the batch's first ten turns.
func openApplyTarget(t *testing.T, b capture.Batch) *stratagate.Memory {
	t.Helper()
	mem, err := stratagate.Open(filepath.Join(t.TempDir(), "m.sg"), &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = mem.Close() })
	_, err = mem.Append(t.Context(), stratagate.Turn{Thread: "session-2", Scope: "project:old", Messages: []stratagate.Message{
		{Role: "user", Content: "an earlier session", At: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}}})
	require.NoError(t, err)
	for _, tr := range b.Turns[:10] {
		if tr.Thread == "session-2" {
			tr.Scope = "project:old"
		}
		_, err := mem.Append(t.Context(), tr)
		require.NoError(t, err)
	}
	return mem
}

// Apply through AppendBatch stores what appending one by one stores and
// reports the same: the refused turn, the duplicates, the thread kept in
// its scope.
func TestApplyBatchesEqualOneByOne(t *testing.T) {
	b := applyBatchInput()
	batched, single := openApplyTarget(t, b), openApplyTarget(t, b)
	got, err := capture.Apply(t.Context(), batched, b, "/x/session.jsonl", "cursor")
	require.NoError(t, err)
	want, err := capture.Apply(t.Context(), oneByOne{m: single}, b, "/x/session.jsonl", "cursor")
	require.NoError(t, err)

	assert.Equal(t, want, got)
	assert.Equal(t, 689, got.Added)
	assert.Equal(t, 10, got.Duplicates)
	require.Len(t, got.Rejected, 1)
	assert.Equal(t, 301, got.Rejected[0].Origin.Line)

	ctx := t.Context()
	for _, m := range []*stratagate.Memory{batched, single} {
		require.NoError(t, m.WaitIdle(ctx))
		off, err := m.Cursor(ctx, "cursor")
		require.NoError(t, err)
		assert.Equal(t, int64(70000), off)
	}
	wt, err := single.Threads(ctx)
	require.NoError(t, err)
	gt, err := batched.Threads(ctx)
	require.NoError(t, err)
	for i := range wt { // the clock's reading when each was created
		wt[i].Created, gt[i].Created = time.Time{}, time.Time{}
	}
	assert.Equal(t, wt, gt)
	for _, th := range gt {
		if th.Name == "session-2" {
			assert.Equal(t, "project:old", th.Scope)
		}
	}
	ws, err := single.Stats(ctx)
	require.NoError(t, err)
	gs, err := batched.Stats(ctx)
	require.NoError(t, err)
	require.Equal(t, ws.Messages, gs.Messages)
	ids := make([]uint64, gs.Messages)
	for i := range ids {
		ids[i] = uint64(i + 1)
	}
	wm, err := single.Messages(ctx, ids...)
	require.NoError(t, err)
	gm, err := batched.Messages(ctx, ids...)
	require.NoError(t, err)
	assert.Equal(t, wm, gm, "message for message, ids and hashes included")
}

// An error that is not about a turn (here a cancelled context) stops Apply
// with nothing of the refused batch stored and the cursor where it was.
func TestApplyBatchStopsOnStoreError(t *testing.T) {
	b := applyBatchInput()
	mem := openApplyTarget(t, b)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err := capture.Apply(ctx, mem, b, "/x/session.jsonl", "cursor")
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
	assert.Zero(t, res.Added)
	off, err := mem.Cursor(t.Context(), "cursor")
	require.NoError(t, err)
	assert.Zero(t, off)

	again, err := capture.Apply(t.Context(), mem, b, "/x/session.jsonl", "cursor")
	require.NoError(t, err)
	assert.Equal(t, 689, again.Added, "the next run stores what the stopped one did not")
}

// BenchmarkApply imports 2,000 turns into a fresh memory with the default
// options (fsync per commit, as sgmcp import runs): one AppendBatch per
// 256 turns, against one Append per turn (a Store without AppendBatch).
// Background derivation is not waited for.
func BenchmarkApply(b *testing.B) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var batch capture.Batch
	for i := range 2000 {
		batch.Turns = append(batch.Turns, stratagate.Turn{
			Thread: fmt.Sprint("session-", i%4), Scope: "project:x", ReceiptID: fmt.Sprint("r", i),
			Messages: []stratagate.Message{
				{Role: "user", Content: fmt.Sprintf("step %d: run the migration and check the logs", i), At: at},
				{Role: "assistant", Content: fmt.Sprintf("step %d done, the logs are clean", i), At: at},
			},
		})
	}
	for _, mode := range []string{"AppendBatch", "Append"} {
		b.Run(mode, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				mem, err := stratagate.Open(filepath.Join(b.TempDir(), fmt.Sprint(i, ".sg")), nil)
				if err != nil {
					b.Fatal(err)
				}
				var st capture.Store = mem
				if mode == "Append" {
					st = oneByOne{m: mem}
				}
				b.StartTimer()
				res, err := capture.Apply(b.Context(), st, batch, "x.jsonl", "")
				if err != nil || res.Added != len(batch.Turns) {
					b.Fatal(err, res.Added, len(res.Rejected))
				}
				b.StopTimer()
				_ = mem.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(2000*b.N)/b.Elapsed().Seconds(), "turns/s")
		})
	}
}
