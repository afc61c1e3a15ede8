package diagram_test

import (
	"fmt"
	"time"

	"github.com/stratagate/stratagate/viewer/diagram"
)

func ExampleLayoutGraph() {
	nodes := []diagram.Node{
		{ID: 1, Label: "Orchard survey", Kind: "project"},
		{ID: 2, Label: "Field notebook", Kind: "tool"},
		{ID: 3, Label: "Hill station", Kind: "place"},
	}
	edges := []diagram.Edge{
		{ID: 10, From: 1, To: 2, Label: "uses", Active: true},
		{ID: 11, From: 1, To: 3, Label: "based at", Active: true},
		{ID: 12, From: 1, To: 1, Label: "revises"},
		{ID: 13, From: 3, To: 9, Label: "dangling: 9 is not a node"},
	}
	l := diagram.LayoutGraph(nodes, edges, diagram.GraphOptions{})
	for _, n := range l.Nodes {
		fmt.Printf("node %d %q r=%.1f\n", n.ID, n.Short, n.R)
	}
	for _, e := range l.Edges {
		fmt.Printf("edge %d %d->%d self=%v\n", e.ID, e.From, e.To, e.Self)
	}
	// Output:
	// node 1 "Orchard survey" r=15.2
	// node 2 "Field notebook" r=13.0
	// node 3 "Hill station" r=13.0
	// edge 10 1->2 self=false
	// edge 11 1->3 self=false
	// edge 12 1->1 self=true
}

func ExampleLayoutTimeline() {
	day := func(m, d int) time.Time { return time.Date(2024, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	l := diagram.LayoutTimeline([]diagram.Span{
		{ID: 1, Label: "repainted the shed", Mentioned: day(5, 20), Start: day(3, 2), End: day(3, 4), Precision: "day"},
		{ID: 2, Label: "some trip, date unknown", Mentioned: day(6, 1), Precision: "unknown"},
	}, diagram.TimelineOptions{})
	// Three months fit fortnightly ticks (on Mondays); a month's first is major.
	for _, t := range l.Ticks {
		fmt.Println(t.Label, t.Major)
	}
	for _, r := range l.Rows {
		fmt.Println(r.Label, r.Happened, r.X2-r.X1 >= diagram.MinBar)
	}
	// Output:
	// 2024-03-04 true
	// 2024-03-18 false
	// 2024-04-01 true
	// 2024-04-15 false
	// 2024-04-29 false
	// 2024-05-13 true
	// 2024-05-27 false
	// repainted the shed true true
	// some trip, date unknown false true
}
