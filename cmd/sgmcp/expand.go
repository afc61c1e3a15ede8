package main

import (
	"context"
	"strconv"
	"strings"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
)

// ExpandEventIn is the input of memory_expand_event.
type ExpandEventIn struct {
	BatchID string `json:"batch_id,omitempty" jsonschema:"the batch the event came from"`
	EventID string `json:"event_id,omitempty" jsonschema:"the event: its ref e<id> or the number (alias id)"`
}

// Message is one message of a result, its content clipped.
type Message struct {
	Ref     string `json:"ref"`
	Role    string `json:"role"`
	Speaker string `json:"speaker,omitempty"`
	Thread  string `json:"thread,omitempty"`
	At      string `json:"at,omitempty"`
	Content string `json:"content"`
	Clipped bool   `json:"clipped,omitempty" jsonschema:"the content was cut to fit the result"`
}

// ExpandEventOut is the result of memory_expand_event.
type ExpandEventOut struct {
	BatchID      string    `json:"batch_id" jsonschema:"a new batch holding the event and its sources, to assess"`
	Event        Item      `json:"event"`
	Status       string    `json:"status,omitempty"`
	Lifecycle    string    `json:"lifecycle,omitempty"`
	Quotes       []string  `json:"quotes,omitempty"`
	Sources      []Message `json:"sources,omitempty"`
	BlockSummary string    `json:"block_summary,omitempty"`
	Weight       float64   `json:"weight"`
	Supersedes   []string  `json:"supersedes,omitempty"`
	SupersededBy string    `json:"superseded_by,omitempty"`
	Conflicts    []string  `json:"conflicts,omitempty"`
}

// ExpandNodeIn is the input of memory_expand_graph_node.
type ExpandNodeIn struct {
	BatchID string `json:"batch_id,omitempty" jsonschema:"the batch the node came from"`
	NodeID  string `json:"node_id,omitempty" jsonschema:"the node: its ref n<id> or the number (alias id)"`
	AsOf    string `json:"as_of,omitempty" jsonschema:"RFC 3339 time or date: the node as it was then (default now)"`
}

// Fact is one fact or relation of a node.
type Fact struct {
	Text      string   `json:"text" jsonschema:"key: value, or relation: target"`
	ValidFrom string   `json:"valid_from,omitempty"`
	ValidTo   string   `json:"valid_to,omitempty"`
	Sources   []string `json:"sources,omitempty" jsonschema:"refs of the events it came from"`
}

// ExpandNodeOut is the result of memory_expand_graph_node.
type ExpandNodeOut struct {
	BatchID string   `json:"batch_id" jsonschema:"a new batch holding the node, to assess"`
	Ref     string   `json:"ref"`
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Aliases []string `json:"aliases,omitempty"`
	AsOf    string   `json:"as_of"`
	Facts   []Fact   `json:"facts,omitempty"`
	Total   int      `json:"total" jsonschema:"facts and relations in all"`
}

// ExpandBlockIn is the input of memory_expand_block.
type ExpandBlockIn struct {
	BatchID string    `json:"batch_id,omitempty" jsonschema:"the batch the block (or a message or event of it) came from"`
	BlockID string    `json:"block_id,omitempty" jsonschema:"the block: its ref b<id> or the number (alias id)"`
	Level   *flexInt  `json:"level,omitempty" jsonschema:"0 title/tags, 1 summary, 2 key facts, 3 pruned, 4 near-verbatim, 5 verbatim messages (default 1)"`
	Limit   flexInt   `json:"limit,omitempty" jsonschema:"level 5: messages per page, default 10, at most 50"`
	Cursor  cursorArg `json:"cursor,omitempty" jsonschema:"level 5: the next value of the previous page"`
}

// ExpandBlockOut is the result of memory_expand_block.
type ExpandBlockOut struct {
	BatchID  string    `json:"batch_id" jsonschema:"a new batch holding the block (level 5: its messages), to assess"`
	Ref      string    `json:"ref"`
	Level    int       `json:"level"`
	State    string    `json:"state"`
	Text     string    `json:"text,omitempty"`
	Clipped  bool      `json:"clipped,omitempty"`
	Messages []Message `json:"messages,omitempty"`
	Total    int       `json:"total" jsonschema:"level 5: messages in the block"`
	Next     string    `json:"next,omitempty"`
}

