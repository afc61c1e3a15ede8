// Package model defines the one interface behind every model-backed step
// (block derivation L0–L2, event extraction, graph projection, evidence
// assessment, import decisions) and the strict JSON decoding that every
// caller applies to a model's output before validating it in code.
//
// A Model never writes anything: it turns a Request into JSON text. The
// caller parses that text with Decode and validates every field itself, so
// an offline heuristic and a remote LLM go through the same checks.
package model

import (
	"context"
	"errors"
	"fmt"
)

// Task names one model-backed step. The value is part of the wire contract
// with remote models (it selects the prompt) and with heuristic models (it
// selects the rule set).
type Task string

// Tasks known to this version of StrataGate.
const (
	// TaskDeriveBlock asks for a block's L0 (title, tags), L1 (summary) and
	// L2 (key facts citing message ids). Input: DeriveInput. Output:
	// DeriveOutput.
	TaskDeriveBlock Task = "derive_block"
)

// Request is one model call. Input is the structured payload (a value
// defined in this package for the Task); remote models receive it rendered
// as JSON inside Prompt, heuristic models read it directly.
type Request struct {
	Task   Task
	System string // instructions for remote models; ignored by heuristic ones
	Prompt string // the user prompt for remote models, embedding Input as JSON
	Input  any    // *DeriveInput, *ExtractInput, *ProjectInput, *AssessInput, *AnswerInput or *ImportDecideInput, by Task
	// Schema is the JSON Schema of the expected output object; remote
	// clients send it as a structured-output constraint where the server
	// supports one. Nil means "any JSON object".
	Schema []byte
	// MaxTokens bounds the completion; 0 means the client's default.
	MaxTokens int
	// PromptID names the prompt's version and hash ("derive_block/1/ab12cd34");
	// it is stored with each job attempt and assessment.
	PromptID string
}

// Model turns a Request into JSON text. Implementations must be safe for
// concurrent use and must honour ctx cancellation.
type Model interface {
	// Name identifies the model in logs and the meta bucket ("heuristic",
	// "openai:gpt-4o-mini", ...).
	Name() string
	// Complete returns the model's raw output, which the caller decodes
	// with Decode and validates. A returned error means no output at all
	// (network failure, cancellation); bad output is not an error here.
	Complete(ctx context.Context, req Request) (string, error)
}

// InProcess is implemented by a model that answers in the calling process,
// in bounded time, without I/O (the heuristic model). The job runner then
// runs derivation jobs inside the transaction that stores their results,
// many to a transaction, since a call holding the database's single writer
// costs less than the commit it saves. A wrapper reports what the model it
// wraps does.
type InProcess interface {
	InProcess() bool
}

// IsInProcess reports whether m declares itself InProcess.
func IsInProcess(m Model) bool {
	p, ok := m.(InProcess)
	return ok && p.InProcess()
}

// Errors a model client returns, checked with errors.Is. Any other error
// (a network failure, a 5xx after the client's own retries) is transient:
// the job retries later.
var (
	// ErrPermanent marks a request the server refused for good (400, 401,
	// 403, 404: a bad key, an unknown model): retrying cannot help, the
	// job fails visibly with the server's message.
	ErrPermanent = errors.New("model: request refused")
	// ErrContextSize marks a prompt larger than the model's context
	// window. It also wraps ErrPermanent.
	ErrContextSize = fmt.Errorf("model: prompt exceeds the context size: %w", ErrPermanent)
	// ErrTruncated marks output cut at the token budget (finish_reason
	// "length") even after one retry with a larger budget.
	ErrTruncated = errors.New("model: output truncated")
)
