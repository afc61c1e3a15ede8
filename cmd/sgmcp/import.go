package main

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/extmem"
	"github.com/stratagate/stratagate/gate"
)

// ImportPromptOut is the result of memory_import_prompt.
type ImportPromptOut struct {
	Format string `json:"format"`
	Prompt string `json:"prompt" jsonschema:"give this text to the other assistant; paste its whole reply into memory_import_preview"`
}

// ImportPreviewIn is the input of memory_import_preview.
type ImportPreviewIn struct {
	Text      string    `json:"text,omitempty" jsonschema:"the other assistant's whole reply, as pasted (the JSON may sit in prose or a code fence)"`
	PreviewID string    `json:"preview_id,omitempty" jsonschema:"show a stored preview again (instead of text), e.g. to read the next page"`
	Scope     string    `json:"scope,omitempty" jsonschema:"the scope to import into, one of the server's (default: its first)"`
	TopK      flexInt   `json:"top_k,omitempty" jsonschema:"existing events each memory is compared with, 1–20 (default 5)"`
	Limit     flexInt   `json:"limit,omitempty" jsonschema:"candidates per page (default 10, at most 50)"`
	Cursor    cursorArg `json:"cursor,omitempty" jsonschema:"the next value of the previous page"`
}

// ImportCandidateOut is one candidate of a preview.
type ImportCandidateOut struct {
	Index      int           `json:"index"`
	Kind       string        `json:"kind"`
	Title      string        `json:"title"`
	Action     string        `json:"action" jsonschema:"add, merge, supersede, conflict or ignore"`
	Targets    []string      `json:"targets,omitempty" jsonschema:"the existing events the action applies to (e<id>)"`
	Confidence float64       `json:"confidence"`
	Automatic  bool          `json:"automatic" jsonschema:"applied at commit without confirmation (confidence ≥ 0.85)"`
	Reason     string        `json:"reason"`
	Decider    string        `json:"decider"`
	Compared   []ImportMatch `json:"compared,omitempty"`
	Warnings   []string      `json:"warnings,omitempty"`
	Applied    string        `json:"applied,omitempty" jsonschema:"after commit: the action applied (absent: not applied)"`
	Event      string        `json:"event,omitempty" jsonschema:"after commit: the card created"`
}

