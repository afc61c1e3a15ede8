package gate

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stratagate/stratagate/bm25"
)

// Step is one retrieval step for the application's Retriever.
type Step struct {
	Strategy Strategy
	Query    string // for search_* steps
	Target   string // the ref to expand, for expand_* steps
}

// Retriever executes a step against the memory and returns the evidence.
// Items must carry well-formed refs (see ParseRef); ID is assigned by the
// session.
type Retriever interface {
	Retrieve(ctx context.Context, s Step) (Batch, error)
}

// Assessor judges one batch. st is a snapshot of the session after the
// batch was observed.
type Assessor interface {
	Assess(ctx context.Context, q *Question, b *Batch, st *State) (Assessment, error)
}

// Answerer composes the final answer from the cited evidence only and
// returns the refs it actually used.
type Answerer interface {
	Answer(ctx context.Context, q *Question, evidence []Item) (text string, used []string, err error)
}

// Budget bounds a session.
type Budget struct {
	Rounds   int // retrieval rounds; ≤ 0 means DefaultRounds, capped at MaxRounds
	MaxItems int // items per batch passed to the assessor; ≤ 0 means DefaultMaxItems
}

// Budget defaults and bounds.
const (
	DefaultRounds   = 4
	MaxRounds       = 12
	DefaultMaxItems = 10
)

func (b Budget) normalised() Budget {
	if b.Rounds <= 0 {
		b.Rounds = DefaultRounds
	}
	if b.Rounds > MaxRounds {
		b.Rounds = MaxRounds
	}
	if b.MaxItems <= 0 {
		b.MaxItems = DefaultMaxItems
	}
	return b
}

// TraceStep records one round.
type TraceStep struct {
	Strategy Strategy
	Query    string
	Target   string
	BatchID  string
	Verdict  Verdict // empty while the batch is not assessed
	Missing  string
	NewItems int
	// MessageIDs are the source messages of the batch's items, in order,
	// once each: what the round saw.
	MessageIDs []uint64
}

// State is a snapshot of a session for the assessor.
type State struct {
	Round       int          // 1-based number of the latest batch
	RoundsLeft  int          // retrieval rounds left after it
	Budget      Budget       // normalised
	Steps       []Step       // steps executed, in order (the latest produced the batch)
	Expanded    []string     // targets of the expand steps executed
	Seen        []Item       // every item observed, first sighting, in order
	Assessments []Assessment // accepted assessments of earlier batches, in order
}

// WasExpanded reports whether ref was the target of an executed expand step.
func (s *State) WasExpanded(ref string) bool {
	if s == nil {
		return false
	}
	for _, t := range s.Expanded {
		if t == ref {
			return true
		}
	}
	return false
}

// Item returns the first sighting of the item with the given ref.
func (s *State) Item(ref string) (Item, bool) {
	if s == nil {
		return Item{}, false
	}
	for i := range s.Seen {
		if s.Seen[i].Ref == ref {
			return s.Seen[i], true
		}
	}
	return Item{}, false
}

// Cited returns the items cited by earlier assessments, in order, once each.
func (s *State) Cited() []Item {
	if s == nil {
		return nil
	}
	var out []Item
	done := map[string]bool{}
	for _, a := range s.Assessments {
		for _, r := range a.EvidenceRefs {
			if done[r] {
				continue
			}
			done[r] = true
			if it, ok := s.Item(r); ok {
				out = append(out, it)
			}
		}
	}
	return out
}

// sessionSeq numbers sessions process-wide, so batch ids never collide.
var sessionSeq atomic.Uint64

// Session is the step-by-step loop driver. Call Next, retrieve the step,
// Observe the batch, assess it and Record the assessment; repeat until
// Next returns false, then read Result. A Session is safe for concurrent
// use, though the protocol itself is sequential.
type Session struct {
	mu     sync.Mutex
	id     string
	q      *Question
	budget Budget

	pending  *Step
	batches  []*Batch
	assessed []*Assessment // parallel to batches; nil until recorded
	trace    []TraceStep
	seen     map[string]int // ref → index in seenList
	seenList []Item
	searched map[string]bool // keys of executed steps
	expanded []string
	done     bool
	final    *Assessment // the accepted sufficient assessment
}

