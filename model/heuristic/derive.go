package heuristic

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/stratagate/stratagate/model"
)

// Output limits and rule parameters. The limits mirror the validation in
// the layers package; the rules below are written so that no input can
// push the output past them.
const (
	maxTitleRunes    = 80
	numTags          = 5
	maxTagRunes      = 32
	maxSummaryRunes  = 600
	maxFacts         = 12
	maxFactRunes     = 240
	maxExcerptRunes  = 240 // one speaker's sentence inside the summary
	maxSpeakerRunes  = 40
	minWordRunes     = 3
	maxTitleKeywords = 3
	titlePool        = 5 // proper nouns are looked for among this many keywords
	minFactTokens    = 3
)

// Fixed texts: fallbacks for blocks that yield nothing, and separators.
const (
	emptyTitle     = "Empty block"
	emptyTag       = "empty"
	emptySummary   = "Empty block with no messages."
	untitledTitle  = "Untitled block"
	untitledTag    = "untitled"
	ellipsis       = "…"
	ellipsisRunes  = 1
	summarySep     = " "
	dateRangeSep   = " to "
	dateLayout     = "2006-01-02"
	hanTitleJoiner = "、"
)

// sentence is one sentence of a conversational (user or assistant)
// message.
type sentence struct {
	text    string // trimmed, a substring of the sanitized content
	msg     int    // index into DeriveInput.Messages
	speaker int    // index into the speakers slice
}

// keyword accumulates the statistics of one candidate keyword.
type keyword struct {
	word    string // lower-case form; becomes the tag
	display string // first mid-sentence capitalised spelling, "" if none
	count   int    // occurrences
	caps    int    // capitalised occurrences that were not sentence-initial
	han     bool   // a Han bigram
	stop    bool   // not a keyword (stopword, too short, too long, no letter)
	seen    int    // 1 + index of the last sentence that scored it
}

// score is the keyword's rank: each occurrence counts 1, and a capitalised
// occurrence that does not start a sentence counts 1 more, so names win
// ties against common words of the same frequency.
func (k *keyword) score() int { return k.count + k.caps }

// proper reports whether the keyword looks like a name.
func (k *keyword) proper() bool { return k.caps > 0 }

// speaker is one participant in order of first appearance.
type speaker struct {
	label     string
	best      int // sentence index of the most informative sentence, -1 if none
	bestScore int
}

// deriver holds the working state of one derivation. It lives on the
// stack of derive, so concurrent calls share nothing.
type deriver struct {
	in        *model.DeriveInput
	sentences []sentence
	speakers  []speaker
	index     map[string]int32 // lower-case word -> kws index
	kws       []keyword
	lower     []byte // scratch buffer for lower-casing tokens
}

// derive applies every rule to in. It never fails: inputs that yield
// nothing useful get fallback texts that still satisfy the limits.
func derive(in *model.DeriveInput) model.DeriveOutput {
	if len(in.Messages) == 0 {
		return model.DeriveOutput{
			Title:   emptyTitle,
			Tags:    []string{emptyTag},
			Summary: emptySummary,
			Facts:   []model.DeriveFact{},
		}
	}
	sc := derivers.Get().(*deriveScratch)
	d := &deriver{in: in, index: sc.index, kws: sc.kws[:0], lower: sc.lower[:0]}
	defer sc.keep(d)
	d.collect()
	d.count()
	ranked := d.rank()
	return model.DeriveOutput{
		Title:   d.title(ranked),
		Tags:    d.tags(ranked),
		Summary: d.summary(),
		Facts:   d.facts(),
	}
}

// deriveScratch is a derivation's word table, kept for the next one:
// growing a fresh map for every block's words was 5% of the bytes a bulk
// ingest allocated.
type deriveScratch struct {
	index map[string]int32
	kws   []keyword
	lower []byte
}

var derivers = sync.Pool{New: func() any { return &deriveScratch{index: map[string]int32{}} }}

// maxKeptWords bounds the table a scratch keeps: an outsized block's
// is left to the collector.
const maxKeptWords = 1 << 13

// keep empties d's table (its words are the block's text) and returns it
// to the pool.
func (sc *deriveScratch) keep(d *deriver) {
	if len(d.kws) > maxKeptWords {
		return
	}
	clear(d.index)
	clear(d.kws)
	sc.index, sc.kws, sc.lower = d.index, d.kws[:0], d.lower[:0]
	derivers.Put(sc)
}

