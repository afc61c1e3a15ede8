package stratagate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/events/temporal"
	"github.com/stratagate/stratagate/gate"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// AskOptions bound one Ask.
type AskOptions struct {
	// Scopes the evidence may come from; empty means "global" only.
	Scopes []string
	// Thread, if set, restricts evidence to that thread.
	Thread string
	// MaxRounds is the retrieval budget: default 4, at most 12.
	MaxRounds int
	// Now is the question's reference time: relative words in the
	// question ("last week", "how many days ago") count from it. Zero
	// means the store clock (Options.Clock).
	Now time.Time
	// Assessor and Answerer, when set, replace the gate's (see
	// Options.GateModel) for this call; their output is validated like
	// any other.
	Assessor gate.Assessor
	Answerer gate.Answerer
	// NoRecord answers without recording the assessment or the use, so
	// no memory gains weight: a person looking (the viewer's Ask), not an
	// agent answering from memory. Model usage is still charged. As on a
	// ReadOnly Memory, Answer.AssessmentID then names no stored
	// assessment, so RecordMemoryUse refuses it.
	NoRecord bool
}

// Answer is the result of Ask: the answer text, the gate's verdict, what
// is missing when the evidence was not sufficient, the evidence the answer
// used, and every step of the retrieval loop.
type Answer struct {
	Text    string
	Verdict string // sufficient, or partial/wrong when the gate never passed
	Missing string
	// Evidence, for a sufficient answer, is the cited set: the items the
	// answer used first, then the rest of the sufficient assessment's
	// refs and the refs earlier rounds cited as supporting (at most 8).
	// For an answer that is not sufficient it is what the gate found
	// relevant without passing it: no answer was composed from it and no
	// use was recorded.
	Evidence []Evidence
	Trace    []Step
	// AssessmentID is the id of the sufficient assessment (empty if none),
	// unique in the file across processes and restarts. On a writable
	// Memory the assessment is recorded in the file and the answer's use
	// was recorded under it, with receipt "ask:<AssessmentID>".
	AssessmentID string
	// TimeStart, TimeEnd (exclusive) and TimePrecision are the interval a
	// sufficient answer to a time question states, as its evidence dates
	// it (for "When did Sam mention X?", the day it was said); zero
	// otherwise.
	TimeStart, TimeEnd time.Time
	TimePrecision      string
	// Usage is what this Ask's model calls cost (zero for the offline
	// gate); it is also added to Stats.Usage on a writable Memory.
	Usage model.Usage
}

// Evidence is one memory an answer used, traceable to its source.
type Evidence struct {
	EventID       uint64
	NodeID        uint64
	BlockID       uint64
	MessageIDs    []uint64
	Speaker       string
	MentionedAt   time.Time
	Quote         string
	HappenedStart time.Time
	HappenedEnd   time.Time
	Precision     string
}

// Step is one round of the retrieval loop.
type Step struct {
	Strategy string
	Query    string
	Target   string
	BatchID  string
	Verdict  string
	Missing  string
	NewItems int
	// MessageIDs are the source messages of what the round retrieved.
	MessageIDs []uint64
}

