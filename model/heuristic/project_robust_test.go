package heuristic_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// ---- robustness ------------------------------------------------------------------

func TestProjectDeterministicAndConcurrent(t *testing.T) {
	in := benchProjectInput()
	want, out := projectRaw(t, in)
	requireValidOps(t, in, want, out)
	require.NotEmpty(t, out.Ops)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskProjectGraph, Input: in})
				if err != nil || raw != want {
					t.Errorf("run %d differs: %v", i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestProjectHugeAndInvalidInput(t *testing.T) {
	bad := "I live in \xff\xfeBo\xc3ston and I work at North\xffwind. My sister \xe2\x82Ana is here."
	huge := strings.Repeat("I moved to Denver and I work at Initech. My cat Tom is cute. ", 20000)
	longName := strings.Repeat("A", 300)
	events := []model.ProjectEvent{
		pev(141, "Leo Park", bad, "fact", "unknown", "not a time"),
		pev(142, "Mia\xffChen", huge, "fact", "unknown", mar19),
		pev(143, longName, "I live in "+strings.Repeat("Zed", 200)+".", "fact", "unknown", mar19),
		{ID: 144},
		pev(145, "", "", "", "", ""),
	}
	events[1].Title = huge
	var many []model.ProjectEvent
	for i := 0; i < 2000; i++ {
		e := pev(uint64(1000+i), fmt.Sprintf("Person %d Name", i), fmt.Sprintf("I moved to City%d and I work at Org%d.", i, i), "life_event", "completed", mar19)
		many = append(many, e)
	}
	for _, in := range []*model.ProjectInput{
		{Events: events},
		{Events: many},
		{Events: events[:1], Nodes: []model.KnownNode{{Kind: "person", Name: "\xff"}, {Kind: "bogus", Name: ""}, {Kind: "project", Name: strings.Repeat("x", 500)}}},
	} {
		raw, out := projectRaw(t, in)
		requireValidOps(t, in, raw, out)
	}
	raw, out := projectRaw(t, &model.ProjectInput{Events: many})
	assert.Len(t, out.Ops, projMaxOps, "capped at the graph's batch limit")
	assert.Less(t, len(raw), 1<<20, "fits model.Decode's limit")
}

// ---- benchmark -------------------------------------------------------------------

// benchProjectInput is a batch of ten realistic events.
func benchProjectInput() *model.ProjectInput {
	evs := []model.ProjectEvent{
		pev(1, "Leo Park", "I live in Boston, in Jamaica Plain, and I freelance as a frontend developer.", "fact", "unknown", "2024-03-05T19:02:00-05:00"),
		pev(2, "Mia Chen", "I work at Northwind as a backend engineer during the day, so Atlas is evenings and weekends for me.", "fact", "unknown", "2024-03-05T19:03:00-05:00"),
		pev(3, "Mia Chen", "My cat Pixel walked across the keyboard twice, so there is now a table called tttttttt.", "activity", "completed", "2024-03-05T19:05:00-05:00"),
		pev(4, "Leo Park", "Let's use Postgres instead of SQLite for Atlas.", "decision", "unknown", mar19),
		pev(5, "Leo Park", "Also my sister Ana is visiting this weekend, she's flying in from Chicago.", "activity", "planned", mar19),
		pev(6, "Leo Park", "I'm moving to Seattle next month.", "life_event", "planned", apr09),
		pev(7, "Mia Chen", "Actually, the launch is not on May 20 — it moved to June 3rd.", "change", "planned", apr09),
		pev(8, "Mia Chen", "We'll use pnpm for the monorepo, goodbye npm.", "decision", "unknown", apr09),
		pev(9, "Leo Park", "Hello from Seattle! I moved last Saturday.", "life_event", "completed", may08),
		pev(10, "Mia Chen", "Also, Kiwi starts screaming at 6am sharp, so I've switched to coffee.", "preference", "completed", may08),
	}
	evs[3].Entities = []string{"Postgres", "SQLite", "Atlas"}
	evs[4].Participants = []string{"Leo Park", "Ana"}
	evs[6].TimeText = "June 3rd"
	evs[8].HappenedStart = "2024-05-04T00:00:00-07:00"
	return &model.ProjectInput{Events: evs, Nodes: []model.KnownNode{{ID: 1, Kind: "project", Name: "Atlas"}}}
}

func BenchmarkProjectBatch(b *testing.B) {
	in := benchProjectInput()
	m := heuristic.New()
	req := model.Request{Task: model.TaskProjectGraph, Input: in}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Complete(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// A text whose first word is "Or" has no word before the connector; the
// alias rule must not read one (it panicked with index -1).
func TestProjectSentenceStartingWithOr(t *testing.T) {
	for _, quote := range []string{
		"Or maybe we just stay home.",
		"Or",
		"or, aka Mel.",
		"Sure. Or Mel, the one from work.",
		"Short for nothing.",
		"Also known as Mel.",
	} {
		t.Run(quote, func(t *testing.T) {
			ev := pev(7, "Mia Chen", quote, "fact", "unknown", mar19)
			ev.Title = quote // the title is read too, from its first word
			ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{ev}})
			for _, o := range ops {
				assert.NotEqual(t, model.OpAddAlias, o.Op, "no alias without a name before the connector: %+v", o)
			}
		})
	}
}
