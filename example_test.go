package stratagate_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/stratagate/stratagate"
)

// exampleMemory opens a fresh file in a temporary directory.
func exampleMemory(o *stratagate.Options) (*stratagate.Memory, func()) {
	dir, err := os.MkdirTemp("", "stratagate-example-")
	if err != nil {
		log.Fatal(err)
	}
	mem, err := stratagate.Open(filepath.Join(dir, "memory.sg"), o)
	if err != nil {
		log.Fatal(err)
	}
	return mem, func() { mem.Close(); os.RemoveAll(dir) }
}

func exampleTurn(i int, user, reply string) stratagate.Turn {
	at := time.Date(2024, 5, 8, 17, 30+i, 0, 0, time.FixedZone("", -7*3600))
	return stratagate.Turn{
		Thread: "team", Scope: "project:atlas", ReceiptID: fmt.Sprintf("turn-%d", i),
		Messages: []stratagate.Message{
			{Role: "user", Speaker: "Leo", Content: user, At: at},
			{Role: "assistant", Speaker: "assistant", Content: reply, At: at.Add(10 * time.Second)},
		},
	}
}

func ExampleMemory_Append() {
	mem, done := exampleMemory(nil)
	defer done()
	ctx := context.Background()
	ref, err := mem.Append(ctx, exampleTurn(1, "I moved to Seattle last Saturday.", "Welcome to Seattle!"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("turn", ref.Turn, "messages", ref.MessageIDs, "sealed", ref.SealedBlockID != 0)
	again, _ := mem.Append(ctx, exampleTurn(1, "I moved to Seattle last Saturday.", "Welcome to Seattle!"))
	fmt.Println("duplicate receipt:", again.Duplicate, again.MessageIDs)
	// Output:
	// turn 1 messages [1 2] sealed false
	// duplicate receipt: true [1 2]
}

func ExampleMemory_SearchRaw() {
	mem, done := exampleMemory(nil)
	defer done()
	ctx := context.Background()
	mem.Append(ctx, exampleTurn(1, "I moved to Seattle last Saturday.", "Welcome to Seattle!"))
	mem.Append(ctx, exampleTurn(2, "We picked Postgres for Atlas.", "Noted: Postgres."))
	hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: "postgres", Scopes: []string{"project:atlas"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Printf("#%d %s: %s\n", h.MessageID, h.Speaker, h.Snippet)
	}
	// The default scope is global only: the project's messages stay invisible.
	hits, _ = mem.SearchRaw(ctx, stratagate.Query{Text: "postgres"})
	fmt.Println("global hits:", len(hits))
	// Output:
	// #4 assistant: Noted: Postgres.
	// #3 Leo: We picked Postgres for Atlas.
	// global hits: 0
}

func ExampleMemory_ExpandBlock() {
	mem, done := exampleMemory(&stratagate.Options{BlockTurns: 2})
	defer done()
	ctx := context.Background()
	mem.Append(ctx, exampleTurn(1, "I moved to Seattle last Saturday.", "Welcome to Seattle!"))
	mem.Append(ctx, exampleTurn(2, "ok", "Anything else?"))
	mem.WaitIdle(ctx)
	blocks, _ := mem.Blocks(ctx, "team")
	fmt.Println(len(blocks), "block,", blocks[0].State)
	l3, _ := mem.ExpandBlock(ctx, blocks[0].ID, 3)
	fmt.Print(l3.Text)
	l5, _ := mem.ExpandBlock(ctx, blocks[0].ID, 5)
	fmt.Println(len(l5.Messages), "verbatim messages; first at", l5.Messages[0].At.Format(time.RFC3339))
	// Output:
	// 1 block, ready
	// [2024-05-08 17:31:00 -07:00] Leo: I moved to Seattle last Saturday.
	// [2024-05-08 17:31:10 -07:00] assistant: Welcome to Seattle!
	// [2024-05-08 17:32:10 -07:00] assistant: Anything else?
	// 4 verbatim messages; first at 2024-05-08T17:31:00-07:00
}

func ExampleMemory_SearchEvents() {
	mem, done := exampleMemory(&stratagate.Options{BlockTurns: 2})
	defer done()
	ctx := context.Background()
	mem.Append(ctx, exampleTurn(1, "I moved to Seattle last Saturday.", "Welcome to Seattle!"))
	mem.Append(ctx, exampleTurn(2, "We decided to use Postgres for Atlas.", "Noted."))
	mem.WaitIdle(ctx)
	hits, err := mem.SearchEvents(ctx, stratagate.Query{Text: "when did Leo move", Scopes: []string{"project:atlas"}, Limit: 1})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Printf("%s | mentioned %s | happened %s (%s, %q)\n", h.EventType,
			h.MentionedAt.Format("Mon 2 Jan 2006"), h.HappenedStart.Format("Mon 2 Jan 2006"), h.Precision, h.TimeText)
	}
	// Output:
	// life_event | mentioned Wed 8 May 2024 | happened Sat 4 May 2024 (day, "last Saturday")
}
