package main

import (
	"fmt"
	"io"

	"github.com/stratagate/stratagate"
)

var importsCommand = &command{
	name: "imports", summary: "import batches: state, source block and decision counts",
	define: noFlags(runImports),
}

var importCommand = &command{
	name: "import", args: "ID", summary: "one import batch: every candidate's decision, what it was compared with and what was applied",
	define: noFlags(runImport),
}

type importOut struct {
	ID          uint64         `json:"id"`
	State       string         `json:"state"`
	Scope       string         `json:"scope"`
	Source      string         `json:"source,omitempty"`
	ExportedAt  string         `json:"exported_at,omitempty"`
	CreatedAt   string         `json:"created_at"`
	CommittedAt string         `json:"committed_at,omitempty"`
	UndoneAt    string         `json:"undone_at,omitempty"`
	Revision    string         `json:"revision"`
	TextBytes   int            `json:"text_bytes"`
	Thread      string         `json:"thread,omitempty"`
	BlockID     uint64         `json:"block_id,omitempty"`
	MessageID   uint64         `json:"message_id,omitempty"`
	Actions     map[string]int `json:"actions"` // proposed action → count
	Candidates  []candidateOut `json:"candidates,omitempty"`
}

type candidateOut struct {
	Index          int        `json:"index"`
	Kind           string     `json:"kind"`
	Title          string     `json:"title"`
	Fingerprint    string     `json:"fingerprint"`
	Action         string     `json:"action"`
	Targets        []uint64   `json:"targets"`
	Confidence     float64    `json:"confidence"`
	Automatic      bool       `json:"automatic"`
	Reason         string     `json:"reason"`
	Decider        string     `json:"decider"`
	Compared       []matchOut `json:"compared"`
	Warnings       []string   `json:"warnings,omitempty"`
	Applied        string     `json:"applied,omitempty"`
	AppliedTargets []uint64   `json:"applied_targets,omitempty"`
	EventID        uint64     `json:"event_id,omitempty"`
	Confirmed      bool       `json:"confirmed,omitempty"`
}

type matchOut struct {
	EventID uint64  `json:"event_id"`
	Title   string  `json:"title"`
	Score   float64 `json:"score"`
}

func toImportOut(b *stratagate.ImportBatch, full bool) importOut {
	p := &b.Preview
	o := importOut{ID: p.ID, State: b.State, Scope: p.Scope, Source: p.Source, ExportedAt: stamp(p.ExportedAt),
		CreatedAt: stamp(p.CreatedAt), CommittedAt: stamp(b.CommittedAt), UndoneAt: stamp(b.UndoneAt), Revision: p.Revision,
		TextBytes: p.TextBytes, Thread: b.Thread, BlockID: b.BlockID, MessageID: b.MessageID, Actions: map[string]int{}}
	for _, c := range p.Candidates {
		o.Actions[string(c.Decision.Action)]++
		if !full {
			continue
		}
		co := candidateOut{Index: c.Index, Kind: c.Kind, Title: c.Title, Fingerprint: c.Fingerprint, Action: string(c.Decision.Action),
			Targets: c.Decision.Targets, Confidence: c.Decision.Confidence, Automatic: c.Automatic, Reason: c.Decision.Reason,
			Decider: c.Decision.Decider, Warnings: c.Warnings, Applied: string(c.Applied), AppliedTargets: c.AppliedTargets,
			EventID: c.EventID, Confirmed: c.Confirmed, Compared: []matchOut{}}
		if co.Targets == nil {
			co.Targets = []uint64{}
		}
		for _, m := range c.Compared {
			co.Compared = append(co.Compared, matchOut{EventID: m.EventID, Title: m.Title, Score: m.Score})
		}
		o.Candidates = append(o.Candidates, co)
	}
	return o
}

func runImports(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q", args[0])
	}
	m, err := e.memory()
	if err != nil {
		return err
	}
	bs, err := m.Imports(e.ctx)
	if err != nil {
		return err
	}
	out := make([]importOut, len(bs))
	for i := range bs {
		out[i] = toImportOut(&bs[i], false)
	}
	return e.emit(struct {
		Imports []importOut `json:"imports"`
	}{out}, func(w io.Writer) error {
		tw := newTable(w)
		fmt.Fprintln(tw, "ID\tSTATE\tSCOPE\tCANDIDATES\tADD\tMERGE\tSUPERSEDE\tCONFLICT\tIGNORE\tBLOCK\tCREATED\tSOURCE")
		for _, o := range out {
			n := 0
			for _, c := range o.Actions {
				n += c
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", o.ID, o.State, o.Scope, n, o.Actions["add"], o.Actions["merge"],
				o.Actions["supersede"], o.Actions["conflict"], o.Actions["ignore"], idOrDash(o.BlockID), o.CreatedAt, dash(oneLine(o.Source, 40)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		_, err := fmt.Fprintf(w, "%d import batches\n", len(out))
		return err
	})
}

func idOrDash(id uint64) string {
	if id == 0 {
		return "-"
	}
	return fmt.Sprint(id)
}

func runImport(e *env, args []string) error {
	if len(args) != 1 {
		return usagef("want one import id")
	}
	id, err := parseID("import", args[0])
	if err != nil {
		return err
	}
	m, err := e.memory()
	if err != nil {
		return err
	}
	b, err := m.Import(e.ctx, id)
	if err != nil {
		return err
	}
	o := toImportOut(&b, true)
	return e.emit(o, func(w io.Writer) error {
		fmt.Fprintf(w, "import %d  %s  scope %s  %d bytes  revision %s\n", o.ID, o.State, o.Scope, o.TextBytes, o.Revision)
		fmt.Fprintf(w, "  created %s", o.CreatedAt)
		if o.CommittedAt != "" {
			fmt.Fprintf(w, "  committed %s", o.CommittedAt)
		}
		if o.UndoneAt != "" {
			fmt.Fprintf(w, "  undone %s", o.UndoneAt)
		}
		fmt.Fprintln(w)
		if o.Source != "" || o.ExportedAt != "" {
			fmt.Fprintf(w, "  source %s  exported %s (metadata only: never an event date)\n", dash(o.Source), dash(o.ExportedAt))
		}
		if o.BlockID != 0 {
			fmt.Fprintf(w, "  source block %d (thread %s, message %d: the imported text, verbatim)\n", o.BlockID, o.Thread, o.MessageID)
		}
		for _, c := range o.Candidates {
			mode := "needs confirmation"
			if c.Automatic {
				mode = "automatic"
			}
			fmt.Fprintf(w, "\n  #%d %s %q\n", c.Index, c.Kind, oneLine(c.Title, 80))
			fmt.Fprintf(w, "    decision: %s %v  confidence %.2f (%s, %s)\n", c.Action, c.Targets, c.Confidence, mode, c.Decider)
			fmt.Fprintf(w, "    reason:   %s\n", oneLine(c.Reason, 160))
			for _, m := range c.Compared {
				fmt.Fprintf(w, "    compared: event %d  %.3f  %s\n", m.EventID, m.Score, oneLine(m.Title, 70))
			}
			for _, wn := range c.Warnings {
				fmt.Fprintf(w, "    warning:  %s\n", wn)
			}
			switch {
			case o.State == "previewed":
			case c.Applied == "":
				fmt.Fprintln(w, "    applied:  no (awaited a confirmation)")
			case c.EventID != 0:
				fmt.Fprintf(w, "    applied:  %s %v → event %d\n", c.Applied, c.AppliedTargets, c.EventID)
			default:
				fmt.Fprintf(w, "    applied:  %s\n", c.Applied)
			}
		}
		return nil
	})
}
