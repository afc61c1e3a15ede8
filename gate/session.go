package gate

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

// Result is the outcome of a session.
type Result struct {
	Question               string
	Text                   string
	Verdict                Verdict // sufficient, or partial when the gate never passed
	Missing                string
	Evidence               []Item
	Trace                  []TraceStep
	SufficientAssessmentID string
	// SufficientRefs are the refs the sufficient assessment cited: what a
	// use may adopt (Evidence may hold more: earlier rounds' citations).
	SufficientRefs []string
	Rounds         int
	// TimeStart, TimeEnd and TimePrecision are the interval a time
	// answer states: the date the answerer read from the first item it
	// used (for "When did Sam mention X?", when it was said). Zero for
	// other answers.
	TimeStart, TimeEnd time.Time
	TimePrecision      string
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

// Result returns the session's outcome so far. With an accepted sufficient
// assessment: Verdict sufficient, Evidence the cited items of that
// assessment followed by the items earlier assessments of the session
// cited as supporting (at most MaxRefs in all), and an empty Text (the
// answer is the Answerer's; Run fills it in). Otherwise: Verdict partial,
// Missing from the latest assessment, Text "not enough evidence: missing
// <missing>", and Evidence the items the assessments cited as relevant
// (latest first, at most MaxRefs): what was found, which did not pass the
// gate — no answer is composed from it and no use is recorded.
func (s *Session) Result() Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := Result{
		Question: s.q.Text,
		Rounds:   len(s.batches),
		Trace:    append([]TraceStep(nil), s.trace...),
	}
	if s.final != nil {
		r.Verdict = Sufficient
		r.SufficientAssessmentID = s.final.ID
		r.SufficientRefs = append([]string(nil), s.final.EvidenceRefs...)
		b := s.batches[len(s.batches)-1]
		for _, ref := range s.final.EvidenceRefs {
			if it, ok := b.Item(ref); ok {
				r.Evidence = append(r.Evidence, copyItem(it))
			}
		}
		r.Evidence = s.appendCited(r.Evidence, len(s.assessed)-2)
		return r
	}
	// What is missing: from the latest partial assessment (it found
	// something), else the latest one.
	missing := ""
	for pass := 0; pass < 2 && missing == ""; pass++ {
		for i := len(s.assessed) - 1; i >= 0 && missing == ""; i-- {
			if a := s.assessed[i]; a != nil && (pass == 1 || a.Verdict == Partial) {
				missing = a.Missing
			}
		}
	}
	r = notEnough(r, missing)
	r.Evidence = s.appendCited(nil, len(s.assessed)-1)
	return r
}

// appendCited appends to ev the items cited by the assessments of batches
// from..0 that ev lacks, up to MaxRefs items in all: their findings in
// turn (the first finding of each assessment, latest first, then the
// second…), a finding being a cited item with the context items cited
// right after it. The caller holds the lock.
func (s *Session) appendCited(ev []Item, from int) []Item {
	var groups [][][]string // per assessment, its findings' refs
	for i := from; i >= 0; i-- {
		a := s.assessed[i]
		if a == nil || len(a.EvidenceRefs) == 0 {
			continue
		}
		var gs [][]string
		for _, ref := range a.EvidenceRefs {
			k, ok := s.seen[ref]
			if !ok {
				continue
			}
			if of := s.seenList[k].Of; of != "" && len(gs) > 0 && slices.Contains(gs[len(gs)-1], of) {
				gs[len(gs)-1] = append(gs[len(gs)-1], ref)
				continue
			}
			gs = append(gs, []string{ref})
		}
		groups = append(groups, gs)
	}
	for n := 0; len(ev) < MaxRefs; n++ {
		added := false
		for _, gs := range groups {
			if n >= len(gs) {
				continue
			}
			added = true
			for _, ref := range gs[n] {
				if len(ev) >= MaxRefs {
					return ev
				}
				if !hasRef(ev, ref) {
					ev = append(ev, copyItem(s.seenList[s.seen[ref]]))
				}
			}
		}
		if !added {
			break
		}
	}
	return ev
}

func hasRef(items []Item, ref string) bool {
	for i := range items {
		if items[i].Ref == ref {
			return true
		}
	}
	return false
}

