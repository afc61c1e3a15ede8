package stratagate_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/extmem"
)

// scriptDecider decides by candidate index, targeting the best match.
type scriptDecider struct {
	mu    sync.Mutex
	act   map[int]extmem.Action
	conf  float64
	calls int
}

func (s *scriptDecider) Name() string { return "script" }

func (s *scriptDecider) Decide(_ context.Context, c *extmem.Candidate, ex []extmem.Existing) (extmem.Decision, error) {
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	a, ok := s.act[c.Index]
	if !ok {
		a = extmem.ActionAdd
	}
	d := extmem.Decision{Action: a, Confidence: s.conf, Reason: "scripted " + string(a), Decider: "script"}
	if a != extmem.ActionAdd && len(ex) > 0 {
		d.Targets = []uint64{ex[0].ID}
	}
	return d, nil
}

// homeTurns are a conversation of the test's own: an editor preference, a
// pet, a trip.
var homeTurns = []string{
	"I switched my code editor to Helix last week, modal editing suits me.",
	"Our dog Biscuit turned three years old yesterday.",
	"We went hiking in the Dolomites in August 2023 with my sister.",
	"I drink green tea every morning before work.",
}

func homeMemory(t *testing.T) (*stratagate.Memory, string) {
	t.Helper()
	mem, path := openMem(t, &stratagate.Options{BlockTurns: 1})
	for i, s := range homeTurns {
		at := base.Add(time.Duration(i) * time.Hour)
		_, err := mem.Append(context.Background(), stratagate.Turn{Thread: "home", Messages: []stratagate.Message{
			{Role: "user", Speaker: "Robin", Content: s, At: at},
			{Role: "assistant", Content: "Noted.", At: at.Add(time.Second)},
		}})
		require.NoError(t, err)
	}
	waitIdle(t, mem)
	return mem, path
}

type memoryDoc struct {
	Kind         string         `json:"kind"`
	Category     string         `json:"category,omitempty"`
	Title        string         `json:"title"`
	Summary      string         `json:"summary"`
	Quotes       []string       `json:"quotes,omitempty"`
	OriginalText string         `json:"original_text,omitempty"`
	Temporal     map[string]any `json:"temporal,omitempty"`
}

// exportDoc renders memories as an export pasted with prose around a
// fenced JSON document, as another assistant would answer.
func exportDoc(t *testing.T, ms ...memoryDoc) string {
	t.Helper()
	b, err := json.MarshalIndent(map[string]any{
		"format": extmem.Format, "source": "Other Assistant", "exported_at": "2026-11-30T10:00:00Z", "memories": ms,
	}, "", "  ")
	require.NoError(t, err)
	return "Here is everything I remember about you:\n\n```json\n" + string(b) + "\n```\n\nLet me know if anything is wrong.\n"
}

var (
	editorMem = memoryDoc{Kind: "preference", Category: "tools", Title: "Uses the Helix editor",
		Summary: "Robin writes code in the Helix editor and likes modal editing.", Quotes: []string{"I moved to Helix for all my code"},
		OriginalText: "I moved to Helix for all my code, modal editing suits me.", Temporal: map[string]any{"precision": "unknown", "basis": "unknown"}}
	boatMem = memoryDoc{Kind: "fact", Title: "Owns a sailboat named Petrel",
		Summary: "Robin owns a small sailboat called Petrel, moored at the lake.", OriginalText: "My sailboat \"Petrel\" is moored at the lake.",
		Temporal: map[string]any{"precision": "unknown", "basis": "unknown"}}
	raceMem = memoryDoc{Kind: "event", Title: "Ran a half marathon", Summary: "Robin ran a first half marathon in October 2023.",
		OriginalText: "I ran my first half marathon in October 2023.",
		Temporal:     map[string]any{"happened_start": "2023-10-01", "precision": "month", "basis": "explicit", "status": "completed"}}
)

type eventState struct {
	ID           uint64
	Lifecycle    string
	SupersededBy uint64
	Conflicts    []uint64
}

// snapshot is what a user sees of the memory: event search results and
// each card's lifecycle and links, graph node search results and views.
type snapshot struct {
	Events map[string][]uint64
	Scores map[string][]float64
	Cards  []eventState
	Nodes  map[string][]string
	Views  map[uint64]string
}