func (s *Server) addExpandTools() {
	addTool(s, toolSpec{name: "memory_expand_event", annotations: readOnly(), required: []string{"batch_id"},
		aliases:     map[string]string{"id": "event_id", "ref": "event_id"},
		description: "Expand an event of a batch: its card, verbatim source messages, block summary, weight and linked cards."},
		s.expandEvent)
	addTool(s, toolSpec{name: "memory_expand_graph_node", annotations: readOnly(), required: []string{"batch_id"},
		aliases:     map[string]string{"id": "node_id", "ref": "node_id"},
		description: "Expand a graph node of a batch: its facts and relations valid at as_of, each with its source events."},
		s.expandNode)
	addTool(s, toolSpec{name: "memory_expand_block", annotations: readOnly(), required: []string{"batch_id"},
		aliases:     map[string]string{"id": "block_id", "ref": "block_id", "target": "level"},
		description: "Expand a block at level 0–5 (0 title, 1 summary, 2 key facts, 3 pruned, 4 near-verbatim, 5 verbatim messages, paged)."},
		s.expandBlock)
}

// parseID reads an id argument given as a ref of the kind or a number.
func parseID(name, kind, v string) (uint64, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, retryable("missing argument %q; retry with the ref from a batch (%s<id>)", name, kind[:1])
	}
	if k, id, ok := gate.ParseRef(v); ok && k == kind {
		return id, nil
	}
	if id, err := strconv.ParseUint(v, 10, 64); err == nil && id > 0 {
		return id, nil
	}
	return 0, retryable("%s %q is not a %s ref; retry with %s<id> as a batch listed it", name, v, kind, kind[:1])
}

// batchItem finds the batch and an item of it that fits.
func (s *Server) batchItem(batchID string, fits func(gate.Item) bool, what string) (batchEntry, error) {
	e, ok := s.batches.get(batchID)
	if !ok {
		return e, retryable("batch %q is unknown to this server (batches last while it runs); retry with the batch_id of a recent search", batchID)
	}
	for _, it := range e.batch.Items {
		if fits(it) {
			return e, nil
		}
	}
	return e, retryable("%s is not an item of batch %s; retry with the batch that listed it", what, batchID)
}

func (s *Server) expandEvent(ctx context.Context, in *ExpandEventIn) (*ExpandEventOut, error) {
	id, err := parseID("event_id", gate.KindEvent, in.EventID)
	if err != nil {
		return nil, err
	}
	ref := gate.MakeRef(gate.KindEvent, id)
	e, err := s.batchItem(in.BatchID, func(it gate.Item) bool { return it.EventID == id }, ref)
	if err != nil {
		return nil, err
	}
	d, err := s.mem.ExpandEvent(ctx, id)
	if err != nil {
		return nil, err
	}
	c := d.Card
	out := &ExpandEventOut{
		Event: Item{Ref: ref, Kind: gate.KindEvent, Title: clip(c.Title, textRunes), Text: clip(c.Summary, textRunes*2), Thread: c.Thread,
			At: stamp(c.Temporal.MentionedAt), When: when(c.Temporal.HappenedStart, c.Temporal.HappenedEnd, c.Temporal.Precision, c.Temporal.OriginalText),
			EventType: string(c.EventType), Participants: clipAll(c.Participants, 12), Messages: refs(gate.KindMessage, c.SourceMessageIDs, 50)},
		Status: string(c.Status), Lifecycle: string(c.Lifecycle), Quotes: clipAll(c.Quotes, 8),
		BlockSummary: clip(d.BlockSummary, textRunes*2), Weight: d.Weight,
	}
	if c.SourceBlockID != 0 {
		out.Event.Block = gate.MakeRef(gate.KindBlock, c.SourceBlockID)
	}
	items := []gate.Item{{Ref: ref, EventID: id, BlockID: c.SourceBlockID, MessageIDs: c.SourceMessageIDs, Title: c.Title, Text: c.Summary,
		MentionedAt: c.Temporal.MentionedAt, HappenedStart: c.Temporal.HappenedStart, HappenedEnd: c.Temporal.HappenedEnd, Precision: c.Temporal.Precision}}
	for i, m := range d.Sources {
		if i == maxLimit {
			break
		}
		out.Sources = append(out.Sources, messageOut(m, 2000))
		items = append(items, messageItem(m, c.SourceBlockID))
	}
	for _, x := range d.Supersedes {
		out.Supersedes = append(out.Supersedes, gate.MakeRef(gate.KindEvent, x.ID)+" "+clip(x.Title, 120))
	}
	if d.SupersededBy != nil {
		out.SupersededBy = gate.MakeRef(gate.KindEvent, d.SupersededBy.ID) + " " + clip(d.SupersededBy.Title, 120)
	}
	for _, x := range d.Conflicts {
		out.Conflicts = append(out.Conflicts, gate.MakeRef(gate.KindEvent, x.ID)+" "+clip(x.Title, 120))
	}
	out.BatchID, err = s.newBatch(ctx, c.Title, gate.ExpandEvent, ref, items, e.scopes)
	return out, err
}

