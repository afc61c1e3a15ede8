package stratagate_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
	"github.com/stratagate/stratagate/layers"
)

// badCase is one entry of the bad-input catalogue: a call that must fail
// with every sentinel of want, with a message containing msg, and change
// nothing in the file.
type badCase struct {
	name string
	call func() error
	want []error
	msg  string
}

// requireSameContents fails with the first keys that differ.
func requireSameContents(t *testing.T, before, after map[string]string) {
	t.Helper()
	var diff []string
	for k, v := range before {
		if w, ok := after[k]; !ok {
			diff = append(diff, "removed "+k)
		} else if w != v {
			diff = append(diff, "changed "+k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			diff = append(diff, "added "+k)
		}
	}
	slices.Sort(diff)
	require.Empty(t, diff, "the file's contents changed")
}

// TestBadInputCatalogue: every bad input of the public API gets its typed
// error (errors.Is), a message saying what was wrong, and leaves every
// bucket's keys and values as they were.
func TestBadInputCatalogue(t *testing.T) {
	mem, path := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)

	// Fixtures, made before the snapshot: the session prefix is drawn (a
	// Memory's first session writes it once), an assessment citing e1 is
	// recorded, and two batches are assessed but not recorded.
	_, err := mem.NewSession(ctx, nil, gate.Budget{})
	require.NoError(t, err)
	evs := allEventIDs(t, mem)
	require.GreaterOrEqual(t, len(evs), 2)
	e1, e2 := evs[0], evs[1]
	aid := sufficientAssessment(t, mem, []uint64{e1}, nil)
	pb, pa := assessedBatch(t, mem, gate.Partial, []uint64{e1}, nil)
	sb, sa := assessedBatch(t, mem, gate.Sufficient, []uint64{e2}, nil)
	blocks, err := mem.Blocks(ctx, "team-atlas")
	require.NoError(t, err)
	require.NotEmpty(t, blocks)
	sampleTurn := loadSample(t).Turns()[0]
	waitIdle(t, mem)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	expired, cancel2 := context.WithDeadline(ctx, time.Unix(1, 0))
	defer cancel2()
	dir := t.TempDir()
	existing := filepath.Join(dir, "exists.sg")
	require.NoError(t, os.WriteFile(existing, []byte("keep"), 0o600))

	// Turn builders: a valid turn on a new thread, edited.
	good := func() stratagate.Turn {
		return stratagate.Turn{Thread: "new", ReceiptID: "new-1", Messages: []stratagate.Message{
			{Role: "user", Speaker: "Ana", Content: "Let us meet on Friday.", At: base},
			{Role: "assistant", Speaker: "assistant", Content: "Friday it is.", At: base.Add(time.Second)},
		}}
	}
	edit := func(f func(*stratagate.Turn)) func() error {
		return func() error {
			tr := good()
			f(&tr)
			_, err := mem.Append(ctx, tr)
			return err
		}
	}
	msg0 := func(f func(*stratagate.Message)) func() error {
		return edit(func(tr *stratagate.Turn) { f(&tr.Messages[0]) })
	}
	zone := func(sec int) *time.Location { return time.FixedZone("", sec) }
	q := func(f func(*stratagate.Query)) stratagate.Query {
		qq := stratagate.Query{Text: "Postgres", Scopes: atlasScopes}
		f(&qq)
		return qq
	}
	raw := func(qq stratagate.Query) func() error {
		return func() error { _, err := mem.SearchRaw(ctx, qq); return err }
	}
	evq := func(qq stratagate.Query) func() error {
		return func() error { _, err := mem.SearchEvents(ctx, qq); return err }
	}
	graphq := func(qq stratagate.Query) func() error {
		return func() error { _, err := mem.SearchGraphNodes(ctx, qq); return err }
	}
	use := func(u stratagate.Use) func() error { return func() error { return mem.RecordMemoryUse(ctx, u) } }
	ask := func(c context.Context, question string, o stratagate.AskOptions) func() error {
		return func() error { _, err := mem.Ask(c, question, o); return err }
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	inv, empty, utf, big, role := stratagate.ErrInvalidInput, stratagate.ErrEmpty, stratagate.ErrInvalidUTF8, stratagate.ErrTooLarge, stratagate.ErrUnknownRole
	scope, notFound, canceled := stratagate.ErrScope, stratagate.ErrNotFound, stratagate.ErrCanceled

	cases := []badCase{
		// Append: thread names.
		{"thread empty", edit(func(tr *stratagate.Turn) { tr.Thread = "" }), []error{inv, empty}, "thread is empty"},
		{"thread invalid UTF-8", edit(func(tr *stratagate.Turn) { tr.Thread = "a\xffb" }), []error{inv, utf}, "thread"},
		{"thread NUL", edit(func(tr *stratagate.Turn) { tr.Thread = "a\x00b" }), []error{inv}, "control character"},
		{"thread newline", edit(func(tr *stratagate.Turn) { tr.Thread = "a\nb" }), []error{inv}, "control character"},
		{"thread white space", edit(func(tr *stratagate.Turn) { tr.Thread = " \u3000 " }), []error{inv}, "no visible character"},
		{"thread zero-width", edit(func(tr *stratagate.Turn) { tr.Thread = "\u200b\u200c" }), []error{inv}, "no visible character"},
		{"thread RLO", edit(func(tr *stratagate.Turn) { tr.Thread = "invoice\u202egpj.exe" }), []error{inv}, "U+202E"},
		{"thread 257 bytes", edit(func(tr *stratagate.Turn) { tr.Thread = long(257) }), []error{inv, big}, "limit 256"},
		// Append: scopes.
		{"scope unknown kind", edit(func(tr *stratagate.Turn) { tr.Scope = "team:x" }), []error{scope}, "want global"},
		{"scope empty name", edit(func(tr *stratagate.Turn) { tr.Scope = "project:" }), []error{scope}, "1–128"},
		{"scope name 129 bytes", edit(func(tr *stratagate.Turn) { tr.Scope = "project:" + long(129) }), []error{scope}, "1–128"},
		{"scope invalid UTF-8", edit(func(tr *stratagate.Turn) { tr.Scope = "session:\xc3" }), []error{scope}, "UTF-8"},
		{"scope NUL", edit(func(tr *stratagate.Turn) { tr.Scope = "session:a\x00" }), []error{scope}, "control"},
		{"scope white space", edit(func(tr *stratagate.Turn) { tr.Scope = "project:  " }), []error{scope}, "no visible"},
		{"scope bidi", edit(func(tr *stratagate.Turn) { tr.Scope = "project:a\u2067b" }), []error{scope}, "U+2067"},
		{"scope other than the thread's", edit(func(tr *stratagate.Turn) { tr.Thread, tr.ReceiptID = "team-atlas", "" }), []error{scope}, "project:atlas"},
		{"scope upper case", edit(func(tr *stratagate.Turn) { tr.Scope = "Global" }), []error{scope}, "want global"},
		// Append: receipts.
		{"receipt NUL", edit(func(tr *stratagate.Turn) { tr.ReceiptID = "r\x00" }), []error{inv}, "receipt id"},
		{"receipt 257 bytes", edit(func(tr *stratagate.Turn) { tr.ReceiptID = long(257) }), []error{inv, big}, "receipt id"},
		{"receipt invalid UTF-8", edit(func(tr *stratagate.Turn) { tr.ReceiptID = "\xfe" }), []error{inv, utf}, "receipt id"},
		{"receipt white space", edit(func(tr *stratagate.Turn) { tr.ReceiptID = "  " }), []error{inv}, "receipt id"},
		{"receipt reused for another turn", func() error {
			tr := sampleTurn
			tr.Messages = slices.Clone(tr.Messages)
			tr.Messages[0].Content += " (edited)"
			_, err := mem.Append(ctx, tr)
			return err
		}, []error{stratagate.ErrReceiptConflict}, sampleTurn.ReceiptID},
		// Append: messages.
		{"no messages", edit(func(tr *stratagate.Turn) { tr.Messages = nil }), []error{inv, empty}, "no messages"},
		{"257 messages", edit(func(tr *stratagate.Turn) {
			for len(tr.Messages) < stratagate.DefaultMaxTurnMessages+1 {
				tr.Messages = append(tr.Messages, tr.Messages[0])
			}
		}), []error{inv, big}, "limit 256"},
		{"role unknown", msg0(func(m *stratagate.Message) { m.Role = "admin" }), []error{inv, role}, `"admin"`},
		{"role empty", msg0(func(m *stratagate.Message) { m.Role = "" }), []error{inv, role}, "role"},
		{"role upper case", msg0(func(m *stratagate.Message) { m.Role = "User" }), []error{inv, role}, `"User"`},
		{"content empty", msg0(func(m *stratagate.Message) { m.Content = "" }), []error{inv, empty}, "content is empty"},
		{"content white space", msg0(func(m *stratagate.Message) { m.Content = " \n\t " }), []error{inv, empty}, "content is empty"},
		{"content invalid UTF-8", msg0(func(m *stratagate.Message) { m.Content = "caf\xe9" }), []error{inv, utf}, "content"},
		{"content 1 MiB + 1", msg0(func(m *stratagate.Message) { m.Content = long(stratagate.DefaultMaxMessageBytes + 1) }), []error{inv, big}, "limit 1048576"},
		{"speaker NUL", msg0(func(m *stratagate.Message) { m.Speaker = "A\x00" }), []error{inv}, "speaker"},
		{"speaker bidi", msg0(func(m *stratagate.Message) { m.Speaker = "\u202dAna" }), []error{inv}, "speaker"},
		{"speaker zero-width", msg0(func(m *stratagate.Message) { m.Speaker = "\ufeff" }), []error{inv}, "speaker"},
		{"tool name invalid UTF-8", msg0(func(m *stratagate.Message) { m.ToolName = "\xff" }), []error{inv, utf}, "tool name"},
		{"tool call id 257 bytes", msg0(func(m *stratagate.Message) { m.ToolCallID = long(257) }), []error{inv, big}, "tool call id"},
		// Append: times.
		{"time year 1677", msg0(func(m *stratagate.Message) { m.At = time.Date(1677, 1, 1, 0, 0, 0, 0, time.UTC) }), []error{inv, layers.ErrTimeRange}, "1678–2261"},
		{"time year 2262", msg0(func(m *stratagate.Message) { m.At = time.Date(2262, 1, 1, 0, 0, 0, 0, time.UTC) }), []error{inv, layers.ErrTimeRange}, "1678–2261"},
		{"time offset +18h01", msg0(func(m *stratagate.Message) { m.At = time.Date(2024, 1, 1, 0, 0, 0, 0, zone(18*3600+60)) }), []error{inv, layers.ErrTimeRange}, "±18h"},
		{"time offset -4800h", msg0(func(m *stratagate.Message) { m.At = time.Date(2261, 12, 31, 0, 0, 0, 0, zone(-4800*3600)) }), []error{inv, layers.ErrTimeRange}, "offset"},
		{"time local 2261, UTC 2262", msg0(func(m *stratagate.Message) { m.At = time.Date(2261, 12, 31, 23, 0, 0, 0, zone(-2*3600)) }), []error{inv, layers.ErrTimeRange}, "UTC year 2262"},
		// Append: contexts.
		{"append cancelled", func() error { _, err := mem.Append(cancelled, good()); return err }, []error{canceled, context.Canceled}, "canceled"},
		{"append past deadline", func() error { _, err := mem.Append(expired, good()); return err }, []error{canceled, context.DeadlineExceeded}, "deadline"},

		// Queries, every channel.
		{"raw: text empty", raw(q(func(q *stratagate.Query) { q.Text = "" })), []error{inv, empty}, "query text is empty"},
		{"events: text white space", evq(q(func(q *stratagate.Query) { q.Text = "  \t" })), []error{inv, empty}, "query text is empty"},
		{"graph: text invalid UTF-8", graphq(q(func(q *stratagate.Query) { q.Text = "\xff\xfe" })), []error{inv, utf}, "query text"},
		{"raw: text 4097 bytes", raw(q(func(q *stratagate.Query) { q.Text = long(stratagate.MaxQueryBytes + 1) })), []error{inv, big}, "limit 4096"},
		{"events: limit -1", evq(q(func(q *stratagate.Query) { q.Limit = -1 })), []error{inv}, "limit -1"},
		{"graph: limit 201", graphq(q(func(q *stratagate.Query) { q.Limit = stratagate.MaxLimit + 1 })), []error{inv}, "limit 201"},
		{"raw: scope malformed", raw(q(func(q *stratagate.Query) { q.Scopes = []string{"project"} })), []error{scope}, `"project"`},
		{"events: scope NUL", evq(q(func(q *stratagate.Query) { q.Scopes = []string{"global", "session:\x00"} })), []error{scope}, "control"},
		{"graph: thread NUL", graphq(q(func(q *stratagate.Query) { q.Thread = "t\x00" })), []error{inv}, "thread"},
		{"raw: thread zero-width", raw(q(func(q *stratagate.Query) { q.Thread = "\u2060" })), []error{inv}, "no visible"},
		{"events: To before From", evq(q(func(q *stratagate.Query) { q.From, q.To = base, base.Add(-time.Hour) })), []error{inv}, "To"},
		{"graph: time bounds", graphq(q(func(q *stratagate.Query) { q.To = base })), []error{inv}, "From/To"},
		{"raw: unknown thread", raw(q(func(q *stratagate.Query) { q.Thread = "nobody" })), []error{notFound}, `"nobody"`},
		{"events: unknown thread", evq(q(func(q *stratagate.Query) { q.Thread = "nobody" })), []error{notFound}, `"nobody"`},
		{"graph: unknown thread", graphq(q(func(q *stratagate.Query) { q.Thread = "nobody" })), []error{notFound}, `"nobody"`},
		{"raw: cancelled", func() error { _, err := mem.SearchRaw(cancelled, q(func(*stratagate.Query) {})); return err }, []error{canceled, context.Canceled}, "canceled"},
		{"graph: past deadline", func() error { _, err := mem.SearchGraphNodes(expired, q(func(*stratagate.Query) {})); return err }, []error{canceled, context.DeadlineExceeded}, "deadline"},

		// Blocks, levels, context, ids.
		{"level 6", func() error { _, err := mem.ExpandBlock(ctx, blocks[0].ID, 6); return err }, []error{inv, stratagate.ErrLevel}, "got 6"},
		{"level -1", func() error { _, err := mem.ExpandBlock(ctx, blocks[0].ID, -1); return err }, []error{inv, stratagate.ErrLevel}, "got -1"},
		{"block id 0", func() error { _, err := mem.ExpandBlock(ctx, 0, 4); return err }, []error{notFound}, "block 0"},
		{"block id unknown", func() error { _, err := mem.ExpandBlock(ctx, 1<<40, 4); return err }, []error{notFound}, "block"},
		{"blocks of unknown thread", func() error { _, err := mem.Blocks(ctx, "nobody"); return err }, []error{notFound}, `"nobody"`},
		{"context budget 0", func() error { _, err := mem.Context(ctx, "team-atlas", 0); return err }, []error{inv}, "budget 0"},
		{"context budget -1", func() error { _, err := mem.Context(ctx, "team-atlas", -1); return err }, []error{inv}, "budget -1"},
		{"context unknown thread", func() error { _, err := mem.Context(ctx, "nobody", 100); return err }, []error{notFound}, `"nobody"`},
		{"message unknown", func() error { _, err := mem.Messages(ctx, 1<<40); return err }, []error{notFound}, "message"},
		{"event unknown", func() error { _, err := mem.ExpandEvent(ctx, 1<<40); return err }, []error{notFound}, "event"},
		{"forget unknown", func() error { return mem.Forget(ctx, 1<<40) }, []error{notFound}, "event"},
		{"restore event 0", func() error { return mem.Restore(ctx, 0) }, []error{notFound}, "event"},
		{"node unknown", func() error { _, err := mem.ExpandGraphNode(ctx, 1<<40, time.Time{}); return err }, []error{notFound}, "node"},
		{"node history unknown", func() error { _, err := mem.GraphNodeHistory(ctx, 1<<40); return err }, []error{notFound}, "node"},
		{"blocks cancelled", func() error { _, err := mem.Blocks(cancelled, "team-atlas"); return err }, []error{canceled, context.Canceled}, "canceled"},
		{"forget cancelled", func() error { return mem.Forget(cancelled, e1) }, []error{canceled, context.Canceled}, "canceled"},

		// Use and assessments.
		{"use: receipt empty", use(stratagate.Use{AssessmentID: aid, EventIDs: []uint64{e1}}), []error{inv, empty}, "receipt id is empty"},
		{"use: assessment empty", use(stratagate.Use{ReceiptID: "u", EventIDs: []uint64{e1}}), []error{inv, empty}, "assessment id is empty"},
		{"use: assessment made up", use(stratagate.Use{ReceiptID: "u", AssessmentID: "i-made-this-up", EventIDs: []uint64{e1}}),
			[]error{inv, stratagate.ErrAssessment, notFound}, `"i-made-this-up"`},
		{"use: nothing named", use(stratagate.Use{ReceiptID: "u", AssessmentID: aid}), []error{inv, empty}, "no event or node"},
		{"use: event not cited", use(stratagate.Use{ReceiptID: "u", AssessmentID: aid, EventIDs: []uint64{e2}}),
			[]error{inv, stratagate.ErrAssessment}, fmt.Sprintf("event %d is not cited", e2)},
		{"use: node not cited", use(stratagate.Use{ReceiptID: "u", AssessmentID: aid, NodeIDs: []uint64{1}}),
			[]error{inv, stratagate.ErrAssessment}, "node 1 is not cited"},
		{"use: assessment not recorded", use(stratagate.Use{ReceiptID: "u", AssessmentID: sa.ID, EventIDs: []uint64{e2}}),
			[]error{inv, stratagate.ErrAssessment}, "not recorded"},
		{"use: receipt invalid UTF-8", use(stratagate.Use{ReceiptID: "\xff", AssessmentID: aid, EventIDs: []uint64{e1}}), []error{inv, utf}, "receipt id"},
		{"use: cancelled", func() error {
			return mem.RecordMemoryUse(cancelled, stratagate.Use{ReceiptID: "u", AssessmentID: aid, EventIDs: []uint64{e1}})
		}, []error{canceled, context.Canceled}, "canceled"},
		{"assessment: nil batch", func() error { _, err := mem.RecordAssessment(ctx, nil, sa); return err }, []error{inv, empty}, "no batch"},
		{"assessment: partial", func() error { _, err := mem.RecordAssessment(ctx, pb, pa); return err }, []error{inv, stratagate.ErrAssessment}, "not sufficient"},
		{"assessment: unknown verdict", func() error {
			a := sa
			a.Verdict = "probably"
			_, err := mem.RecordAssessment(ctx, sb, a)
			return err
		}, []error{inv, gate.ErrInvalidAssessment}, `"probably"`},
		{"assessment: other batch", func() error { _, err := mem.RecordAssessment(ctx, pb, sa); return err }, []error{inv, gate.ErrWrongBatch}, sa.BatchID},
		{"assessment: refs outside the batch", func() error {
			a := sa
			a.EvidenceRefs = []string{"e999999"}
			_, err := mem.RecordAssessment(ctx, sb, a)
			return err
		}, []error{inv, stratagate.ErrAssessment}, "not sufficient"},

		// Ask.
		{"ask: empty question", ask(ctx, "", stratagate.AskOptions{}), []error{inv, empty}, "query text is empty"},
		{"ask: invalid UTF-8", ask(ctx, "wh\xffo", stratagate.AskOptions{}), []error{inv, utf}, "query text"},
		{"ask: rounds 13", ask(ctx, "Who?", stratagate.AskOptions{MaxRounds: gate.MaxRounds + 1}), []error{inv}, "MaxRounds 13"},
		{"ask: rounds -1", ask(ctx, "Who?", stratagate.AskOptions{MaxRounds: -1}), []error{inv}, "MaxRounds -1"},
		{"ask: bad scope", ask(ctx, "Who?", stratagate.AskOptions{Scopes: []string{"everything"}}), []error{scope}, `"everything"`},
		{"ask: unknown thread", ask(ctx, "Which database does Atlas use?", stratagate.AskOptions{Scopes: atlasScopes, Thread: "nobody"}), []error{notFound}, `"nobody"`},
		{"ask: cancelled", ask(cancelled, "Which database does Atlas use?", stratagate.AskOptions{Scopes: atlasScopes}), []error{canceled, context.Canceled}, "canceled"},

		// Files, locks, options, tools.
		{"compact: missing directory", func() error { return mem.CompactTo(ctx, filepath.Join(dir, "no", "such", "dir", "c.sg")) },
			[]error{stratagate.ErrIO, fs.ErrNotExist}, "no such file or directory"},
		{"compact: destination exists", func() error { return mem.CompactTo(ctx, existing) }, []error{stratagate.ErrExists}, "exists"},
		{"compact: cancelled", func() error { return mem.CompactTo(cancelled, filepath.Join(dir, "c.sg")) }, []error{canceled, context.Canceled}, "canceled"},
		{"open: file held by this writer", func() error {
			m, err := stratagate.Open(path, &stratagate.Options{LockTimeout: 10 * time.Millisecond})
			if err == nil {
				m.Close()
			}
			return err
		}, []error{stratagate.ErrLocked}, "locked"},
		{"open: invalid options", func() error {
			p := filepath.Join(dir, "never.sg")
			_, err := stratagate.Open(p, &stratagate.Options{BlockTurns: -1, MaxMessageBytes: -2})
			if _, serr := os.Stat(p); !errors.Is(serr, fs.ErrNotExist) {
				return fmt.Errorf("Open with invalid options created %s", p)
			}
			return err
		}, []error{stratagate.ErrInvalidOptions}, "BlockTurns -1"},
		{"verify cancelled", func() error { _, err := mem.Verify(cancelled); return err }, []error{canceled, context.Canceled}, "canceled"},
		{"check indexes past deadline", func() error { return mem.CheckIndexes(expired) }, []error{canceled, context.DeadlineExceeded}, "deadline"},
		{"rebuild indexes cancelled", func() error { return mem.RebuildIndexes(cancelled) }, []error{canceled, context.Canceled}, "canceled"},
		{"wait idle cancelled", func() error { return mem.WaitIdle(cancelled) }, []error{canceled, context.Canceled}, "canceled"},
		{"stats cancelled", func() error { _, err := mem.Stats(cancelled); return err }, []error{canceled, context.Canceled}, "canceled"},
		{"new session cancelled", func() error { _, err := mem.NewSession(cancelled, nil, gate.Budget{}); return err }, []error{canceled, context.Canceled}, "canceled"},
	}
	require.GreaterOrEqual(t, len(cases), 60)

	before, err := stratagate.Contents(mem)
	require.NoError(t, err)
	require.NotEmpty(t, before)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			require.Error(t, err)
			for _, w := range c.want {
				assert.ErrorIs(t, err, w)
			}
			require.NotEmpty(t, err.Error())
			assert.Contains(t, err.Error(), c.msg, "the message says what was wrong")
			require.NoError(t, mem.WaitIdle(ctx))
			after, err := stratagate.Contents(mem)
			require.NoError(t, err)
			requireSameContents(t, before, after)
		})
	}

	// After Close every call is ErrClosed and the file stays as it was.
	require.NoError(t, mem.Close())
	closed := []badCase{
		{"closed: append", func() error { _, err := mem.Append(ctx, good()); return err }, nil, ""},
		{"closed: search raw", raw(q(func(*stratagate.Query) {})), nil, ""},
		{"closed: search events", evq(q(func(*stratagate.Query) {})), nil, ""},
		{"closed: search graph", graphq(q(func(*stratagate.Query) {})), nil, ""},
		{"closed: ask", ask(ctx, "Which database does Atlas use?", stratagate.AskOptions{Scopes: atlasScopes}), nil, ""},
		{"closed: use", use(stratagate.Use{ReceiptID: "u", AssessmentID: aid, EventIDs: []uint64{e1}}), nil, ""},
		{"closed: record assessment", func() error { _, err := mem.RecordAssessment(ctx, sb, sa); return err }, nil, ""},
		{"closed: new session", func() error { _, err := mem.NewSession(ctx, nil, gate.Budget{}); return err }, nil, ""},
		{"closed: blocks", func() error { _, err := mem.Blocks(ctx, "team-atlas"); return err }, nil, ""},
		{"closed: expand block", func() error { _, err := mem.ExpandBlock(ctx, blocks[0].ID, 5); return err }, nil, ""},
		{"closed: context", func() error { _, err := mem.Context(ctx, "team-atlas", 100); return err }, nil, ""},
		{"closed: forget", func() error { return mem.Forget(ctx, e1) }, nil, ""},
		{"closed: verify", func() error { _, err := mem.Verify(ctx); return err }, nil, ""},
		{"closed: compact", func() error { return mem.CompactTo(ctx, filepath.Join(dir, "c2.sg")) }, nil, ""},
		{"closed: wait idle", func() error { return mem.WaitIdle(ctx) }, nil, ""},
		{"closed: stats", func() error { _, err := mem.Stats(ctx); return err }, nil, ""},
		{"closed: threads", func() error { _, err := mem.Threads(ctx); return err }, nil, ""},
		{"closed: observations", func() error { _, err := mem.Observations(ctx, 1); return err }, nil, ""},
		{"closed: rebuild indexes", func() error { return mem.RebuildIndexes(ctx) }, nil, ""},
		{"closed: check indexes", func() error { return mem.CheckIndexes(ctx) }, nil, ""},
	}
	for _, c := range closed {
		err := c.call()
		require.ErrorIs(t, err, stratagate.ErrClosed, c.name)
		assert.Contains(t, err.Error(), "closed", c.name)
	}
	require.NoError(t, mem.Close(), "Close is idempotent")
	ro, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer ro.Close()
	after, err := stratagate.Contents(ro)
	require.NoError(t, err)
	requireSameContents(t, before, after)
	t.Logf("%d bad-input cases and %d calls after Close", len(cases), len(closed))
}