func takeSnapshot(t *testing.T, mem *stratagate.Memory, maxEvent uint64) snapshot {
	t.Helper()
	ctx := context.Background()
	s := snapshot{Events: map[string][]uint64{}, Scores: map[string][]float64{}, Nodes: map[string][]string{}, Views: map[uint64]string{}}
	for _, q := range []string{"Helix editor", "sailboat Petrel", "half marathon", "dog Biscuit", "green tea", "Robin"} {
		hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: q, Scopes: []string{"global"}})
		require.NoError(t, err)
		for _, h := range hits {
			s.Events[q] = append(s.Events[q], h.ID)
			s.Scores[q] = append(s.Scores[q], h.Score)
		}
		nodes, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: q, Scopes: []string{"global"}})
		require.NoError(t, err)
		for _, n := range nodes {
			s.Nodes[q] = append(s.Nodes[q], fmt.Sprintf("%d %s %v", n.ID, n.Name, n.Facts))
			d, err := mem.ExpandGraphNode(ctx, n.ID, time.Time{})
			require.NoError(t, err)
			s.Views[n.ID] = fmt.Sprintf("%+v %+v", d.Facts, d.Edges)
		}
	}
	for id := uint64(1); id <= maxEvent; id++ {
		d, err := mem.ExpandEvent(ctx, id)
		require.NoError(t, err)
		s.Cards = append(s.Cards, eventState{ID: id, Lifecycle: string(d.Card.Lifecycle), SupersededBy: d.Card.SupersededBy, Conflicts: d.Card.ConflictsWithEventIDs})
	}
	return s
}

func maxEventID(t *testing.T, mem *stratagate.Memory) uint64 {
	t.Helper()
	st, err := mem.Stats(context.Background())
	require.NoError(t, err)
	return uint64(st.Buckets["events"])
}

func verifyOK(t *testing.T, mem *stratagate.Memory) {
	t.Helper()
	rep, err := mem.Verify(context.Background())
	require.NoError(t, err)
	require.True(t, rep.OK, "%+v", rep.Violations)
}

