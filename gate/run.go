package gate

// Run, RunQuestion and RunSession drive a whole session.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

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
