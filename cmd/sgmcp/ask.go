package main

import (
	"context"
	"strings"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
)

// AskIn is the input of memory_ask.
type AskIn struct {
	Question  string     `json:"question,omitempty" jsonschema:"the question (required; aliases q, query)"`
	Scopes    stringList `json:"scopes,omitempty" jsonschema:"narrow to these of the server's scopes (default: all)"`
	Thread    string     `json:"thread,omitempty" jsonschema:"keep evidence to this thread"`
	MaxRounds flexInt    `json:"max_rounds,omitempty" jsonschema:"retrieval rounds, default 4, at most 12"`
}

// Evidence is one memory an answer used, with its provenance.
type Evidence struct {
	Ref      string   `json:"ref"`
	Block    string   `json:"block,omitempty"`
	Messages []string `json:"messages,omitempty" jsonschema:"refs of the source messages"`
	Speaker  string   `json:"speaker,omitempty"`
	At       string   `json:"at,omitempty"`
	When     string   `json:"when,omitempty"`
	Quote    string   `json:"quote,omitempty"`
}

// TraceStep is one round of the gate loop.
type TraceStep struct {
	Strategy string `json:"strategy"`
	Query    string `json:"query,omitempty"`
	Target   string `json:"target,omitempty"`
	BatchID  string `json:"batch_id"`
	Verdict  string `json:"verdict,omitempty"`
	Missing  string `json:"missing,omitempty"`
	NewItems int    `json:"new_items"`
}

// AskOut is the result of memory_ask.
type AskOut struct {
	Answer       string      `json:"answer"`
	Verdict      string      `json:"verdict"`
	Missing      string      `json:"missing,omitempty"`
	AssessmentID string      `json:"assessment_id,omitempty" jsonschema:"the sufficient assessment; its use is already recorded"`
	When         string      `json:"when,omitempty" jsonschema:"the interval a time answer states"`
	Evidence     []Evidence  `json:"evidence,omitempty"`
	Trace        []TraceStep `json:"trace,omitempty"`
}

func (s *Server) ask(ctx context.Context, in *AskIn) (*AskOut, error) {
	q := strings.TrimSpace(in.Question)
	if q == "" {
		return nil, retryable("missing argument \"question\"; retry with {\"question\": \"...\"}")
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
	if in.MaxRounds < 0 || in.MaxRounds > gate.MaxRounds {
		return nil, retryable("max_rounds %d is not 0–%d; retry within it", in.MaxRounds, gate.MaxRounds)
	}
	ans, err := s.mem.Ask(ctx, q, stratagate.AskOptions{Scopes: scopes, Thread: in.Thread, MaxRounds: int(in.MaxRounds)})
	if err != nil {
		return nil, err
	}
	s.metrics.verdict(ans.Verdict, 0, 0)
	out := &AskOut{Answer: clip(ans.Text, 2000), Verdict: ans.Verdict, Missing: ans.Missing, AssessmentID: ans.AssessmentID,
		When: when(ans.TimeStart, ans.TimeEnd, ans.TimePrecision, "")}
	for _, ev := range ans.Evidence {
		e := Evidence{Messages: refs(gate.KindMessage, ev.MessageIDs, 12), Speaker: ev.Speaker, At: stamp(ev.MentionedAt),
			When: when(ev.HappenedStart, ev.HappenedEnd, ev.Precision, ""), Quote: clip(ev.Quote, textRunes)}
		switch {
		case ev.EventID != 0:
			e.Ref = gate.MakeRef(gate.KindEvent, ev.EventID)
		case ev.NodeID != 0:
			e.Ref = gate.MakeRef(gate.KindNode, ev.NodeID)
		case len(ev.MessageIDs) > 0:
			e.Ref = gate.MakeRef(gate.KindMessage, ev.MessageIDs[0])
		case ev.BlockID != 0:
			e.Ref = gate.MakeRef(gate.KindBlock, ev.BlockID)
		}
		if ev.BlockID != 0 {
			e.Block = gate.MakeRef(gate.KindBlock, ev.BlockID)
		}
		out.Evidence = append(out.Evidence, e)
	}
	for _, st := range ans.Trace {
		out.Trace = append(out.Trace, TraceStep{Strategy: st.Strategy, Query: clip(st.Query, 200), Target: st.Target, BatchID: st.BatchID,
			Verdict: st.Verdict, Missing: st.Missing, NewItems: st.NewItems})
	}
	return out, nil
}