func containsID(ids []uint64, id uint64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// notEnough turns r into the refusal for missing evidence; the evidence
// found stays (see Result).
func notEnough(r Result, missing string) Result {
	if missing == "" {
		missing = "evidence for the question"
	}
	r.Verdict = Partial
	r.Missing = missing
	r.Text = "not enough evidence: missing " + missing
	r.SufficientAssessmentID = ""
	r.SufficientRefs = nil
	return r
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

// Run drives a whole session for question (analysed at time.Now()); see
// RunQuestion.
func Run(ctx context.Context, question string, r Retriever, a Assessor, ans Answerer, budget Budget) (Result, error) {
	return RunQuestion(ctx, Analyze(question, time.Now()), r, a, ans, budget)
}

// RunQuestion drives a session on top of Session: retrieve, observe,
// assess, record, until the gate passes or the budget is spent. On a
// sufficient assessment it calls the Answerer with the cited set (see
// Result); Result.Evidence is then that set with the items the answer
// used first. An empty answer, or a session that never passed the gate,
// yields "not enough evidence: missing …" with the evidence found and no
// answer. Errors of the retriever, the assessor, Record and the
// answerer end the run and are returned with the result so far.
func RunQuestion(ctx context.Context, q *Question, r Retriever, a Assessor, ans Answerer, budget Budget) (Result, error) {
	if r == nil || a == nil || ans == nil {
		return Result{}, errors.New("gate: Run needs a Retriever, an Assessor and an Answerer")
	}
	return RunSession(ctx, NewSessionQuestion(q, budget), r, a, ans)
}

// RunSession is RunQuestion on a session the caller started (with
// NewSessionPrefix, say) and has not stepped yet; afterwards the caller
// can read the session's State, the accepted assessments included.
func RunSession(ctx context.Context, s *Session, r Retriever, a Assessor, ans Answerer) (Result, error) {
	if s == nil || r == nil || a == nil || ans == nil {
		return Result{}, errors.New("gate: Run needs a Session, a Retriever, an Assessor and an Answerer")
	}
	q := s.q
	for {
		step, ok := s.Next()
		if !ok {
			break
		}
		if err := ctx.Err(); err != nil {
			return s.Result(), err
		}
		b, err := r.Retrieve(ctx, step)
		if err != nil {
			return s.Result(), fmt.Errorf("gate: retrieve %s: %w", step.Strategy, err)
		}
		nb := s.Observe(b)
		if nb == nil {
			break
		}
		as, err := a.Assess(ctx, q, nb, s.State())
		if err != nil {
			return s.Result(), fmt.Errorf("gate: assess %s: %w", nb.ID, err)
		}
		if _, err := s.Record(as); err != nil {
			return s.Result(), err
		}
	}
	res := s.Result()
	if res.Verdict != Sufficient {
		return res, nil
	}
	text, used, err := ans.Answer(ctx, q, res.Evidence)
	if err != nil {
		return notEnough(res, "an answer"), fmt.Errorf("gate: answer: %w", err)
	}
	if strings.TrimSpace(text) == "" {
		return notEnough(res, "an answer supported by the cited evidence"), nil
	}
	res.Text = text
	var kept []Item
	for _, ref := range appendUnique(nil, used...) {
		for _, it := range res.Evidence {
			if it.Ref == ref {
				kept = append(kept, it)
			}
		}
	}
	if len(kept) > 0 {
		// The items the answer used first (the answer's date is the
		// first dated item), then the window the answer was read from
		// (their context messages, or the item a context message
		// accompanies), then the rest of the cited set.
		ev := kept
		for _, it := range kept {
			if q.WantsList {
				break // a list is its items; their windows would crowd them out
			}
			for _, w := range s.window(it) {
				if !hasRef(ev, w.Ref) {
					ev = append(ev, w)
				}
			}
		}
		for _, it := range res.Evidence {
			if !hasRef(ev, it.Ref) {
				ev = append(ev, it)
			}
		}
		res.Evidence = boundEvidence(ev, len(kept))
		if q.WantsTime && len(q.Between[0]) == 0 {
			for i := range kept {
				if start, end, prec, _, ok := dateOf(q, &kept[i]); ok {
					res.TimeStart, res.TimeEnd, res.TimePrecision = start, end, prec
					break
				}
			}
		}
	}
	return res, nil
}

// window returns the items seen with it as one context window: those
// accompanying it, or, for a context item, the item it accompanies and
// that item's other context. The caller must not hold the lock.
func (s *Session) window(it Item) []Item {
	s.mu.Lock()
	defer s.mu.Unlock()
	anchor := it.Ref
	if it.Of != "" {
		anchor = it.Of
	}
	var out []Item
	if k, ok := s.seen[anchor]; ok && anchor != it.Ref {
		out = append(out, copyItem(s.seenList[k]))
	}
	for _, x := range s.seenList {
		if x.Of == anchor && x.Ref != it.Ref {
			out = append(out, copyItem(x))
		}
	}
	return out
}

// MaxEvidenceMessages bounds the source messages of a sufficient answer's
// evidence: items past the bound are dropped, except the first keep
// (those the answer used).
const MaxEvidenceMessages = 8

// boundEvidence keeps at most MaxRefs items and, beyond the first keep,
// only items whose messages fit in MaxEvidenceMessages.
func boundEvidence(ev []Item, keep int) []Item {
	var msgs []uint64
	var out []Item
	for i, it := range ev {
		if len(out) >= MaxRefs {
			break
		}
		var add []uint64
		for _, id := range it.MessageIDs {
			if !containsID(msgs, id) && !containsID(add, id) {
				add = append(add, id)
			}
		}
		if i >= keep && len(msgs)+len(add) > MaxEvidenceMessages {
			continue
		}
		msgs = append(msgs, add...)
		out = append(out, it)
	}
	return out
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