// TestImportActions runs each decision kind end to end: preview, commit,
// the searches and links it changes, then undo back to the exact state.
func TestImportActions(t *testing.T) {
	for _, act := range []extmem.Action{extmem.ActionAdd, extmem.ActionMerge, extmem.ActionSupersede, extmem.ActionConflict, extmem.ActionIgnore} {
		t.Run(string(act), func(t *testing.T) {
			ctx := context.Background()
			mem, _ := homeMemory(t)
			n := maxEventID(t, mem)
			require.NotZero(t, n, "the conversation yields cards")
			before := takeSnapshot(t, mem, n)

			text := exportDoc(t, editorMem)
			dec := &scriptDecider{act: map[int]extmem.Action{0: act}, conf: 0.9}
			p, err := mem.ImportPreview(ctx, text, stratagate.ImportOptions{Decider: dec})
			require.NoError(t, err)
			require.Len(t, p.Candidates, 1)
			c := p.Candidates[0]
			require.NotEmpty(t, c.Compared, "the editor card is a match")
			assert.Equal(t, act, c.Decision.Action)
			assert.True(t, c.Automatic)
			target := c.Compared[0].EventID
			assert.Equal(t, before, takeSnapshot(t, mem, n), "a preview changes nothing visible")

			res, err := mem.ImportCommit(ctx, p.ID, stratagate.Confirmations{})
			require.NoError(t, err)
			waitIdle(t, mem)
			verifyOK(t, mem)

			// The source message holds the pasted text byte for byte.
			blk, err := mem.ExpandBlock(ctx, res.BlockID, 5)
			require.NoError(t, err)
			require.Len(t, blk.Messages, 1)
			assert.Equal(t, sha256.Sum256([]byte(text)), sha256.Sum256([]byte(blk.Messages[0].Content)))
			assert.Equal(t, "import/"+fmt.Sprint(p.ID), res.Thread)

			if act == extmem.ActionIgnore {
				assert.Empty(t, res.Created)
				assert.Equal(t, before, takeSnapshot(t, mem, n))
			} else {
				require.Len(t, res.Created, 1)
				d, err := mem.ExpandEvent(ctx, res.Created[0])
				require.NoError(t, err)
				assert.Equal(t, res.BlockID, d.Card.SourceBlockID)
				assert.Equal(t, []uint64{res.MessageID}, d.Card.SourceMessageIDs)
				require.NotEmpty(t, d.Card.Quotes)
				for _, q := range d.Card.Quotes {
					assert.Contains(t, text, q, "quotes are verbatim")
				}
				if act != extmem.ActionMerge { // a merge keeps its target's dates
					assert.True(t, d.Card.Temporal.HappenedStart.IsZero(), "unknown dates stay unknown")
				}
				assert.True(t, d.Card.Temporal.MentionedAt.IsZero(), "never the import time")
				old, err := mem.ExpandEvent(ctx, target)
				require.NoError(t, err)
				switch act {
				case extmem.ActionMerge, extmem.ActionSupersede:
					assert.Equal(t, []uint64{target}, d.Card.SupersedesEventIDs)
					assert.Equal(t, events.LifecycleSuperseded, old.Card.Lifecycle)
					assert.Equal(t, d.Card.ID, old.Card.SupersededBy)
				case extmem.ActionConflict:
					assert.Equal(t, []uint64{target}, d.Card.ConflictsWithEventIDs)
					assert.Contains(t, old.Card.ConflictsWithEventIDs, d.Card.ID)
				}
				hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: "Helix editor", Scopes: []string{"global"}})
				require.NoError(t, err)
				require.NotEmpty(t, hits)
				ids := []uint64{}
				for _, h := range hits {
					ids = append(ids, h.ID)
				}
				assert.Contains(t, ids, d.Card.ID)
			}

			require.NoError(t, mem.ImportUndo(ctx, res.BatchID))
			waitIdle(t, mem)
			verifyOK(t, mem)
			require.NoError(t, mem.CheckIndexes(ctx))
			assert.Equal(t, before, takeSnapshot(t, mem, n), "undo restores search results, cards and graph")
			for _, id := range res.Created {
				d, err := mem.ExpandEvent(ctx, id)
				require.NoError(t, err)
				assert.Equal(t, events.LifecycleUndone, d.Card.Lifecycle)
				assert.ErrorIs(t, mem.Restore(ctx, id), stratagate.ErrUndone)
			}
			b, err := mem.Import(ctx, res.BatchID)
			require.NoError(t, err)
			assert.Equal(t, "undone", b.State)
			blk, err = mem.ExpandBlock(ctx, res.BlockID, 5)
			require.NoError(t, err, "the source block is permanent")
			assert.Equal(t, text, blk.Messages[0].Content)
			assert.ErrorIs(t, mem.ImportUndo(ctx, res.BatchID), stratagate.ErrImportState)
		})
	}
}

// TestImportGraphUndo imports memories the heuristic projection turns
// into graph state, then checks that undo takes all of it back.
func TestImportGraphUndo(t *testing.T) {
	ctx := context.Background()
	mem, _ := homeMemory(t)
	n := maxEventID(t, mem)
	before := takeSnapshot(t, mem, n)
	pet := memoryDoc{Kind: "fact", Title: "Robin has a dog named Biscuit", Summary: "Robin's dog Biscuit likes the beach.",
		OriginalText: "Our dog Biscuit loves the beach.", Temporal: map[string]any{"participants": []string{"Robin"}, "precision": "unknown", "basis": "unknown"}}
	drink := memoryDoc{Kind: "preference", Title: "Robin drinks coffee now", Summary: "Robin switched from green tea to coffee.",
		OriginalText: "I drink coffee now, no more green tea.", Temporal: map[string]any{"participants": []string{"Robin"}, "precision": "unknown", "basis": "unknown"}}
	p, err := mem.ImportPreview(ctx, exportDoc(t, pet, drink, boatMem, raceMem), stratagate.ImportOptions{Decider: &scriptDecider{conf: 0.95}})
	require.NoError(t, err)
	res, err := mem.ImportCommit(ctx, p.ID, stratagate.Confirmations{})
	require.NoError(t, err)
	require.Len(t, res.Created, 4)
	waitIdle(t, mem)
	verifyOK(t, mem)
	after := takeSnapshot(t, mem, n)
	assert.NotEqual(t, before.Nodes, after.Nodes, "the imported cards are projected into the graph")
	require.NoError(t, mem.ImportUndo(ctx, res.BatchID))
	verifyOK(t, mem)
	assert.Equal(t, before, takeSnapshot(t, mem, n))
}