// NewSession analyses question at time.Now() and starts a session. Use
// NewSessionQuestion with Analyze(question, fixedNow) for determinism.
func NewSession(question string, budget Budget) *Session {
	return NewSessionQuestion(Analyze(question, time.Now()), budget)
}

// NewSessionQuestion starts a session for an analysed question. Its id,
// "s<n>", numbers sessions within this process only: another process
// starts again from "s1". An application that stores assessment or batch
// ids beyond the process uses NewSessionPrefix.
func NewSessionQuestion(q *Question, budget Budget) *Session {
	return NewSessionPrefix("", q, budget)
}

// NewSessionPrefix is NewSessionQuestion with the session id
// "<prefix>s<n>": a prefix unique to the process (a number the caller
// persisted, a random string) makes every batch and assessment id unique
// across processes and restarts too. The prefix is used verbatim; keep it
// short and printable.
func NewSessionPrefix(prefix string, q *Question, budget Budget) *Session {
	if q == nil {
		q = Analyze("", time.Time{})
	}
	return &Session{
		id:       prefix + "s" + strconv.FormatUint(sessionSeq.Add(1), 10),
		q:        q,
		budget:   budget.normalised(),
		seen:     map[string]int{},
		searched: map[string]bool{},
	}
}

// ID returns the session id, the prefix of its batch ids.
func (s *Session) ID() string { return s.id }

// Question returns the analysed question.
func (s *Session) Question() *Question { return s.q }

// Next returns the step to execute next, or false when the session is
// over (sufficient evidence, budget spent, or nothing left to try).
// Calling Next again before Observe returns the same step.
func (s *Session) Next() (Step, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return Step{}, false
	}
	if s.pending != nil {
		return *s.pending, true
	}
	if len(s.batches) >= s.budget.Rounds {
		s.done = true
		return Step{}, false
	}
	var st Step
	if len(s.batches) == 0 {
		st = Step{Strategy: SearchEvents, Query: s.q.Query}
		if strings.TrimSpace(st.Query) == "" {
			st.Query = s.q.Text
		}
	} else {
		var ok bool
		if st, ok = s.plan(); !ok {
			s.done = true
			return Step{}, false
		}
	}
	s.pending = &st
	return st, true
}

// Observe records the batch retrieved for the pending step (or, without
// one, for the step the batch names) and returns the session's copy: ID
// assigned, Strategy/Query/Target set to the step, items with malformed or
// repeated refs dropped, Kind derived from the ref, at most
// Budget.MaxItems items, New marking refs not seen in earlier batches.
// It returns nil when the session is over (nothing is recorded).
func (s *Session) Observe(b Batch) *Batch {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done || len(s.batches) >= s.budget.Rounds {
		s.done = true
		return nil
	}
	st := Step{Strategy: b.Strategy, Query: b.Query, Target: b.Target}
	if s.pending != nil {
		st = *s.pending
	}
	s.pending = nil
	nb := &Batch{
		ID:       s.id + "-b" + strconv.Itoa(len(s.batches)+1),
		Strategy: st.Strategy,
		Query:    st.Query,
		Target:   st.Target,
	}
	inBatch := map[string]bool{}
	newItems, primary := 0, 0
	for _, it := range b.Items {
		kind, _, ok := ParseRef(it.Ref)
		if !ok || inBatch[it.Ref] {
			continue
		}
		if it.Of != "" {
			// Context rides with its item: kept only when that item was.
			if !inBatch[it.Of] {
				continue
			}
		} else {
			if primary >= s.budget.MaxItems {
				continue
			}
			primary++
		}
		inBatch[it.Ref] = true
		it.Kind = kind
		it.MessageIDs = append([]uint64(nil), it.MessageIDs...)
		it.Times = append([]TimeMention(nil), it.Times...)
		it.Facts = append([]string(nil), it.Facts...)
		_, known := s.seen[it.Ref]
		it.New = !known
		if it.New {
			if it.Of == "" {
				newItems++
			}
			s.seen[it.Ref] = len(s.seenList)
			s.seenList = append(s.seenList, it)
		}
		nb.Items = append(nb.Items, it)
	}
	s.searched[stepKey(st)] = true
	if st.Strategy.IsExpand() && st.Target != "" {
		s.expanded = append(s.expanded, st.Target)
	}
	s.batches = append(s.batches, nb)
	s.assessed = append(s.assessed, nil)
	var seenMsgs []uint64
	for i := range nb.Items {
		for _, id := range nb.Items[i].MessageIDs {
			if !containsID(seenMsgs, id) {
				seenMsgs = append(seenMsgs, id)
			}
		}
	}
	s.trace = append(s.trace, TraceStep{
		Strategy: st.Strategy, Query: st.Query, Target: st.Target,
		BatchID: nb.ID, NewItems: newItems, MessageIDs: seenMsgs,
	})
	return copyBatch(nb)
}