func (s *Server) expandNode(ctx context.Context, in *ExpandNodeIn) (*ExpandNodeOut, error) {
	id, err := parseID("node_id", gate.KindNode, in.NodeID)
	if err != nil {
		return nil, err
	}
	ref := gate.MakeRef(gate.KindNode, id)
	e, err := s.batchItem(in.BatchID, func(it gate.Item) bool { return it.NodeID == id }, ref)
	if err != nil {
		return nil, err
	}
	asOf, err := parseTime("as_of", in.AsOf, true)
	if err != nil {
		return nil, err
	}
	d, err := s.mem.ExpandGraphNode(ctx, id, asOf)
	if err != nil {
		return nil, err
	}
	out := &ExpandNodeOut{Ref: ref, Name: clip(d.Node.Name, textRunes), Kind: string(d.Node.Kind), Aliases: clipAll(d.Node.Aliases, 12), AsOf: stamp(d.AsOf)}
	var texts []string
	var mids []uint64
	for _, f := range d.Facts {
		out.Facts = append(out.Facts, Fact{Text: clip(f.Key+": "+f.Value, textRunes), ValidFrom: stamp(f.ValidFrom), ValidTo: stamp(f.ValidTo),
			Sources: refs(gate.KindEvent, f.SourceEventIDs, 8)})
		texts = append(texts, f.Key+": "+f.Value)
	}
	for _, ed := range d.Edges {
		if ed.From != id {
			continue
		}
		out.Facts = append(out.Facts, Fact{Text: clip(ed.Relation+": "+ed.ToName, textRunes), ValidFrom: stamp(ed.ValidFrom), ValidTo: stamp(ed.ValidTo),
			Sources: refs(gate.KindEvent, ed.SourceEventIDs, 8)})
		texts = append(texts, ed.Relation+": "+ed.ToName)
	}
	out.Total = len(out.Facts)
	if len(out.Facts) > maxLimit {
		out.Facts = out.Facts[:maxLimit]
	}
	items := []gate.Item{{Ref: ref, NodeID: id, MessageIDs: mids, Title: d.Node.Name, Facts: texts,
		Text: d.Node.Name + " (" + string(d.Node.Kind) + "): " + strings.Join(texts, "; ")}}
	out.BatchID, err = s.newBatch(ctx, d.Node.Name, gate.ExpandGraphNode, ref, items, e.scopes)
	return out, err
}

func (s *Server) expandBlock(ctx context.Context, in *ExpandBlockIn) (*ExpandBlockOut, error) {
	id, err := parseID("block_id", gate.KindBlock, in.BlockID)
	if err != nil {
		return nil, err
	}
	ref := gate.MakeRef(gate.KindBlock, id)
	e, err := s.batchItem(in.BatchID, func(it gate.Item) bool { return it.BlockID == id }, ref)
	if err != nil {
		return nil, err
	}
	level := 1
	if in.Level != nil {
		level = int(*in.Level)
	}
	if level < 0 || level > 5 {
		return nil, retryable("level %d is not 0–5; retry with 0 title, 1 summary, 2 key facts, 3 pruned, 4 near-verbatim or 5 verbatim", level)
	}
	limit, off, err := page(in.Limit, in.Cursor)
	if err != nil {
		return nil, err
	}
	v, err := s.mem.ExpandBlock(ctx, id, level)
	if err != nil {
		return nil, err
	}
	out := &ExpandBlockOut{Ref: ref, Level: level, State: string(v.State)}
	var items []gate.Item
	if level == 5 {
		out.Total = len(v.Messages)
		lo, hi := min(off, len(v.Messages)), min(off+limit, len(v.Messages))
		for _, m := range v.Messages[lo:hi] {
			out.Messages = append(out.Messages, messageOut(m, 4000))
			items = append(items, messageItem(m, id))
		}
		if hi < len(v.Messages) {
			out.Next = strconv.Itoa(hi)
		}
	} else {
		out.Text = clip(v.Text, detailRunes)
		out.Clipped = out.Text != v.Text
		items = []gate.Item{{Ref: ref, BlockID: id, Text: v.Text}}
	}
	out.BatchID, err = s.newBatch(ctx, "", gate.ExpandBlock, ref, items, e.scopes)
	return out, err
}

func messageOut(m stratagate.Message, n int) Message {
	c := clip(m.Content, n)
	return Message{Ref: gate.MakeRef(gate.KindMessage, m.ID), Role: m.Role, Speaker: m.Speaker, Thread: m.Thread,
		At: stamp(m.At), Content: c, Clipped: c != m.Content}
}

func messageItem(m stratagate.Message, block uint64) gate.Item {
	return gate.Item{Ref: gate.MakeRef(gate.KindMessage, m.ID), BlockID: block, MessageIDs: []uint64{m.ID},
		Text: m.Content, Quote: clip(m.Content, 300), Speaker: m.Speaker, MentionedAt: m.At}
}
