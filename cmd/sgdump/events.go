package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/kv"
)

// view runs fn in a read transaction of a second read-only handle on the
// file, opened like jobs does (same lock timeout), for records the root
// API cannot list: event cards and graph records.
func (e *env) view(fn func(tx *bolt.Tx) error) error {
	db, err := kv.Open(e.db, kv.Options{ReadOnly: true, LockTimeout: max(e.timeout, 0)})
	if err != nil {
		return openError(e, err)
	}
	defer db.Close()
	return db.View(fn)
}

var eventsCommand = &command{
	name: "events", args: "[-thread T] [-q QUERY] [-scope S]... [-n N]",
	summary: "event cards in id order, or ranked by SearchEvents with -q",
	define: func(fs *flag.FlagSet) runner {
		var scopes multiFlag
		thread := fs.String("thread", "", "only the cards of `THREAD`")
		q := fs.String("q", "", "rank cards by SearchEvents for `QUERY` (not logged)")
		fs.Var(&scopes, "scope", "only cards of `SCOPE` (repeatable; with -q the default is every scope of the file's threads)")
		n := fs.Int("n", 0, "at most `N` cards: the newest N when listing (0 = all), the top N with -q (0 = 10)")
		return func(e *env, args []string) error {
			return runEvents(e, args, eventsQuery{thread: *thread, text: *q, scopes: scopes, n: *n})
		}
	},
}

type eventsQuery struct {
	thread string
	text   string
	scopes []string
	n      int
}

// eventRowOut is one card in the events listing.
type eventRowOut struct {
	Rank             int      `json:"rank,omitempty"` // with -q only, from 1
	Score            float64  `json:"score,omitempty"`
	ID               uint64   `json:"id"`
	Thread           string   `json:"thread"`
	Scope            string   `json:"scope"`
	BlockID          uint64   `json:"block_id"`
	Type             string   `json:"type"`
	Status           string   `json:"status"`
	Lifecycle        string   `json:"lifecycle"`
	Criticality      string   `json:"criticality"`
	Title            string   `json:"title"`
	MentionedAt      string   `json:"mentioned_at"`
	HappenedStart    string   `json:"happened_start"`
	HappenedEnd      string   `json:"happened_end"`
	Precision        string   `json:"precision"`
	TimeText         string   `json:"time_text"`
	Participants     []string `json:"participants"`
	SourceMessageIDs []uint64 `json:"source_message_ids"`
}

func toEventRow(c *events.Card) eventRowOut {
	return eventRowOut{
		ID: c.ID, Thread: c.Thread, Scope: c.Scope, BlockID: c.SourceBlockID, Type: string(c.EventType),
		Status: string(c.Status), Lifecycle: string(c.Lifecycle), Criticality: string(c.Criticality), Title: c.Title,
		MentionedAt: stamp(c.Temporal.MentionedAt), HappenedStart: stamp(c.Temporal.HappenedStart),
		HappenedEnd: stamp(c.Temporal.HappenedEnd), Precision: c.Temporal.Precision, TimeText: c.Temporal.OriginalText,
		Participants: nonNil(c.Participants), SourceMessageIDs: nonNil(c.SourceMessageIDs),
	}
}

