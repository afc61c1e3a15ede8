package model

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
)

// PromptVersion numbers the prompt set. Bump it when a prompt's meaning
// changes; the golden files in testdata/prompts change with any wording.
const PromptVersion = 1

// Prompt is the reviewed instruction set of one task: the system text
// (what to do, exactly what code will reject, an example reply) and the
// JSON Schema of the reply. All prompts live in this package, in
// prompt_text.go.
type Prompt struct {
	Task   Task
	System string
	Lead   string // precedes the input JSON in the user message
	Schema []byte // JSON Schema of the reply object
	// MaxTokens is the completion budget of the task: what the largest
	// reply the schema allows takes, with room for whitespace. A budget
	// per task keeps a runaway reply to a short judgment cheap.
	MaxTokens int
	id        string
}

// ID is "task/version/hash": the hash covers the system text, the lead
// and the schema, so a stored job or assessment names the exact prompt it
// was produced with.
func (p *Prompt) ID() string { return p.id }

var prompts = map[Task]*Prompt{}

func register(p *Prompt) {
	h := sha256.New()
	h.Write([]byte(p.System))
	h.Write([]byte{0})
	h.Write([]byte(p.Lead))
	h.Write([]byte{0})
	h.Write(p.Schema)
	p.id = string(p.Task) + "/" + strconv.Itoa(PromptVersion) + "/" + hex.EncodeToString(h.Sum(nil)[:4])
	prompts[p.Task] = p
}

// PromptFor returns the prompt of task, or nil for an unknown task.
func PromptFor(task Task) *Prompt { return prompts[task] }

// Tasks returns every task with a prompt, in a fixed order.
func Tasks() []Task {
	return []Task{TaskDeriveBlock, TaskExtractEvents, TaskProjectGraph, TaskAssessEvidence, TaskAnswer, TaskImportDecide}
}

// NewRequest renders the request of task for input: the task's system
// text, its lead and input as JSON with every secret replaced by a
// redact marker, its schema and its id. Input is kept as is (secrets
// included) for heuristic models, which run in the process; a remote
// model only ever sees the rendered prompt.
func NewRequest(task Task, input any) (Request, error) { return newRequest(task, input, true) }

// NewRequestFor is NewRequest for a call to m. An InProcess model reads
// Input only, so its request carries no rendered prompt (Prompt is
// empty): redacting and encoding the input was about a twentieth of a
// bulk ingest's background work with the heuristic model, for text
// nothing read. Every other model gets exactly NewRequest's request.
func NewRequestFor(m Model, task Task, input any) (Request, error) {
	return newRequest(task, input, !IsInProcess(m))
}

func newRequest(task Task, input any, render bool) (Request, error) {
	p := prompts[task]
	if p == nil {
		return Request{}, fmt.Errorf("model: no prompt for task %q", task)
	}
	req := Request{
		Task: task, System: p.System, Input: input, Schema: p.Schema,
		PromptID: p.id, MaxTokens: p.MaxTokens,
	}
	if render {
		payload, err := json.Marshal(redactedInput(input))
		if err != nil {
			return Request{}, fmt.Errorf("model: encoding %s input: %w", task, err)
		}
		req.Prompt = p.Lead + string(payload)
	}
	return req, nil
}
