package main

import (
	"context"
	"strings"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
)

// AssessIn is the input of memory_assess: the five fields of a judgment of
// one batch (plus the optional next query and target).
type AssessIn struct {
	BatchID      string     `json:"batch_id,omitempty" jsonschema:"the batch judged"`
	Verdict      string     `json:"verdict,omitempty" jsonschema:"sufficient, partial or wrong"`
	EvidenceRefs stringList `json:"evidence_refs,omitempty" jsonschema:"refs of the batch that support the answer, at most 8 (alias refs)"`
	Fit          string     `json:"fit,omitempty" jsonschema:"how the evidence answers the question, at most 160 characters"`
	Missing      string     `json:"missing,omitempty" jsonschema:"what is still missing, at most 160 characters"`
	NextStrategy string     `json:"next_strategy,omitempty" jsonschema:"answer, search_events, expand_event, search_graph, expand_graph_node, search_raw_memory or expand_block"`
	NextQuery    string     `json:"next_query,omitempty" jsonschema:"optional query for a next search"`
	NextTarget   string     `json:"next_target,omitempty" jsonschema:"optional ref to expand next"`
}

// Rejected is a ref the gate refused, with the reason.
type Rejected struct {
	Ref    string `json:"ref"`
	Reason string `json:"reason" jsonschema:"invalid_ref, duplicate, not_in_batch or limit_exceeded"`
}

// AssessOut is the validated assessment.
type AssessOut struct {
	AssessmentID string     `json:"assessment_id"`
	BatchID      string     `json:"batch_id"`
	Verdict      string     `json:"verdict" jsonschema:"as validated: sufficient only with an accepted ref and next_strategy answer"`
	EvidenceRefs []string   `json:"evidence_refs,omitempty" jsonschema:"the accepted refs"`
	RejectedRefs []Rejected `json:"rejected_refs,omitempty"`
	Fit          string     `json:"fit,omitempty"`
	Missing      string     `json:"missing,omitempty"`
	NextStrategy string     `json:"next_strategy"`
	NextQuery    string     `json:"next_query,omitempty"`
	NextTarget   string     `json:"next_target,omitempty"`
	Recorded     bool       `json:"recorded" jsonschema:"a sufficient assessment is recorded: pass its id to memory_record_use"`
	Hint         string     `json:"hint,omitempty"`
}

// RecordUseIn is the input of memory_record_use.
type RecordUseIn struct {
	AssessmentID string `json:"assessment_id,omitempty" jsonschema:"the id of a sufficient assessment (alias id)"`
	ReceiptID    string `json:"receipt_id,omitempty" jsonschema:"optional idempotency key (default: derived from the assessment id)"`
}

// RecordUseOut is the result of memory_record_use.
type RecordUseOut struct {
	AssessmentID string   `json:"assessment_id"`
	ReceiptID    string   `json:"receipt_id,omitempty"`
	Recorded     bool     `json:"recorded"`
	Adopted      []string `json:"adopted,omitempty" jsonschema:"the event and node refs whose weight grew"`
	Note         string   `json:"note,omitempty"`
}

func (s *Server) addGateTools() {
	addTool(s, toolSpec{name: "memory_assess", annotations: writes(true), required: []string{"batch_id", "verdict", "next_strategy"},
		aliases:     map[string]string{"refs": "evidence_refs", "evidence": "evidence_refs", "strategy": "next_strategy"},
		description: "Judge one batch: verdict, evidence_refs (from that batch, ≤ 8), fit, missing, next_strategy. Returns the validated assessment and any rejected refs; a sufficient one is recorded."},
		s.assess)
	addTool(s, toolSpec{name: "memory_record_use", annotations: writes(true),
		aliases:     map[string]string{"id": "assessment_id"},
		description: "Record that an answer used the evidence of a sufficient recorded assessment (its events and nodes gain weight). Refused otherwise."},
		s.recordUse)
	addTool(s, toolSpec{name: "memory_ask", annotations: writes(false), aliases: map[string]string{"q": "question", "query": "question"},
		description: "Answer a question through the whole evidence gate: retrieve, assess, answer only from sufficient evidence. Returns answer, verdict, evidence with provenance and the trace."},
		s.ask)
}