type eventsOut struct {
	Query  string        `json:"query"`  // "" when listing
	Scopes []string      `json:"scopes"` // searched (-q) or filtered on; [] lists every scope
	Thread string        `json:"thread"`
	Events []eventRowOut `json:"events"`
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func runEvents(e *env, args []string, q eventsQuery) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q (a query goes in -q)", args[0])
	}
	if q.n < 0 || (q.text != "" && q.n > stratagate.MaxLimit) {
		return usagef("-n %d: want 0–%d", q.n, stratagate.MaxLimit)
	}
	if q.text != "" && strings.TrimSpace(q.text) == "" {
		return usagef("-q needs a query")
	}
	mem, err := e.memory()
	if err != nil {
		return err
	}
	ths, err := mem.Threads(e.ctx)
	if err != nil {
		return err
	}
	if q.thread != "" && !slices.ContainsFunc(ths, func(t stratagate.Thread) bool { return t.Name == q.thread }) {
		return notFound("thread", strconv.Quote(q.thread))
	}
	o := eventsOut{Query: q.text, Scopes: nonNil(q.scopes), Thread: q.thread, Events: []eventRowOut{}}
	if q.text != "" {
		if len(o.Scopes) == 0 {
			for _, t := range ths {
				o.Scopes = append(o.Scopes, t.Scope)
			}
			slices.Sort(o.Scopes)
			o.Scopes = slices.Compact(o.Scopes)
			if len(o.Scopes) == 0 {
				o.Scopes = []string{"global"}
			}
		}
		hits, err := mem.SearchEvents(e.ctx, stratagate.Query{Text: q.text, Scopes: o.Scopes, Thread: q.thread, Limit: q.n})
		if err != nil {
			return err
		}
		for i, h := range hits {
			d, err := mem.ExpandEvent(e.ctx, h.ID)
			if err != nil {
				return err
			}
			row := toEventRow(&d.Card)
			row.Rank, row.Score = i+1, h.Score
			o.Events = append(o.Events, row)
		}
	} else {
		if err := e.view(func(tx *bolt.Tx) error {
			return events.ForEach(tx, func(c events.Card) error {
				if (q.thread == "" || c.Thread == q.thread) && (len(q.scopes) == 0 || slices.Contains(q.scopes, c.Scope)) {
					o.Events = append(o.Events, toEventRow(&c))
				}
				return nil
			})
		}); err != nil {
			return err
		}
		if q.n > 0 && len(o.Events) > q.n {
			o.Events = o.Events[len(o.Events)-q.n:]
		}
	}
	return e.emit(o, func(w io.Writer) error {
		tw := newTable(w)
		if o.Query != "" {
			fmt.Fprint(tw, "RANK\tSCORE\t")
		}
		fmt.Fprintln(tw, "ID\tTYPE\tSTATUS\tLIFECYCLE\tMENTIONED\tHAPPENED\tTITLE")
		for _, r := range o.Events {
			if o.Query != "" {
				fmt.Fprintf(tw, "%d\t%.3f\t", r.Rank, r.Score)
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Type, r.Status, r.Lifecycle, dash(r.MentionedAt),
				happenedText(r.HappenedStart, r.HappenedEnd, r.Precision), dash(oneLine(r.Title, 60)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		where := "every scope"
		if len(o.Scopes) > 0 {
			where = strings.Join(o.Scopes, ", ")
		}
		if o.Thread != "" {
			where += ", thread " + o.Thread
		}
		if o.Query != "" {
			fmt.Fprintf(w, "%d hits in %s\n", len(o.Events), where)
		} else {
			fmt.Fprintf(w, "%d events in %s\n", len(o.Events), where)
		}
		return nil
	})
}

// happenedText renders a happened interval compactly: "[start, end)
// precision", each bound a date when it is midnight in its offset, "?"
// when unknown; "unknown" when both are.
func happenedText(start, end, precision string) string {
	if start == "" && end == "" {
		return "unknown"
	}
	p := precision
	if p == "" {
		p = "?"
	}
	return fmt.Sprintf("[%s, %s) %s", boundText(start), boundText(end), p)
}

func boundText(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return "?"
	}
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339)
}

// cardOut is a card in JSON, every field, both clocks flattened.
type cardOut struct {
	ID                    uint64   `json:"id"`
	Thread                string   `json:"thread"`
	Scope                 string   `json:"scope"`
	BlockID               uint64   `json:"block_id"`
	SourceMessageIDs      []uint64 `json:"source_message_ids"`
	Title                 string   `json:"title"`
	Summary               string   `json:"summary"`
	Tags                  []string `json:"tags"`
	Quotes                []string `json:"quotes"`
	Type                  string   `json:"type"`
	Status                string   `json:"status"`
	Participants          []string `json:"participants"`
	Entities              []string `json:"entities"`
	Criticality           string   `json:"criticality"`
	Lifecycle             string   `json:"lifecycle"`
	MentionedAt           string   `json:"mentioned_at"`
	HappenedStart         string   `json:"happened_start"`
	HappenedEnd           string   `json:"happened_end"`
	TimeText              string   `json:"time_text"`
	Precision             string   `json:"precision"`
	Basis                 string   `json:"basis"`
	Approx                bool     `json:"approx"`
	SupersedesEventIDs    []uint64 `json:"supersedes_event_ids"`
	SupersededBy          uint64   `json:"superseded_by"` // 0: none
	ConflictsWithEventIDs []uint64 `json:"conflicts_with_event_ids"`
	CreatedAt             string   `json:"created_at"`
}