// Ask answers question from memory through the evidence gate: each round
// retrieves a batch (events, raw messages, block or event expansion, graph),
// the offline assessor judges whether it is sufficient, what is missing
// and which channel to try next, and the loop stops when the evidence is
// sufficient or the budget is spent. The answer is composed only from
// sufficient evidence; otherwise Text says what is missing instead of
// guessing. Exactly the evidence the answer used is recorded with
// RecordMemoryUse (not on a read-only Memory).
func (m *Memory) Ask(ctx context.Context, question string, opts AskOptions) (Answer, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return Answer{}, err
	}
	release() // the retrieval calls below take the lock themselves
	q := Query{Text: question, Scopes: opts.Scopes, Thread: opts.Thread}
	if err := checkQuery(&q); err != nil {
		return Answer{}, err
	}
	if opts.MaxRounds < 0 || opts.MaxRounds > gate.MaxRounds {
		return Answer{}, invalid(ErrInvalidInput, "MaxRounds %d not in 0–%d", opts.MaxRounds, gate.MaxRounds)
	}
	now := opts.Now
	if now.IsZero() {
		now = m.opts.Clock()
	}
	r := &retriever{m: m, scopes: q.Scopes, thread: q.Thread}
	gq := gate.Analyze(question, now)
	if err := m.weighTerms(ctx, gq); err != nil {
		return Answer{}, err
	}
	// A session from NewSession has ids unique in the file across
	// processes, so the receipt "ask:<assessment id>" never collides.
	sess, err := m.NewSession(ctx, gq, gate.Budget{Rounds: opts.MaxRounds})
	if err != nil {
		return Answer{}, err
	}
	assessor, answerer := m.gateOf(&opts)
	mt := &model.Meter{}
	res, err := gate.RunSession(model.WithMeter(ctx, mt), sess, r, assessor, answerer)
	if err != nil {
		// What the model calls cost is counted even when they failed.
		if uerr := m.chargeAsk(ctx, mt); uerr != nil {
			m.opts.Logger.Warn("recording model usage", "err", uerr)
		}
		return Answer{}, classify(err)
	}
	ans := Answer{Text: res.Text, Verdict: string(res.Verdict), Missing: res.Missing, AssessmentID: res.SufficientAssessmentID,
		TimeStart: res.TimeStart, TimeEnd: res.TimeEnd, TimePrecision: res.TimePrecision, Usage: mt.Usage()}
	for _, st := range res.Trace {
		ans.Trace = append(ans.Trace, Step{Strategy: string(st.Strategy), Query: st.Query, Target: st.Target, BatchID: st.BatchID,
			Verdict: string(st.Verdict), Missing: st.Missing, NewItems: st.NewItems, MessageIDs: st.MessageIDs})
	}
	var use Use
	for _, it := range res.Evidence {
		ans.Evidence = append(ans.Evidence, Evidence{
			EventID: it.EventID, NodeID: it.NodeID, BlockID: it.BlockID, MessageIDs: it.MessageIDs, Speaker: it.Speaker,
			MentionedAt: it.MentionedAt, Quote: it.Quote, HappenedStart: it.HappenedStart, HappenedEnd: it.HappenedEnd, Precision: it.Precision,
		})
		if !slices.Contains(res.SufficientRefs, it.Ref) {
			continue // only the sufficient assessment's refs are adopted
		}
		if it.EventID != 0 {
			use.EventIDs = append(use.EventIDs, it.EventID)
		}
		if it.NodeID != 0 {
			use.NodeIDs = append(use.NodeIDs, it.NodeID)
		}
	}
	if res.Verdict == gate.Sufficient && !m.opts.ReadOnly && !opts.NoRecord {
		if err := m.recordAsk(ctx, sess, res.SufficientAssessmentID, use, mt); err != nil {
			return ans, fmt.Errorf("recording use: %w", err)
		}
	} else if err := m.chargeAsk(ctx, mt); err != nil {
		return ans, fmt.Errorf("recording model usage: %w", err)
	}
	return ans, nil
}

// gateOf returns the assessor and answerer of an Ask: the call's own, the
// model's (Options.GateModel), or the offline gate's.
func (m *Memory) gateOf(opts *AskOptions) (gate.Assessor, gate.Answerer) {
	var a gate.Assessor = gate.HeuristicAssessor{}
	var ans gate.Answerer = gate.HeuristicAnswerer{}
	if m.opts.GateModel && m.opts.Model.Name() != heuristic.Name {
		a, ans = gate.ModelAssessor{Model: m.opts.Model}, gate.ModelAnswerer{Model: m.opts.Model}
	}
	if opts.Assessor != nil {
		a = opts.Assessor
	}
	if opts.Answerer != nil {
		ans = opts.Answerer
	}
	return a, ans
}

// retriever executes the gate's steps against the Memory.
type retriever struct {
	m      *Memory
	scopes []string
	thread string
}

// askLimit is the number of hits Ask retrieves per round. Each hit
// brings its context messages, so a batch of six hits already holds up to
// eighteen messages; more dilute what the assessor cites (LoCoMo dev, Ask
// evidence recall at 5/6/7/8/10 hits: 0.633/0.639/0.639/0.632/0.615; see
// docs/ARCHITECTURE.md).
const askLimit = 6

