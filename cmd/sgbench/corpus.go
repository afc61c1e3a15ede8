package main

// The synthetic conversation shared by synth, ingest and search.
//
// Everything here is a pure function of the seed: the same seed gives the
// same vocabulary, people, threads, clock and text, turn for turn, on every
// platform (math/rand/v2's PCG and Zipf are specified algorithms).

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/bm25"
)

// Corpus shape.
const (
	vocabSize   = 30000
	zipfS       = 1.1
	peopleCount = 200
	threadCount = 20
)

// corpusStart is the simulated time of the first turn.
var corpusStart = time.Date(2024, time.January, 8, 9, 0, 0, 0, time.UTC)

var (
	consonants = []string{"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "tr", "kl", "st"}
	vowels     = []string{"a", "i", "o", "u", "e", "ai", "ou"}
	finals     = []string{"", "", "", "n", "r", "k", "m", "x"}

	firstNames = []string{
		"Mia", "Liam", "Noah", "Emma", "Olivia", "Ava", "Lucas", "Sofia", "Ethan", "Chloe",
		"Mateo", "Aria", "Leo", "Nora", "Hugo", "Ines", "Omar", "Priya", "Ravi", "Yuki",
		"Kenji", "Lena", "Jonas", "Freya", "Tomas", "Elena", "Diego", "Zara", "Amir", "Hana",
		"Felix", "Clara", "Oscar", "Maya", "Ivan", "Nadia", "Samir", "Lila", "Theo", "Vera",
	}
	lastNames = []string{
		"Chen", "Garcia", "Novak", "Okafor", "Silva", "Kowalski", "Tanaka", "Haddad", "Larsen", "Moreau",
		"Rossi", "Nguyen", "Schmidt", "Patel", "Fischer", "Ivanova", "Dubois", "Costa", "Mendez", "Keller",
		"Sato", "Berg", "Lindqvist", "Romero", "Walsh", "Yilmaz", "Khan", "Andersen", "Petrov", "Ortiz",
	}
	tools = []string{
		"Postgres", "SQLite", "Redis", "Kafka", "Rust", "Python", "Vim", "Emacs", "Figma", "Notion",
		"Linear", "Jira", "Terraform", "Kubernetes", "Nomad", "Grafana", "Svelte", "React", "Elixir", "Zig",
	}
	cities = []string{
		"Lisbon", "Berlin", "Osaka", "Toronto", "Nairobi", "Lima", "Oslo", "Seoul", "Austin", "Porto",
		"Krakow", "Hanoi", "Dublin", "Cairo", "Quito", "Perth",
	}
	projects = []string{"atlas", "borealis", "cygnus", "delta", "ember"}
	// offsets are the UTC offsets a thread's messages carry, by thread.
	offsets = []int{0, -5 * 3600, 1 * 3600, 9 * 3600, -8 * 3600, 5*3600 + 1800, 8 * 3600, -3 * 3600, 2 * 3600, 10 * 3600}

	// timePhrases are the relative time expressions the templates use and
	// the search command queries.
	timePhrases = []string{"yesterday", "last week", "two weeks ago", "next month", "last month", "tomorrow"}

	userTemplates = []string{
		"Yesterday I met {P} to go over the {w} {w} plan.",
		"{P} told me last week that the {w} {w} work is blocked.",
		"We decided to use {T} for the {w} service.",
		"I switched from {T} to {T2} two weeks ago.",
		"Next month {P} starts working on {w} {w}.",
		"{P} moved to {C} last month.",
		"I prefer {T} over {T2} for {w} now.",
		"The {w} deadline is next month and {P} will review it.",
		"Two weeks ago {P} and {P2} finished the {w} migration.",
		"Let's meet {P} on Friday to discuss {w} {w}.",
		"Actually we cancelled the {w} trip with {P}.",
		"{P} adopted a dog named {W} yesterday.",
		"We'll launch {w} next month in {C}.",
		"Last week I decided to drop {T} and go with {T2} instead.",
		"Tomorrow {P} presents the {w} {w} results to {P2}.",
	}
	assistantTemplates = []string{
		"Noted: {P} and the {w} {w} plan.",
		"Understood, I will remember that you now use {T}.",
		"Got it — {P} is handling {w}.",
		"I have recorded the {w} decision from last week.",
	}
	acks = []string{"Got it.", "Thanks!", "OK", "Sounds good.", "Sure."}
)

// vocabulary returns vocabSize distinct pseudo-words, most frequent first.
// Each word is its own single index term (no stopword, no stemming
// change), so that engines with other analyzers see the same terms.
func vocabulary(seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 0x766f636162))
	seen := make(map[string]bool, vocabSize)
	// Proper nouns of the templates must not double as pseudo-words.
	for _, l := range [][]string{firstNames, lastNames, tools, cities, projects} {
		for _, w := range l {
			seen[strings.ToLower(w)] = true
		}
	}
	words := make([]string, 0, vocabSize)
	var b strings.Builder
	var terms []string
	for len(words) < vocabSize {
		b.Reset()
		// Frequent words are short, rare ones longer, as in real text.
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

// people returns peopleCount distinct "First Last" names.
func people(rng *rand.Rand) []string {
	seen := map[string]bool{}
	out := make([]string, 0, peopleCount)
	for len(out) < peopleCount {
		n := firstNames[rng.IntN(len(firstNames))] + " " + lastNames[rng.IntN(len(lastNames))]
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// thread is one conversation of the synthetic corpus.
type thread struct {
	name  string
	scope string
	owner string // the user speaking in it
	zone  *time.Location
}

// generator produces the synthetic conversation turn by turn.
type generator struct {
	seed    uint64
	rng     *rand.Rand
	zipf    *rand.Zipf
	vocab   []string
	people  []string
	threads []thread

	clock time.Time // simulated UTC time of the last turn
	cur   int       // thread of the current session
	left  int       // turns left in the current session
	turns int       // turns produced so far
}

func newGenerator(seed uint64) *generator {
	rng := rand.New(rand.NewPCG(seed, 0x73796e7468))
	g := &generator{seed: seed, rng: rng, vocab: vocabulary(seed), clock: corpusStart}
	g.zipf = rand.NewZipf(rng, zipfS, 1, vocabSize-1)
	g.people = people(rng)
	for i := range threadCount {
		var scope string
		switch i % 3 {
		case 0:
			scope = "global"
		case 1:
			scope = "project:" + projects[(i/3)%len(projects)]
		default:
			scope = fmt.Sprintf("session:s%02d", i)
		}
		off := offsets[i%len(offsets)]
		g.threads = append(g.threads, thread{
			name:  fmt.Sprintf("t%02d-%s", i, strings.ReplaceAll(scope, ":", "-")),
			scope: scope,
			owner: g.people[rng.IntN(len(g.people))],
			zone:  time.FixedZone(fmt.Sprintf("UTC%+03d%02d", off/3600, abs(off%3600)/60), off),
		})
	}
	return g
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// scopes returns the distinct scopes of the generator's threads, sorted.
func (g *generator) scopes() []string {
	var out []string
	for _, t := range g.threads {
		if !slices.Contains(out, t.scope) {
			out = append(out, t.scope)
		}
	}
	slices.Sort(out)
	return out
}

// next returns the next turn (a user message and the assistant's reply)
// and the index of its thread.
func (g *generator) next() (stratagate.Turn, int) {
	if g.left == 0 {
		// A new session: another thread, some hours to days later.
		g.cur = g.rng.IntN(len(g.threads))
		g.left = 6 + g.rng.IntN(25)
		g.clock = g.clock.Add(time.Hour + time.Duration(g.rng.Int64N(int64(72*time.Hour))))
	}
	g.left--
	g.clock = g.clock.Add(20*time.Second + time.Duration(g.rng.Int64N(int64(4*time.Minute))))
	th := &g.threads[g.cur]
	userAt := g.clock.In(th.zone)
	asstAt := userAt.Add(5*time.Second + time.Duration(g.rng.Int64N(int64(35*time.Second))))
	t := stratagate.Turn{
		Thread:    th.name,
		Scope:     th.scope,
		ReceiptID: fmt.Sprintf("sg-%d-%d", g.seed, g.turns),
		Messages: []stratagate.Message{
			{Role: "user", Speaker: th.owner, Content: g.userText(), At: userAt},
			{Role: "assistant", Speaker: "Assistant", Content: g.assistantText(), At: asstAt},
		},
	}
	g.turns++
	return t, g.cur
}

func (g *generator) userText() string {
	var b strings.Builder
	if g.rng.IntN(100) < 35 {
		g.fill(&b, userTemplates[g.rng.IntN(len(userTemplates))])
		if g.rng.IntN(2) == 0 {
			b.WriteByte(' ')
			g.sentence(&b, 5, 20)
		}
		return b.String()
	}
	g.sentence(&b, 5, 30)
	if g.rng.IntN(3) == 0 {
		b.WriteByte(' ')
		g.sentence(&b, 3, 12)
	}
	return b.String()
}

func (g *generator) assistantText() string {
	var b strings.Builder
	switch n := g.rng.IntN(100); {
	case n < 8:
		return acks[g.rng.IntN(len(acks))]
	case n < 30:
		g.fill(&b, assistantTemplates[g.rng.IntN(len(assistantTemplates))])
		b.WriteByte(' ')
		g.sentence(&b, 4, 20)
	default:
		g.sentence(&b, 5, 40)
	}
	return b.String()
}

// word draws one pseudo-word from the Zipf distribution.
func (g *generator) word() string { return g.vocab[g.zipf.Uint64()] }

// sentence writes lo–hi pseudo-words, capitalised, with a full stop; now
// and then a person's first name stands among them.
func (g *generator) sentence(b *strings.Builder, lo, hi int) {
	n := lo + g.rng.IntN(hi-lo+1)
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		w := g.word()
		if i > 0 && g.rng.IntN(40) == 0 {
			w = strings.Fields(g.person())[0]
		}
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	b.WriteByte('.')
}

func (g *generator) person() string { return g.people[g.rng.IntN(len(g.people))] }

// fill expands a template: {P} and {P2} people, {T} and {T2} two different
// tools, {C} a city, {w} a pseudo-word, {W} a capitalised pseudo-word.
func (g *generator) fill(b *strings.Builder, tmpl string) {
	t1 := g.rng.IntN(len(tools))
	t2 := (t1 + 1 + g.rng.IntN(len(tools)-1)) % len(tools)
	p1 := g.person()
	p2 := g.person()
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return
		}
		j := strings.IndexByte(tmpl[i:], '}') + i
		b.WriteString(tmpl[:i])
		switch tmpl[i+1 : j] {
		case "P":
			b.WriteString(p1)
		case "P2":
			b.WriteString(p2)
		case "T":
			b.WriteString(tools[t1])
		case "T2":
			b.WriteString(tools[t2])
		case "C":
			b.WriteString(cities[g.rng.IntN(len(cities))])
		case "w":
			b.WriteString(g.word())
		case "W":
			w := g.word()
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
		tmpl = tmpl[j+1:]
	}
}
