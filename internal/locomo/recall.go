package locomo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
	"github.com/stratagate/stratagate/model"
)

// Recall returns the fraction of gold found in retrieved and whether any
// was found. Duplicates in either list count once; an empty gold gives
// 0, false.
func Recall(gold, retrieved []string) (recall float64, hit bool) {
	if len(gold) == 0 {
		return 0, false
	}
	in := make(map[string]bool, len(retrieved))
	for _, r := range retrieved {
		in[r] = true
	}
	seen := map[string]bool{}
	found, total := 0, 0
	for _, g := range gold {
		if seen[g] {
			continue
		}
		seen[g] = true
		total++
		if in[g] {
			found++
		}
	}
	return float64(found) / float64(total), found > 0
}

// Dias maps message ids to dia_ids in order, dropping ids the mapping does
// not know and repeated dia_ids.
func (m Mapping) Dias(ids []uint64) []string {
	var out []string
	for _, id := range ids {
		if dia, ok := m.IDToDia[id]; ok && !slices.Contains(out, dia) {
			out = append(out, dia)
		}
	}
	return out
}

// Score sums the recall and hits of scored questions.
type Score struct {
	N         int     // scored questions
	RecallSum float64 // sum of their recall
	Hits      int     // questions with a hit
}

// RecallAtK is the mean recall (0 when nothing was scored).
func (s Score) RecallAtK() float64 {
	if s.N == 0 {
		return 0
	}
	return s.RecallSum / float64(s.N)
}

// HitAtK is the fraction of scored questions with a hit (0 when nothing
// was scored).
func (s Score) HitAtK() float64 {
	if s.N == 0 {
		return 0
	}
	return float64(s.Hits) / float64(s.N)
}

func (s *Score) add(recall float64, hit bool) {
	s.N++
	s.RecallSum += recall
	if hit {
		s.Hits++
	}
}

// Channel accumulates recall and hits of one channel over questions.
type Channel struct {
	All        Score
	ByCategory map[int]Score
	NoGold     int // questions without gold evidence: not scored
}

// Add scores one question of the given category (see Recall). scored is
// false, and only NoGold changes, when gold is empty.
func (c *Channel) Add(category int, gold, retrieved []string) (recall float64, hit, scored bool) {
	if len(gold) == 0 {
		c.NoGold++
		return 0, false, false
	}
	recall, hit = Recall(gold, retrieved)
	c.All.add(recall, hit)
	if c.ByCategory == nil {
		c.ByCategory = map[int]Score{}
	}
	s := c.ByCategory[category]
	s.add(recall, hit)
	c.ByCategory[category] = s
	return recall, hit, true
}

// Verdicts of Answer.Verdict.
const (
	VerdictSufficient = "sufficient"
	VerdictPartial    = "partial"
	VerdictWrong      = "wrong"
	// VerdictModelError marks a question whose Ask failed in the model
	// gate (a rejected reply, a failed call); it counts as an abstention.
	VerdictModelError = "model_error"
)

// AskTally accumulates the Ask measurements: evidence recall of the
// answers (Channel), the verdicts, the retrieval rounds, false sufficient
// answers and abstentions.
type AskTally struct {
	Channel
	Questions int            // questions asked
	Verdicts  map[string]int // by Answer.Verdict
	Rounds    int            // retrieval rounds, summed (len(Answer.Trace))
	// Sufficient counts the sufficient answers; SufficientScored those of
	// them with gold evidence, and FalseSufficient those of the latter
	// whose evidence holds no gold dia_id.
	Sufficient, SufficientScored, FalseSufficient int
	// Abstentions counts the answers that are not sufficient: Ask then
	// composes no answer (Text "not enough evidence: missing …", no
	// Evidence).
	Abstentions int
}

// Add records one answer: its verdict, its retrieval rounds and the
// dia_ids of its evidence.
func (a *AskTally) Add(category int, gold []string, verdict string, rounds int, evidence []string) (recall float64, hit, scored bool) {
	a.Questions++
	if a.Verdicts == nil {
		a.Verdicts = map[string]int{VerdictSufficient: 0, VerdictPartial: 0, VerdictWrong: 0}
	}
	a.Verdicts[verdict]++
	a.Rounds += rounds
	recall, hit, scored = a.Channel.Add(category, gold, evidence)
	if verdict != VerdictSufficient {
		a.Abstentions++
		return recall, hit, scored
	}
	a.Sufficient++
	if scored {
		a.SufficientScored++
		if !hit {
			a.FalseSufficient++
		}
	}
	return recall, hit, scored
}