func (s *Server) assess(ctx context.Context, in *AssessIn) (*AssessOut, error) {
	e, ok := s.batches.get(in.BatchID)
	if !ok {
		return nil, retryable("batch %q is unknown to this server (batches last while it runs); retry with the batch_id of a recent search", in.BatchID)
	}
	if e.assessed != nil {
		return nil, retryable("batch %s was already assessed (assessment %s, verdict %s); one assessment per batch: search or expand again for a new batch",
			in.BatchID, e.assessed.ID, e.assessed.Verdict)
	}
	a := gate.Assessment{BatchID: in.BatchID, Verdict: gate.Verdict(strings.ToLower(strings.TrimSpace(in.Verdict))),
		EvidenceRefs: in.EvidenceRefs, Fit: in.Fit, Missing: in.Missing,
		NextStrategy: gate.Strategy(strings.ToLower(strings.TrimSpace(in.NextStrategy))), NextQuery: in.NextQuery, NextTarget: in.NextTarget}
	if !a.Verdict.Valid() {
		return nil, retryable("verdict %q is not sufficient, partial or wrong; retry with one of them", in.Verdict)
	}
	if !a.NextStrategy.Valid() {
		return nil, retryable("next_strategy %q is unknown; retry with answer, search_events, expand_event, search_graph, expand_graph_node, search_raw_memory or expand_block", in.NextStrategy)
	}
	v, err := gate.Validate(e.batch, a)
	if err != nil {
		return nil, err
	}
	recorded := false
	if v.Verdict == gate.Sufficient {
		id, err := s.mem.RecordAssessment(ctx, e.batch, v)
		if err != nil {
			return nil, err
		}
		v.ID, recorded = id, true
	}
	if _, stored := s.batches.assess(v, recorded); !stored {
		return nil, retryable("batch %s was assessed concurrently; search or expand again for a new batch", in.BatchID)
	}
	s.metrics.verdict(string(v.Verdict), len(in.EvidenceRefs), len(v.RejectedRefs))
	out := &AssessOut{AssessmentID: v.ID, BatchID: v.BatchID, Verdict: string(v.Verdict), EvidenceRefs: v.EvidenceRefs,
		Fit: v.Fit, Missing: v.Missing, NextStrategy: string(v.NextStrategy), NextQuery: v.NextQuery, NextTarget: v.NextTarget, Recorded: recorded}
	for _, r := range v.RejectedRefs {
		out.RejectedRefs = append(out.RejectedRefs, Rejected{Ref: r.Ref, Reason: r.Reason})
	}
	switch {
	case recorded:
		out.Hint = "answer from the cited evidence, then call memory_record_use with this assessment_id"
	case a.Verdict == gate.Sufficient:
		out.Hint = "downgraded: sufficient needs at least one accepted ref of this batch and next_strategy answer; follow next_strategy"
	default:
		out.Hint = "follow next_strategy to get a new batch"
	}
	return out, nil
}

func (s *Server) recordUse(ctx context.Context, in *RecordUseIn) (*RecordUseOut, error) {
	id := strings.TrimSpace(in.AssessmentID)
	if id == "" {
		return nil, retryable("missing argument \"assessment_id\"; retry with the assessment_id memory_assess returned for a sufficient verdict")
	}
	e, ok := s.batches.assessment(id)
	if !ok {
		return nil, retryable("assessment %q is unknown to this server; retry with the assessment_id of a sufficient memory_assess result", id)
	}
	if !e.recorded || e.assessed.Verdict != gate.Sufficient {
		return nil, retryable("assessment %s is %s, not sufficient: no use can be recorded; gather more evidence and assess a new batch", id, e.assessed.Verdict)
	}
	use := stratagate.Use{ReceiptID: in.ReceiptID, AssessmentID: id}
	if use.ReceiptID == "" {
		use.ReceiptID = "mcp:" + id
	}
	out := &RecordUseOut{AssessmentID: id, ReceiptID: use.ReceiptID}
	for _, ref := range e.assessed.EvidenceRefs {
		it, ok := e.batch.Item(ref)
		if !ok {
			continue
		}
		switch {
		case it.EventID != 0:
			use.EventIDs = append(use.EventIDs, it.EventID)
			out.Adopted = append(out.Adopted, ref)
		case it.NodeID != 0:
			use.NodeIDs = append(use.NodeIDs, it.NodeID)
			out.Adopted = append(out.Adopted, ref)
		}
	}
	if len(use.EventIDs) == 0 && len(use.NodeIDs) == 0 {
		out.Note = "the assessment cites only messages or blocks: nothing to adopt (weights belong to events and graph nodes)"
		return out, nil
	}
	if err := s.mem.RecordMemoryUse(ctx, use); err != nil {
		return nil, err
	}
	out.Recorded = true
	return out, nil
}
