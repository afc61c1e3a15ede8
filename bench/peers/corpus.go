package main

// The synthetic corpus every engine indexes: N messages of 5–40 words drawn
// from a Zipf (s = 1.1) distribution over 30,000 pseudo-words, in 30
// threads over three scopes, two messages per turn. It is a pure function
// of the seed (math/rand/v2's PCG and Zipf are specified algorithms).
//
// Every pseudo-word is lower-case ASCII and is its own single StrataGate
// index term (no stopword, unchanged by stemming), so that StrataGate's
// tokenizer, bleve's standard analyzer and SQLite's unicode61 tokenizer all
// see the same terms and the engines rank the same corpus.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/stratagate/stratagate/bm25"
)

const (
	vocabSize   = 30000
	zipfS       = 1.1
	threadCount = 30
	minWords    = 5
	maxWords    = 40
)

// scopes are the three scopes of the corpus; every query may see all.
var scopes = []string{"global", "project:atlas", "session:s1"}

var (
	consonants = []string{"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "tr", "kl", "st"}
	vowels     = []string{"a", "i", "o", "u", "e", "ai", "ou"}
	finals     = []string{"", "", "", "n", "r", "k", "m", "x"}
)

// doc is one message of the corpus.
type doc struct {
	text   string
	thread int
	scope  string
	role   string
	at     time.Time
}

func (d *doc) threadName() string { return fmt.Sprintf("t%02d", d.thread) }

// vocabulary returns vocabSize distinct pseudo-words, most frequent first.
func vocabulary(seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 0x766f636162))
	seen := make(map[string]bool, vocabSize)
	words := make([]string, 0, vocabSize)
	var b strings.Builder
	var terms []string
	for len(words) < vocabSize {
		b.Reset()
		syl := 2 + rng.IntN(2)
		if len(words) > 2000 {
			syl += rng.IntN(2)
		}
		for range syl {
			b.WriteString(consonants[rng.IntN(len(consonants))])
			b.WriteString(vowels[rng.IntN(len(vowels))])
		}
		b.WriteString(finals[rng.IntN(len(finals))])
		w := b.String()
		if seen[w] {
			continue
		}
		terms = bm25.AppendTerms(terms[:0], w)
		if len(terms) != 1 || terms[0] != w {
			continue
		}
		seen[w] = true
		words = append(words, w)
	}
	return words
}

// corpus is the generated messages and the vocabulary ranks of their
// words (for picking rare query words).
type corpus struct {
	vocab []string
	docs  []doc
	ranks [][]uint32 // per doc, the vocabulary rank of each word
	zipf  *rand.Zipf
	rng   *rand.Rand
}

// newCorpus generates n messages (n rounded up to an even number: two
// per turn, user then assistant, in the same thread).
func newCorpus(n int, seed uint64) *corpus {
	rng := rand.New(rand.NewPCG(seed, 0x70656572))
	c := &corpus{vocab: vocabulary(seed), rng: rng}
	c.zipf = rand.NewZipf(rng, zipfS, 1, vocabSize-1)
	clock := time.Date(2024, time.January, 8, 9, 0, 0, 0, time.UTC)
	var sb strings.Builder
	for len(c.docs) < n {
		th := rng.IntN(threadCount)
		clock = clock.Add(30*time.Second + time.Duration(rng.Int64N(int64(10*time.Minute))))
		for _, role := range []string{"user", "assistant"} {
			sb.Reset()
			nw := minWords + rng.IntN(maxWords-minWords+1)
			ranks := make([]uint32, nw)
			for i := range nw {
				r := c.zipf.Uint64()
				ranks[i] = uint32(r)
				if i > 0 {
					sb.WriteByte(' ')
				}
				sb.WriteString(c.vocab[r])
			}
			sb.WriteByte('.')
			c.docs = append(c.docs, doc{text: sb.String(), thread: th, scope: scopes[th%len(scopes)], role: role, at: clock})
			c.ranks = append(c.ranks, ranks)
			clock = clock.Add(15 * time.Second)
		}
	}
	return c
}

// queries returns q queries of 1–5 words; each word is, with equal
// chance, a frequent one (a Zipf draw) or a rare one (the least frequent
// word of a random message).
func (c *corpus) queries(q int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 0x71756572))
	zipf := rand.NewZipf(rng, zipfS, 1, vocabSize-1)
	out := make([]string, q)
	for i := range out {
		nw := 1 + rng.IntN(5)
		words := make([]string, 0, nw)
		for len(words) < nw {
			var w string
			if rng.IntN(2) == 0 {
				w = c.vocab[zipf.Uint64()]
			} else {
				ranks := c.ranks[rng.IntN(len(c.ranks))]
				var hi uint32
				for _, r := range ranks {
					hi = max(hi, r)
				}
				w = c.vocab[hi]
			}
			words = append(words, w)
		}
		out[i] = strings.Join(words, " ")
	}
	return out
}