// collect splits every conversational message into sentences and records
// speakers in order of first appearance.
func (d *deriver) collect() {
	byLabel := make(map[string]int)
	d.sentences = make([]sentence, 0, 2*len(d.in.Messages))
	for i := range d.in.Messages {
		m := &d.in.Messages[i]
		if !conversational(m) {
			continue
		}
		label := speakerLabel(m)
		sp, ok := byLabel[label]
		if !ok {
			sp = len(d.speakers)
			byLabel[label] = sp
			d.speakers = append(d.speakers, speaker{label: label, best: -1})
		}
		content := validUTF8(m.Content)
		forEachSentence(content, func(s string) {
			d.sentences = append(d.sentences, sentence{text: s, msg: i, speaker: sp})
		})
	}
}

// conversational reports whether m is said by a participant rather than
// produced by a tool: role user or assistant, and no tool call.
func conversational(m *model.DeriveMessage) bool {
	if strings.TrimSpace(m.ToolName) != "" {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(m.Role)) {
	case "user", "assistant":
		return true
	}
	return false
}

// speakerLabel names m's author: the Speaker field with whitespace
// collapsed, else the role with an upper-case initial.
func speakerLabel(m *model.DeriveMessage) string {
	if label := cleanText(validUTF8(m.Speaker)); label != "" {
		return truncate(label, maxSpeakerRunes)
	}
	if strings.EqualFold(strings.TrimSpace(m.Role), "user") {
		return "User"
	}
	return "Assistant" // conversational messages have no other role
}

// count tokenizes every sentence and accumulates keyword statistics.
func (d *deriver) count() {
	for _, s := range d.sentences {
		t := tokenizer{s: s.text}
		initial := true
		for {
			tok, han, ok := t.next()
			if !ok {
				break
			}
			if han {
				forEachBigram(tok, func(b string) { d.add(b, true, false) })
			} else {
				d.add(tok, false, !initial && isCapitalised(tok))
			}
			initial = false
		}
	}
}

// lookup returns the index of tok's keyword entry, creating it (and
// deciding once whether it is a stopword) on first sight, or -1 for a
// token too long to ever be a keyword.
func (d *deriver) lookup(tok string, han bool) int32 {
	if len(tok) > utf8.UTFMax*maxTagRunes {
		return -1 // certainly over 32 runes; spares a huge map key
	}
	d.lower = appendLower(d.lower[:0], tok)
	if i, ok := d.index[string(d.lower)]; ok {
		return i
	}
	w := tok // already lower-case in most text: no copy needed
	if string(d.lower) != tok {
		w = string(d.lower)
	}
	k := keyword{word: w, han: han}
	if han {
		k.stop = stopBigram(w)
	} else {
		n := utf8.RuneCountInString(w)
		k.stop = n < minWordRunes || n > maxTagRunes || !hasLetter(w) || stopword(w)
	}
	i := int32(len(d.kws))
	d.kws = append(d.kws, k)
	d.index[w] = i
	return i
}

// add counts one occurrence of tok.
func (d *deriver) add(tok string, han, capitalised bool) {
	i := d.lookup(tok, han)
	if i < 0 {
		return
	}
	k := &d.kws[i]
	if k.stop {
		return
	}
	k.count++
	if capitalised {
		k.caps++
		if k.display == "" {
			k.display = tok
		}
	}
}

// rank returns the keywords by descending score, ties alphabetical.
func (d *deriver) rank() []*keyword {
	ranked := make([]*keyword, 0, len(d.kws))
	for i := range d.kws {
		if !d.kws[i].stop {
			ranked = append(ranked, &d.kws[i])
		}
	}
	slices.SortFunc(ranked, func(a, b *keyword) int {
		if c := cmp.Compare(b.score(), a.score()); c != 0 {
			return c
		}
		return strings.Compare(a.word, b.word)
	})
	return ranked
}

// tags returns the top keywords, or a fallback tag when there are none.
func (d *deriver) tags(ranked []*keyword) []string {
	if len(ranked) == 0 {
		return []string{untitledTag}
	}
	n := min(numTags, len(ranked))
	tags := make([]string, n)
	for i, k := range ranked[:n] {
		tags[i] = k.word
	}
	return tags
}

