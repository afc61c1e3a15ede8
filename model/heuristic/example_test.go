package heuristic_test

import (
	"context"
	"fmt"
	"time"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

func Example() {
	day := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	in := &model.DeriveInput{BlockID: 1, Thread: "mia", Messages: []model.DeriveMessage{
		{ID: 1, Role: "user", Speaker: "Mia", At: day, Content: "Should Atlas store bookings in Postgres or MongoDB?"},
		{ID: 2, Role: "assistant", At: day.Add(time.Minute), Content: "Postgres fits Atlas: bookings are relational."},
		{ID: 3, Role: "user", Speaker: "Mia", At: day.Add(2 * time.Minute), Content: "Decided then. Let's use Postgres for Atlas."},
	}}
	raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskDeriveBlock, Input: in})
	if err != nil {
		fmt.Println(err)
		return
	}
	var out model.DeriveOutput
	if err := model.Decode(raw, &out); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("title:  ", out.Title)
	fmt.Println("tags:   ", out.Tags)
	fmt.Println("summary:", out.Summary)
	for _, f := range out.Facts {
		fmt.Println("fact:   ", f.Text, f.MessageIDs)
	}
	// Output:
	// title:   Atlas, Postgres and MongoDB
	// tags:    [atlas postgres bookings mongodb fits]
	// summary: 2024-03-04: Mia: Should Atlas store bookings in Postgres or MongoDB? Assistant: Postgres fits Atlas: bookings are relational.
	// fact:    Let's use Postgres for Atlas. [3]
}