func (r *retriever) Retrieve(ctx context.Context, s gate.Step) (gate.Batch, error) {
	b := gate.Batch{Strategy: s.Strategy, Query: s.Query, Target: s.Target}
	q := Query{Text: s.Query, Scopes: r.scopes, Thread: r.thread, Limit: askLimit}
	if q.Text == "" && s.Strategy.IsSearch() {
		return b, nil
	}
	if len(q.Text) > MaxQueryBytes {
		q.Text = clipBytes(q.Text, MaxQueryBytes)
	}
	var err error
	switch s.Strategy {
	case gate.SearchEvents:
		var hits []EventHit
		if hits, err = r.m.SearchEvents(ctx, q); err == nil {
			err = r.m.view(func(tx *bolt.Tx) error {
				for _, h := range hits {
					c, err := events.Get(tx, h.ID)
					if err != nil {
						return err
					}
					b.Items = append(b.Items, eventItem(&c, h.Score))
				}
				return nil
			})
		}
	case gate.SearchRawMemory:
		var hits []Hit
		if hits, err = r.m.SearchRaw(ctx, q); err == nil {
			err = r.m.view(func(tx *bolt.Tx) error {
				for _, h := range hits {
					msg, err := layers.GetMessage(tx, h.MessageID)
					if err != nil {
						return err
					}
					it := messageItem(&msg, h.BlockID, h.Score)
					b.Items = append(b.Items, it)
					for _, n := range []*Neighbour{h.Prev, h.Next} {
						if n == nil {
							continue
						}
						if err := appendContext(tx, &b, n.MessageID, it.Ref); err != nil {
							return err
						}
					}
					// A reply to a question about a statement ("I adopted a
					// pup!" — "What's her name?" — "Her name is Shadow!"):
					// the statement is part of the reply's window.
					if h.Prev != nil {
						if err := appendAsked(tx, &b, h.Prev.MessageID, msg.Thread, it.Ref); err != nil {
							return err
						}
					}
				}
				return nil
			})
		}
	case gate.SearchGraph:
		var hits []NodeHit
		if hits, err = r.m.SearchGraphNodes(ctx, q); err == nil {
			for _, h := range hits {
				it := gate.Item{Ref: "n" + strconv.FormatUint(h.ID, 10), NodeID: h.ID, Title: h.Name,
					Text: h.Name + " (" + h.Kind + "): " + strings.Join(h.Facts, "; "), Facts: h.Facts, Score: h.Score}
				if err = r.nodeSources(ctx, &it); err != nil {
					break
				}
				b.Items = append(b.Items, it)
			}
		}
	case gate.ExpandEvent, gate.ExpandBlock, gate.ExpandGraphNode:
		err = r.expand(ctx, s, &b)
	}
	return b, err
}

