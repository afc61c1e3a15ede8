package main

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
)

// Paging and clipping bounds of every list result.
const (
	defaultLimit = 10
	maxLimit     = 50
	// textRunes clips the text of one item; detailRunes a single long field
	// (a summary, a level's text).
	textRunes   = 400
	detailRunes = 16000
)

// SearchIn is the input of the three search tools.
type SearchIn struct {
	Query  string     `json:"query,omitempty" jsonschema:"what to look for (required; alias q)"`
	Limit  flexInt    `json:"limit,omitempty" jsonschema:"items per page, default 10, at most 50 (aliases page_size, k, top_k)"`
	Cursor cursorArg  `json:"cursor,omitempty" jsonschema:"the next value of the previous page, to read the following page"`
	Scopes stringList `json:"scopes,omitempty" jsonschema:"narrow the search to these of the server's scopes (default: all of them)"`
	Thread string     `json:"thread,omitempty" jsonschema:"keep only results of this thread"`
	From   string     `json:"from,omitempty" jsonschema:"RFC 3339 time or YYYY-MM-DD: results at or after it (events and raw only)"`
	To     string     `json:"to,omitempty" jsonschema:"RFC 3339 time or YYYY-MM-DD: results at or before it (events and raw only)"`
}

// Item is one compact search or expansion result, addressed by its ref.
type Item struct {
	Ref          string   `json:"ref" jsonschema:"cite it in memory_assess evidence_refs"`
	Kind         string   `json:"kind" jsonschema:"event, message, node or block"`
	Title        string   `json:"title,omitempty"`
	Text         string   `json:"text,omitempty" jsonschema:"snippet, summary or facts, clipped"`
	Speaker      string   `json:"speaker,omitempty"`
	Thread       string   `json:"thread,omitempty"`
	At           string   `json:"at,omitempty" jsonschema:"when it was said (RFC 3339)"`
	When         string   `json:"when,omitempty" jsonschema:"when it happened, as resolved"`
	EventType    string   `json:"event_type,omitempty"`
	Participants []string `json:"participants,omitempty"`
	Facts        []string `json:"facts,omitempty"`
	Block        string   `json:"block,omitempty" jsonschema:"ref of the block holding it (expand with memory_expand_block)"`
	Messages     []string `json:"messages,omitempty" jsonschema:"refs of its source messages"`
	Score        float64  `json:"score,omitempty"`
}

// SearchOut is the result of a search tool.
type SearchOut struct {
	BatchID string   `json:"batch_id" jsonschema:"name it in memory_assess and the expand tools"`
	Query   string   `json:"query"`
	Scopes  []string `json:"scopes,omitempty"`
	Items   []Item   `json:"items,omitempty"`
	// Total counts every result found, up to totalCap; TotalCapped says
	// the search stopped there.
	Total       int    `json:"total"`
	TotalCapped bool   `json:"total_capped,omitempty" jsonschema:"true when more than total results exist"`
	Next        string `json:"next,omitempty" jsonschema:"pass it back as cursor for the next page; absent on the last page"`
	Hint        string `json:"hint,omitempty"`
}

// totalCap is how many results a search ranks to page through and count.
const totalCap = stratagate.MaxLimit

func (s *Server) addSearchTools() {
	addTool(s, toolSpec{name: "memory_search_events", annotations: readOnly(),
		description: "Search event cards (what happened, who, when). Returns a batch_id and items e<id> with source message refs."},
		func(ctx context.Context, in *SearchIn) (*SearchOut, error) {
			return s.search(ctx, in, gate.SearchEvents)
		})
	addTool(s, toolSpec{name: "memory_search_graph", annotations: readOnly(),
		description: "Search graph nodes (people, things, places) by their current facts. Returns a batch_id and items n<id>."},
		func(ctx context.Context, in *SearchIn) (*SearchOut, error) {
			return s.search(ctx, in, gate.SearchGraph)
		})
	addTool(s, toolSpec{name: "memory_search_raw", annotations: readOnly(),
		description: "Search the original messages, verbatim (open tail included). Returns a batch_id and items m<id>."},
		func(ctx context.Context, in *SearchIn) (*SearchOut, error) {
			return s.search(ctx, in, gate.SearchRawMemory)
		})
}

