package stratagate_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/layers"
)

// TestAppendReceiptReusedForAnotherTurn: a receipt names one turn. The
// same turn again is a duplicate; another turn (messages, thread or scope)
// under it is ErrReceiptConflict and stores nothing.
func TestAppendReceiptReusedForAnotherTurn(t *testing.T) {
	mem, _ := openMem(t, nil)
	first := turn("t", 1)
	ref, err := mem.Append(ctx, first)
	require.NoError(t, err)

	// The same turn, even with clock-stamped times (zero At), is a
	// duplicate.
	again, err := mem.Append(ctx, turn("t", 1))
	require.NoError(t, err)
	assert.True(t, again.Duplicate)
	assert.Equal(t, ref.MessageIDs, again.MessageIDs)
	stamped := stratagate.Turn{Thread: "s", ReceiptID: "stamped", Messages: []stratagate.Message{{Role: "user", Content: "no time given"}}}
	_, err = mem.Append(ctx, stamped)
	require.NoError(t, err)
	dup, err := mem.Append(ctx, stamped)
	require.NoError(t, err)
	assert.True(t, dup.Duplicate, "a retry of a turn without times is the same turn")

	other := func(edit func(*stratagate.Turn)) stratagate.Turn {
		tr := turn("t", 1)
		tr.Messages = append([]stratagate.Message(nil), tr.Messages...)
		edit(&tr)
		return tr
	}
	for name, tr := range map[string]stratagate.Turn{
		"content":      other(func(tr *stratagate.Turn) { tr.Messages[0].Content = "something else entirely" }),
		"role":         other(func(tr *stratagate.Turn) { tr.Messages[1].Role = "system" }),
		"speaker":      other(func(tr *stratagate.Turn) { tr.Messages[0].Speaker = "Leo" }),
		"time":         other(func(tr *stratagate.Turn) { tr.Messages[0].At = tr.Messages[0].At.Add(time.Second) }),
		"offset":       other(func(tr *stratagate.Turn) { tr.Messages[0].At = tr.Messages[0].At.UTC() }),
		"one message":  other(func(tr *stratagate.Turn) { tr.Messages = tr.Messages[:1] }),
		"thread":       other(func(tr *stratagate.Turn) { tr.Thread = "u" }),
		"scope":        other(func(tr *stratagate.Turn) { tr.Scope = "project:x" }),
		"tool call id": other(func(tr *stratagate.Turn) { tr.Messages[1].ToolCallID = "c1" }),
	} {
		before, err := mem.Stats(ctx)
		require.NoError(t, err)
		_, err = mem.Append(ctx, tr)
		require.ErrorIs(t, err, stratagate.ErrReceiptConflict, name)
		assert.Contains(t, err.Error(), `"t-1"`, name)
		after, err := mem.Stats(ctx)
		require.NoError(t, err)
		assert.Equal(t, before.Buckets, after.Buckets, "%s: nothing stored", name)
	}
}

// TestAppendTimeOffsets: the year bound is on the UTC instant, and offsets
// beyond ±18h are refused; what is stored verifies.
func TestAppendTimeOffsets(t *testing.T) {
	mem, _ := openMem(t, nil)
	at := func(y int, mo time.Month, d, h int, offSec int) time.Time {
		return time.Date(y, mo, d, h, 0, 0, 0, time.FixedZone("", offSec))
	}
	msg := func(when time.Time) stratagate.Turn {
		return stratagate.Turn{Thread: "t", Messages: []stratagate.Message{{Role: "user", Content: "hello", At: when}}}
	}
	for name, when := range map[string]time.Time{
		"-4800h on 2261-12-31":         at(2261, 12, 31, 0, -4800*3600),
		"offset above 2^31 s":          at(2024, 1, 1, 0, 1<<31+5),
		"offset below -2^31 s":         at(2024, 1, 1, 0, -(1<<31)-5),
		"+18h01 (beyond ±18h)":         at(2024, 1, 1, 0, 18*3600+60),
		"-18h01":                       at(2024, 1, 1, 0, -18*3600-60),
		"local 2261, UTC 2262":         at(2261, 12, 31, 23, -2*3600),
		"local 1678, UTC 1677":         at(1678, 1, 1, 1, 2*3600),
		"year 1677 in UTC":             at(1677, 6, 1, 0, 0),
		"year 2262 in UTC":             at(2262, 1, 1, 0, 0),
		"nanosecond overflow of 2262+": time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		_, err := mem.Append(ctx, msg(when))
		require.ErrorIs(t, err, stratagate.ErrInvalidInput, name)
		require.ErrorIs(t, err, layers.ErrTimeRange, name)
		assert.Contains(t, err.Error(), "message 0", name)
	}
	s, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Zero(t, s.Buckets["messages"], "nothing stored")

	// Real offsets and the ±18h edges are kept as given and verify.
	for _, when := range []time.Time{
		at(2024, 1, 1, 0, 14*3600), at(2024, 1, 1, 0, -12*3600), at(2024, 1, 1, 0, 18*3600),
		at(2024, 1, 1, 0, -18*3600), at(2261, 12, 30, 0, 0), at(1678, 1, 2, 0, 0), at(2024, 1, 1, 0, 5*3600+45*60),
	} {
		ref, err := mem.Append(ctx, msg(when))
		require.NoError(t, err, when)
		got, err := mem.Messages(ctx, ref.MessageIDs[0])
		require.NoError(t, err)
		assert.True(t, got[0].At.Equal(when), when)
		_, o1 := got[0].At.Zone()
		_, o2 := when.Zone()
		assert.Equal(t, o2, o1, "offset kept")
	}
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
}

