package heuristic

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"

	"github.com/stratagate/stratagate/model"
)

// The ASCII fast paths decide every character as unicode does.
func TestWordRunesEqualUnicode(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune+1; r++ {
		start := unicode.IsLetter(r) || unicode.IsDigit(r)
		if got := isWordStart(r); got != start {
			t.Fatalf("isWordStart(%U) = %v, unicode says %v", r, got, start)
		}
		if got, want := isWordRune(r), start || unicode.IsMark(r); got != want {
			t.Fatalf("isWordRune(%U) = %v, unicode says %v", r, got, want)
		}
	}
}

// A derivation reuses the word table of the one before it (deriveScratch):
// what a block derives does not depend on what was derived before, in
// this goroutine or in others at the same time.
func TestDeriveIgnoresEarlierBlocks(t *testing.T) {
	at := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
	block := func(words ...string) *model.DeriveInput {
		in := &model.DeriveInput{BlockID: 1, Thread: "t"}
		for i, w := range words {
			in.Messages = append(in.Messages, model.DeriveMessage{ID: uint64(i + 1), Role: "user", Speaker: "Ann", At: at,
				Content: "We talked about " + w + " again today, and " + w + " is what Ann wants for the Harbor release."})
		}
		return in
	}
	a := block("kayaks", "paddles", "kayaks", "rivers")
	var big []string
	for i := range 3000 {
		big = append(big, fmt.Sprintf("word%d", i))
	}
	want := derive(a)
	for _, other := range []*model.DeriveInput{block("gardens", "tomatoes"), block(big...), block()} {
		_ = derive(other)
		assert.Equal(t, want, derive(a))
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if i%2 == 0 {
					_ = derive(block(big[:50+i]...))
					continue
				}
				assert.Equal(t, want, derive(a))
			}
		}()
	}
	wg.Wait()
}

// The cached keys of an earlier card's text are candidateKeys' answer,
// whether the cache has the text, has just been started over, or is
// filled by other goroutines at the same time.
func TestCachedCandidateKeys(t *testing.T) {
	texts := []string{
		"Ann moved the Harbor launch to June 3rd, 2025.",
		"may we meet in May? March 4 works, or march on Friday",
		"naïve café owners ship 42 crates",
		"",
		"山田さんは東京に住んでいる",
	}
	for _, s := range texts {
		want := candidateKeys(s)
		assert.Equal(t, want, cachedCandidateKeys(s), "first sight")
		assert.Equal(t, want, cachedCandidateKeys(s), "cached")
	}
	assert.Contains(t, candidateKeys(texts[1]), "may", "capitalised May is a calendar word")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range maxCachedTexts/2 + 10 { // together past the bound: the cache starts over
				s := fmt.Sprintf("card %d of writer %d about the Harbor plan", i, g)
				assert.Equal(t, candidateKeys(s), cachedCandidateKeys(s))
			}
		}()
	}
	wg.Wait()
	for _, s := range texts {
		assert.Equal(t, candidateKeys(s), cachedCandidateKeys(s), "after the cache started over")
	}
}

// learnText: the lower-case forms of mid-sentence capitalised words, and
// a name after a relation word as written; cached answers equal fresh
// ones, and an extraction is the same with the cache cold or warm.
func TestLearnedNames(t *testing.T) {
	l := learnText("I met my sister Ana at the Harbor café. Then we called Bob.")
	assert.Equal(t, []string{"ana", "harbor", "bob"}, l.known)
	assert.Equal(t, []string{"Ana"}, l.persons)
	assert.Empty(t, learnText("Nothing capitalised here after the first word.").known)
	for _, s := range []string{"My brother Tom Ray moved to Porto.", "", "山田さんは東京に住んでいる"} {
		want := learnText(s)
		assert.Equal(t, want, learnedNames.get(s, learnText), "first sight")
		assert.Equal(t, want, learnedNames.get(s, learnText), "cached")
	}

	in := &model.ExtractInput{BlockID: 3, Thread: "t", Messages: []model.DeriveMessage{
		{ID: 1, Role: "user", Speaker: "Kim", Content: "My sister Ana moved to Porto last week.", At: time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)},
		{ID: 2, Role: "assistant", Content: "Good luck to Ana in Porto!", At: time.Date(2024, 5, 2, 9, 1, 0, 0, time.UTC)},
	}}
	long := strings.Repeat("My sister Ana called. ", maxCachedTextBytes/20)
	assert.Equal(t, learnText(long), learnedNames.get(long, learnText))
	learnedNames.mu.Lock()
	_, kept := learnedNames.m[long]
	learnedNames.mu.Unlock()
	assert.False(t, kept, "a text beyond maxCachedTextBytes is not kept")

	learnedNames = textCache[learned]{} // cold
	cold := extract(in)
	warm := extract(in)
	assert.Equal(t, cold, warm)
	assert.NotEmpty(t, cold.Events)
}
