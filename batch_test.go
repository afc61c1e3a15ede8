package stratagate_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
	"github.com/stratagate/stratagate/wal"
)

// batchTurns is a workload over three threads (one with receipts reused
// for the same turn, to be answered Duplicate) of n turns.
func batchTurns(n int) []stratagate.Turn {
	var out []stratagate.Turn
	for i := range n {
		th := []string{"a", "b", "c"}[i%3]
		t := turn(th, i/3)
		if th == "c" {
			t.Scope = "project:x"
		}
		out = append(out, t)
		if i%17 == 5 {
			out = append(out, t) // a retry of the same turn: Duplicate
		}
	}
	return out
}

// dumpFile returns every key/value of every bucket of the file at path
// (nested buckets included), except those of the index buckets, which
// index.Compare checks instead (generation counters differ with batching).
func dumpFile(t *testing.T, path string) map[string]string {
	t.Helper()
	db, err := kv.Open(path, kv.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	out := map[string]string{}
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if bytes.HasPrefix(name, []byte("idx.")) {
				return nil
			}
			var walk func(prefix string, b *bolt.Bucket) error
			walk = func(prefix string, b *bolt.Bucket) error {
				return b.ForEach(func(k, v []byte) error {
					if v == nil {
						return walk(prefix+string(k)+"/", b.Bucket(k))
					}
					out[prefix+string(k)] = string(v)
					return nil
				})
			}
			return walk(string(name)+"/", b)
		})
	}))
	return out
}

// TestAppendBatchEqualsOneByOne: the same turns through AppendBatch (in
// batches of 1, 5 and 40) and through one Append each leave the same store,
// record for record, with the same receipts, sealed blocks and derived
// cards, and indexes equal to a rebuild. With a fixed clock job timestamps
// agree too; what differs is the model's measured latency in the jobs' and
// the file's usage records (wall time), and the index generation counters (index.Compare,
// through CheckIndexes, checks the indexes).
func TestAppendBatchEqualsOneByOne(t *testing.T) {
	fixed := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	// Jobs run once every turn is stored (the model holds its first call),
	// so that the order in which derivation enqueues its follow-up jobs
	// does not depend on how fast the runner keeps up.
	gates := []chan struct{}{make(chan struct{}), make(chan struct{})}
	opts := func(i int) *stratagate.Options {
		return &stratagate.Options{NoSync: true, Clock: func() time.Time { return fixed }, IndexBuffer: 64,
			Model: gatedModel{heuristic.New(), gates[i]}}
	}
	turns := batchTurns(150)
	one, onePath := openMem(t, opts(0))
	var oneRefs []stratagate.TurnRef
	for _, tr := range turns {
		ref, err := one.Append(ctx, tr)
		require.NoError(t, err)
		oneRefs = append(oneRefs, ref)
	}
	many, manyPath := openMem(t, opts(1))
	var manyRefs []stratagate.TurnRef
	for i, size := 0, 0; i < len(turns); i += size {
		size = min([]int{1, 5, 40}[(i/7)%3], len(turns)-i)
		refs, err := many.AppendBatch(ctx, turns[i:i+size])
		require.NoError(t, err)
		manyRefs = append(manyRefs, refs...)
	}
	require.Equal(t, oneRefs, manyRefs)
	dups := 0
	for _, r := range manyRefs {
		if r.Duplicate {
			dups++
		}
	}
	require.NotZero(t, dups)
	for i, m := range []*stratagate.Memory{one, many} {
		close(gates[i])
		waitIdle(t, m)
		require.NoError(t, m.CheckIndexes(ctx))
	}
	require.NoError(t, one.Close())
	require.NoError(t, many.Close())

	a, b := dumpFile(t, onePath), dumpFile(t, manyPath)
	require.Greater(t, len(a), 500)
	for k, v := range a {
		require.Contains(t, b, k)
		if strings.HasPrefix(k, "jobs/") {
			// Job records carry the model's measured usage (wall time).
			require.Equal(t, jobWithoutUsage(t, v), jobWithoutUsage(t, b[k]), "job %x", k)
			continue
		}
		if strings.HasPrefix(k, "meta/usage/") {
			require.Equal(t, withoutLatency(t, v), withoutLatency(t, b[k]), "record %q", k)
			continue
		}
		require.Equal(t, v, b[k], "record %q", k)
	}
	for k := range b {
		require.Contains(t, a, k)
	}
}

