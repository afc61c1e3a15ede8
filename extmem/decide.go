package extmem

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/stratagate/stratagate/model"
)

// Decider chooses what to do with one candidate given its top-K existing
// matches (best first). Exact fingerprint matches are settled by the
// caller before any decider runs. A Decider only reads its arguments;
// implementations in this package are safe for concurrent use.
type Decider interface {
	// Name identifies the decider in Decision.Decider ("heuristic",
	// "model:<name>").
	Name() string
	// Decide returns a decision whose targets are ids of existing, or an
	// error; it never changes c or existing.
	Decide(ctx context.Context, c *Candidate, existing []Existing) (Decision, error)
}

// Errors of the deciders, checked with errors.Is.
var (
	// ErrNoCandidate is returned for a nil candidate.
	ErrNoCandidate = errors.New("extmem: no candidate to decide")
	// ErrModelOutput wraps a model reply that code rejected on every try:
	// not one JSON object of the import_decide shape, an unknown action,
	// a target that was not offered, targets missing or misplaced for
	// the action, or a confidence outside [0, 1]. It also wraps
	// model.ErrBadOutput.
	ErrModelOutput = fmt.Errorf("extmem: model decision rejected: %w", model.ErrBadOutput)
	// ErrModelCall wraps a model call that returned no reply (no model,
	// a refused, failed or cancelled request); the client's error is
	// wrapped too.
	ErrModelCall = errors.New("extmem: model call failed")
)

// Valid reports whether a is one of the five actions.
func (a Action) Valid() bool {
	switch a {
	case ActionAdd, ActionMerge, ActionSupersede, ActionConflict, ActionIgnore:
		return true
	}
	return false
}

// offered bounds the existing events a decider looks at: the caller's
// top-K is at most MaxTopK, and a longer list is cut rather than refused.
func offered(existing []Existing) []Existing {
	if len(existing) > MaxTopK {
		return existing[:MaxTopK]
	}
	return existing
}

// checkDecision is the code validation every decision passes, whoever
// made it: a known action, targets that are offered ids (no repeats),
// required for merge, supersede and conflict and absent for add, and a
// finite confidence in [0, 1].
func checkDecision(d *Decision, existing []Existing) error {
	if !d.Action.Valid() {
		return fmt.Errorf("unknown action %q", d.Action)
	}
	if len(d.Targets) > MaxTopK {
		return fmt.Errorf("%d targets, at most %d", len(d.Targets), MaxTopK)
	}
	for i, id := range d.Targets {
		if !slices.ContainsFunc(existing, func(e Existing) bool { return e.ID == id }) {
			return fmt.Errorf("target %d was not offered", id)
		}
		if slices.Contains(d.Targets[:i], id) {
			return fmt.Errorf("target %d repeats", id)
		}
	}
	switch d.Action {
	case ActionAdd:
		if len(d.Targets) > 0 {
			return errors.New("add names targets")
		}
	case ActionMerge, ActionSupersede, ActionConflict:
		if len(d.Targets) == 0 {
			return fmt.Errorf("%s names no target", d.Action)
		}
	}
	if math.IsNaN(d.Confidence) || d.Confidence < 0 || d.Confidence > 1 {
		return fmt.Errorf("confidence %v outside [0, 1]", d.Confidence)
	}
	return nil
}

// reasonLine makes a reason one trimmed line of valid UTF-8 of at most
// MaxReasonRunes: runs of whitespace (newlines included) become one
// space, control characters are dropped.
func reasonLine(s string) string {
	var b strings.Builder
	space, n := false, 0
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r):
			continue
		}
		if space {
			n++
		}
		if n++; n > MaxReasonRunes {
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