// MeanRounds is the mean number of retrieval rounds per question.
func (a *AskTally) MeanRounds() float64 {
	if a.Questions == 0 {
		return 0
	}
	return float64(a.Rounds) / float64(a.Questions)
}

// FalseSufficientRate is FalseSufficient / SufficientScored: the share of
// sufficient answers (to questions with gold evidence) that cite no gold
// evidence turn. 0 when there is none.
func (a *AskTally) FalseSufficientRate() float64 {
	if a.SufficientScored == 0 {
		return 0
	}
	return float64(a.FalseSufficient) / float64(a.SufficientScored)
}

// LastMessageAt returns the time of the conversation's last turn (zero if
// it has none).
func (c *Conversation) LastMessageAt() time.Time {
	var last time.Time
	for _, s := range c.Sessions {
		for _, t := range s.Turns {
			if t.At.After(last) {
				last = t.At
			}
		}
	}
	return last
}

// GoldStatus says whether a temporal question has a gold interval.
type GoldStatus int

// Gold statuses.
const (
	GoldParsed     GoldStatus = iota
	GoldNoEvidence            // no evidence id names a turn: no reference date
	GoldUnparsed              // ParseGold ok=false
)

// TemporalGold returns the gold interval of q as MeasureEventTime reads
// it: ParseGold of the answer, with the date of the session holding the
// first gold evidence turn as the reference.
func (c *Conversation) TemporalGold(q *QA) (start, end time.Time, precision string, status GoldStatus) {
	if len(q.Evidence) == 0 {
		return time.Time{}, time.Time{}, "", GoldNoEvidence
	}
	sess, _, ok := c.Locate(q.Evidence[0])
	if !ok {
		return time.Time{}, time.Time{}, "", GoldNoEvidence
	}
	start, end, precision, ok = ParseGold(q.Answer, sess.Date)
	if !ok {
		return time.Time{}, time.Time{}, "", GoldUnparsed
	}
	return start, end, precision, GoldParsed
}

// AnswerTime returns the interval an answer resolved: that of the first
// evidence item, in Answer.Evidence order, with a known happened start and
// a precision other than "unknown" (the item the heuristic answerer dates
// a when-question with; it puts that item first). An item without a
// happened end, or with one not after its start, is the instant Start
// (end = start). ok is false when no item is dated.
func AnswerTime(evidence []stratagate.Evidence) (start, end time.Time, ok bool) {
	for _, e := range evidence {
		if e.HappenedStart.IsZero() || e.Precision == "unknown" {
			continue
		}
		end := e.HappenedEnd
		if !end.After(e.HappenedStart) {
			end = e.HappenedStart
		}
		return e.HappenedStart, end, true
	}
	return time.Time{}, time.Time{}, false
}

// TemporalCorrect reports whether the answer interval [aStart, aEnd)
// overlaps the gold interval [gStart, gEnd) and is no coarser than it
// (aEnd − aStart ≤ gEnd − gStart). An instant answer (aEnd = aStart) must
// lie in [gStart, gEnd).
func TemporalCorrect(gStart, gEnd, aStart, aEnd time.Time) bool {
	if !gEnd.After(gStart) || aEnd.Before(aStart) {
		return false
	}
	var overlap bool
	if aEnd.Equal(aStart) {
		overlap = !aStart.Before(gStart) && aStart.Before(gEnd)
	} else {
		overlap = aStart.Before(gEnd) && gStart.Before(aEnd)
	}
	return overlap && aEnd.Sub(aStart) <= gEnd.Sub(gStart)
}

// TemporalTally accumulates the temporal accuracy of answers to category-2
// questions. Questions = NoEvidence + Unparsed + Scored; Correct ≤ Scored;
// NoInterval counts the scored answers without a dated evidence item
// (wrong).
type TemporalTally struct {
	Questions, NoEvidence, Unparsed, Scored, Correct, NoInterval int
}

// Accuracy is Correct / Scored (0 when nothing was scored).
func (t TemporalTally) Accuracy() float64 {
	if t.Scored == 0 {
		return 0
	}
	return float64(t.Correct) / float64(t.Scored)
}