// TestLimitsAcceptedAtTheEdge: the catalogue's limits, one below: accepted.
func TestLimitsAcceptedAtTheEdge(t *testing.T) {
	mem, _ := openMem(t, nil)
	msgs := make([]stratagate.Message, stratagate.DefaultMaxTurnMessages)
	for i := range msgs {
		msgs[i] = stratagate.Message{Role: "user", Content: "m"}
	}
	msgs[0].Content = strings.Repeat("x", stratagate.DefaultMaxMessageBytes)
	msgs[1].At = time.Date(2024, 1, 1, 0, 0, 0, 0, time.FixedZone("", 18*3600))
	_, err := mem.Append(ctx, stratagate.Turn{
		Thread: strings.Repeat("t", 256), Scope: "project:" + strings.Repeat("p", 128), ReceiptID: strings.Repeat("r", 256), Messages: msgs,
	})
	require.NoError(t, err)
	_, err = mem.SearchRaw(ctx, stratagate.Query{Text: strings.Repeat("x ", stratagate.MaxQueryBytes/2), Scopes: []string{"project:" + strings.Repeat("p", 128)}, Limit: stratagate.MaxLimit})
	require.NoError(t, err)
	for _, level := range []int{0, 5} {
		_, err = mem.ExpandBlock(ctx, 1<<40, level)
		require.ErrorIs(t, err, stratagate.ErrNotFound, "level %d is valid; the block is not", level)
	}
}
