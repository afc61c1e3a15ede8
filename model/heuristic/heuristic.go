package heuristic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/stratagate/stratagate/model"
)

// ErrUnsupported is wrapped by the error Complete returns for a task this
// model has no rules for, or for an input of the wrong type. Callers can
// test for it with errors.Is and fall back to another model.
var ErrUnsupported = errors.New("heuristic: unsupported task")

// Model is the offline, deterministic model. The zero value is ready to
// use; it holds no state, so one value may be shared by any number of
// goroutines.
type Model struct{}

// Both forms satisfy the interface, so callers may embed or point to it.
var (
	_ model.Model = Model{}
	_ model.Model = (*Model)(nil)

	_ model.InProcess = Model{}
)

// New returns a heuristic model. It exists for symmetry with remote model
// constructors; &Model{} or Model{} work just as well.
func New() *Model { return &Model{} }

// Name is the heuristic model's name.
const Name = "heuristic"

// Name returns "heuristic", the name recorded in logs and the meta bucket.
func (Model) Name() string { return Name }

// InProcess reports true: the rules run in the caller, without I/O.
func (Model) InProcess() bool { return true }

// Complete runs the rules for req.Task and returns their result as JSON
// text, exactly as a remote model would, so the caller's strict decoding
// and validation apply unchanged. For model.TaskDeriveBlock req.Input must
// be a *model.DeriveInput (or a model.DeriveInput); the output is a
// model.DeriveOutput that always satisfies the layers package's limits.
// For model.TaskExtractEvents req.Input must be a *model.ExtractInput (or
// a model.ExtractInput); the output is a model.ExtractOutput whose cards
// always satisfy the events package's limits. For model.TaskProjectGraph
// req.Input must be a *model.ProjectInput (or a model.ProjectInput); the
// output is a model.ProjectOutput whose ops cite only the input's events
// and use only the graph schema's kinds, keys and relations.
//
// It returns ctx.Err() if ctx is done before or after deriving, and an
// error wrapping ErrUnsupported for an unknown task or input type, and for
// model.TaskImportDecide, whose offline rules are extmem.NewHeuristic.
func (Model) Complete(ctx context.Context, req model.Request) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	switch req.Task {
	case model.TaskDeriveBlock:
		var in *model.DeriveInput
		switch v := req.Input.(type) {
		case *model.DeriveInput:
			in = v
		case model.DeriveInput:
			in = &v
		}
		if in == nil {
			return "", fmt.Errorf("%w: %s needs a *model.DeriveInput, got %T", ErrUnsupported, req.Task, req.Input)
		}
		out := derive(in)
		// Derivation is bounded but not instant on huge blocks; a caller
		// that gave up meanwhile should not receive a result.
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return encode(out)
	case model.TaskExtractEvents:
		var in *model.ExtractInput
		switch v := req.Input.(type) {
		case *model.ExtractInput:
			in = v
		case model.ExtractInput:
			in = &v
		}
		if in == nil {
			return "", fmt.Errorf("%w: %s needs a *model.ExtractInput, got %T", ErrUnsupported, req.Task, req.Input)
		}
		out := extract(in)
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return encode(out)
	case model.TaskProjectGraph:
		var in *model.ProjectInput
		switch v := req.Input.(type) {
		case *model.ProjectInput:
			in = v
		case model.ProjectInput:
			in = &v
		}
		if in == nil {
			return "", fmt.Errorf("%w: %s needs a *model.ProjectInput, got %T", ErrUnsupported, req.Task, req.Input)
		}
		out := project(in)
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return encode(out)
	case model.TaskImportDecide:
		// Import decisions have their own offline decider in package
		// extmem (which imports model, so this package cannot call it).
		return "", fmt.Errorf("%w: %q: use extmem.NewHeuristic for offline import decisions", ErrUnsupported, req.Task)
	default:
		return "", fmt.Errorf("%w: %q", ErrUnsupported, req.Task)
	}
}

// encode renders out as compact JSON. HTML escaping is off so that the raw
// text stays readable in logs ("<", ">" and "&" appear as themselves).
func encode(out any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return "", fmt.Errorf("heuristic: encode output: %w", err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}
