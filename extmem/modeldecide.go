package extmem

// The model-backed decider: the candidate and its matches go to a model as
// model.TaskImportDecide, and code validates the reply exactly as it
// validates the heuristic's decisions (checkDecision).

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stratagate/stratagate/model"
)

// modelTries is how often a reply that code rejects is asked for before
// the decision fails: one retry, as in the gate, because a second bad
// reply is rarely followed by a good one.
const modelTries = 2

// modelDecider asks a model.Model for each decision.
type modelDecider struct {
	m model.Model
}

// NewModelDecider returns a Decider that asks m (model.TaskImportDecide).
// Secrets in the candidate are redacted from the prompt by
// model.NewRequest. Its decisions name the decider "model:"+m.Name(). It
// is safe for concurrent use when m is.
func NewModelDecider(m model.Model) Decider { return modelDecider{m: m} }

// Name is "model:" and the model's name.
func (d modelDecider) Name() string {
	if d.m == nil {
		return "model:"
	}
	return "model:" + d.m.Name()
}

// Decide implements Decider. It returns an error wrapping ErrModelCall
// when the model gives no reply (the client's error wrapped too), and one
// wrapping ErrModelOutput when code rejects both tries' replies.
func (d modelDecider) Decide(ctx context.Context, c *Candidate, existing []Existing) (Decision, error) {
	if c == nil {
		return Decision{}, ErrNoCandidate
	}
	if d.m == nil {
		return Decision{}, fmt.Errorf("%w: no model", ErrModelCall)
	}
	existing = offered(existing)
	req, err := model.NewRequestFor(d.m, model.TaskImportDecide, decideInput(c, existing))
	if err != nil {
		return Decision{}, fmt.Errorf("%w: %w", ErrModelCall, err)
	}
	var why error
	for range modelTries {
		raw, err := model.Call(ctx, d.m, req)
		if err != nil {
			return Decision{}, fmt.Errorf("%w: %s: %w", ErrModelCall, d.m.Name(), err)
		}
		var out model.ImportDecideOutput
		if why = model.Decode(raw, &out); why != nil {
			continue
		}
		dec := Decision{
			Action: Action(out.Action), Targets: out.TargetIDs, Confidence: out.Confidence,
			Reason: reasonLine(out.Reason), Decider: d.Name(),
		}
		if dec.Targets == nil {
			dec.Targets = []uint64{}
		}
		if why = checkDecision(&dec, existing); why == nil {
			dec.Targets = slices.Clip(dec.Targets)
			return dec, nil
		}
	}
	return Decision{}, fmt.Errorf("%w: %s: %v", ErrModelOutput, model.TaskImportDecide, why)
}

// decideInput is what a model is shown: the candidate and the offered
// events, times in RFC 3339 ("" when unknown). Slices are copied so the
// request never aliases the caller's records.
func decideInput(c *Candidate, existing []Existing) *model.ImportDecideInput {
	in := &model.ImportDecideInput{
		Candidate: model.ImportCandidate{
			Kind: string(c.Kind), Category: c.Category, Title: c.Title, Summary: c.Summary,
			Quotes: slices.Clone(c.Quotes), OriginalText: c.OriginalText,
			MentionedAt: stamp(c.Temporal.MentionedAt), HappenedStart: stamp(c.Temporal.HappenedStart),
			HappenedEnd: stamp(c.Temporal.HappenedEnd), TimeText: c.Temporal.OriginalText,
			Precision: known(c.Temporal.Precision), Participants: slices.Clone(c.Temporal.Participants),
			EventType: c.Temporal.EventType, Status: known(c.Temporal.Status),
		},
		Existing: make([]model.ImportExisting, len(existing)),
	}
	for i := range existing {
		e := &existing[i]
		in.Existing[i] = model.ImportExisting{
			ID: e.ID, Title: e.Title, Summary: e.Summary, Quotes: slices.Clone(e.Quotes),
			MentionedAt: stamp(e.MentionedAt), HappenedStart: stamp(e.HappenedStart), HappenedEnd: stamp(e.HappenedEnd),
			Participants: slices.Clone(e.Participants), EventType: e.EventType, Status: known(e.Status),
		}
	}
	return in
}

// stamp renders t in RFC 3339, or "" for the zero time (unknown).
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

// known drops "unknown", which says no more than an omitted field.
func known(s string) string {
	if strings.EqualFold(s, "unknown") {
		return ""
	}
	return s
}