// TestNamesWithoutVisibleCharacters: white space only, invisible only and
// bidirectional controls are refused in thread names, scopes, speakers,
// tool fields and receipts; ordinary names with spaces and non-Latin
// letters pass.
func TestNamesWithoutVisibleCharacters(t *testing.T) {
	mem, _ := openMem(t, nil)
	bad := []string{" ", "\t \u3000", "\u00a0", "\u200b", "\u200b\u200d\ufeff", "\u2060", "\u202eabc", "ab\u202ccd", "x\u2066y\u2069", "\u200fname", "a\u061cb", "\u3164"}
	for _, s := range bad {
		tr := turn("ok", 1)
		tr.Thread = s
		_, err := mem.Append(ctx, tr)
		require.ErrorIs(t, err, stratagate.ErrInvalidInput, "thread %q", s)
		assert.Contains(t, err.Error(), "thread", "thread %q", s)

		tr = turn("ok", 1)
		tr.Scope = "project:" + s
		_, err = mem.Append(ctx, tr)
		require.ErrorIs(t, err, stratagate.ErrScope, "scope %q", s)

		tr = turn("ok", 1)
		tr.Messages = append([]stratagate.Message(nil), tr.Messages...)
		tr.Messages[0].Speaker = s
		_, err = mem.Append(ctx, tr)
		require.ErrorIs(t, err, stratagate.ErrInvalidInput, "speaker %q", s)
		assert.Contains(t, err.Error(), "speaker")

		tr = turn("ok", 1)
		tr.ReceiptID = s
		_, err = mem.Append(ctx, tr)
		require.ErrorIs(t, err, stratagate.ErrInvalidInput, "receipt %q", s)

		_, err = mem.SearchRaw(ctx, stratagate.Query{Text: "postgres", Thread: s})
		require.ErrorIs(t, err, stratagate.ErrInvalidInput, "query thread %q", s)
		_, err = mem.SearchRaw(ctx, stratagate.Query{Text: "postgres", Scopes: []string{"session:" + s}})
		require.ErrorIs(t, err, stratagate.ErrScope, "query scope %q", s)
	}
	s, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Zero(t, s.Buckets["threads"], "nothing stored")

	for _, name := range []string{"team atlas", "Zoë", "小组 讨论", "שלום", "مرحبا", "a\u200db"} {
		tr := turn(name, 1)
		tr.Scope = "project:" + name
		_, err := mem.Append(ctx, tr)
		require.NoError(t, err, name)
	}
}