func toCardOut(c *events.Card) cardOut {
	t := &c.Temporal
	return cardOut{
		ID: c.ID, Thread: c.Thread, Scope: c.Scope, BlockID: c.SourceBlockID, SourceMessageIDs: nonNil(c.SourceMessageIDs),
		Title: c.Title, Summary: c.Summary, Tags: nonNil(c.Tags), Quotes: nonNil(c.Quotes), Type: string(c.EventType),
		Status: string(c.Status), Participants: nonNil(c.Participants), Entities: nonNil(c.Entities),
		Criticality: string(c.Criticality), Lifecycle: string(c.Lifecycle),
		MentionedAt: stamp(t.MentionedAt), HappenedStart: stamp(t.HappenedStart), HappenedEnd: stamp(t.HappenedEnd),
		TimeText: t.OriginalText, Precision: t.Precision, Basis: t.Basis, Approx: t.Approx,
		SupersedesEventIDs: nonNil(c.SupersedesEventIDs), SupersededBy: c.SupersededBy,
		ConflictsWithEventIDs: nonNil(c.ConflictsWithEventIDs), CreatedAt: stamp(c.CreatedAt),
	}
}

// eventLinkOut is a linked card, named by its title.
type eventLinkOut struct {
	ID          uint64 `json:"id"`
	Title       string `json:"title"`
	Status      string `json:"status"`
	Lifecycle   string `json:"lifecycle"`
	MentionedAt string `json:"mentioned_at"`
}

func toEventLink(c *events.Card) eventLinkOut {
	return eventLinkOut{ID: c.ID, Title: c.Title, Status: string(c.Status), Lifecycle: string(c.Lifecycle), MentionedAt: stamp(c.Temporal.MentionedAt)}
}

// eventDetailOut is "event" in JSON.
type eventDetailOut struct {
	Event        cardOut        `json:"event"`
	Weight       float64        `json:"weight"`
	BlockSummary string         `json:"block_summary"`
	Supersedes   []eventLinkOut `json:"supersedes"`
	SupersededBy *eventLinkOut  `json:"superseded_by"`
	Conflicts    []eventLinkOut `json:"conflicts"`
	Sources      []messageOut   `json:"sources"`
}

var eventCommand = &command{
	name: "event", args: "ID",
	summary: "one event card: both clocks, quotes, links, weight, cited messages",
	define:  noFlags(runEvent),
}

// expandEvent is Memory.ExpandEvent with a missing card reported as
// "event ID: not found".
func expandEvent(e *env, mem *stratagate.Memory, id uint64) (stratagate.EventDetail, error) {
	d, err := mem.ExpandEvent(e.ctx, id)
	if err == nil || !errors.Is(err, stratagate.ErrNotFound) {
		return d, err
	}
	// ExpandEvent is not-found too when a cited message or a linked card
	// is missing (a damaged file): name the event only when the card
	// itself is missing.
	exists := false
	if verr := e.view(func(tx *bolt.Tx) error {
		_, gerr := events.Get(tx, id)
		exists = gerr == nil
		return nil
	}); verr != nil {
		return d, verr
	}
	if !exists {
		return d, notFound("event", id)
	}
	return d, failf("event %d: %v (sgdump trace event %d shows what is missing)", id, err, id)
}