// search runs one search channel and pages its results; the page becomes a
// batch of a fresh gate session.
func (s *Server) search(ctx context.Context, in *SearchIn, channel gate.Strategy) (*SearchOut, error) {
	query := strings.TrimSpace(in.Query)
	if query == "" {
		return nil, retryable("missing argument \"query\"; retry with {\"query\": \"words to look for\"}")
	}
	if len(query) > stratagate.MaxQueryBytes {
		return nil, retryable("query of %d bytes is over %d; retry with a shorter query", len(query), stratagate.MaxQueryBytes)
	}
	limit, off, err := page(in.Limit, in.Cursor)
	if err != nil {
		return nil, err
	}
	scopes, err := s.narrow(in.Scopes)
	if err != nil {
		return nil, err
	}
	if in.Thread != "" {
		if _, err := s.threadIn(ctx, in.Thread, scopes); err != nil {
			return nil, err
		}
	}
	q := stratagate.Query{Text: query, Scopes: scopes, Thread: in.Thread, Limit: totalCap}
	if q.From, err = parseTime("from", in.From, false); err != nil {
		return nil, err
	}
	if q.To, err = parseTime("to", in.To, true); err != nil {
		return nil, err
	}
	var gitems []gate.Item
	var items []Item
	switch channel {
	case gate.SearchEvents:
		hits, err := s.mem.SearchEvents(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			gitems = append(gitems, eventItem(h))
			items = append(items, eventOut(h))
		}
	case gate.SearchGraph:
		if !q.From.IsZero() || !q.To.IsZero() {
			return nil, retryable("memory_search_graph takes no from/to (a node holds its current state); retry without them, or use memory_expand_graph_node with as_of")
		}
		hits, err := s.mem.SearchGraphNodes(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			gitems = append(gitems, gate.Item{Ref: gate.MakeRef(gate.KindNode, h.ID), NodeID: h.ID, Title: h.Name, Facts: h.Facts, Score: h.Score})
			items = append(items, Item{Ref: gate.MakeRef(gate.KindNode, h.ID), Kind: gate.KindNode, Title: clip(h.Name, textRunes),
				Text: h.Kind, Facts: clipAll(h.Facts, 12), Score: h.Score})
		}
	default:
		hits, err := s.mem.SearchRaw(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			gitems = append(gitems, gate.Item{Ref: gate.MakeRef(gate.KindMessage, h.MessageID), BlockID: h.BlockID,
				MessageIDs: []uint64{h.MessageID}, Text: h.Snippet, Quote: h.Snippet, Speaker: h.Speaker, MentionedAt: h.At, Score: h.Score})
			it := Item{Ref: gate.MakeRef(gate.KindMessage, h.MessageID), Kind: gate.KindMessage, Text: clip(h.Snippet, textRunes),
				Speaker: h.Speaker, Thread: h.Thread, At: stamp(h.At), Score: h.Score}
			if h.BlockID != 0 {
				it.Block = gate.MakeRef(gate.KindBlock, h.BlockID)
			}
			items = append(items, it)
		}
	}
	out := &SearchOut{Query: query, Scopes: scopes, Total: len(items), TotalCapped: len(items) >= totalCap}
	lo, hi := min(off, len(items)), min(off+limit, len(items))
	out.Items = items[lo:hi]
	if hi < len(items) {
		out.Next = strconv.Itoa(hi)
	}
	out.BatchID, err = s.newBatch(ctx, query, channel, "", gitems[lo:hi], scopes)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		out.Hint = "no match: try other words, another search tool, or memory_get_blocks to see what is stored"
	}
	return out, nil
}

// newBatch turns items into a gate batch of a fresh session (ids unique
// in the file across processes: Memory.NewSession) and keeps it for
// memory_assess.
func (s *Server) newBatch(ctx context.Context, query string, strategy gate.Strategy, target string, items []gate.Item, scopes []string) (string, error) {
	sess, err := s.mem.NewSession(ctx, gate.Analyze(query, time.Now()), gate.Budget{Rounds: 1, MaxItems: max(len(items), 1)})
	if err != nil {
		return "", err
	}
	b := sess.Observe(gate.Batch{Strategy: strategy, Query: query, Target: target, Items: items})
	if b == nil {
		return "", retryable("could not open a batch; retry the search")
	}
	s.batches.put(b, scopes)
	return b.ID, nil
}

func eventItem(h stratagate.EventHit) gate.Item {
	it := gate.Item{Ref: gate.MakeRef(gate.KindEvent, h.ID), EventID: h.ID, MessageIDs: h.SourceMessageIDs,
		Title: h.Title, Text: h.Summary, MentionedAt: h.MentionedAt, HappenedStart: h.HappenedStart, HappenedEnd: h.HappenedEnd,
		Precision: h.Precision, TimeText: h.TimeText, Score: h.Score}
	if len(h.Participants) > 0 {
		it.Speaker = h.Participants[0]
	}
	return it
}

func eventOut(h stratagate.EventHit) Item {
	return Item{Ref: gate.MakeRef(gate.KindEvent, h.ID), Kind: gate.KindEvent, Title: clip(h.Title, textRunes),
		Text: clip(h.Summary, textRunes), At: stamp(h.MentionedAt), When: when(h.HappenedStart, h.HappenedEnd, h.Precision, h.TimeText),
		EventType: h.EventType, Participants: clipAll(h.Participants, 12), Messages: refs(gate.KindMessage, h.SourceMessageIDs, 12), Score: h.Score}
}

// page validates limit and cursor.
func page(l flexInt, c cursorArg) (limit, off int, err error) {
	limit = int(l)
	switch {
	case limit == 0:
		limit = defaultLimit
	case limit < 0:
		return 0, 0, retryable("limit %d is negative; retry with 1–%d", limit, maxLimit)
	case limit > maxLimit:
		limit = maxLimit // bounded, not refused: the caller still gets a page
	}
	off, err = c.offset()
	return limit, off, err
}

// parseTime parses an RFC 3339 time or a date; a date as an upper bound
// means the end of that day.
func parseTime(name, v string, end bool) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return time.Time{}, retryable("%s %q is not a time; retry with RFC 3339 (2024-05-01T10:00:00Z) or a date (2024-05-01)", name, v)
	}
	if end {
		t = t.Add(24*time.Hour - time.Nanosecond)
	}
	return t, nil
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

func when(start, end time.Time, precision, text string) string {
	if start.IsZero() {
		return text
	}
	return gate.RenderInterval(start, end, precision)
}

// clip cuts s to n runes, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// clipAll keeps the first n strings, each clipped.
func clipAll(ss []string, n int) []string {
	var out []string
	for i, x := range ss {
		if i == n {
			break
		}
		out = append(out, clip(x, textRunes))
	}
	return out
}

func refs(kind string, ids []uint64, n int) []string {
	var out []string
	for i, id := range ids {
		if i == n {
			break
		}
		out = append(out, gate.MakeRef(kind, id))
	}
	return out
}