// Record validates the assessment of the latest batch (see Validate) and
// records it. An assessment of any other batch, or a second assessment of
// the same batch, is refused with ErrWrongBatch.
func (s *Session) Record(a Assessment) (Assessment, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.batches) == 0 {
		return Assessment{}, fmt.Errorf("%w: no batch observed", ErrWrongBatch)
	}
	last := len(s.batches) - 1
	b := s.batches[last]
	if a.BatchID != b.ID {
		return Assessment{}, fmt.Errorf("%w: %q is not the latest batch %q", ErrWrongBatch, a.BatchID, b.ID)
	}
	if s.assessed[last] != nil {
		return Assessment{}, fmt.Errorf("%w: batch %q already assessed", ErrWrongBatch, b.ID)
	}
	v, err := Validate(b, a)
	if err != nil {
		return Assessment{}, err
	}
	s.assessed[last] = &v
	s.trace[last].Verdict = v.Verdict
	s.trace[last].Missing = v.Missing
	if v.Verdict == Sufficient {
		s.final = &v
		s.done = true
		s.pending = nil
	} else if len(s.batches) >= s.budget.Rounds {
		s.done = true
	}
	return copyAssessment(v), nil
}

// State returns a snapshot of the session for the assessor.
func (s *Session) State() *State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &State{
		Round:      len(s.batches),
		RoundsLeft: s.budget.Rounds - len(s.batches),
		Budget:     s.budget,
		Expanded:   append([]string(nil), s.expanded...),
	}
	for _, t := range s.trace {
		st.Steps = append(st.Steps, Step{Strategy: t.Strategy, Query: t.Query, Target: t.Target})
	}
	for _, it := range s.seenList {
		st.Seen = append(st.Seen, copyItem(it))
	}
	for _, a := range s.assessed {
		if a != nil {
			st.Assessments = append(st.Assessments, copyAssessment(*a))
		}
	}
	return st
}

// plan chooses the step after the latest batch: the assessor's request
// when it is executable, new and — if the batch added nothing new — in a
// channel not used yet in the session; otherwise the next channel in the order events → raw
// source → block expansion → graph (wrapping), first candidate that is
// executable and not a repeat. The caller holds the lock.
func (s *Session) plan() (Step, bool) {
	last := len(s.batches) - 1
	lastCh := channelOf(s.batches[last].Strategy)
	noNew := s.trace[last].NewItems == 0
	a := s.assessed[last]
	if a != nil && a.NextStrategy != Answer {
		c := Step{Strategy: a.NextStrategy, Query: a.NextQuery, Target: a.NextTarget}
		if c.Strategy.IsSearch() && strings.TrimSpace(c.Query) == "" {
			c.Query = s.q.Query
		}
		if s.feasible(c) && (!noNew || !s.usedChannel(channelOf(c.Strategy))) {
			return c, true
		}
	}
	for pass := 0; pass < 2; pass++ {
		for k := 1; k <= int(numChannels); k++ {
			ch := (lastCh + channel(k)) % numChannels
			if ch == lastCh && noNew && pass == 0 {
				continue
			}
			for _, c := range s.candidates(ch, a) {
				if s.feasible(c) {
					return c, true
				}
			}
		}
		if !noNew {
			break
		}
	}
	return Step{}, false
}