// TestImportFingerprintIgnore: importing the same export twice ignores
// every candidate deterministically, without asking the decider.
func TestImportFingerprintIgnore(t *testing.T) {
	ctx := context.Background()
	mem, _ := homeMemory(t)
	text := exportDoc(t, boatMem, raceMem)
	p, err := mem.ImportPreview(ctx, text, stratagate.ImportOptions{})
	require.NoError(t, err)
	_, err = mem.ImportCommit(ctx, p.ID, stratagate.Confirmations{AcceptAll: true})
	require.NoError(t, err)
	waitIdle(t, mem)

	dec := &scriptDecider{conf: 0.9}
	p2, err := mem.ImportPreview(ctx, text, stratagate.ImportOptions{Decider: dec})
	require.NoError(t, err)
	assert.Zero(t, dec.calls, "no decider call for an exact fingerprint match")
	for _, c := range p2.Candidates {
		assert.Equal(t, extmem.ActionIgnore, c.Decision.Action)
		assert.Equal(t, "fingerprint", c.Decision.Decider)
		assert.Equal(t, 1.0, c.Decision.Confidence)
		assert.Len(t, c.Decision.Targets, 1)
	}
}

func TestImportCommitRefusals(t *testing.T) {
	ctx := context.Background()
	mem, _ := homeMemory(t)
	text := exportDoc(t, boatMem)

	// A concurrent Append makes the preview stale; nothing is written.
	p, err := mem.ImportPreview(ctx, text, stratagate.ImportOptions{})
	require.NoError(t, err)
	st0, err := mem.Stats(ctx)
	require.NoError(t, err)
	_, err = mem.Append(ctx, stratagate.Turn{Thread: "home", Messages: []stratagate.Message{{Role: "user", Content: "One more thing."}}})
	require.NoError(t, err)
	_, err = mem.ImportCommit(ctx, p.ID, stratagate.Confirmations{AcceptAll: true})
	require.ErrorIs(t, err, stratagate.ErrImportStale)
	b, err := mem.Import(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, "previewed", b.State)
	st1, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, st0.Threads, st1.Threads, "no import thread")

	waitIdle(t, mem)
	p, err = mem.ImportPreview(ctx, text, stratagate.ImportOptions{})
	require.NoError(t, err)
	_, err = mem.ImportCommit(ctx, p.ID, stratagate.Confirmations{Accept: []int{7}})
	require.ErrorIs(t, err, stratagate.ErrInvalidInput, "a confirmation naming no candidate")
	_, err = mem.ImportCommit(ctx, p.ID, stratagate.Confirmations{Override: map[int]stratagate.ImportChoice{0: {Action: extmem.ActionMerge, Targets: []uint64{999}}}})
	require.ErrorIs(t, err, stratagate.ErrInvalidInput, "a target outside the compared events")
	_, err = mem.ImportCommit(ctx, p.ID, stratagate.Confirmations{AcceptAll: true})
	require.NoError(t, err)
	_, err = mem.ImportCommit(ctx, p.ID, stratagate.Confirmations{AcceptAll: true})
	require.ErrorIs(t, err, stratagate.ErrImportState, "committed twice")

	_, err = mem.ImportCommit(ctx, 999, stratagate.Confirmations{})
	require.ErrorIs(t, err, stratagate.ErrNotFound)
	require.ErrorIs(t, mem.ImportUndo(ctx, 999), stratagate.ErrNotFound)
	p, err = mem.ImportPreview(ctx, exportDoc(t, raceMem), stratagate.ImportOptions{})
	require.NoError(t, err)
	require.ErrorIs(t, mem.ImportUndo(ctx, p.ID), stratagate.ErrImportState, "undo of a preview")

	_, err = mem.Append(ctx, stratagate.Turn{Thread: "import/1", Messages: []stratagate.Message{{Role: "user", Content: "hi"}}})
	require.ErrorIs(t, err, stratagate.ErrInvalidInput, "import threads are reserved")
	verifyOK(t, mem)
}

