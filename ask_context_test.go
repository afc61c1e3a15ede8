package stratagate_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// dialogue appends a two-person conversation, one turn per pair of
// lines, each line a message said at its time, into a fresh store.
func dialogue(t *testing.T, lines []struct {
	speaker, text string
	at            time.Time
}) *stratagate.Memory {
	t.Helper()
	last := lines[len(lines)-1].at
	mem, _ := openMem(t, &stratagate.Options{Clock: func() time.Time { return last.Add(24 * time.Hour) }})
	for i := 0; i < len(lines); i += 2 {
		var msgs []stratagate.Message
		for _, l := range lines[i:min(i+2, len(lines))] {
			role := "user"
			if l.speaker != lines[0].speaker {
				role = "assistant"
			}
			msgs = append(msgs, stratagate.Message{Role: role, Speaker: l.speaker, Content: l.text, At: l.at})
		}
		_, err := mem.Append(ctx, stratagate.Turn{Thread: "chat", Scope: "global", ReceiptID: fmt.Sprint("r", i), Messages: msgs})
		require.NoError(t, err)
	}
	waitIdle(t, mem)
	return mem
}

type dline = struct {
	speaker, text string
	at            time.Time
}

func day(y int, m time.Month, d, h int) time.Time { return time.Date(y, m, d, h, 0, 0, 0, time.UTC) }

// The turn that matches the question is the partner's question; the
// answer is the reply after it, which shares no word with the question.
func TestAskFindsTheAnswerInTheNextTurn(t *testing.T) {
	mem := dialogue(t, []dline{
		{"Ben", "Your garden looks lovely this spring!", day(2023, 4, 2, 10)},
		{"Ana", "Thanks! The tulips finally came up.", day(2023, 4, 2, 10)},
		{"Ben", "How did you get your dog, by the way?", day(2023, 4, 2, 11)},
		{"Ana", "I adopted her from a shelter two years ago.", day(2023, 4, 2, 11)},
		{"Ben", "That is wonderful. Shelters do great work.", day(2023, 4, 2, 12)},
		{"Ana", "They really do, I volunteer there on Sundays now.", day(2023, 4, 2, 12)},
	})
	a, err := mem.Ask(ctx, "How did Ana get her dog?", stratagate.AskOptions{})
	require.NoError(t, err)
	require.Equal(t, "sufficient", a.Verdict, a.Missing)
	assert.Contains(t, a.Text, "adopted her from a shelter")
	var quotes []string
	for _, e := range a.Evidence {
		quotes = append(quotes, e.Quote)
	}
	assert.Contains(t, quotes, "I adopted her from a shelter two years ago.", "the reply is cited")
	assert.Equal(t, "Ana", a.Evidence[0].Speaker, "the answer's own evidence comes first")
}

// "I just opened my bakery" dates the opening to the day it was said.
func TestAskMessageDatedReport(t *testing.T) {
	mem := dialogue(t, []dline{
		{"Ana", "Big news: I just opened my bakery downtown!", day(2023, 5, 3, 9)},
		{"Ben", "Congratulations, I will come by for bread.", day(2023, 5, 3, 10)},
		{"Ana", "The oven arrived late but we made it.", day(2023, 5, 20, 9)},
		{"Ben", "Glad it all worked out.", day(2023, 5, 20, 10)},
	})
	a, err := mem.Ask(ctx, "When did Ana open her bakery?", stratagate.AskOptions{})
	require.NoError(t, err)
	require.Equal(t, "sufficient", a.Verdict, a.Missing)
	assert.True(t, a.Evidence[0].HappenedStart.Equal(day(2023, 5, 3, 0)), "got %v", a.Evidence[0].HappenedStart)
	assert.Equal(t, "day", a.Evidence[0].Precision)
	assert.Contains(t, a.Text, "3 May 2023")
	assert.True(t, a.TimeStart.Equal(day(2023, 5, 3, 0)), "the answer states the day: %v", a.TimeStart)
	assert.True(t, a.TimeEnd.Equal(day(2023, 5, 4, 0)))
	assert.Equal(t, "day", a.TimePrecision)
}

// AskOptions.Now is the question's reference time.
func TestAskNowIsTheReferenceTime(t *testing.T) {
	mem := dialogue(t, []dline{
		{"Ana", "We finished moving into the new flat yesterday!", day(2023, 6, 11, 9)},
		{"Ben", "Congrats on the move, enjoy the new flat.", day(2023, 6, 11, 10)},
	})
	a, err := mem.Ask(ctx, "How many days ago did Ana move into the new flat?", stratagate.AskOptions{Now: day(2023, 6, 20, 12)})
	require.NoError(t, err)
	require.Equal(t, "sufficient", a.Verdict, a.Missing)
	assert.Contains(t, a.Text, "10 days ago (10 June 2023")
	a, err = mem.Ask(ctx, "How many days ago did Ana move into the new flat?", stratagate.AskOptions{Now: day(2023, 6, 30, 12)})
	require.NoError(t, err)
	assert.Contains(t, a.Text, "20 days ago")
}

// Statement, question about it, answer: the name in the answer and the
// date in the statement make one finding.
func TestAskStatementQuestionAnswerWindow(t *testing.T) {
	mem := dialogue(t, []dline{
		{"Ben", "The kids loved the science fair today.", day(2023, 8, 13, 9)},
		{"Ana", "On another note, I adopted a pup from a shelter last week!", day(2023, 8, 13, 9)},
		{"Ben", "So cute! What's her name?", day(2023, 8, 13, 10)},
		{"Ana", "Her name is Juniper! She is full of energy.", day(2023, 8, 13, 10)},
		{"Ben", "Sounds like a great dog.", day(2023, 8, 13, 11)},
		{"Ana", "She really is, we walk every morning.", day(2023, 8, 13, 11)},
	})
	a, err := mem.Ask(ctx, "When did Ana adopt Juniper?", stratagate.AskOptions{})
	require.NoError(t, err)
	require.Equal(t, "sufficient", a.Verdict, a.Missing)
	assert.Contains(t, a.Text, "the week of 31 July 2023")
	assert.True(t, a.TimeStart.Equal(day(2023, 7, 31, 0)), "got %v", a.TimeStart)
}