func runEvent(e *env, args []string) error {
	if len(args) != 1 {
		return usagef("event takes one event id")
	}
	id, err := parseID("event", args[0])
	if err != nil {
		return err
	}
	mem, err := e.memory()
	if err != nil {
		return err
	}
	d, err := expandEvent(e, mem, id)
	if err != nil {
		return err
	}
	o := eventDetailOut{
		Event: toCardOut(&d.Card), Weight: d.Weight, BlockSummary: d.BlockSummary,
		Supersedes: []eventLinkOut{}, Conflicts: []eventLinkOut{}, Sources: []messageOut{},
	}
	for i := range d.Supersedes {
		o.Supersedes = append(o.Supersedes, toEventLink(&d.Supersedes[i]))
	}
	if d.SupersededBy != nil {
		l := toEventLink(d.SupersededBy)
		o.SupersededBy = &l
	}
	for i := range d.Conflicts {
		o.Conflicts = append(o.Conflicts, toEventLink(&d.Conflicts[i]))
	}
	for i := range d.Sources {
		o.Sources = append(o.Sources, toMessageOut(&d.Sources[i]))
	}
	return e.emit(o, func(w io.Writer) error {
		c := &o.Event
		tw := newTable(w)
		writeCardFields(tw, c)
		fmt.Fprintf(tw, "weight\t%.4g\n", o.Weight)
		if err := tw.Flush(); err != nil {
			return err
		}
		if c.Summary != "" {
			fmt.Fprintln(w, "\nsummary:")
			indent(w, c.Summary, "  ")
		}
		if len(c.Quotes) > 0 {
			fmt.Fprintln(w, "\nquotes:")
			for _, q := range c.Quotes {
				fmt.Fprintf(w, "  %s\n", strconv.Quote(q))
			}
		}
		writeLinks(w, "supersedes", o.Supersedes)
		if o.SupersededBy != nil {
			writeLinks(w, "superseded by", []eventLinkOut{*o.SupersededBy})
		}
		writeLinks(w, "conflicts with", o.Conflicts)
		if o.BlockSummary != "" {
			fmt.Fprintf(w, "\nblock %d L1 summary:\n", c.BlockID)
			indent(w, o.BlockSummary, "  ")
		}
		fmt.Fprintf(w, "\ncited messages (%d; verbatim and hashes: sgdump trace event %d):\n", len(o.Sources), c.ID)
		for _, m := range o.Sources {
			fmt.Fprintf(w, "  #%d  %s  %s  %s: %s\n", m.ID, m.At, m.Role, dash(m.Speaker), oneLine(m.Content, 100))
		}
		return nil
	})
}

// writeCardFields writes a card's fields as table rows.
func writeCardFields(tw io.Writer, c *cardOut) {
	fmt.Fprintf(tw, "event\t%d\n", c.ID)
	fmt.Fprintf(tw, "title\t%s\n", c.Title)
	fmt.Fprintf(tw, "type\t%s\n", c.Type)
	fmt.Fprintf(tw, "status\t%s\n", c.Status)
	fmt.Fprintf(tw, "lifecycle\t%s\n", c.Lifecycle)
	fmt.Fprintf(tw, "criticality\t%s\n", c.Criticality)
	fmt.Fprintf(tw, "thread\t%s (%s)\n", c.Thread, c.Scope)
	fmt.Fprintf(tw, "block\t%d\n", c.BlockID)
	fmt.Fprintf(tw, "messages\t%s\n", citeList(c.SourceMessageIDs))
	fmt.Fprintf(tw, "mentioned\t%s\n", dash(c.MentionedAt))
	h := happenedText(c.HappenedStart, c.HappenedEnd, c.Precision)
	if c.HappenedStart != "" || c.HappenedEnd != "" {
		h = fmt.Sprintf("%s … %s", dash(c.HappenedStart), dash(c.HappenedEnd))
	}
	fmt.Fprintf(tw, "happened\t%s\n", h)
	approx := ""
	if c.Approx {
		approx = ", approximate"
	}
	fmt.Fprintf(tw, "precision\t%s (basis %s%s)\n", dash(c.Precision), dash(c.Basis), approx)
	if c.TimeText != "" {
		fmt.Fprintf(tw, "time text\t%s\n", strconv.Quote(c.TimeText))
	}
	fmt.Fprintf(tw, "participants\t%s\n", dash(strings.Join(c.Participants, ", ")))
	fmt.Fprintf(tw, "entities\t%s\n", dash(strings.Join(c.Entities, ", ")))
	fmt.Fprintf(tw, "tags\t%s\n", dash(strings.Join(c.Tags, ", ")))
	fmt.Fprintf(tw, "created\t%s\n", dash(c.CreatedAt))
}

func writeLinks(w io.Writer, what string, links []eventLinkOut) {
	if len(links) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", what)
	for _, l := range links {
		fmt.Fprintf(w, "  #%d  %s  %s  %s\n", l.ID, l.Lifecycle, dash(l.MentionedAt), l.Title)
	}
}

// citedMessageOut is a message an event cites, with whether its source
// block holds it.
type citedMessageOut struct {
	messageOut
	InBlock bool `json:"in_block"`
}

// quoteOut is one of a card's quotes and the cited messages it occurs in
// (events.QuoteIn: case and runs of whitespace folded).
type quoteOut struct {
	Text       string   `json:"text"`
	Found      bool     `json:"found"`
	MessageIDs []uint64 `json:"message_ids"`
}