// usedChannel reports whether a step of channel ch was executed.
func (s *Session) usedChannel(ch channel) bool {
	for _, t := range s.trace {
		if channelOf(t.Strategy) == ch {
			return true
		}
	}
	return false
}

// candidates lists the fallback steps of a channel, in preference order.
func (s *Session) candidates(ch channel, a *Assessment) []Step {
	var queries []string
	if a != nil && a.NextQuery != "" {
		queries = append(queries, a.NextQuery)
	}
	queries = append(queries, s.q.Query, strings.Join(s.q.Terms, " "), s.q.Text)
	var out []Step
	search := func(st Strategy) {
		for _, qq := range queries {
			out = append(out, Step{Strategy: st, Query: qq})
		}
	}
	expand := func(st Strategy) {
		for _, ref := range s.targets(st) {
			out = append(out, Step{Strategy: st, Target: ref})
		}
	}
	switch ch {
	case chEvents:
		search(SearchEvents)
		expand(ExpandEvent)
	case chRaw:
		search(SearchRawMemory)
	case chBlock:
		expand(ExpandBlock)
	case chGraph:
		search(SearchGraph)
		expand(ExpandGraphNode)
	}
	return out
}

// targets lists seen refs fitting an expand strategy: refs cited by
// assessments first (latest assessment first), then the other seen items
// by Score descending, then first sighting.
func (s *Session) targets(st Strategy) []string {
	var out []string
	for i := len(s.assessed) - 1; i >= 0; i-- {
		if s.assessed[i] == nil {
			continue
		}
		for _, r := range s.assessed[i].EvidenceRefs {
			if targetFits(st, r) {
				out = appendUnique(out, r)
			}
		}
	}
	var rest []Item
	for _, it := range s.seenList {
		if targetFits(st, it.Ref) {
			rest = append(rest, it)
		}
	}
	sort.SliceStable(rest, func(i, j int) bool { return rest[i].Score > rest[j].Score })
	for _, it := range rest {
		out = appendUnique(out, it.Ref)
	}
	return out
}

// feasible: a retrieval strategy, with what it needs, not executed before.
func (s *Session) feasible(c Step) bool {
	switch {
	case c.Strategy.IsSearch():
		if strings.TrimSpace(c.Query) == "" {
			return false
		}
	case c.Strategy.IsExpand():
		if _, ok := s.seen[c.Target]; !ok || !targetFits(c.Strategy, c.Target) {
			return false
		}
	default:
		return false
	}
	return !s.searched[stepKey(c)]
}

// stepKey identifies a step for the no-repeat rule: the strategy with the
// normalised query (its bm25 terms, deduplicated and sorted; the folded
// text when it has none) for searches, with the target for expansions.
func stepKey(st Step) string {
	if st.Strategy.IsExpand() {
		return string(st.Strategy) + "|" + st.Target
	}
	return string(st.Strategy) + "|" + normQuery(st.Query)
}

func normQuery(q string) string {
	terms := bm25.AppendTerms(nil, q)
	if len(terms) == 0 {
		return strings.Join(strings.Fields(strings.ToLower(q)), " ")
	}
	sort.Strings(terms)
	terms = appendUnique(terms[:0:0], terms...)
	return strings.Join(terms, " ")
}

func copyItem(it Item) Item {
	it.MessageIDs = append([]uint64(nil), it.MessageIDs...)
	it.Times = append([]TimeMention(nil), it.Times...)
	it.Facts = append([]string(nil), it.Facts...)
	return it
}

func copyBatch(b *Batch) *Batch {
	c := *b
	c.Items = make([]Item, len(b.Items))
	for i := range b.Items {
		c.Items[i] = copyItem(b.Items[i])
	}
	return &c
}

func copyAssessment(a Assessment) Assessment {
	a.EvidenceRefs = append([]string(nil), a.EvidenceRefs...)
	a.RejectedRefs = append([]Rejected(nil), a.RejectedRefs...)
	return a
}
