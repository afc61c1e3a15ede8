package heuristic

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stratagate/stratagate/model"
)

// Projection limits. They are at or below the graph package's limits.
const (
	maxProjOps       = 512      // graph.MaxOpsPerBatch
	maxOpCites       = 8        // event ids one op cites
	maxProjNameRunes = 128      // graph.MaxNameRunes
	maxProjValRunes  = 256      // graph.MaxValueRunes
	maxProjTags      = 8        // graph.MaxTags
	maxProjSentences = 256      // sentences read per text
	maxProjTextBytes = 64 << 10 // bytes read per text
	subjectWindow    = 6        // words skipped between a subject and its trigger
	negationWindow   = 3        // words before a trigger that may negate it
	maxNameWords     = 4        // words in one capitalised name
	maxValueWords    = 4        // words in a likes/dislikes value
	maxRoleWords     = 4        // words in a role ("senior frontend developer")
	launchWindow     = 12       // words after "launch" in which its date may start
	petNameWindow    = 40       // words after "adopted a parrot" in which its name may occur
	maxPetAdjectives = 3        // words between "a" and the species
)

// ptok is one word of a text as the projector sees it: a run of letters,
// digits and marks starting with a letter or digit, keeping a single ".",
// "-", "'" or "’" between two letters or digits ("Fly.io", "green-cheeked",
// "Leo's").
type ptok struct {
	text       string // as written
	low        string // lower-cased, ’ read as '
	start, end int    // byte span in the text
	sent       int    // sentence number within the text
	cap        bool   // first rune upper- or title-case
	brk        bool   // punctuation (or a sentence start) lies before it
	space      bool   // exactly one space separates it from the previous word
	poss       int    // byte length of the name before a possessive "'s", 0 if none
}

// subject is a resolved subject of a trigger.
type subject struct {
	kind string // kindPerson, kindProject, "we" or another node kind
	name string
}

// pendingMove is a planned move the speaker announced ("I'm moving to
// Seattle next month"); a later move without a destination completes it.
type pendingMove struct {
	place string
	event uint64
}

// projector holds the working state of one projection; it lives on the
// stack of project, so concurrent calls share nothing.
type projector struct {
	in  *model.ProjectInput
	ops []model.GraphOp

	nodeOp   map[string]int    // kind\x00key → index of its upsert_node op
	aliasOp  map[string]int    // kind\x00key\x00alias → index of its add_alias op
	target   map[string]int    // latest op on one (node, key/relation, value/target)
	lastAdd  map[string]int    // latest set_fact/add_edge on one single-valued (node, key/relation)
	evOps    map[string]bool   // ops the current event already proposed
	known    map[string]int    // name or alias key → index into in.Nodes (first wins)
	fulls    map[string]string // key of a full person name (two or more words) → spelling
	firsts   map[string]string // first word → its one full name; "" when ambiguous
	orgs     map[string]string // first word of a multi-word entity → that entity; "" when ambiguous
	projects []string          // batch projects in order of discovery
	projSet  map[string]string // key → spelling of a batch project
	employer map[string]bool   // person\x00org keys of works_at edges proposed in the batch
	partic   map[string]bool   // keys of every participant of the batch
	pending  map[string]pendingMove

	// The current event and text.
	ev        *model.ProjectEvent
	self      string // the person "I" refers to, "" when unknown
	mentioned time.Time
	text      string
	toks      []ptok
	sents     []string
	sentTok   []int // index of the first token of each sentence, plus len(toks)
	sentOff   []int // byte offset of each sentence in text
	times     []timeSpan
	keyBuf    []byte
	homed     map[string]bool // persons given a lives_in by the current event
}

// project applies the projection rules to in. It never fails.
func project(in *model.ProjectInput) model.ProjectOutput {
	p := &projector{
		in:       in,
		nodeOp:   map[string]int{},
		aliasOp:  map[string]int{},
		target:   map[string]int{},
		lastAdd:  map[string]int{},
		evOps:    map[string]bool{},
		known:    map[string]int{},
		fulls:    map[string]string{},
		firsts:   map[string]string{},
		orgs:     map[string]string{},
		projSet:  map[string]string{},
		employer: map[string]bool{},
		partic:   map[string]bool{},
		pending:  map[string]pendingMove{},
		homed:    map[string]bool{},
	}
	p.learn()
	for i := range in.Events {
		p.event(&in.Events[i])
	}
	if p.ops == nil {
		p.ops = []model.GraphOp{}
	}
	return model.ProjectOutput{Ops: p.ops}
}

// ---- events and texts ------------------------------------------------------