// TemporalItem is the temporal scoring of one answer.
type TemporalItem struct {
	Status             GoldStatus
	GoldStart, GoldEnd time.Time
	Precision          string
	AnswerStart        time.Time
	AnswerEnd          time.Time
	Dated              bool // the answer resolved an interval
	Correct            bool
}

// Add scores the answer evidence of category-2 question q of c.
func (t *TemporalTally) Add(c *Conversation, q *QA, evidence []stratagate.Evidence) TemporalItem {
	t.Questions++
	var it TemporalItem
	it.GoldStart, it.GoldEnd, it.Precision, it.Status = c.TemporalGold(q)
	switch it.Status {
	case GoldNoEvidence:
		t.NoEvidence++
		return it
	case GoldUnparsed:
		t.Unparsed++
		return it
	}
	t.Scored++
	it.AnswerStart, it.AnswerEnd, it.Dated = AnswerTime(evidence)
	if !it.Dated {
		t.NoInterval++
		return it
	}
	if it.Correct = TemporalCorrect(it.GoldStart, it.GoldEnd, it.AnswerStart, it.AnswerEnd); it.Correct {
		t.Correct++
	}
	return it
}

// Result is what the three channels returned for one question, as
// message ids: each SearchRaw hit's message, each SearchEvents hit's source
// messages (both in rank order, not cut to k), and the Ask answer with the
// messages of its evidence (see AnswerMessages).
type Result struct {
	Raw         [][]uint64
	RawContext  [][]uint64 // each SearchRaw hit's message with its ±1 neighbours
	Events      [][]uint64
	Answer      stratagate.Answer
	AskMessages []uint64
	// AskSeen are the messages of everything Ask retrieved in any round
	// (Answer.Trace), in order.
	AskSeen []uint64
}

// Item is the measurement of one question.
type Item struct {
	Conversation string   `json:"conversation"`
	QA           int      `json:"qa"` // index in Conversation.QA
	Category     int      `json:"category"`
	Question     string   `json:"question"`
	Gold         string   `json:"gold_answer"`
	Evidence     []string `json:"gold_evidence"`
	Unresolved   []string `json:"unresolved_evidence,omitempty"`
	// Dia_ids retrieved by each channel (top k for raw and events).
	Raw          []string `json:"raw"`
	Events       []string `json:"events"`
	Ask          []string `json:"ask"`
	RawRecall    float64  `json:"raw_recall"`
	RawCtxRecall float64  `json:"raw_context_recall"`
	EventsRecall float64  `json:"events_recall"`
	AskRecall    float64  `json:"ask_recall"`
	SeenRecall   float64  `json:"ask_seen_recall"`
	// EvidenceTurns is the number of distinct turns (dia_ids) of the Ask
	// answer's evidence.
	EvidenceTurns int    `json:"evidence_turns"`
	Verdict       string `json:"verdict"`
	Answer        string `json:"answer"`
	Rounds        int    `json:"rounds"`
	// Temporal scoring, for category-2 questions whose gold parses.
	TemporalScored  bool   `json:"temporal_scored,omitempty"`
	TemporalCorrect bool   `json:"temporal_correct,omitempty"`
	GoldInterval    string `json:"gold_interval,omitempty"`
	AnswerInterval  string `json:"answer_interval,omitempty"`
}

// Eval accumulates the measurement over questions and conversations.
type Eval struct {
	K             int // results per search channel
	Conversations int
	Messages      int
	Questions     int // category 1–4 questions measured
	Adversarial   int // category-5 questions skipped
	// Unresolved counts the evidence ids of the measured questions that
	// do not name a turn (QA.Unresolved).
	Unresolved int
	Raw        Channel
	// RawContext scores the top k SearchRaw hits together with each hit's
	// ±1 neighbouring messages.
	RawContext Channel
	Events     Channel
	Ask        AskTally
	// AskSeen scores every message Ask retrieved in any round: retrieval,
	// as against Ask's selection (Ask).
	AskSeen Channel
	// SufficientTurns sums EvidenceTurns over the sufficient answers, and
	// SufficientRecall their evidence recall (scored ones).
	SufficientTurns  int
	SufficientRecall float64
	Temporal         TemporalTally
	// AskUsage sums the model usage of the measured questions' Asks.
	AskUsage model.Usage
	Items    []Item
	// ByConversation holds the same measurement per conversation id
	// (conversation order in Order); nil on a per-conversation Eval.
	ByConversation map[string]*Eval
	Order          []string
	Duration       DurationTally // questions whose gold is a length of time
}