// expand resolves an expand step's target ref into items: an event with
// its source messages; a block's messages (the block of a message ref);
// a node with its facts.
func (r *retriever) expand(ctx context.Context, s gate.Step, b *gate.Batch) error {
	kind, id, ok := gate.ParseRef(s.Target)
	if !ok {
		return nil
	}
	switch {
	case s.Strategy == gate.ExpandEvent && kind == gate.KindEvent:
		d, err := r.m.ExpandEvent(ctx, id)
		if err != nil {
			return ignoreNotFound(err)
		}
		b.Items = append(b.Items, eventItem(&d.Card, 0))
		for i := range d.Sources {
			it := messageItem(&d.Sources[i], d.Card.SourceBlockID, 0)
			b.Items = append(b.Items, it)
		}
		// Each source message's neighbours, as context of that message.
		return r.m.view(func(tx *bolt.Tx) error {
			for i := range d.Sources {
				prev, next := layers.Neighbours(tx, d.Sources[i].Thread, d.Sources[i].ID)
				for _, id := range []uint64{prev, next} {
					if id == 0 {
						continue
					}
					if err := appendContext(tx, b, id, "m"+strconv.FormatUint(d.Sources[i].ID, 10)); err != nil {
						return err
					}
				}
			}
			return nil
		})
	case s.Strategy == gate.ExpandBlock && (kind == gate.KindBlock || kind == gate.KindMessage):
		return r.m.view(func(tx *bolt.Tx) error {
			block := id
			if kind == gate.KindMessage {
				msg, err := layers.GetMessage(tx, id)
				if err != nil {
					return ignoreNotFound(err)
				}
				block = layers.MessageBlock(tx, msg.Thread, id)
			}
			if block == 0 {
				return nil
			}
			bl, err := layers.GetBlock(tx, block)
			if err != nil {
				return ignoreNotFound(err)
			}
			msgs, err := layers.GetMessages(tx, bl.MessageIDs)
			if err != nil {
				return err
			}
			if kind == gate.KindMessage {
				// The messages nearest the expanded one first: a batch
				// holds only the first gate.Budget.MaxItems items.
				slices.SortStableFunc(msgs, func(a, b Message) int {
					return cmp.Compare(distance(a.ID, id), distance(b.ID, id))
				})
			}
			for i := range msgs {
				if msgs[i].Role == layers.RoleTool || msgs[i].ToolName != "" {
					continue
				}
				b.Items = append(b.Items, messageItem(&msgs[i], bl.ID, 0))
			}
			return nil
		})
	case s.Strategy == gate.ExpandGraphNode && kind == gate.KindNode:
		d, err := r.m.ExpandGraphNode(ctx, id, time.Time{})
		if err != nil {
			return ignoreNotFound(err)
		}
		var facts []string
		for _, f := range d.Facts {
			facts = append(facts, f.Key+": "+f.Value)
		}
		for _, e := range d.Edges {
			if e.From == id {
				facts = append(facts, e.Relation+": "+e.ToName)
			}
		}
		b.Items = append(b.Items, gate.Item{Ref: s.Target, NodeID: id, Title: d.Node.Name,
			Text: d.Node.Name + " (" + string(d.Node.Kind) + "): " + strings.Join(facts, "; "), Facts: facts})
	}
	return nil
}

// nodeSources gives a node item the provenance of the facts and edges it
// shows: the messages their source events cite, and the latest mention
// (with its quote) among those events.
func (r *retriever) nodeSources(ctx context.Context, it *gate.Item) error {
	d, err := r.m.ExpandGraphNode(ctx, it.NodeID, time.Time{})
	if err != nil {
		return ignoreNotFound(err)
	}
	// Only the facts the hit shows (those matching the query first).
	var evs []uint64
	for _, f := range d.Facts {
		if slices.Contains(it.Facts, f.Key+": "+f.Value) {
			evs = append(evs, f.SourceEventIDs...)
		}
	}
	for _, e := range d.Edges {
		if e.From == it.NodeID && slices.Contains(it.Facts, e.Relation+": "+e.ToName) {
			evs = append(evs, e.SourceEventIDs...)
		}
	}
	return r.m.view(func(tx *bolt.Tx) error {
		for _, id := range evs {
			c, err := events.Get(tx, id)
			if err != nil {
				return ignoreNotFound(err)
			}
			for _, mid := range c.SourceMessageIDs {
				if !slices.Contains(it.MessageIDs, mid) {
					it.MessageIDs = append(it.MessageIDs, mid)
				}
			}
			if c.Temporal.MentionedAt.After(it.MentionedAt) {
				it.MentionedAt = c.Temporal.MentionedAt
				if len(c.Quotes) > 0 {
					it.Quote = c.Quotes[0]
				}
			}
		}
		slices.Sort(it.MessageIDs)
		return nil
	})
}

func eventItem(c *events.Card, score float64) gate.Item {
	it := gate.Item{
		Ref: "e" + strconv.FormatUint(c.ID, 10), EventID: c.ID, BlockID: c.SourceBlockID, MessageIDs: c.SourceMessageIDs,
		Title: c.Title, Text: c.Summary, MentionedAt: c.Temporal.MentionedAt,
		HappenedStart: c.Temporal.HappenedStart, HappenedEnd: c.Temporal.HappenedEnd,
		Precision: c.Temporal.Precision, TimeText: c.Temporal.OriginalText, Score: score,
	}
	if len(c.Quotes) > 0 {
		it.Quote = c.Quotes[0]
	}
	if len(c.Participants) > 0 {
		it.Speaker = c.Participants[0]
	}
	return it
}

