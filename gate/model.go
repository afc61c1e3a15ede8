package gate

// The model-backed assessor and answerer: the same protocol as the
// heuristic ones, with a language model's judgment. Code validates both
// exactly as it validates the heuristics' output (Session.Record for an
// assessment, checkAnswer for an answer).

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stratagate/stratagate/model"
)

// Bounds of what a model is shown and may reply.
const (
	// maxItemRunes clips each item's text in a prompt: a raw message
	// can be long, and the assessor needs the sentence, not the essay.
	maxItemRunes = 1200
	// maxEarlier bounds the earlier cited items shown as context.
	maxEarlier = 8
	// MaxAnswerRunes bounds a model's answer text.
	MaxAnswerRunes = 600
	// modelTries is how often a reply that code rejects is asked for
	// again before the step fails.
	modelTries = 2
)

// ErrModelOutput wraps a model reply that code rejected on every try: not
// one JSON object of the task's shape, an unknown verdict or strategy, or
// an answer citing refs outside its evidence. It also wraps
// model.ErrBadOutput.
var ErrModelOutput = fmt.Errorf("gate: model reply rejected: %w", model.ErrBadOutput)

// ErrModelCall wraps a model call that returned no reply (the server
// refused, timed out or was unreachable after the client's retries); the
// client's error is wrapped too.
var ErrModelCall = errors.New("gate: model call failed")

// ModelAssessor asks Model for the judgment of each batch
// (model.TaskAssessEvidence). Its assessment goes through Session.Record
// like any other: refs outside the batch are dropped, sufficient without
// refs becomes partial.
type ModelAssessor struct {
	Model model.Model
}

// Assess implements Assessor.
func (a ModelAssessor) Assess(ctx context.Context, q *Question, b *Batch, st *State) (Assessment, error) {
	if a.Model == nil || b == nil {
		return Assessment{}, errors.New("gate: ModelAssessor needs a Model and a batch")
	}
	in := ModelInput(q, b, st)
	var out model.AssessOutput
	err := ask(ctx, a.Model, model.TaskAssessEvidence, in, &out, func() error {
		if !Verdict(out.Verdict).Valid() {
			return fmt.Errorf("unknown verdict %q", out.Verdict)
		}
		if !Strategy(out.NextStrategy).Valid() {
			return fmt.Errorf("unknown next_strategy %q", out.NextStrategy)
		}
		return nil
	})
	if err != nil {
		return Assessment{}, err
	}
	return Assessment{
		BatchID: b.ID, Verdict: Verdict(out.Verdict), EvidenceRefs: out.EvidenceRefs,
		Fit: out.Fit, Missing: out.Missing, NextStrategy: Strategy(out.NextStrategy),
		NextQuery: out.NextQuery, NextTarget: out.NextTarget,
	}, nil
}

// ModelAnswerer asks Model for the answer (model.TaskAnswer) from the
// evidence the gate passed. Code rejects a reply that is empty, longer
// than MaxAnswerRunes, cites nothing, or cites a ref that is not in the
// evidence.
type ModelAnswerer struct {
	Model model.Model
}

// Answer implements Answerer.
func (a ModelAnswerer) Answer(ctx context.Context, q *Question, evidence []Item) (string, []string, error) {
	if a.Model == nil {
		return "", nil, errors.New("gate: ModelAnswerer needs a Model")
	}
	in := &model.AnswerInput{Question: q.Text, Now: stamp(q.Now), Evidence: evidenceItems(evidence)}
	var out model.AnswerOutput
	err := ask(ctx, a.Model, model.TaskAnswer, in, &out, func() error {
		return checkAnswer(&out, evidence)
	})
	if err != nil {
		return "", nil, err
	}
	return strings.TrimSpace(out.Answer), out.Refs, nil
}

// checkAnswer is the code validation of a model's answer.
func checkAnswer(out *model.AnswerOutput, evidence []Item) error {
	text := strings.TrimSpace(out.Answer)
	switch n := utf8.RuneCountInString(text); {
	case !utf8.ValidString(text):
		return errors.New("answer is not valid UTF-8")
	case n == 0 || n > MaxAnswerRunes:
		return fmt.Errorf("answer of %d runes, want 1–%d", n, MaxAnswerRunes)
	case len(out.Refs) == 0 || len(out.Refs) > MaxRefs:
		return fmt.Errorf("answer cites %d refs, want 1–%d", len(out.Refs), MaxRefs)
	}
	for _, ref := range out.Refs {
		if !hasRef(evidence, ref) {
			return fmt.Errorf("answer cites %q, which is not in its evidence", ref)
		}
	}
	return nil
}

// ask sends task's request for in, decodes the reply strictly into out and
// runs check on it, asking again once when code rejects the reply.
func ask(ctx context.Context, m model.Model, task model.Task, in, out any, check func() error) error {
	req, err := model.NewRequestFor(m, task, in)
	if err != nil {
		return err
	}
	var why error
	for range modelTries {
		reflect.ValueOf(out).Elem().SetZero() // nothing of a rejected reply survives
		raw, err := model.Call(ctx, m, req)
		if err != nil {
			if ctx.Err() != nil {
				return err // the caller's cancellation, not the model's failure
			}
			return fmt.Errorf("%w: %s: %w", ErrModelCall, m.Name(), err)
		}
		if why = model.Decode(raw, out); why == nil {
			if why = check(); why == nil {
				return nil
			}
		}
	}
	return fmt.Errorf("%w: %s: %v", ErrModelOutput, task, why)
}

// ModelInput is what a model is shown of batch b: the question, the
// batch's items (the only citable refs), the items earlier rounds cited
// (context) and the steps already tried.
func ModelInput(q *Question, b *Batch, st *State) *model.AssessInput {
	in := &model.AssessInput{
		Question: q.Text, Now: stamp(q.Now), BatchID: b.ID, Strategy: string(b.Strategy),
		Query: b.Query, Items: evidenceItems(b.Items),
	}
	if in.Query == "" {
		in.Query = b.Target
	}
	if st == nil {
		return in
	}
	in.RoundsLeft = st.RoundsLeft
	for i, s := range st.Steps {
		if i == len(st.Steps)-1 {
			break // the step that produced this batch
		}
		arg := s.Query
		if arg == "" {
			arg = s.Target
		}
		in.Tried = append(in.Tried, string(s.Strategy)+": "+arg)
	}
	var earlier []Item
	for _, a := range st.Assessments {
		for _, ref := range a.EvidenceRefs {
			if len(earlier) == maxEarlier || hasRef(earlier, ref) || hasRef(b.Items, ref) {
				continue
			}
			if it, ok := st.Item(ref); ok {
				earlier = append(earlier, it)
			}
		}
	}
	in.Earlier = evidenceItems(earlier)
	return in
}

func evidenceItems(items []Item) []model.EvidenceItem {
	if len(items) == 0 {
		return nil
	}
	out := make([]model.EvidenceItem, len(items))
	for i := range items {
		it := &items[i]
		e := model.EvidenceItem{
			Ref: it.Ref, Kind: it.Kind, Speaker: it.Speaker, MentionedAt: stamp(it.MentionedAt),
			TimeText: it.TimeText, Title: it.Title, Text: clip(it.Text, maxItemRunes),
			Quote: clip(it.Quote, maxItemRunes), Facts: slices.Clone(it.Facts), ContextOf: it.Of,
		}
		if e.Kind == "" {
			e.Kind, _, _ = ParseRef(it.Ref)
		}
		if it.Dated() {
			e.Happened = RenderInterval(it.HappenedStart, it.HappenedEnd, it.Precision)
		}
		out[i] = e
	}
	return out
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}