// TestImportPending: a decision below the automatic threshold waits for a
// confirmation; commit applies the rest and reports it.
func TestImportPending(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		c       stratagate.Confirmations
		created int
		pending []int
	}{
		{"none", stratagate.Confirmations{}, 1, []int{1}},
		{"accept", stratagate.Confirmations{Accept: []int{1}}, 2, nil},
		{"accept all", stratagate.Confirmations{AcceptAll: true}, 2, nil},
		{"reject automatic", stratagate.Confirmations{Reject: []int{0}}, 0, []int{1}},
		{"override", stratagate.Confirmations{Override: map[int]stratagate.ImportChoice{1: {Action: extmem.ActionIgnore}}}, 1, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mem, _ := homeMemory(t)
			dec := &lowSecond{}
			p, err := mem.ImportPreview(ctx, exportDoc(t, boatMem, raceMem), stratagate.ImportOptions{Decider: dec})
			require.NoError(t, err)
			assert.True(t, p.Candidates[0].Automatic)
			assert.False(t, p.Candidates[1].Automatic)
			res, err := mem.ImportCommit(ctx, p.ID, tt.c)
			require.NoError(t, err)
			assert.Len(t, res.Created, tt.created)
			assert.Equal(t, tt.pending, res.Pending)
			waitIdle(t, mem)
			verifyOK(t, mem)
		})
	}
}

// lowSecond adds everything, confidently except for candidate 1.
type lowSecond struct{}

func (lowSecond) Name() string { return "low-second" }
func (lowSecond) Decide(_ context.Context, c *extmem.Candidate, _ []extmem.Existing) (extmem.Decision, error) {
	conf := 0.95
	if c.Index == 1 {
		conf = 0.5
	}
	return extmem.Decision{Action: extmem.ActionAdd, Confidence: conf, Reason: "new", Decider: "low-second"}, nil
}

// badDecider proposes a target it was not offered.
type badDecider struct{}

func (badDecider) Name() string { return "bad" }
func (badDecider) Decide(context.Context, *extmem.Candidate, []extmem.Existing) (extmem.Decision, error) {
	return extmem.Decision{Action: extmem.ActionMerge, Targets: []uint64{424242}, Confidence: 0.99, Reason: "made up"}, nil
}

// TestImportDeciderFallback: a decider whose choice fails validation gives
// way to the heuristic, whose decision then needs a confirmation.
func TestImportDeciderFallback(t *testing.T) {
	mem, _ := homeMemory(t)
	p, err := mem.ImportPreview(context.Background(), exportDoc(t, boatMem), stratagate.ImportOptions{Decider: badDecider{}})
	require.NoError(t, err)
	c := p.Candidates[0]
	assert.False(t, c.Automatic)
	assert.Less(t, c.Decision.Confidence, extmem.AutoConfidence)
	assert.Contains(t, c.Decision.Reason, "bad rejected")
	for _, id := range c.Decision.Targets {
		found := false
		for _, m := range c.Compared {
			found = found || m.EventID == id
		}
		assert.True(t, found)
	}
}

func TestImportBadDocuments(t *testing.T) {
	ctx := context.Background()
	mem, _ := homeMemory(t)
	many := make([]memoryDoc, extmem.MaxCandidates+1)
	for i := range many {
		many[i] = memoryDoc{Kind: "fact", Title: fmt.Sprintf("Fact %d", i), Summary: "s"}
	}
	for _, tt := range []struct {
		name string
		text string
		want error
	}{
		{"no document", "I do not remember anything about you.", extmem.ErrNoDocument},
		{"malformed", "```json\n{\"format\": \"" + extmem.Format + "\", \"memories\": [\n```", extmem.ErrSyntax},
		{"wrong format", `{"format": "other.v1", "memories": []}`, extmem.ErrFormat},
		{"over the limit", exportDoc(t, many...), extmem.ErrTooMany},
		{"invalid UTF-8", "{\"format\": \"\xff\"}", stratagate.ErrInvalidUTF8},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mem.ImportPreview(ctx, tt.text, stratagate.ImportOptions{})
			require.ErrorIs(t, err, stratagate.ErrInvalidInput)
			require.ErrorIs(t, err, tt.want)
		})
	}
	_, err := mem.ImportPreview(ctx, exportDoc(t, boatMem), stratagate.ImportOptions{Scope: "nope"})
	require.ErrorIs(t, err, stratagate.ErrScope)
	_, err = mem.ImportPreview(ctx, exportDoc(t, boatMem), stratagate.ImportOptions{TopK: 21})
	require.ErrorIs(t, err, stratagate.ErrInvalidInput)
	bs, err := mem.Imports(ctx)
	require.NoError(t, err)
	assert.Empty(t, bs, "a refused document stores nothing")
	assert.True(t, strings.Contains(stratagate.ExportPrompt(), extmem.Format))
}