// NewEval returns an empty evaluation of the top k search results.
func NewEval(k int) *Eval { return &Eval{K: k, ByConversation: map[string]*Eval{}} }

// MeanSufficientTurns is the mean number of evidence turns of a
// sufficient answer (0 without one).
func (e *Eval) MeanSufficientTurns() float64 {
	if e.Ask.Sufficient == 0 {
		return 0
	}
	return float64(e.SufficientTurns) / float64(e.Ask.Sufficient)
}

// MeanSufficientRecall is the mean evidence recall of the sufficient
// answers to questions with gold evidence (0 without one).
func (e *Eval) MeanSufficientRecall() float64 {
	if e.Ask.SufficientScored == 0 {
		return 0
	}
	return e.SufficientRecall / float64(e.Ask.SufficientScored)
}

// conv returns the per-conversation Eval of id, created on first use.
func (e *Eval) conv(id string) *Eval {
	if e.ByConversation == nil {
		return nil
	}
	c, ok := e.ByConversation[id]
	if !ok {
		c = &Eval{K: e.K}
		e.ByConversation[id] = c
		e.Order = append(e.Order, id)
	}
	return c
}

// Measured reports whether a question of this category is measured:
// categories 1–4 (category 5, adversarial, is skipped).
func Measured(category int) bool {
	return category >= CategoryMultiHop && category <= CategorySingleHop
}

// Add scores question qi of c from what the channels returned (r; m maps
// the message ids to dia_ids). It returns false, counting the question in
// Adversarial, for a question that is not measured.
func (e *Eval) Add(c *Conversation, m Mapping, qi int, r Result) (Item, bool) {
	if sub := e.conv(c.ID); sub != nil {
		sub.Add(c, m, qi, r)
	}
	q := &c.QA[qi]
	if !Measured(q.Category) {
		e.Adversarial++
		return Item{}, false
	}
	e.Questions++
	e.Unresolved += len(q.Unresolved)
	e.AskUsage.Add(r.Answer.Usage)
	it := Item{
		Conversation: c.ID, QA: qi, Category: q.Category, Question: q.Question, Gold: q.Answer,
		Evidence: q.Evidence, Unresolved: q.Unresolved,
		Verdict: r.Answer.Verdict, Answer: r.Answer.Text, Rounds: len(r.Answer.Trace),
	}
	it.Raw = m.Dias(slices.Concat(r.Raw[:min(e.K, len(r.Raw))]...))
	it.Events = m.Dias(slices.Concat(r.Events[:min(e.K, len(r.Events))]...))
	it.Ask = m.Dias(r.AskMessages)
	it.EvidenceTurns = len(it.Ask)
	it.RawRecall, _, _ = e.Raw.Add(q.Category, q.Evidence, it.Raw)
	it.RawCtxRecall, _, _ = e.RawContext.Add(q.Category, q.Evidence, m.Dias(slices.Concat(r.RawContext[:min(e.K, len(r.RawContext))]...)))
	it.EventsRecall, _, _ = e.Events.Add(q.Category, q.Evidence, it.Events)
	it.AskRecall, _, _ = e.Ask.Add(q.Category, q.Evidence, r.Answer.Verdict, len(r.Answer.Trace), it.Ask)
	it.SeenRecall, _, _ = e.AskSeen.Add(q.Category, q.Evidence, m.Dias(r.AskSeen))
	if r.Answer.Verdict == VerdictSufficient {
		e.SufficientTurns += it.EvidenceTurns
		e.SufficientRecall += it.AskRecall
	}
	if q.Category == CategoryTemporal {
		// Only a sufficient answer states a date: the evidence of one that
		// is not is what was found, not an answer.
		var answered []stratagate.Evidence
		if a := r.Answer; a.Verdict == VerdictSufficient {
			answered = a.Evidence
			if !a.TimeStart.IsZero() {
				// The interval the answer states comes first.
				answered = append([]stratagate.Evidence{{HappenedStart: a.TimeStart, HappenedEnd: a.TimeEnd, Precision: a.TimePrecision}}, answered...)
			}
		}
		ti := e.Temporal.Add(c, q, answered)
		if ti.Status == GoldParsed {
			it.TemporalScored, it.TemporalCorrect = true, ti.Correct
			it.GoldInterval = interval(ti.GoldStart, ti.GoldEnd)
			if ti.Dated {
				it.AnswerInterval = interval(ti.AnswerStart, ti.AnswerEnd)
			}
		}
	}
	e.Duration.Add(q.Question, q.Answer, r.Answer.Text)
	e.Items = append(e.Items, it)
	return it, true
}