func TestAppendBatchAllOrNothing(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{NoSync: true})
	good := turn("t", 1)
	bad := turn("t", 2)
	bad.Messages[1].Content = "\xff"
	_, err := mem.AppendBatch(ctx, []stratagate.Turn{good, bad})
	require.ErrorIs(t, err, stratagate.ErrInvalidUTF8)
	require.ErrorContains(t, err, "turn 1")
	// A conflict found inside the transaction (a receipt reused for
	// another turn) fails the whole batch too.
	_, err = mem.Append(ctx, good)
	require.NoError(t, err)
	other := turn("t", 3)
	other.ReceiptID = good.ReceiptID
	_, err = mem.AppendBatch(ctx, []stratagate.Turn{turn("t", 4), other})
	require.ErrorIs(t, err, stratagate.ErrReceiptConflict)
	th, err := mem.Threads(ctx)
	require.NoError(t, err)
	require.Len(t, th, 1)
	require.Equal(t, uint64(1), th[0].Turns, "nothing of a refused batch is stored")
	hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: "Message 4", Scopes: []string{"global"}})
	require.NoError(t, err)
	for _, h := range hits {
		require.NotContains(t, h.Snippet, "Message 4", "a rolled-back batch left a searchable document")
	}
	refs, err := mem.AppendBatch(ctx, nil)
	require.NoError(t, err)
	require.Empty(t, refs)
	_, err = mem.AppendBatch(ctx, make([]stratagate.Turn, stratagate.MaxBatchTurns+1))
	require.ErrorIs(t, err, stratagate.ErrTooLarge)
	// After the refusals the store still takes turns, with dense ids.
	ref, err := mem.Append(ctx, turn("t", 5))
	require.NoError(t, err)
	require.Equal(t, []uint64{3, 4}, ref.MessageIDs)
	require.NoError(t, mem.CheckIndexes(ctx))
}

// TestBufferedSearch: buffered messages are searchable at once (read your
// writes) and rank exactly as they do once merged, and as in a store that
// merges at every commit; CheckIndexes and Verify hold with documents
// buffered.
func TestBufferedSearch(t *testing.T) {
	buffered, _ := openMem(t, &stratagate.Options{NoSync: true, IndexBuffer: 1 << 16})
	direct, _ := openMem(t, &stratagate.Options{NoSync: true, IndexBuffer: -1})
	for i, tr := range batchTurns(90) {
		for _, m := range []*stratagate.Memory{buffered, direct} {
			_, err := m.Append(ctx, tr)
			require.NoError(t, err)
		}
		if i%10 == 0 {
			q := stratagate.Query{Text: fmt.Sprintf("decision %d Postgres", i/3), Scopes: []string{"global", "project:x"}, Limit: 5}
			got, err := buffered.SearchRaw(ctx, q)
			require.NoError(t, err)
			want, err := direct.SearchRaw(ctx, q)
			require.NoError(t, err)
			require.Equal(t, want, got)
			require.NotEmpty(t, got)
		}
	}
	rep, err := buffered.Verify(ctx)
	require.NoError(t, err)
	require.True(t, rep.OK, "%v", rep.Violations)
	st, err := buffered.Stats(ctx)
	require.NoError(t, err)
	require.NoError(t, buffered.CheckIndexes(ctx)) // merges first
	q := stratagate.Query{Text: "Postgres Atlas", Scopes: []string{"global"}, Limit: 20}
	got, err := buffered.SearchRaw(ctx, q)
	require.NoError(t, err)
	want, err := direct.SearchRaw(ctx, q)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.NotZero(t, st.Messages)
}