// eventTraceOut is an event's provenance chain: "trace event" in JSON, and
// each source event of a graph trace.
type eventTraceOut struct {
	Event cardOut `json:"event"`
	// Block is the card's source block (its summary is L1); null when it
	// is not stored.
	Block             *blockOut         `json:"block"`
	Messages          []citedMessageOut `json:"messages"`
	MissingMessageIDs []uint64          `json:"missing_message_ids"`
	Quotes            []quoteOut        `json:"quotes"`
	// OK: the block is stored, every cited message is stored, in it and
	// hashes ok, and every quote occurs in a cited message.
	OK bool `json:"ok"`
}

// tracer state shared by the event chains of one trace: blocks by thread.
type chainCache struct {
	blocks map[string][]stratagate.Block
}

func (cc *chainCache) block(e *env, mem *stratagate.Memory, thread string, id uint64) (*stratagate.Block, error) {
	if cc.blocks == nil {
		cc.blocks = map[string][]stratagate.Block{}
	}
	bs, ok := cc.blocks[thread]
	if !ok {
		var err error
		bs, err = mem.Blocks(e.ctx, thread)
		if err != nil && !errors.Is(err, stratagate.ErrNotFound) {
			return nil, err
		}
		cc.blocks[thread] = bs
	}
	for i := range bs {
		if bs[i].ID == id {
			return &bs[i], nil
		}
	}
	b, err := findBlock(e, mem, id) // not in the card's thread: a damaged file
	var ee *exitError
	if errors.As(err, &ee) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &b, nil
}

// eventChain follows card c down to its block and cited messages.
func eventChain(e *env, mem *stratagate.Memory, cc *chainCache, c *events.Card) (eventTraceOut, error) {
	o := eventTraceOut{Event: toCardOut(c), Messages: []citedMessageOut{}, Quotes: []quoteOut{}}
	b, err := cc.block(e, mem, c.Thread, c.SourceBlockID)
	if err != nil {
		return o, err
	}
	if b != nil {
		bo := toBlockOut(b, false)
		o.Block = &bo
	}
	msgs, missing, err := loadMessages(e, mem, c.SourceMessageIDs)
	if err != nil {
		return o, err
	}
	o.MissingMessageIDs = missing
	o.OK = b != nil && len(missing) == 0
	for i := range msgs {
		m := citedMessageOut{messageOut: toMessageOut(&msgs[i]), InBlock: b != nil && slices.Contains(b.MessageIDs, msgs[i].ID)}
		o.OK = o.OK && m.SHA256OK && m.InBlock
		o.Messages = append(o.Messages, m)
	}
	for _, q := range c.Quotes {
		qo := quoteOut{Text: q, MessageIDs: []uint64{}}
		for _, m := range msgs {
			if events.QuoteIn(q, m.Content) {
				qo.MessageIDs = append(qo.MessageIDs, m.ID)
			}
		}
		qo.Found = len(qo.MessageIDs) > 0
		o.OK = o.OK && qo.Found
		o.Quotes = append(o.Quotes, qo)
	}
	return o, nil
}

// getCards reads cards by id through the read-only kv handle; ids not
// stored come back in missing.
func getCards(e *env, ids []uint64) (cards []events.Card, missing []uint64, err error) {
	missing = []uint64{}
	err = e.view(func(tx *bolt.Tx) error {
		for _, id := range ids {
			c, err := events.Get(tx, id)
			switch {
			case err == nil:
				cards = append(cards, c)
			case errors.Is(err, events.ErrNotFound) || errors.Is(err, kv.ErrCorrupt):
				missing = append(missing, id)
			default:
				return err
			}
		}
		return nil
	})
	return cards, missing, err
}