// TestQueryFiltersAppliedByEveryChannel: every channel either applies a
// Query filter or refuses it, naming the field.
func TestQueryFiltersAppliedByEveryChannel(t *testing.T) {
	mem := sampleMemory(t)
	all := stratagate.Query{Text: "Postgres database Atlas", Scopes: atlasScopes, Limit: 50}
	evs, err := mem.SearchEvents(ctx, all)
	require.NoError(t, err)
	require.NotEmpty(t, evs)

	// Time bounds: SearchEvents applies them like SearchRaw.
	old := all
	old.From, old.To = time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1990, 12, 31, 0, 0, 0, 0, time.UTC)
	hits, err := mem.SearchEvents(ctx, old)
	require.NoError(t, err)
	assert.Empty(t, hits, "no card of 2024 is in 1990")
	raw, err := mem.SearchRaw(ctx, old)
	require.NoError(t, err)
	assert.Empty(t, raw)

	wide := all
	wide.From, wide.To = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	hits, err = mem.SearchEvents(ctx, wide)
	require.NoError(t, err)
	assert.Equal(t, ids(evs), ids(hits), "bounds around everything keep everything")

	// A bound inside the conversation keeps exactly the cards whose time
	// meets it.
	march := all
	march.From, march.To = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	hits, err = mem.SearchEvents(ctx, march)
	require.NoError(t, err)
	assert.Less(t, len(hits), len(evs))
	for _, h := range evs {
		start, end := h.HappenedStart, h.HappenedEnd
		if start.IsZero() {
			start, end = h.MentionedAt, h.MentionedAt.Add(time.Nanosecond)
		}
		if !end.After(start) {
			end = start.Add(time.Nanosecond)
		}
		in := !start.After(march.To) && end.After(march.From)
		assert.Equal(t, in, contains(ids(hits), h.ID), "card %d (%v–%v)", h.ID, start, end)
	}

	// Thread: an unknown thread is ErrNotFound on every channel.
	for name, search := range map[string]func(stratagate.Query) error{
		"raw":    func(q stratagate.Query) error { _, err := mem.SearchRaw(ctx, q); return err },
		"events": func(q stratagate.Query) error { _, err := mem.SearchEvents(ctx, q); return err },
		"graph":  func(q stratagate.Query) error { _, err := mem.SearchGraphNodes(ctx, q); return err },
	} {
		q := all
		q.Thread = "no-such-thread"
		assert.ErrorIs(t, search(q), stratagate.ErrNotFound, name)
	}
	// The graph keeps the nodes of the thread asked for.
	gq := stratagate.Query{Text: "Mia Atlas Postgres pnpm Kiwi", Scopes: atlasScopes, Limit: 50}
	nodes, err := mem.SearchGraphNodes(ctx, gq)
	require.NoError(t, err)
	require.NotEmpty(t, nodes)
	gq.Thread = "mia-personal"
	personal, err := mem.SearchGraphNodes(ctx, gq)
	require.NoError(t, err)
	assert.Less(t, len(personal), len(nodes), "nodes of team-atlas only are dropped")
	for _, n := range personal {
		d, err := mem.ExpandGraphNode(ctx, n.ID, time.Time{})
		require.NoError(t, err)
		found := false
		srcs := append([]uint64(nil), d.Node.SourceEventIDs...)
		for _, f := range d.Facts {
			srcs = append(srcs, f.SourceEventIDs...)
		}
		for _, e := range d.Edges {
			srcs = append(srcs, e.SourceEventIDs...)
		}
		for _, id := range srcs {
			ev, err := mem.ExpandEvent(ctx, id)
			require.NoError(t, err)
			found = found || ev.Card.Thread == "mia-personal"
		}
		assert.True(t, found, "node %d %q comes from the thread", n.ID, n.Name)
	}
	// The graph refuses time bounds, naming them.
	gq = stratagate.Query{Text: "Atlas", Scopes: atlasScopes, From: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	_, err = mem.SearchGraphNodes(ctx, gq)
	require.ErrorIs(t, err, stratagate.ErrInvalidInput)
	assert.Contains(t, err.Error(), "From/To")
}

func ids(hits []stratagate.EventHit) []uint64 {
	out := make([]uint64, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func contains(s []uint64, id uint64) bool {
	for _, x := range s {
		if x == id {
			return true
		}
	}
	return false
}

// TestReadOnlyLocking states what the package documentation promises: a
// writer excludes readers, readers exclude a writer, readers share.
func TestReadOnlyLocking(t *testing.T) {
	mem, path := openMem(t, nil)
	appendN(t, mem, "t", 1, 2)
	_, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true, LockTimeout: 30 * time.Millisecond})
	require.ErrorIs(t, err, stratagate.ErrLocked, "a writer holds the file exclusively")
	require.NoError(t, mem.Close())

	r1, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer r1.Close()
	r2, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true, LockTimeout: 30 * time.Millisecond})
	require.NoError(t, err, "readers share the file")
	defer r2.Close()
	_, err = stratagate.Open(path, &stratagate.Options{LockTimeout: 30 * time.Millisecond})
	require.ErrorIs(t, err, stratagate.ErrLocked, "a reader keeps a writer out")
}