// eventTexts returns the texts of ev the rules read, in order: its
// quotes, its summary unless it is only "Label: <one of the quotes>",
// its title unless it equals a quote.
func eventTexts(ev *model.ProjectEvent) []string {
	texts := make([]string, 0, len(ev.Quotes)+2)
	texts = append(texts, ev.Quotes...)
	repeats := func(t string) bool {
		t = strings.TrimSpace(t)
		for _, q := range ev.Quotes {
			if q = strings.TrimSpace(q); q != "" && (t == q || (strings.HasSuffix(t, q) && strings.HasSuffix(strings.TrimSpace(t[:len(t)-len(q)]), ":"))) {
				return true
			}
		}
		return false
	}
	if !repeats(ev.Summary) {
		texts = append(texts, ev.Summary)
	}
	if !repeats(ev.Title) {
		texts = append(texts, ev.Title)
	}
	return texts
}

// event proposes the ops of one event.
func (p *projector) event(ev *model.ProjectEvent) {
	p.ev = ev
	clear(p.evOps)
	clear(p.homed)
	p.mentioned, _ = time.Parse(time.RFC3339, ev.MentionedAt)
	p.self = p.selfOf(ev)
	for _, s := range ev.Participants {
		if n, ok := personName(s); ok {
			p.node(kindPerson, p.resolvePerson(n), "")
		}
	}
	for _, s := range ev.Speakers {
		if n, ok := personName(s); ok {
			p.node(kindPerson, p.resolvePerson(n), "")
		}
	}
	for _, t := range eventTexts(ev) {
		p.load(t)
		p.helloFrom()
		for si := range p.sents {
			p.sentence(si)
		}
	}
}

// load splits t into sentences and words.
func (p *projector) load(t string) {
	t = validUTF8(t)
	if len(t) > maxProjTextBytes {
		cut := maxProjTextBytes
		for cut > 0 && !utf8.RuneStart(t[cut]) {
			cut--
		}
		t = t[:cut]
	}
	p.text = t
	p.sents = p.sents[:0]
	forEachSentence(t, func(s string) {
		if len(p.sents) < maxProjSentences {
			p.sents = append(p.sents, s)
		}
	})
	p.toks = p.toks[:0]
	p.sentTok = p.sentTok[:0]
	p.sentOff = p.sentOff[:0]
	cur := 0
	for si, s := range p.sents {
		p.sentTok = append(p.sentTok, len(p.toks))
		off := strings.Index(t[cur:], s)
		if off < 0 {
			p.sentOff = append(p.sentOff, cur)
			continue
		}
		start := cur + off
		p.sentOff = append(p.sentOff, start)
		cur = start + len(s)
		p.tokenize(t, start, cur, si)
	}
	p.sentTok = append(p.sentTok, len(p.toks))
}

// tokenize appends the words of t[from:to] (sentence si) to p.toks.
func (p *projector) tokenize(t string, from, to, si int) {
	first := true
	prevEnd := from
	i := from
	for i < to {
		r, n := utf8.DecodeRuneInString(t[i:])
		if !isWordStart(r) {
			i += n
			continue
		}
		start := i
		i += n
		upper := false
		for i < to {
			r2, n2 := utf8.DecodeRuneInString(t[i:])
			if isWordRune(r2) {
				i += n2
				continue
			}
			if r2 == '.' || r2 == '-' || r2 == '\'' || r2 == '’' {
				r3, n3 := utf8.DecodeRuneInString(t[i+n2:])
				if i+n2 < to && n3 > 0 && isWordStart(r3) {
					i += n2 + n3
					continue
				}
			}
			break
		}
		w := t[start:i]
		for _, c := range w {
			if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
				upper = true
				break
			}
		}
		low := w
		if upper {
			low = string(appendCueLower(nil, w))
		}
		gap := t[prevEnd:start]
		tk := ptok{
			text: w, low: low, start: start, end: i, sent: si,
			cap:   isCapitalised(w),
			brk:   first || gapBreaks(gap),
			space: gap == " ",
		}
		if strings.HasSuffix(low, "'s") && len(low) > 2 {
			tk.poss = len(w) - len("s") - apostropheLen(w)
		}
		p.toks = append(p.toks, tk)
		prevEnd = i
		first = false
	}
}

// apostropheLen returns the byte length of the apostrophe before the
// final "s" of w ("'" or "’").
func apostropheLen(w string) int {
	if strings.HasSuffix(w, "’s") || strings.HasSuffix(w, "’S") {
		return len("’")
	}
	return 1
}

// gapBreaks reports whether the text between two words holds clause
// punctuation: anything but white space, quotes and emphasis marks.
func gapBreaks(gap string) bool {
	for _, r := range gap {
		if unicode.IsSpace(r) {
			continue
		}
		switch r {
		case '"', '\'', '“', '”', '‘', '’', '*', '_', '`':
			continue
		}
		return true
	}
	return false
}

// sentRange returns the token range [a, b) of sentence si.
func (p *projector) sentRange(si int) (int, int) {
	return p.sentTok[si], p.sentTok[si+1]
}

// phraseAt reports whether the words of a phrase occur at token i, within
// one clause and before b.
func (p *projector) phraseAt(i, b int, words []string) bool {
	if i+len(words) > b {
		return false
	}
	for k, w := range words {
		t := &p.toks[i+k]
		if t.low != w || (k > 0 && t.brk) {
			return false
		}
	}
	return true
}