func traceEvent(e *env, id uint64) error {
	mem, err := e.memory()
	if err != nil {
		return err
	}
	cards, missing, err := getCards(e, []uint64{id})
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return notFound("event", id)
	}
	o, err := eventChain(e, mem, &chainCache{}, &cards[0])
	if err != nil {
		return err
	}
	return e.emit(o, func(w io.Writer) error {
		tw := newTable(w)
		writeCardFields(tw, &o.Event)
		if err := tw.Flush(); err != nil {
			return err
		}
		if o.Event.Summary != "" {
			fmt.Fprintln(w, "\nsummary:")
			indent(w, o.Event.Summary, "  ")
		}
		fmt.Fprintln(w)
		writeChainBlock(w, &o, "")
		if o.Block != nil {
			fmt.Fprintln(w, "  L1 summary:")
			indent(w, o.Block.Summary, "    ")
		}
		fmt.Fprintf(w, "\nquotes (%d):\n", len(o.Quotes))
		for _, q := range o.Quotes {
			fmt.Fprintf(w, "  %s  %s\n", strconv.Quote(q.Text), quoteStatus(&q))
		}
		fmt.Fprintf(w, "\ncited messages (%d):\n", len(o.Event.SourceMessageIDs))
		for i := range o.Messages {
			m := &o.Messages[i]
			writeMessage(w, &m.messageOut)
			if !m.InBlock {
				fmt.Fprintf(w, "  NOT IN BLOCK %d\n", o.Event.BlockID)
			}
		}
		for _, id := range o.MissingMessageIDs {
			fmt.Fprintf(w, "  #%d  MISSING: not stored or unreadable\n", id)
		}
		fmt.Fprintf(w, "\nprovenance: %s\n", chainStatus(&o))
		return nil
	})
}

func quoteStatus(q *quoteOut) string {
	if !q.Found {
		return "NOT FOUND in the cited messages"
	}
	return "found in " + citeList(q.MessageIDs)
}

// writeChainBlock writes the source block line of a chain.
func writeChainBlock(w io.Writer, o *eventTraceOut, p string) {
	if o.Block == nil {
		fmt.Fprintf(w, "%ssource block %d: MISSING: not stored\n", p, o.Event.BlockID)
		return
	}
	b := o.Block
	fmt.Fprintf(w, "%ssource block %d (%s seq %d, %s): %s\n", p, b.ID, b.Thread, b.Seq, b.State, dash(b.Title))
}

// chainStatus sums up a chain: "ok" or what is wrong.
func chainStatus(o *eventTraceOut) string {
	if o.OK {
		return fmt.Sprintf("ok: block stored, %s stored with matching hashes, %s found",
			plural(len(o.Messages), "cited message"), plural(len(o.Quotes), "quote"))
	}
	var probs []string
	if o.Block == nil {
		probs = append(probs, "source block missing")
	}
	if n := len(o.MissingMessageIDs); n > 0 {
		probs = append(probs, plural(n, "cited message")+" missing")
	}
	var bad, outside, unfound int
	for _, m := range o.Messages {
		if !m.SHA256OK {
			bad++
		}
		if !m.InBlock && o.Block != nil {
			outside++
		}
	}
	for _, q := range o.Quotes {
		if !q.Found {
			unfound++
		}
	}
	if bad > 0 {
		probs = append(probs, fmt.Sprintf("%d hash MISMATCH", bad))
	}
	if outside > 0 {
		probs = append(probs, plural(outside, "cited message")+" not in the block")
	}
	if unfound > 0 {
		probs = append(probs, plural(unfound, "quote")+" not found")
	}
	return "PROBLEMS: " + strings.Join(probs, "; ")
}

// writeChainCompact writes a source event's chain in a few lines each.
func writeChainCompact(w io.Writer, o *eventTraceOut) {
	c := &o.Event
	fmt.Fprintf(w, "  event #%d  %s  %s/%s  mentioned %s: %s\n", c.ID, c.Lifecycle, c.Type, c.Status, dash(c.MentionedAt), c.Title)
	writeChainBlock(w, o, "    ")
	found := 0
	for _, q := range o.Quotes {
		if q.Found {
			found++
		}
	}
	fmt.Fprintf(w, "    quotes: %d of %d found in the cited messages\n", found, len(o.Quotes))
	for i := range o.Messages {
		m := &o.Messages[i]
		where := ""
		if !m.InBlock {
			where = "  NOT IN BLOCK"
		}
		fmt.Fprintf(w, "    #%d  %s  %s  %s  sha256 %s %s%s\n", m.ID, m.At, m.Role, dash(m.Speaker), m.SHA256, hashStatus(m.SHA256OK), where)
		fmt.Fprintf(w, "        %s\n", oneLine(m.Content, 120))
	}
	for _, id := range o.MissingMessageIDs {
		fmt.Fprintf(w, "    #%d  MISSING: not stored or unreadable\n", id)
	}
	fmt.Fprintf(w, "    provenance: %s\n", chainStatus(o))
}