// appendContext appends message id to b as context of the item ref (see
// gate.Item.Of), unless b holds it already or it is a tool message.
func appendContext(tx *bolt.Tx, b *gate.Batch, id uint64, of string) error {
	ref := "m" + strconv.FormatUint(id, 10)
	if _, ok := b.Item(ref); ok {
		return nil
	}
	msg, err := layers.GetMessage(tx, id)
	if err != nil {
		return ignoreNotFound(err)
	}
	if msg.Role == layers.RoleTool || msg.ToolName != "" {
		return nil
	}
	it := messageItem(&msg, layers.MessageBlock(tx, msg.Thread, id), 0)
	it.Of = of
	b.Items = append(b.Items, it)
	return nil
}

// appendAsked appends, as context of ref, the message before prev when
// prev ends by asking: the statement that question is about.
func appendAsked(tx *bolt.Tx, b *gate.Batch, prev uint64, thread, of string) error {
	pm, err := layers.GetMessage(tx, prev)
	if err != nil {
		return ignoreNotFound(err)
	}
	if !asksOnly(pm.Content) {
		return nil
	}
	before, _ := layers.Neighbours(tx, thread, prev)
	if before == 0 {
		return nil
	}
	return appendContext(tx, b, before, of)
}

// asksOnly reports whether a message ends by asking ("Wow, how cute!
// What's her name?"): the next message answers it.
func asksOnly(text string) bool {
	return strings.HasSuffix(strings.TrimSpace(text), "?")
}

// messageItem turns an L5 message into evidence, resolving the first time
// expression in it against the message's own timestamp (the "last week"
// said on 9 June path).
func messageItem(m *Message, block uint64, score float64) gate.Item {
	it := gate.Item{
		Ref: "m" + strconv.FormatUint(m.ID, 10), BlockID: block, MessageIDs: []uint64{m.ID},
		Text: m.Content, Quote: clipRunes(m.Content, 300), Speaker: m.Speaker, MentionedAt: m.At, Score: score,
		Precision: string(temporal.PrecisionUnknown),
	}
	for _, match := range temporal.Find(m.Content, m.At) {
		if !match.Known() {
			continue
		}
		if len(it.Times) == 0 {
			it.HappenedStart, it.HappenedEnd = match.Start, match.End
			it.Precision, it.TimeText = string(match.Precision), match.Text
		}
		it.Times = append(it.Times, gate.TimeMention{Text: match.Text, Start: match.Start, End: match.End,
			Precision: string(match.Precision), Basis: string(match.Basis)})
	}
	return it
}

func (m *Memory) view(fn func(*bolt.Tx) error) error {
	release, err := m.enter(context.Background())
	if err != nil {
		return err
	}
	defer release()
	return m.db.View(fn)
}

// ignoreNotFound turns a missing expansion target into an empty batch:
// the gate then switches channel.
func ignoreNotFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

func distance(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

func clipBytes(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// weighTerms sets q.Weights to each term's idf over the stored messages
// (the raw index's document frequencies), so that the assessor's coverage
// counts a rare word of the question for more than a common one. A store
// without messages leaves the weights unset (every term counts 1).
func (m *Memory) weighTerms(ctx context.Context, q *gate.Question) error {
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	if len(q.Terms) == 0 {
		return nil
	}
	w := make([]float64, len(q.Terms))
	err = m.db.View(func(tx *bolt.Tx) error {
		pend, end, err := m.rawPending(tx)
		if err != nil {
			return err
		}
		persisted, err := m.raw.Count(tx)
		if err != nil {
			return err
		}
		for i, t := range q.Terms {
			df, n, err := m.raw.DocFreq(tx, 0, t)
			if err != nil {
				return err
			}
			if pend != nil {
				pdf, pn := pend.DocFreq(0, t, uint32(persisted), end)
				df, n = df+pdf, n+pn
			}
			if n == 0 {
				w = nil
				return nil
			}
			w[i] = bm25.IDF(n, df)
		}
		return nil
	})
	if err != nil {
		return err
	}
	q.Weights = w
	return nil
}