func interval(start, end time.Time) string {
	return start.Format(time.RFC3339) + "/" + end.Format(time.RFC3339)
}

// Query runs the three channels for one question on mem: SearchRaw and
// SearchEvents with the question text (Limit k, the given scopes), and
// Ask with opts.
func Query(ctx context.Context, mem *stratagate.Memory, question string, k int, scopes []string, opts stratagate.AskOptions) (Result, error) {
	var r Result
	if strings.TrimSpace(question) == "" {
		// Nothing to search for: no results, and Ask would refuse the
		// empty question; it counts as an abstention.
		r.Answer.Verdict = VerdictPartial
		return r, nil
	}
	q := stratagate.Query{Text: question, Scopes: scopes, Limit: k}
	raw, err := mem.SearchRaw(ctx, q)
	if err != nil {
		return r, fmt.Errorf("SearchRaw: %w", err)
	}
	for _, h := range raw {
		r.Raw = append(r.Raw, []uint64{h.MessageID})
		ctxIDs := []uint64{h.MessageID}
		for _, n := range []*stratagate.Neighbour{h.Prev, h.Next} {
			if n != nil {
				ctxIDs = append(ctxIDs, n.MessageID)
			}
		}
		r.RawContext = append(r.RawContext, ctxIDs)
	}
	evs, err := mem.SearchEvents(ctx, q)
	if err != nil {
		return r, fmt.Errorf("SearchEvents: %w", err)
	}
	for _, h := range evs {
		r.Events = append(r.Events, h.SourceMessageIDs)
	}
	if opts.Scopes == nil {
		opts.Scopes = scopes
	}
	if r.Answer, err = mem.Ask(ctx, question, opts); err != nil {
		if !errors.Is(err, gate.ErrModelOutput) && !errors.Is(err, gate.ErrModelCall) {
			return r, fmt.Errorf("Ask: %w", err)
		}
		// A model gate's failure on one question is that question's
		// outcome, not the run's: it counts as an abstention.
		r.Answer = stratagate.Answer{Verdict: VerdictModelError, Missing: err.Error()}
	}
	if r.AskMessages, err = AnswerMessages(ctx, mem, r.Answer); err != nil {
		return r, err
	}
	for _, st := range r.Answer.Trace {
		for _, id := range st.MessageIDs {
			if !slices.Contains(r.AskSeen, id) {
				r.AskSeen = append(r.AskSeen, id)
			}
		}
	}
	return r, nil
}

// AnswerMessages returns the union of the message ids of an answer's
// evidence, in order; an evidence item with an EventID and no MessageIDs
// contributes the card's source messages (ExpandEvent). A graph-node item
// without MessageIDs contributes nothing.
func AnswerMessages(ctx context.Context, mem *stratagate.Memory, a stratagate.Answer) ([]uint64, error) {
	var out []uint64
	add := func(ids []uint64) {
		for _, id := range ids {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	for _, e := range a.Evidence {
		if len(e.MessageIDs) > 0 || e.EventID == 0 {
			add(e.MessageIDs)
			continue
		}
		d, err := mem.ExpandEvent(ctx, e.EventID)
		if errors.Is(err, stratagate.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("ExpandEvent %d: %w", e.EventID, err)
		}
		add(d.Card.SourceMessageIDs)
	}
	return out, nil
}

// Run measures every category 1–4 question of c on mem (see Query and
// Add) and calls done after each question, if not nil.
func (e *Eval) Run(ctx context.Context, mem *stratagate.Memory, c *Conversation, m Mapping, scopes []string, opts stratagate.AskOptions, done func()) error {
	for qi := range c.QA {
		q := &c.QA[qi]
		if !Measured(q.Category) {
			e.Adversarial++
			if sub := e.conv(c.ID); sub != nil {
				sub.Adversarial++
			}
			continue
		}
		r, err := Query(ctx, mem, q.Question, e.K, scopes, opts)
		if err != nil {
			return fmt.Errorf("locomo: %s: qa %d: %w", c.ID, qi, err)
		}
		e.Add(c, m, qi, r)
		if done != nil {
			done()
		}
	}
	return nil
}
