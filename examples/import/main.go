// Command import is `make demo-import`: it builds the demo store (the
// sample conversation of testdata/), asks a question the conversation
// cannot answer, then imports testdata/import/export.md — memory another
// assistant exported in the stratagate.external-memory.v2 format — and
// prints the preview with each candidate's decision, commits it, asks
// again (the answer now uses an imported memory, traced back to the
// import's source block), undoes the import and asks a third time.
//
// Offline (the heuristic model and decider) unless STRATAGATE_MODEL is set.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/internal/sample"
)

func main() {
	data := flag.String("data", "testdata/conversation.json", "sample conversation")
	export := flag.String("export", "testdata/import/export.md", "the pasted export to import")
	scope := flag.String("scope", "project:atlas", "scope to import into")
	question := flag.String("q", "What is Mia's favourite board game?", "the question asked before, after and after undoing the import")
	flag.Parse()
	if err := run(*data, *export, *scope, *question); err != nil {
		fmt.Fprintln(os.Stderr, "import demo:", err)
		os.Exit(1)
	}
}

func run(data, export, scope, question string) error {
	ctx := context.Background()
	f, err := sample.Load(data)
	if err != nil {
		return err
	}
	text, err := os.ReadFile(export)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "stratagate-import-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	m, err := stratagate.ModelFromSpec("", nil)
	if err != nil {
		return err
	}
	mem, err := stratagate.Open(filepath.Join(dir, "memory.sg"), &stratagate.Options{Model: m})
	if err != nil {
		return err
	}
	defer mem.Close()
	for _, t := range f.Turns() {
		if _, err := mem.Append(ctx, t); err != nil {
			return err
		}
	}
	if err := mem.WaitIdle(ctx); err != nil {
		return err
	}
	st, err := mem.Stats(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("Demo store: %d messages, %d event cards (model %s).\n", st.Messages, st.Buckets["events"], m.Name())
	scopes := []string{scope}

	fmt.Printf("\n━━ Before the import\n")
	if err := ask(ctx, mem, question, scopes); err != nil {
		return err
	}

	p, err := mem.ImportPreview(ctx, string(text), stratagate.ImportOptions{Scope: scope})
	if err != nil {
		return err
	}
	fmt.Printf("\n━━ Preview of import %d (%s, %d bytes, %d candidates, store revision %s)\n", p.ID, p.Source, p.TextBytes, len(p.Candidates), p.Revision)
	for _, c := range p.Candidates {
		mode := "needs confirmation"
		if c.Automatic {
			mode = "automatic"
		}
		fmt.Printf("  #%d %-11s %-45q → %-9s %v  %.2f %s (%s)\n", c.Index, c.Kind, clip(c.Title, 45), c.Decision.Action, c.Decision.Targets,
			c.Decision.Confidence, mode, c.Decision.Decider)
		fmt.Printf("      reason: %s\n", clip(c.Decision.Reason, 150))
		for _, mt := range c.Compared[:min(2, len(c.Compared))] {
			fmt.Printf("      compared with event #%d %q (BM25 %.2f)\n", mt.EventID, clip(mt.Title, 60), mt.Score)
		}
	}

	// A person would confirm the low-confidence decisions one by one; the
	// demo accepts them all.
	res, err := mem.ImportCommit(ctx, p.ID, stratagate.Confirmations{AcceptAll: true})
	if err != nil {
		return err
	}
	if err := mem.WaitIdle(ctx); err != nil {
		return err
	}
	fmt.Printf("\n━━ Committed (every pending decision accepted): batch %d, source block #%d in thread %q (message #%d holds the pasted text verbatim)\n",
		res.BatchID, res.BlockID, res.Thread, res.MessageID)
	fmt.Printf("   %d decisions applied; cards created %v; existing cards changed %v\n", res.Applied, res.Created, res.Changed)
	for _, id := range res.Created {
		d, err := mem.ExpandEvent(ctx, id)
		if err != nil {
			return err
		}
		when := "happened: unknown"
		if !d.Card.Temporal.HappenedStart.IsZero() {
			when = fmt.Sprintf("happened %s (%s, %s)", d.Card.Temporal.HappenedStart.Format("2006-01-02"), d.Card.Temporal.Precision, d.Card.Temporal.Basis)
		}
		fmt.Printf("   event #%d %q [%s] %s; supersedes %v, conflicts %v; quote %q\n", id, clip(d.Card.Title, 50), d.Card.EventType, when,
			d.Card.SupersedesEventIDs, d.Card.ConflictsWithEventIDs, clip(first(d.Card.Quotes), 60))
	}
	fmt.Printf("\n━━ After the import\n")
	if err := ask(ctx, mem, question, scopes); err != nil {
		return err
	}
	rep, err := mem.Verify(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("   Verify: ok=%v, %d violations\n", rep.OK, len(rep.Violations))

	if err := mem.ImportUndo(ctx, res.BatchID); err != nil {
		return err
	}
	b, err := mem.Import(ctx, res.BatchID)
	if err != nil {
		return err
	}
	fmt.Printf("\n━━ After undoing import %d (state %s; source block #%d kept)\n", res.BatchID, b.State, b.BlockID)
	if err := ask(ctx, mem, question, scopes); err != nil {
		return err
	}
	rep, err = mem.Verify(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("   Verify: ok=%v, %d violations\n", rep.OK, len(rep.Violations))
	return nil
}

func ask(ctx context.Context, mem *stratagate.Memory, q string, scopes []string) error {
	a, err := mem.Ask(ctx, q, stratagate.AskOptions{Scopes: scopes})
	if err != nil {
		return err
	}
	fmt.Printf("   Q: %s\n   Answer:  %s\n   Verdict: %s", q, clip(a.Text, 200), a.Verdict)
	if a.Missing != "" {
		fmt.Printf(" (missing: %s)", a.Missing)
	}
	fmt.Println()
	if a.Verdict != "sufficient" {
		return nil
	}
	for _, ev := range a.Evidence {
		fmt.Printf("   Provenance: event #%d ← block #%d, messages %v", ev.EventID, ev.BlockID, ev.MessageIDs)
		if b, err := mem.ExpandBlock(ctx, ev.BlockID, 5); err == nil && len(b.Messages) > 0 {
			th := b.Messages[0].Thread
			kind := "conversation"
			if strings.HasPrefix(th, stratagate.ImportThreadPrefix) {
				kind = "import source block"
			}
			fmt.Printf(" in thread %q (%s)", th, kind)
		}
		fmt.Printf("\n      quote %q\n", clip(ev.Quote, 120))
	}
	return nil
}

func first(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0]
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
