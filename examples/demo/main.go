// Command demo ingests the sample conversation in testdata/ into a temporary
// StrataGate file, waits for every block to be derived, and prints each
// block's L0/L1 and the layered context of each thread.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/internal/sample"
)

func main() {
	data := flag.String("data", "testdata/conversation.json", "sample conversation")
	db := flag.String("db", "", "StrataGate file (default: a temporary file, removed afterwards)")
	budget := flag.Int("budget", 1500, "token budget for each thread's context")
	flag.Parse()
	if err := run(*data, *db, *budget); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run(data, path string, budget int) error {
	ctx := context.Background()
	f, err := sample.Load(data)
	if err != nil {
		return err
	}
	if path == "" {
		dir, err := os.MkdirTemp("", "stratagate-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "memory.sg")
	}
	mem, err := stratagate.Open(path, nil)
	if err != nil {
		return err
	}
	defer mem.Close()

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
	fmt.Printf("ingested %d turns in %v into %s\n\n", len(turns), time.Since(start).Round(time.Millisecond), path)

	threads, err := mem.Threads(ctx)
	if err != nil {
		return err
	}
	for _, th := range threads {
		blocks, err := mem.Blocks(ctx, th.Name)
		if err != nil {
			return err
		}
		fmt.Printf("== thread %s (%s): %d turns, %d blocks, %d turns in the open tail\n", th.Name, th.Scope, th.Turns, len(blocks), th.OpenTurns)
		for _, b := range blocks {
			fmt.Printf("-- block %d #%d [%s] turns %d–%d, %s – %s\n", b.Seq, b.ID, b.State, b.TurnFirst, b.TurnLast,
				b.FirstAt.Format("2006-01-02"), b.LastAt.Format("2006-01-02"))
			fmt.Printf("   L0: %s  {%s}\n", b.Title, strings.Join(b.Tags, ", "))
			fmt.Printf("   L1: %s\n", b.Summary)
		}
		cv, err := mem.Context(ctx, th.Name, budget)
		if err != nil {
			return err
		}
		fmt.Printf("\n-- layered context of %s (%d of %d tokens):\n", th.Name, cv.Tokens, cv.Budget)
		for _, cb := range cv.Blocks {
			fmt.Printf("   block %d: age %d → L%d (%d tokens)\n", cb.Seq, cb.Age, cb.Level, cb.Tokens)
		}
		fmt.Println(indent(cv.Text, "   | "))
	}
	return nil
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if len(l) > 160 {
			l = l[:160] + "…"
		}
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
