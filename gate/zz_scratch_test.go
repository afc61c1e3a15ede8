package gate

import (
	"fmt"
	"testing"
	"time"
)

func TestScratch(t *testing.T) {
	now := time.Date(2023, 6, 20, 10, 0, 0, 0, time.UTC)
	for _, s := range []string{
		"Which pets does Mia have?",
		"When did Caroline give a speech at a school?",
		"How long ago did Mia move to New York?",
		"How many books has Mia read in 2022?",
		"Do you remember when Tom's sister got married?",
		"What did Mia do last week?",
		"In which city does Mia live?",
		"Is Mia allergic to peanuts?",
		"Where did Caroline and Melanie go camping in May 2023?",
		"Who is Mia's favourite author?",
		"Why did Tom quit his job?",
		"What are Mia's hobbies?",
		"List all the drinks Mia likes.",
		"What year did Mia start working at Google?",
		"Mia 什么时候搬家的？",
		"米娅有哪些宠物？",
		"Caroline gave a speech when?",
		"What tools does Sam use for Go development?",
	} {
		q := Analyze(s, now)
		tm := ""
		if q.Time != nil {
			tm = fmt.Sprint(q.Time.Start, q.Time.Precision)
		}
		fmt.Printf("%q wh=%s time=%v list=%v ents=%q T=%s\n   terms=%q\n   exp=%q\n", s, q.WH, q.WantsTime, q.WantsList, q.Entities, tm, q.Terms, q.Expanded)
	}
}