// ImportMatch is an existing event a candidate was compared with.
type ImportMatch struct {
	Ref   string  `json:"ref"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
}

// ImportPreviewOut is the result of memory_import_preview.
type ImportPreviewOut struct {
	PreviewID    string               `json:"preview_id" jsonschema:"pass it to memory_import_commit"`
	State        string               `json:"state"`
	Scope        string               `json:"scope"`
	Total        int                  `json:"total" jsonschema:"candidates in the import"`
	Automatic    int                  `json:"automatic"`
	NeedsConfirm []int                `json:"needs_confirmation,omitempty" jsonschema:"indexes of the candidates a person should confirm (accept) or override"`
	Actions      map[string]int       `json:"actions"`
	Candidates   []ImportCandidateOut `json:"candidates"`
	Next         string               `json:"next,omitempty" jsonschema:"pass it back as cursor with preview_id for the next page"`
	Hint         string               `json:"hint"`
}

// ImportOverride replaces one candidate's decision.
type ImportOverride struct {
	Index   int      `json:"index"`
	Action  string   `json:"action" jsonschema:"add, merge, supersede, conflict or ignore"`
	Targets []string `json:"targets,omitempty" jsonschema:"e<id> refs among the candidate's compared events"`
}

// ImportCommitIn is the input of memory_import_commit.
type ImportCommitIn struct {
	PreviewID string           `json:"preview_id,omitempty" jsonschema:"the preview to apply (alias id)"`
	AcceptAll bool             `json:"accept_all,omitempty" jsonschema:"accept every decision that needs a confirmation, as proposed"`
	Accept    []int            `json:"accept,omitempty" jsonschema:"indexes of candidates whose proposed decision the user accepted"`
	Reject    []int            `json:"reject,omitempty" jsonschema:"indexes of candidates not to import at all"`
	Overrides []ImportOverride `json:"overrides,omitempty" jsonschema:"decisions the user changed"`
}

// ImportCommitOut is the result of memory_import_commit.
type ImportCommitOut struct {
	BatchID string   `json:"batch_id" jsonschema:"pass it to memory_import_undo to take the import back"`
	Thread  string   `json:"thread"`
	Block   string   `json:"block" jsonschema:"the permanent source block holding the imported text verbatim"`
	Message string   `json:"message"`
	Created []string `json:"created,omitempty"`
	Changed []string `json:"changed,omitempty" jsonschema:"existing events superseded or marked as conflicting"`
	Applied int      `json:"applied"`
	Pending []int    `json:"pending,omitempty" jsonschema:"candidates not applied: they needed a confirmation"`
}

// ImportUndoIn is the input of memory_import_undo.
type ImportUndoIn struct {
	BatchID string `json:"batch_id,omitempty" jsonschema:"the committed import (alias id)"`
}

// ImportUndoOut is the result of memory_import_undo.
type ImportUndoOut struct {
	BatchID string `json:"batch_id"`
	State   string `json:"state"`
}

func (s *Server) addImportTools() {
	addTool(s, toolSpec{name: "memory_import_prompt", annotations: readOnly(),
		description: "The prompt to give another AI assistant so that it exports what it remembers about the user as a stratagate.external-memory.v2 document; paste its reply into memory_import_preview."},
		func(context.Context, *struct{}) (*ImportPromptOut, error) {
			return &ImportPromptOut{Format: extmem.Format, Prompt: stratagate.ExportPrompt()}, nil
		})
	addTool(s, toolSpec{name: "memory_import_preview", annotations: writes(false), aliases: map[string]string{"id": "preview_id"},
		description: "Preview importing memory exported by another AI: each memory is compared with the closest existing events and gets a decision (add, merge, supersede, conflict, ignore) with a confidence. Nothing is imported until memory_import_commit; show the user the decisions that need confirmation first."},
		s.importPreview)
	addTool(s, toolSpec{name: "memory_import_commit", annotations: writes(false), required: []string{"preview_id"}, aliases: map[string]string{"id": "preview_id"},
		description: "Apply a preview: the imported text is kept verbatim as a source block, and each accepted memory becomes an event citing it. Decisions below 0.85 confidence apply only if listed in accept (or accept_all). Fails if memory changed since the preview: preview again."},
		s.importCommit)
	addTool(s, toolSpec{name: "memory_import_undo", annotations: &forgetAnnotations, required: []string{"batch_id"}, aliases: map[string]string{"id": "batch_id"},
		description: "Take a committed import back: its events are withdrawn, what it superseded is restored, its graph facts are removed. The source block stays, marked undone."},
		s.importUndo)
}

// importScope is the scope an import goes to: one of the server's.
func (s *Server) importScope(sc string) (string, error) {
	if sc == "" {
		return s.scopes[0], nil
	}
	sc = strings.TrimSpace(sc)
	if slices.Contains(s.scopes, sc) {
		return sc, nil
	}
	return "", retryable("scope %q is not served here; retry with one of %s, or omit it", sc, strings.Join(s.scopes, ", "))
}

func (s *Server) importPreview(ctx context.Context, in *ImportPreviewIn) (*ImportPreviewOut, error) {
	limit, off, err := page(in.Limit, in.Cursor)
	if err != nil {
		return nil, err
	}
	var b stratagate.ImportBatch
	switch {
	case in.Text != "" && in.PreviewID != "":
		return nil, retryable("give text (a new preview) or preview_id (a stored one), not both")
	case in.PreviewID != "":
		id, err := importID("preview_id", in.PreviewID)
		if err != nil {
			return nil, err
		}
		if b, err = s.servedImport(ctx, id); err != nil {
			return nil, err
		}
	case strings.TrimSpace(in.Text) == "":
		return nil, retryable("missing argument \"text\": retry with the other assistant's whole reply (get the prompt for it from memory_import_prompt), or with preview_id")
	default:
		scope, err := s.importScope(in.Scope)
		if err != nil {
			return nil, err
		}
		p, err := s.mem.ImportPreview(ctx, in.Text, stratagate.ImportOptions{Scope: scope, TopK: int(in.TopK)})
		if err != nil {
			return nil, err
		}
		b = stratagate.ImportBatch{Preview: p, State: "previewed"}
	}
	p := &b.Preview
	out := &ImportPreviewOut{PreviewID: strconv.FormatUint(p.ID, 10), State: b.State, Scope: p.Scope, Total: len(p.Candidates),
		Actions: map[string]int{}, Candidates: []ImportCandidateOut{}}
	for _, c := range p.Candidates {
		out.Actions[string(c.Decision.Action)]++
		if c.Automatic {
			out.Automatic++
		} else {
			out.NeedsConfirm = append(out.NeedsConfirm, c.Index)
		}
	}
	for i := off; i < len(p.Candidates) && i < off+limit; i++ {
		c := &p.Candidates[i]
		co := ImportCandidateOut{Index: c.Index, Kind: c.Kind, Title: clip(c.Title, textRunes), Action: string(c.Decision.Action),
			Targets: refs(gate.KindEvent, c.Decision.Targets, maxLimit), Confidence: c.Decision.Confidence, Automatic: c.Automatic,
			Reason: clip(c.Decision.Reason, textRunes), Decider: c.Decision.Decider, Warnings: clipAll(c.Warnings, 8), Applied: string(c.Applied)}
		if c.EventID != 0 {
			co.Event = gate.MakeRef(gate.KindEvent, c.EventID)
		}
		for _, m := range c.Compared {
			co.Compared = append(co.Compared, ImportMatch{Ref: gate.MakeRef(gate.KindEvent, m.EventID), Title: clip(m.Title, 80), Score: m.Score})
		}
		out.Candidates = append(out.Candidates, co)
	}
	if off+limit < len(p.Candidates) {
		out.Next = strconv.Itoa(off + limit)
	}
	switch b.State {
	case "previewed":
		out.Hint = "Show the user the decisions, especially needs_confirmation; then call memory_import_commit with preview_id and the accepted indexes (accept), reject or overrides."
	case "committed":
		out.Hint = "Committed; memory_import_undo takes it back."
	default:
		out.Hint = "This import was undone."
	}
	return out, nil
}

// servedImport reads import id, refusing one of a scope this server
// does not serve.
func (s *Server) servedImport(ctx context.Context, id uint64) (stratagate.ImportBatch, error) {
	b, err := s.mem.Import(ctx, id)
	if err != nil {
		return b, err
	}
	if !slices.Contains(s.scopes, b.Preview.Scope) {
		return b, retryable("import %d belongs to a scope this server does not serve", id)
	}
	return b, nil
}

func importID(name, v string) (uint64, error) {
	id, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil || id == 0 {
		return 0, retryable("%s %q is not an import id; retry with the id memory_import_preview returned", name, v)
	}
	return id, nil
}

func (s *Server) importCommit(ctx context.Context, in *ImportCommitIn) (*ImportCommitOut, error) {
	id, err := importID("preview_id", in.PreviewID)
	if err != nil {
		return nil, err
	}
	if _, err := s.servedImport(ctx, id); err != nil {
		return nil, err
	}
	c := stratagate.Confirmations{AcceptAll: in.AcceptAll, Accept: in.Accept, Reject: in.Reject}
	for _, o := range in.Overrides {
		if c.Override == nil {
			c.Override = map[int]stratagate.ImportChoice{}
		}
		ch := stratagate.ImportChoice{Action: extmem.Action(strings.ToLower(strings.TrimSpace(o.Action)))}
		for _, t := range o.Targets {
			tid, err := parseID("overrides.targets", gate.KindEvent, t)
			if err != nil {
				return nil, err
			}
			ch.Targets = append(ch.Targets, tid)
		}
		c.Override[o.Index] = ch
	}
	res, err := s.mem.ImportCommit(ctx, id, c)
	if err != nil {
		return nil, err
	}
	return &ImportCommitOut{BatchID: strconv.FormatUint(res.BatchID, 10), Thread: res.Thread,
		Block: gate.MakeRef(gate.KindBlock, res.BlockID), Message: gate.MakeRef(gate.KindMessage, res.MessageID),
		Created: refs(gate.KindEvent, res.Created, len(res.Created)), Changed: refs(gate.KindEvent, res.Changed, len(res.Changed)),
		Applied: res.Applied, Pending: res.Pending}, nil
}

func (s *Server) importUndo(ctx context.Context, in *ImportUndoIn) (*ImportUndoOut, error) {
	id, err := importID("batch_id", in.BatchID)
	if err != nil {
		return nil, err
	}
	if _, err := s.servedImport(ctx, id); err != nil {
		return nil, err
	}
	if err := s.mem.ImportUndo(ctx, id); err != nil {
		return nil, err
	}
	return &ImportUndoOut{BatchID: strconv.FormatUint(id, 10), State: "undone"}, nil
}
