// Command demo is `make demo`: it ingests the sample conversation in
// testdata/ into a temporary StrataGate file, waits until every block is
// derived, its events extracted and projected into the graph, then asks
// questions through the evidence gate and prints each answer with its
// verdict, every retrieval step and the provenance of the evidence.
//
// Offline by default (the heuristic model). With STRATAGATE_MODEL set
// (openai:NAME, with STRATAGATE_MODEL_BASE_URL and a key; see the README's
// "Using a model") every model-backed step runs through that server:
// derivation, extraction, projection, and Ask's assessment and answer
// (unless -offline-gate).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/internal/sample"
	"github.com/stratagate/stratagate/model/heuristic"
)

// questions cover the cases the demo must show: a temporal answer that
// needs the source message (the event card has no date; the message's
// "the day before yesterday" is resolved against its timestamp), a changed
// preference, a list, current state answered from the graph, a project's
// tool that changed, and one the memory cannot answer.
var questions = []string{
	"When did Mia set up Postgres in Docker Compose?",
	"Does Mia drink tea or coffee now?",
	"Which pets does Mia have?",
	"Where does Leo live now?",
	"Which package manager does Atlas use now?",
	"What is the name of Leo's dog?",
}

func main() {
	data := flag.String("data", "testdata/conversation.json", "sample conversation")
	db := flag.String("db", "", "StrataGate file (default: "+defaultDB()+", made afresh each run and kept for the viewer)")
	all := flag.Bool("all", false, "ask every question of the sample file, with its expected answer")
	verbose := flag.Bool("blocks", false, "also print each block's L0/L1 and the layered context")
	offlineGate := flag.Bool("offline-gate", false, "with STRATAGATE_MODEL set, judge and answer with the offline gate")
	var asked []string
	flag.Func("q", "ask this question instead of the built-in ones (repeatable)", func(s string) error {
		asked = append(asked, s)
		return nil
	})
	flag.Parse()
	if len(asked) > 0 {
		questions = asked
	}
	if err := run(*data, *db, *all, *verbose, *offlineGate); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run(data, path string, all, verbose, offlineGate bool) error {
	ctx := context.Background()
	f, err := sample.Load(data)
	if err != nil {
		return err
	}
	if path == "" {
		// A fixed place, made afresh: the store outlives the run so that
		// the viewer command printed at the end can open it.
		path = defaultDB()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	m, err := stratagate.ModelFromSpec("", nil) // STRATAGATE_MODEL, else heuristic
	if err != nil {
		return err
	}
	remote := m.Name() != heuristic.Name
	mem, err := stratagate.Open(path, &stratagate.Options{Model: m, GateModel: remote && !offlineGate})
	if err != nil {
		return err
	}
	defer mem.Close()
	if remote {
		fmt.Printf("Model: %s (gate: %s)\n", m.Name(), map[bool]string{true: "offline", false: m.Name()}[offlineGate])
	}

	start := time.Now()
	turns := f.Turns()
	for _, t := range turns {
		if _, err := mem.Append(ctx, t); err != nil {
			return fmt.Errorf("append %s: %w", t.ReceiptID, err)
		}
	}
	if err := mem.WaitIdle(ctx); err != nil {
		return err
	}
	s, err := mem.Stats(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("Ingested %d turns (%d messages) in %v: %d blocks, %d event cards, %d graph nodes.\nFile: %s\n",
		len(turns), s.Messages, time.Since(start).Round(time.Millisecond), s.Blocks, s.Buckets["events"], s.Buckets["graph.nodes"], path)
	if s.JobsFailed > 0 {
		fmt.Printf("%d jobs failed (see: go run ./cmd/sgdump -db FILE jobs -state failed, with -db set here)\n", s.JobsFailed)
	}
	if verbose {
		if err := printBlocks(ctx, mem); err != nil {
			return err
		}
	}

	var scopes []string
	threads, err := mem.Threads(ctx)
	if err != nil {
		return err
	}
	for _, th := range threads {
		scopes = append(scopes, th.Scope)
	}
	expected := map[string]string{}
	qs := questions
	for _, q := range f.Questions {
		expected[q.Question] = q.Answer
	}
	if all {
		qs = nil
		for _, q := range f.Questions {
			qs = append(qs, q.Question)
		}
	}
	for i, q := range qs {
		a, err := mem.Ask(ctx, q, stratagate.AskOptions{Scopes: scopes})
		fmt.Printf("\n━━ Q%d. %s\n", i+1, q)
		if err != nil {
			if !remote {
				return fmt.Errorf("ask %q: %w", q, err)
			}
			// A model's reply that code rejects is reported, not fatal.
			fmt.Printf("   Error:   %v\n", err)
			continue
		}
		fmt.Printf("   Answer:  %s\n", oneLine(a.Text, 200))
		fmt.Printf("   Verdict: %s", a.Verdict)
		if a.Missing != "" {
			fmt.Printf(" (missing: %s)", a.Missing)
		}
		fmt.Println()
		if exp, ok := expected[q]; ok {
			fmt.Printf("   Expected (from testdata): %s\n", exp)
		}
		fmt.Println("   Retrieval steps:")
		for k, st := range a.Trace {
			target := st.Query
			if st.Target != "" {
				target = st.Target
			}
			fmt.Printf("     %d. %-18s %-28q batch %-7s new items %-2d → %s", k+1, st.Strategy, oneLine(target, 28), st.BatchID, st.NewItems, st.Verdict)
			if st.Missing != "" {
				fmt.Printf(" (missing %s)", st.Missing)
			}
			fmt.Println()
		}
		if len(a.Evidence) > 0 {
			fmt.Println("   Provenance:")
		}
		for _, ev := range a.Evidence {
			what := fmt.Sprintf("event #%d", ev.EventID)
			switch {
			case ev.EventID == 0 && ev.NodeID != 0:
				what = fmt.Sprintf("graph node #%d", ev.NodeID)
			case ev.EventID == 0:
				what = "message"
			}
			fmt.Printf("     - %s, messages %v, %s at %s", what, ev.MessageIDs, ev.Speaker, ev.MentionedAt.Format("2006-01-02 15:04 -07:00"))
			if !ev.HappenedStart.IsZero() {
				fmt.Printf(", happened %s (%s)", ev.HappenedStart.Format("2006-01-02"), ev.Precision)
			}
			fmt.Printf("\n       %q\n", oneLine(ev.Quote, 160))
		}
		if remote && !a.Usage.IsZero() {
			fmt.Printf("   Model use: %d calls, %d prompt + %d completion tokens, %v\n",
				a.Usage.Calls, a.Usage.PromptTokens, a.Usage.CompletionTokens, a.Usage.Latency.Round(time.Millisecond))
		}
	}
	if remote {
		s, err := mem.Stats(ctx)
		if err != nil {
			return err
		}
		fmt.Println("\nModel use by step:")
		for _, k := range slices.Sorted(maps.Keys(s.Usage)) {
			u := s.Usage[k]
			fmt.Printf("  %-16s %4d calls  %7d prompt (%d cached) + %6d completion tokens  %v\n",
				k, u.Calls, u.PromptTokens, u.CachedTokens, u.CompletionTokens, u.Latency.Round(time.Millisecond))
		}
	}
	fmt.Printf("\n━━ Look at what it remembers, in a browser (read-only):\n   go run ./cmd/sgdump serve -db %s\n   then open http://127.0.0.1:7070/ (threads, blocks L0–L5, events on both clocks, the graph as of a date, traces, Ask)\n", path)
	return nil
}

// defaultDB is where the demo keeps its store.
func defaultDB() string { return filepath.Join(os.TempDir(), "stratagate-demo", "memory.sg") }

func printBlocks(ctx context.Context, mem *stratagate.Memory) error {
	threads, err := mem.Threads(ctx)
	if err != nil {
		return err
	}
	for _, th := range threads {
		blocks, err := mem.Blocks(ctx, th.Name)
		if err != nil {
			return err
		}
		fmt.Printf("\n== thread %s (%s): %d turns, %d blocks, %d turns in the open tail\n", th.Name, th.Scope, th.Turns, len(blocks), th.OpenTurns)
		for _, b := range blocks {
			fmt.Printf("-- block %d #%d [%s] turns %d–%d, %s – %s\n   L0: %s  {%s}\n   L1: %s\n", b.Seq, b.ID, b.State, b.TurnFirst, b.TurnLast,
				b.FirstAt.Format("2006-01-02"), b.LastAt.Format("2006-01-02"), b.Title, strings.Join(b.Tags, ", "), oneLine(b.Summary, 300))
		}
		cv, err := mem.Context(ctx, th.Name, 1500)
		if err != nil {
			return err
		}
		fmt.Printf("-- layered context (%d of %d tokens):\n", cv.Tokens, cv.Budget)
		for _, cb := range cv.Blocks {
			fmt.Printf("   block %d: age %d → L%d (%d tokens)\n", cb.Seq, cb.Age, cb.Level, cb.Tokens)
		}
	}
	return nil
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