// A lone writer commits on its own goroutine, so the committer only learns
// of its documents through a wake-up: the buffer is still merged when a
// commit fills it, and when it has waited a second after the last one.
func TestBufferMergedAfterDirectCommits(t *testing.T) {
	mem, _ := openMem(t, &stratagate.Options{NoSync: true, IndexBuffer: 16})
	persisted := func() int {
		cp := filepath.Join(t.TempDir(), "copy.sg")
		require.NoError(t, mem.CompactTo(ctx, cp))
		return rawIndexCount(t, cp)
	}
	appendN(t, mem, "e", 0, 8) // 16 messages: full
	require.Eventually(t, func() bool { return persisted() == 16 }, 10*time.Second, 20*time.Millisecond,
		"a full buffer is merged")
	_, err := mem.Append(ctx, turn("d", 0))
	require.NoError(t, err)
	require.Equal(t, 16, persisted(), "two documents wait in the buffer")
	require.Eventually(t, func() bool { return persisted() == 18 }, 10*time.Second, 50*time.Millisecond,
		"an idle buffer is merged")
	require.NoError(t, mem.CheckIndexes(ctx))
}

// A process that stops without merging (a crash: here the file is copied
// while the writer still holds documents in its buffer) loses nothing:
// a read-only Open ranks the unmerged messages from L5, and a writable
// Open re-indexes them so that the index equals a rebuild.
func TestBufferRecoveredFromL5(t *testing.T) {
	mem, path := openMem(t, &stratagate.Options{NoSync: true, IndexBuffer: 1 << 16})
	for _, tr := range batchTurns(30) {
		_, err := mem.Append(ctx, tr)
		require.NoError(t, err)
	}
	q := stratagate.Query{Text: "decision 7", Scopes: []string{"global", "project:x"}, Limit: 5}
	want, err := mem.SearchRaw(ctx, q)
	require.NoError(t, err)
	require.NotEmpty(t, want)
	copyPath := path + ".crash"
	require.NoError(t, mem.CompactTo(ctx, copyPath))
	persisted := rawIndexCount(t, copyPath)
	st, err := mem.Stats(ctx)
	require.NoError(t, err)
	require.Less(t, persisted, st.Messages, "the copy must hold unmerged messages for this test")

	ro, err := stratagate.Open(copyPath, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	got, err := ro.SearchRaw(ctx, q)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.NoError(t, ro.Close())

	var logs bytes.Buffer
	rw, err := stratagate.Open(copyPath, &stratagate.Options{NoSync: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.NoError(t, err)
	require.Contains(t, logs.String(), fmt.Sprintf("messages=%d", st.Messages-persisted), "Open re-indexed the unmerged messages")
	got, err = rw.SearchRaw(ctx, q)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.NoError(t, rw.CheckIndexes(ctx))
	require.NoError(t, rw.Close())
	require.Equal(t, st.Messages, rawIndexCount(t, copyPath))
}

// gatedModel holds every call until gate is closed.
type gatedModel struct {
	model.Model
	gate chan struct{}
}

func (g gatedModel) Complete(ctx context.Context, req model.Request) (string, error) {
	select {
	case <-g.gate:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	return g.Model.Complete(ctx, req)
}

// withoutLatency decodes a usage record and drops its measured latency.
func withoutLatency(t *testing.T, v string) map[string]any {
	t.Helper()
	var u map[string]any
	_, err := kv.Decode([]byte(v), &u, 1)
	require.NoError(t, err)
	delete(u, "l")
	return u
}

// jobWithoutUsage decodes a job record and clears its usage.
func jobWithoutUsage(t *testing.T, v string) wal.Job {
	t.Helper()
	var j wal.Job
	_, err := kv.Decode([]byte(v), &j, 1)
	require.NoError(t, err)
	j.Usage = model.Usage{}
	return j
}

// rawIndexCount is the raw index's persisted document count in the file.
func rawIndexCount(t *testing.T, path string) int {
	t.Helper()
	db, err := kv.Open(path, kv.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	var n int
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = index.New("raw", []index.Field{{Name: "text"}, {Name: "speaker"}}, index.Options{}).Count(tx)
		return err
	}))
	return n
}
