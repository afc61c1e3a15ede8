package heuristic

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stratagate/stratagate/model"
)

// stressVocabulary is every phrase the rules look for — trigger phrases,
// lexicon terms, cue phrases — plus names, pronouns and the punctuation
// the index arithmetic of the rules reacts to. Random texts over it reach
// rule paths that byte-level fuzzing finds only slowly.
func stressVocabulary() []string {
	v := []string{
		"Ana", "Leo Park", "Mia's", "Kat", "Katarina", "Atlas", "Denver", "Cascadia Labs", "I", "I'm", "we", "my", "our",
		"he", "she", "they", "the", "a", "an", "and", "or", "aka", "a.k.a.", "also known as", "is short for",
		"not", "never", "now", "today", "on May 20", "next month", "last Saturday", "in 2021", "called", "named",
		",", ".", "!", "?", "(", ")", ":", ";", "—", "\"", "'s", "’", "-", "…", "\n",
	}
	for _, t := range projTriggers {
		v = append(v, t.phrase)
	}
	for _, t := range projTerms {
		v = append(v, t.words)
	}
	for _, c := range cueTable {
		v = append(v, c.phrase)
	}
	return v
}

// randomText joins n random vocabulary entries, capitalising some.
func randomText(rng *rand.Rand, vocab []string, n int) string {
	var b strings.Builder
	for i := range n {
		w := vocab[rng.IntN(len(vocab))]
		if rng.IntN(4) == 0 && w != "" {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		if i > 0 && rng.IntN(5) != 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// Random texts over the rules' own vocabulary, at every position of a
// sentence (first word included), never panic and never cite an event or
// message outside the input.
func TestLexiconStress(t *testing.T) {
	vocab := stressVocabulary()
	rng := rand.New(rand.NewPCG(12, 13))
	at := time.Date(2024, 5, 8, 19, 0, 0, 0, time.UTC)
	rounds := 400
	if testing.Short() {
		rounds = 50
	}
	for r := range rounds {
		var pin model.ProjectInput
		var xin model.ExtractInput
		for i := range 8 {
			text := randomText(rng, vocab, 1+rng.IntN(14))
			pin.Events = append(pin.Events, model.ProjectEvent{
				ID: uint64(10 + i), Title: text, Summary: "Ana: " + text, Quotes: []string{text},
				EventType: "fact", Status: []string{"unknown", "planned", "completed", "cancelled"}[i%4],
				Participants: []string{"Ana"}, Speakers: []string{"Ana"}, MentionedAt: at.Format(time.RFC3339),
			})
			xin.Messages = append(xin.Messages, model.DeriveMessage{ID: uint64(100 + i), Role: []string{"user", "assistant"}[i%2], Speaker: "Ana", At: at, Content: text})
		}
		pin.Nodes = []model.KnownNode{{ID: 1, Kind: kindPerson, Name: "Katarina", Aliases: []string{"Kat"}}}
		func() {
			defer func() {
				if v := recover(); v != nil {
					t.Fatalf("round %d: panic %v on %+v", r, v, pin.Events)
				}
			}()
			for _, op := range project(&pin).Ops {
				for _, id := range op.EventIDs {
					if id < 10 || id >= 18 {
						t.Fatalf("round %d: op cites event %d", r, id)
					}
				}
			}
			for _, e := range extract(&xin).Events {
				for _, id := range e.MessageIDs {
					if id < 100 || id >= 108 {
						t.Fatalf("round %d: card cites message %d", r, id)
					}
				}
			}
			_ = derive(&model.DeriveInput{BlockID: 1, Messages: xin.Messages})
		}()
	}
}