// title names up to three keywords: names among the top five first, then
// the remaining keywords, each group in rank order.
func (d *deriver) title(ranked []*keyword) string {
	if len(ranked) == 0 {
		return untitledTitle
	}
	pool := ranked[:min(titlePool, len(ranked))]
	var picked []*keyword
	pick := func(k *keyword) {
		if len(picked) >= maxTitleKeywords || slices.Contains(picked, k) {
			return
		}
		// Overlapping Han bigrams ("数据", "据库") would repeat characters.
		if k.han {
			for _, p := range picked {
				if p.han && sharesRune(p.word, k.word) {
					return
				}
			}
		}
		picked = append(picked, k)
	}
	for _, k := range pool {
		if k.proper() {
			pick(k)
		}
	}
	for _, k := range ranked {
		if len(picked) >= maxTitleKeywords {
			break
		}
		pick(k)
	}
	terms := make([]string, len(picked))
	allHan := true
	for i, k := range picked {
		terms[i] = k.word
		if k.display != "" {
			terms[i] = k.display
		}
		allHan = allHan && k.han
	}
	// Drop trailing terms until the title fits; one term always fits
	// because a keyword is at most 32 runes.
	for n := len(terms); n > 0; n-- {
		t := upperFirst(joinTerms(terms[:n], allHan))
		if utf8.RuneCountInString(t) <= maxTitleRunes {
			return t
		}
	}
	return untitledTitle
}

// joinTerms renders "A", "A and B" or "A, B and C"; Han-only terms are
// joined with the ideographic comma instead.
func joinTerms(terms []string, han bool) string {
	if han {
		return strings.Join(terms, hanTitleJoiner)
	}
	switch len(terms) {
	case 0:
		return ""
	case 1:
		return terms[0]
	default:
		return strings.Join(terms[:len(terms)-1], ", ") + " and " + terms[len(terms)-1]
	}
}

// summary renders the date range and each speaker's most informative
// sentence.
func (d *deriver) summary() string {
	for si, s := range d.sentences {
		sc := d.sentenceScore(si, s.text)
		sp := &d.speakers[s.speaker]
		if sp.best < 0 || sc > sp.bestScore {
			sp.best, sp.bestScore = si, sc
		}
	}
	var b strings.Builder
	if from, to := d.dateRange(); from != "" {
		b.WriteString(from)
		if to != from {
			b.WriteString(dateRangeSep)
			b.WriteString(to)
		}
		b.WriteString(": ")
	}
	wrote := false
	for _, sp := range d.speakers {
		if sp.best < 0 {
			continue
		}
		if wrote {
			b.WriteString(summarySep)
		}
		b.WriteString(sp.label)
		b.WriteString(": ")
		b.WriteString(endSentence(truncate(cleanText(d.sentences[sp.best].text), maxExcerptRunes)))
		wrote = true
	}
	if !wrote {
		n := len(d.in.Messages)
		b.WriteString(strconv.Itoa(n))
		if n == 1 {
			b.WriteString(" message with no user or assistant text.")
		} else {
			b.WriteString(" messages with no user or assistant text.")
		}
	}
	return truncate(b.String(), maxSummaryRunes)
}

// sentenceScore sums the scores of the distinct keywords in sentence si.
func (d *deriver) sentenceScore(si int, text string) int {
	mark := si + 1
	score := 0
	visit := func(tok string) {
		if len(tok) > utf8.UTFMax*maxTagRunes {
			return
		}
		d.lower = appendLower(d.lower[:0], tok)
		i, ok := d.index[string(d.lower)]
		if !ok {
			return
		}
		k := &d.kws[i]
		if k.stop || k.seen == mark {
			return
		}
		k.seen = mark
		score += k.score()
	}
	t := tokenizer{s: text}
	for {
		tok, han, ok := t.next()
		if !ok {
			return score
		}
		if han {
			forEachBigram(tok, visit)
		} else {
			visit(tok)
		}
	}
}

// dateRange returns the smallest and largest calendar date of the
// messages' non-zero times, each read in the time's own offset.
func (d *deriver) dateRange() (from, to string) {
	var buf [32]byte
	for i := range d.in.Messages {
		at := d.in.Messages[i].At
		if at.IsZero() {
			continue
		}
		day := at.AppendFormat(buf[:0], dateLayout)
		if from == "" || string(day) < from {
			from = string(day)
		}
		if to == "" || string(day) > to {
			to = string(day)
		}
	}
	return from, to
}

// facts returns up to twelve distinct cue-bearing sentences in message
// order, each citing its message.
func (d *deriver) facts() []model.DeriveFact {
	facts := []model.DeriveFact{}
	seen := make(map[string]struct{})
	for _, s := range d.sentences {
		if len(facts) == maxFacts {
			break
		}
		if !hasCue(s.text) || tokenCount(s.text) < minFactTokens {
			continue
		}
		text := truncate(stripMarker(cleanText(s.text)), maxFactRunes)
		if text == "" {
			continue
		}
		key := strings.ToLower(text)
		if _, dup := seen[key]; dup {
			continue
		}
		seen[key] = struct{}{}
		facts = append(facts, model.DeriveFact{Text: text, MessageIDs: []uint64{d.in.Messages[s.msg].ID}})
	}
	return facts
}
