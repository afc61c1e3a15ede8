package model

// The two gate tasks: judging one evidence batch and composing the answer.
const (
	// TaskAssessEvidence asks for the gate's five-field judgment of one
	// evidence batch. Input: AssessInput. Output: AssessOutput.
	TaskAssessEvidence Task = "assess_evidence"
	// TaskAnswer asks for the answer to a question from evidence the gate
	// passed. Input: AnswerInput. Output: AnswerOutput.
	TaskAnswer Task = "answer"
)

// EvidenceItem is one piece of evidence as a model sees it.
type EvidenceItem struct {
	Ref         string   `json:"ref"`  // e12, m345, n7, b3: the only handle a model may cite
	Kind        string   `json:"kind"` // event, message, node, block
	Speaker     string   `json:"speaker,omitempty"`
	MentionedAt string   `json:"mentioned_at,omitempty"` // RFC 3339: when it was said
	Happened    string   `json:"happened,omitempty"`     // when it took place, resolved and rendered ("June 2024", "3 May 2024")
	TimeText    string   `json:"time_text,omitempty"`
	Title       string   `json:"title,omitempty"`
	Text        string   `json:"text"`
	Quote       string   `json:"quote,omitempty"`
	Facts       []string `json:"facts,omitempty"`
	ContextOf   string   `json:"context_of,omitempty"` // a neighbouring message shown with the item of this ref
}

// AssessInput is one evidence batch to judge.
type AssessInput struct {
	Question   string         `json:"question"`
	Now        string         `json:"now,omitempty"` // RFC 3339 reference time of the question
	BatchID    string         `json:"batch_id"`
	Strategy   string         `json:"strategy"` // the step that produced the batch
	Query      string         `json:"query,omitempty"`
	Items      []EvidenceItem `json:"items"`             // the only citable refs
	Earlier    []EvidenceItem `json:"earlier,omitempty"` // cited by earlier rounds; context only
	Tried      []string       `json:"tried,omitempty"`   // earlier steps, "strategy: query"
	RoundsLeft int            `json:"rounds_left"`
}

// AssessOutput is the gate's judgment of one batch: the five bounded
// fields (verdict, evidence_refs, fit, missing, next_strategy) and the
// optional next query or target.
type AssessOutput struct {
	Verdict      string   `json:"verdict"`
	EvidenceRefs []string `json:"evidence_refs"`
	Fit          string   `json:"fit"`
	Missing      string   `json:"missing"`
	NextStrategy string   `json:"next_strategy"`
	NextQuery    string   `json:"next_query,omitempty"`
	NextTarget   string   `json:"next_target,omitempty"`
}

// AnswerInput is a question and the evidence the gate passed.
type AnswerInput struct {
	Question string         `json:"question"`
	Now      string         `json:"now,omitempty"`
	Evidence []EvidenceItem `json:"evidence"`
}

// AnswerOutput is a short answer and the refs of the evidence it used.
type AnswerOutput struct {
	Answer string   `json:"answer"`
	Refs   []string `json:"refs"`
}
