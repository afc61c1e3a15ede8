package heuristic

import (
	"cmp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stratagate/stratagate/model"
)

// Extraction limits. They are at or below the events package's limits, so
// no input can push a card past them.
const (
	maxEvents            = 12  // cards per block
	maxEventTitleRunes   = 80  // events allow 120
	maxEventSummaryRunes = 300 // events allow 600
	maxQuoteRunes        = 500
	maxEventTags         = 5 // events allow 8
	maxNames             = 12
	maxNameRunes         = 64
	maxLinks             = 8   // conflicts_with ids
	maxMsgSentences      = 256 // sentences read per message
	maxGroupTokens       = 4   // words in one capitalised name
	minSupersedeShared   = 2   // shared match keys a supersede needs
	notButWindow         = 6   // "not X but Y": "but" within this many words
	defaultEventTitle    = "Event"
)

// Ranking weights when a block has more than maxEvents candidates.
const (
	weightDecision = 4 // decision or correction cue
	weightTime     = 2 // a temporal expression
	weightTyped    = 1 // a cue with an event type
	weightCritical = 1 // criticality other than routine
)

// cueTok is one word of a sentence as the cue matcher sees it: letters,
// digits and marks, with apostrophes between letters kept ("we'll").
type cueTok struct {
	lower      string // lower-cased, ’ read as '
	start, end int    // byte span in the sentence
}

// nameTok is one word of the derive tokenizer with its byte span.
type nameTok struct {
	text       string
	start, end int
}

// analysis is what the cue matcher found in one sentence.
type analysis struct {
	typ       string  // winning event type, "" if no typed cue
	typePos   int     // cue token index of the first typed cue, -1 if none
	flags     cueFlag // union of all cue flags
	lemma     string  // preference verb of the first lemma cue
	object    string  // first match key after that cue
	firstPers bool    // a first-person word occurs
	shiftEnd  int     // byte offset after a matched date-shift cue, -1 if none
}

// candidate is one sentence that becomes an event card.
type candidate struct {
	msg      int    // index into ExtractInput.Messages
	order    int    // position among all candidates, for stable output
	quote    string // verbatim sentence (prefix), trimmed
	head     int    // bytes of a restating head ("Decision recorded: ")
	restate  bool   // an assistant restatement
	an       analysis
	timeText string
	status   string
	subject  string // person the statement is about, "" if unknown
	people   []string
	entities []string
	keys     []string // sorted distinct match keys
	hasTime  bool
	fold     string // dedupe key
	score    int
}

// extractor holds the working state of one extraction; it lives on the
// stack of extract, so concurrent calls share nothing.
type extractor struct {
	in          *model.ExtractInput
	personWords map[string]bool // lower-case words of known person names
	personFirst map[string]bool // lower-case full names and first words
	known       map[string]bool // lower-case words seen capitalised mid-sentence
	cues        []cueTok
	words       []nameTok
	times       []timeSpan
	lower       []byte
	exKeys      [][]string // match keys of existing events, by index
}

// extract applies the extraction rules to in. It never fails.
func extract(in *model.ExtractInput) model.ExtractOutput {
	out := model.ExtractOutput{Events: []model.ExtractedEvent{}}
	if len(in.Messages) == 0 {
		return out
	}
	x := &extractor{
		in:          in,
		personWords: make(map[string]bool),
		personFirst: make(map[string]bool),
		known:       make(map[string]bool),
	}
	x.learnNames()
	cands := x.candidates()
	cands = x.dedupe(cands)
	cands = capCandidates(cands)
	for i := range cands {
		out.Events = append(out.Events, x.event(&cands[i]))
	}
	return out
}

// ---- names ---------------------------------------------------------------

// learnNames collects the known persons and the words seen capitalised
// mid-sentence, from every conversational message of the input (target
// and context) and from the existing events' participants.
func (x *extractor) learnNames() {
	all := [][]model.DeriveMessage{x.in.Messages, x.in.Before, x.in.After}
	for _, msgs := range all {
		for i := range msgs {
			m := &msgs[i]
			if !conversational(m) {
				continue
			}
			if sp := personSpeaker(m); sp != "" {
				x.addPerson(sp)
			}
		}
	}
	for _, e := range x.in.Existing {
		for _, p := range e.Participants {
			if p = strings.TrimSpace(p); p != "" && utf8.ValidString(p) && utf8.RuneCountInString(p) <= maxNameRunes {
				x.addPerson(p)
			}
		}
	}
	for _, msgs := range all {
		for i := range msgs {
			m := &msgs[i]
			if !conversational(m) {
				continue
			}
			n := 0
			forEachSentence(validUTF8(m.Content), func(s string) {
				if n++; n > maxMsgSentences {
					return
				}
				x.learnSentence(s)
			})
		}
	}
}

// learnSentence records mid-sentence capitalised words and names that
// follow a relation word ("my sister Ana").
func (x *extractor) learnSentence(s string) {
	t := tokenizer{s: s}
	prev := ""
	first := true
	for {
		tok, han, ok := t.next()
		if !ok {
			return
		}
		if han {
			prev, first = "", false
			continue
		}
		if isCapitalised(tok) {
			lw := strings.ToLower(tok)
			if !first && !nonName(lw) {
				x.known[lw] = true
				if relationWord(prev) {
					x.addPerson(tok)
				}
			}
		}
		prev = strings.ToLower(tok)
		first = false
	}
}

// personSpeaker returns m's speaker when it names a person: a user
// message whose Speaker, trimmed, is non-empty, valid, at most 64 runes
// and neither "user" nor "assistant". The name is returned as stored, so
// that it matches the message's speaker exactly.
func personSpeaker(m *model.DeriveMessage) string {
	if !strings.EqualFold(strings.TrimSpace(m.Role), "user") {
		return ""
	}
	sp := m.Speaker
	if sp == "" || sp != strings.TrimSpace(sp) || !utf8.ValidString(sp) || utf8.RuneCountInString(sp) > maxNameRunes {
		return ""
	}
	if strings.EqualFold(sp, "user") || strings.EqualFold(sp, "assistant") {
		return ""
	}
	return sp
}

// addPerson records name as a known person: its lower-case full form,
// first word and all words.
func (x *extractor) addPerson(name string) {
	lw := strings.ToLower(name)
	x.personFirst[lw] = true
	words := strings.Fields(lw)
	if len(words) > 0 {
		x.personFirst[words[0]] = true
	}
	for _, w := range words {
		x.personWords[w] = true
	}
}

// isPerson reports whether the capitalised group g (lower-cased words)
// names a known person: the whole group or its first word is a known
// person's full name or first word.
func (x *extractor) isPerson(lowerGroup string) bool {
	if x.personFirst[lowerGroup] {
		return true
	}
	first, _, _ := strings.Cut(lowerGroup, " ")
	return x.personFirst[first]
}

// samePerson reports whether a and b name the same person: equal ignoring
// case, or one is a single word equal to the other's first word.
func samePerson(a, b string) bool {
	if strings.EqualFold(a, b) {
		return true
	}
	fa, _, ma := strings.Cut(a, " ")
	fb, _, mb := strings.Cut(b, " ")
	if ma && mb {
		return false
	}
	return strings.EqualFold(fa, fb)
}

// ---- candidates ----------------------------------------------------------

// candidates returns every candidate sentence of the target block in
// message order.
func (x *extractor) candidates() []candidate {
	var cands []candidate
	for i := range x.in.Messages {
		m := &x.in.Messages[i]
		if !conversational(m) {
			continue
		}
		assistant := !strings.EqualFold(strings.TrimSpace(m.Role), "user")
		n := 0
		forEachSentence(m.Content, func(s string) {
			if n++; n > maxMsgSentences {
				return
			}
			if !utf8.ValidString(s) {
				return // a quote must be valid text and verbatim
			}
			if c, ok := x.consider(i, m, s, assistant); ok {
				c.order = len(cands)
				cands = append(cands, c)
			}
		})
	}
	return cands
}

// consider decides whether sentence s of message m is a candidate and
// fills in everything but the links to existing events.
func (x *extractor) consider(mi int, m *model.DeriveMessage, s string, assistant bool) (candidate, bool) {
	c := candidate{msg: mi, quote: clipQuote(s)}
	if assistant {
		h := restateHead(c.quote)
		if h == 0 {
			return c, false
		}
		c.head, c.restate = h, true
	}
	if !c.restate && question(c.quote) {
		return c, false
	}
	x.cueTokens(c.quote)
	if len(x.cues) < 2 && !c.restate {
		return c, false
	}
	x.nameTokens(c.quote)
	speaker := personSpeaker(m)
	people, entities, named := x.findNames(c.quote, speaker)
	// Temporal expressions are only looked for when they can matter.
	x.times = x.times[:0]
	pre := x.match(c.quote, nil)
	if c.restate || pre.firstPers || named || pre.typ != "" {
		x.times = findTimes(c.quote, m.At, x.times)
	}
	c.an = x.match(c.quote, x.times)
	c.hasTime = len(x.times) > 0
	if !c.restate {
		subject := c.an.firstPers || named
		typed := c.an.typ != ""
		if !((subject && (typed || c.hasTime)) || (typed && c.hasTime)) {
			return c, false
		}
	} else {
		switch {
		case headHas(c.quote[:c.head], "decision", "decided"):
			c.an.typ = typeDecision
			c.an.flags |= flagDecision
		case headHas(c.quote[:c.head], "correction", "corrected"):
			c.an.typ = typeChange
			c.an.flags |= flagCorrection
		}
	}
	c.people, c.entities = people, entities
	c.subject = x.subject(c.quote, speaker, c.an.typePos)
	c.timeText, c.status = x.timeAndStatus(c.quote, m.At, &c.an)
	if c.an.typ == "" {
		switch c.status {
		case "planned":
			c.an.typ = typePlan
		case "completed":
			c.an.typ = typeActivity
		default:
			c.an.typ = typeFact
		}
	}
	c.keys = x.matchKeys(c.quote, nil)
	c.fold = strings.ToLower(collapseSpace(c.quote))
	if c.an.flags&(flagDecision|flagCorrection) != 0 {
		c.score += weightDecision
	}
	if c.hasTime {
		c.score += weightTime
	}
	if c.an.typePos >= 0 {
		c.score += weightTyped
	}
	if criticality(&c) != "routine" {
		c.score += weightCritical
	}
	return c, true
}

// question reports whether s ends with a question mark, before any
// closing quotes or brackets.
func question(s string) bool {
	t := strings.TrimRight(s, "\"')]’”」』）】")
	return strings.HasSuffix(t, "?") || strings.HasSuffix(t, "？")
}

// restateHead returns the length of a restating head — up to four words
// before the first ":" that include a restate word, plus the colon and
// following spaces — when text follows it, else 0.
func restateHead(s string) int {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || colon > 48 {
		return 0
	}
	head := s[:colon]
	words := strings.Fields(head)
	if len(words) == 0 || len(words) > 4 {
		return 0
	}
	found := false
	for _, w := range words {
		if restateWord(strings.ToLower(strings.Trim(w, ",'\""))) {
			found = true
		}
	}
	if !found {
		return 0
	}
	rest := strings.TrimLeft(s[colon+1:], " \t")
	if tokenCount(rest) == 0 {
		return 0
	}
	return len(s) - len(rest)
}

// headHas reports whether head contains one of words (lower-cased).
func headHas(head string, words ...string) bool {
	for _, f := range strings.Fields(strings.ToLower(head)) {
		f = strings.Trim(f, ",:'\"")
		if slices.Contains(words, f) {
			return true
		}
	}
	return false
}

// clipQuote returns s, or when it exceeds maxQuoteRunes its longest prefix
// of at most that many runes that ends before a space (or at a rune
// boundary when there is no space), trimmed. It is always a substring of s.
func clipQuote(s string) string {
	if utf8.RuneCountInString(s) <= maxQuoteRunes {
		return s
	}
	cut, n, lastSpace := len(s), 0, -1
	for i, r := range s {
		if n == maxQuoteRunes {
			cut = i
			break
		}
		if unicode.IsSpace(r) {
			lastSpace = i
		}
		n++
	}
	if next, _ := utf8.DecodeRuneInString(s[cut:]); lastSpace > 0 && !unicode.IsSpace(next) {
		cut = lastSpace // do not split a word
	}
	return strings.TrimSpace(s[:cut])
}

// cueTokens fills x.cues with the words of s.
func (x *extractor) cueTokens(s string) {
	x.cues = x.cues[:0]
	for i := 0; ; {
		w, next := cueToken(s, i)
		if w == "" {
			return
		}
		start := next - len(w)
		i = next
		lw := w
		if needsCueLower(w) {
			x.lower = appendCueLower(x.lower[:0], w)
			lw = string(x.lower)
		}
		x.cues = append(x.cues, cueTok{lower: lw, start: start, end: next})
	}
}

// needsCueLower reports whether w has upper-case letters or ’.
func needsCueLower(w string) bool {
	for _, r := range w {
		if r >= utf8.RuneSelf || ('A' <= r && r <= 'Z') {
			return true
		}
	}
	return false
}

// nameTokens fills x.words with the derive tokenizer's words of s.
func (x *extractor) nameTokens(s string) {
	x.words = x.words[:0]
	t := tokenizer{s: s}
	for {
		tok, han, ok := t.next()
		if !ok {
			return
		}
		if han {
			x.words = append(x.words, nameTok{})
			continue
		}
		x.words = append(x.words, nameTok{text: tok, start: t.i - len(tok), end: t.i})
	}
}

// match runs the cue lexicon over x.cues (the words of s). times, when
// non-nil, lets date-shift cues ("moved to June 3rd") count.
func (x *extractor) match(s string, times []timeSpan) analysis {
	a := analysis{typePos: -1, shiftEnd: -1}
	best := len(typePriority)
	setType := func(typ string, pos int) {
		if typ == "" {
			return
		}
		if a.typePos < 0 {
			a.typePos = pos
		}
		if r := slices.Index(typePriority[:], typ); r >= 0 && r < best {
			best, a.typ = r, typ
		}
	}
	toks := x.cues
	for i := 0; i < len(toks); i++ {
		w := toks[i].lower
		if firstPerson(w) {
			a.firstPers = true
		}
		// Special rules first.
		switch {
		case i == 0 && w == "actually":
			a.flags |= flagCorrection
			setType(typeChange, i)
		case w == "not":
			for j := i + 2; j < len(toks) && j <= i+notButWindow; j++ {
				if toks[j].lower == "but" {
					a.flags |= flagCorrection
					setType(typeChange, i)
					break
				}
			}
		case (w == "a" || w == "an") && i+2 < len(toks) && toks[i+2].lower == "person" && isMatchKey(toks[i+1].lower):
			setType(typePreference, i)
			if a.lemma == "" {
				a.lemma, a.object = "person", toks[i+1].lower
			}
		case strings.HasSuffix(w, "'ll") && !strings.HasPrefix(w, "i'") && !strings.HasPrefix(w, "we'"):
			a.flags |= flagPlan
			setType(typePlan, i)
		case (w == "i'm" || w == "we're" || w == "he's" || w == "she's" || w == "they're") &&
			i+1 < len(toks) && strings.HasSuffix(toks[i+1].lower, "ing") && len(toks[i+1].lower) > 4:
			a.flags |= flagOngoing
		}
		for _, p := range cueIndex[w] {
			n := len(p.words)
			if i+n > len(toks) {
				continue
			}
			okWords := true
			for k := 1; k < n; k++ {
				if toks[i+k].lower != p.words[k] {
					okWords = false
					break
				}
			}
			if !okWords {
				continue
			}
			e := p.entry
			if e.flags&flagDateShift != 0 {
				if !timeStartsAt(s, toks[i+n-1].end, times) {
					continue
				}
				if a.shiftEnd < 0 {
					a.shiftEnd = toks[i+n-1].end
				}
			}
			a.flags |= e.flags &^ flagDateShift
			setType(e.typ, i)
			if e.lemma != "" && a.lemma == "" {
				a.lemma = e.lemma
				for k := i + n; k < len(toks); k++ {
					if isMatchKey(toks[k].lower) {
						a.object = toks[k].lower
						break
					}
				}
			}
			i += n - 1 // a matched phrase is consumed whole
			break
		}
	}
	return a
}

// negated reports whether the words right before byte off of s are "not"
// or "not" plus one preposition ("not on May 20").
func negated(s string, off int) bool {
	before := strings.Fields(strings.ToLower(s[:off]))
	n := len(before)
	switch {
	case n >= 1 && before[n-1] == "not":
		return true
	case n >= 2 && before[n-2] == "not":
		switch before[n-1] {
		case "on", "in", "at", "for", "by", "until":
			return true
		}
	}
	return false
}

// timeStartsAt reports whether a time expression starts at byte end of s,
// after nothing but spaces.
func timeStartsAt(s string, end int, times []timeSpan) bool {
	for _, t := range times {
		if t.off >= end && strings.TrimSpace(s[end:t.off]) == "" {
			return true
		}
	}
	return false
}

// isMatchKey reports whether the lower-case word w identifies a topic
// for matching: at least 3 runes with a letter and not a stopword, or
// containing a digit, or a calendar name.
func isMatchKey(w string) bool {
	if restateWord(w) {
		return false
	}
	hasDigit := false
	for _, r := range w {
		if unicode.IsDigit(r) {
			hasDigit = true
			break
		}
	}
	if hasDigit || calendarWord(w) {
		return true
	}
	return utf8.RuneCountInString(w) >= minWordRunes && hasLetter(w) && !stopword(w) && !strings.ContainsRune(w, '\'')
}

// matchKeys returns the sorted distinct match keys of s that are not
// words of a known person's name, appended to dst. "may" and "march"
// count as calendar words only when capitalised.
func (x *extractor) matchKeys(s string, dst []string) []string {
	start := len(dst)
	t := tokenizer{s: s}
	for {
		tok, han, ok := t.next()
		if !ok {
			break
		}
		if han || len(tok) > utf8.UTFMax*maxTagRunes {
			continue
		}
		lw := strings.ToLower(tok)
		if (lw == "may" || lw == "march") && !isCapitalised(tok) {
			continue
		}
		if !isMatchKey(lw) || x.personWords[lw] {
			continue
		}
		dst = append(dst, lw)
	}
	keys := dst[start:]
	slices.Sort(keys)
	return append(dst[:start], slices.Compact(keys)...)
}

// shared counts the strings present in both sorted slices.
func shared(a, b []string) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch c := strings.Compare(a[i], b[j]); {
		case c == 0:
			n++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	return n
}

// findNames returns the participants and entities named in s, and whether a
// named subject occurs (a known person anywhere, or a known capitalised
// name as the first word after fillers).
func (x *extractor) findNames(s, speaker string) (people, entities []string, named bool) {
	if speaker != "" {
		people = append(people, speaker)
	}
	toks := x.words
	// The first non-filler word may be a named subject.
	for _, t := range toks {
		if t.text == "" {
			break
		}
		lw := strings.ToLower(t.text)
		if fillerWord(lw) {
			continue
		}
		if isCapitalised(t.text) && (x.known[lw] || x.isPerson(lw)) && !nonName(lw) {
			named = true
		}
		break
	}
	addEntity := func(e string) {
		if len(entities) >= maxNames || utf8.RuneCountInString(e) > maxNameRunes {
			return
		}
		for _, o := range entities {
			if strings.EqualFold(o, e) {
				return
			}
		}
		for _, o := range people {
			if samePerson(o, e) {
				return
			}
		}
		entities = append(entities, e)
	}
	for i := 0; i < len(toks); {
		if !x.nameWord(toks, i) {
			if lw := strings.ToLower(toks[i].text); productWord(lw) {
				addEntity(toks[i].text)
			}
			i++
			continue
		}
		j := i + 1
		for j < len(toks) && j-i < maxGroupTokens && x.nameWord(toks, j) && s[toks[j-1].end:toks[j].start] == " " {
			j++
		}
		g := s[toks[i].start:toks[j-1].end]
		lg := strings.ToLower(g)
		rel := i > 0 && relationWord(strings.ToLower(toks[i-1].text))
		if x.isPerson(lg) || rel {
			named = true
			dup := false
			for _, p := range people {
				if samePerson(p, g) {
					dup = true
					break
				}
			}
			if !dup && len(people) < maxNames && utf8.RuneCountInString(g) <= maxNameRunes {
				people = append(people, g)
			}
		} else {
			addEntity(g)
		}
		i = j
	}
	return people, entities, named
}

// nameWord reports whether word i of toks can be part of a name: it is
// capitalised, not a non-name word, not a shouted cue or stopword
// ("WE LAUNCHED"), and — as the first word of the sentence — known as a
// name from elsewhere in the input.
func (x *extractor) nameWord(toks []nameTok, i int) bool {
	t := toks[i].text
	if t == "" || !isCapitalised(t) {
		return false
	}
	lw := strings.ToLower(t)
	if nonName(lw) || !hasLetter(lw) {
		return false
	}
	if utf8.RuneCountInString(t) > 1 && t == strings.ToUpper(t) {
		if _, cue := cueIndex[lw]; cue {
			return false
		}
	}
	if i == 0 {
		return x.known[lw] || x.isPerson(lw)
	}
	return true
}

// subject returns the person a statement is about: the first person named
// before the first typed cue (anywhere when there is none), else the
// speaker.
func (x *extractor) subject(s, speaker string, typePos int) string {
	limit := len(s)
	if typePos >= 0 && typePos < len(x.cues) {
		limit = x.cues[typePos].start
	}
	toks := x.words
	for i := 0; i < len(toks); i++ {
		if toks[i].text == "" || toks[i].start >= limit || !x.nameWord(toks, i) {
			continue
		}
		lw := strings.ToLower(toks[i].text)
		rel := i > 0 && relationWord(strings.ToLower(toks[i-1].text))
		if x.isPerson(lw) || rel {
			if speaker != "" && samePerson(speaker, toks[i].text) {
				return speaker
			}
			return toks[i].text
		}
	}
	return speaker
}

// timeAndStatus picks the time text and the status of the candidate.
// The time text is the expression right after a date-shift cue ("moved
// to June 3rd") when there is one; otherwise the first expression that
// resolves (Known) and is not negated ("not on May 20"); otherwise the
// first expression found. The chosen expression, when it resolves and the
// message has a time, tells whether the event lies in the future or the
// past.
func (x *extractor) timeAndStatus(s string, at time.Time, a *analysis) (string, string) {
	pick, firstOK := -1, -1
	for i, t := range x.times {
		if t.off < 0 || t.n <= 0 || t.off+t.n > len(s) {
			continue
		}
		tt := strings.TrimSpace(s[t.off : t.off+t.n])
		if tt == "" || !utf8.ValidString(tt) || utf8.RuneCountInString(tt) > maxEventTitleRunes {
			continue
		}
		if a.shiftEnd >= 0 && t.off >= a.shiftEnd && strings.TrimSpace(s[a.shiftEnd:t.off]) == "" {
			pick = i
			break
		}
		if firstOK < 0 {
			firstOK = i
		}
		if pick < 0 && t.known && !negated(s, t.off) {
			pick = i
		}
	}
	if pick < 0 {
		pick = firstOK
	}
	var text string
	future, past := false, false
	if pick >= 0 {
		t := x.times[pick]
		text = strings.TrimSpace(s[t.off : t.off+t.n])
		if t.known && !at.IsZero() {
			end := t.end
			if end.IsZero() {
				end = t.start
			}
			switch {
			case t.start.After(at):
				future = true
			case !end.After(at):
				past = true
			}
		}
	}
	f := a.flags
	switch {
	case f&flagCancel != 0:
		return text, "cancelled"
	case f&flagPlan != 0 || future:
		return text, "planned"
	case f&flagPast != 0:
		return text, "completed"
	case f&flagOngoing != 0:
		return text, "ongoing"
	case past:
		return text, "completed"
	}
	return text, "unknown"
}

// ---- dedupe, cap, links --------------------------------------------------

// dedupe drops a candidate whose text, folded, equals an earlier one's,
// and an assistant restatement that shares at least minSupersedeShared
// match keys with an earlier kept user candidate of the block.
func (x *extractor) dedupe(cands []candidate) []candidate {
	seen := make(map[string]bool, len(cands))
	out := cands[:0]
	for _, c := range cands {
		if seen[c.fold] {
			continue
		}
		if c.restate {
			dup := false
			for i := range out {
				if !out[i].restate && shared(out[i].keys, c.keys) >= minSupersedeShared {
					dup = true
					break
				}
			}
			if dup {
				continue
			}
		}
		seen[c.fold] = true
		out = append(out, c)
	}
	return out
}

// capCandidates keeps the maxEvents best candidates (by score, then
// order), in their original order.
func capCandidates(cands []candidate) []candidate {
	if len(cands) <= maxEvents {
		return cands
	}
	slices.SortStableFunc(cands, func(a, b candidate) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.order, b.order)
	})
	cands = cands[:maxEvents]
	slices.SortFunc(cands, func(a, b candidate) int { return cmp.Compare(a.order, b.order) })
	return cands
}

// links returns the existing events c supersedes or conflicts with.
func (x *extractor) links(c *candidate) (supersedes, conflicts []uint64) {
	if len(x.in.Existing) == 0 {
		return nil, nil
	}
	if c.an.flags&flagCorrection != 0 {
		bestID, bestN, found := uint64(0), 0, false
		for i, e := range x.in.Existing {
			n := shared(c.keys, x.existingKeys(i))
			if n < minSupersedeShared {
				continue
			}
			if !found || n > bestN || (n == bestN && e.ID > bestID) {
				bestID, bestN, found = e.ID, n, true
			}
		}
		if found {
			return []uint64{bestID}, nil
		}
		return nil, nil
	}
	if c.an.typ != typePreference || c.an.lemma == "" || c.an.object == "" || c.subject == "" {
		return nil, nil
	}
	for _, e := range x.in.Existing {
		if !strings.EqualFold(strings.TrimSpace(e.EventType), typePreference) {
			continue
		}
		if !slices.ContainsFunc(e.Participants, func(p string) bool { return samePerson(p, c.subject) }) {
			continue
		}
		texts := append(append([]string(nil), e.Quotes...), e.Title)
		for _, t := range texts {
			if !utf8.ValidString(t) {
				continue
			}
			x.cueTokens(t)
			a := x.match(t, nil)
			if a.lemma != c.an.lemma || a.object == "" {
				continue
			}
			if a.object != c.an.object && len(conflicts) < maxLinks && !slices.Contains(conflicts, e.ID) {
				conflicts = append(conflicts, e.ID)
			}
			break
		}
	}
	slices.Sort(conflicts)
	return nil, conflicts
}

// existingKeys returns the sorted distinct match keys of the title,
// summary and quotes of existing event i, computed once.
func (x *extractor) existingKeys(i int) []string {
	if x.exKeys == nil {
		x.exKeys = make([][]string, len(x.in.Existing))
	}
	if x.exKeys[i] == nil {
		e := &x.in.Existing[i]
		var keys []string
		for _, t := range append([]string{e.Title, e.Summary}, e.Quotes...) {
			if utf8.ValidString(t) {
				keys = x.matchKeys(t, keys)
			}
		}
		slices.Sort(keys)
		x.exKeys[i] = append(slices.Compact(keys), []string{}...)
		if x.exKeys[i] == nil {
			x.exKeys[i] = []string{}
		}
	}
	return x.exKeys[i]
}

// ---- rendering -----------------------------------------------------------

// event renders candidate c as a card.
func (x *extractor) event(c *candidate) model.ExtractedEvent {
	m := &x.in.Messages[c.msg]
	sup, con := x.links(c)
	label := speakerLabel(m)
	if strings.EqualFold(label, "assistant") {
		label = "Assistant"
	}
	ev := model.ExtractedEvent{
		Title:         x.title(c, personSpeaker(m)),
		Summary:       truncate(label+": "+cleanText(c.quote), maxEventSummaryRunes),
		Tags:          eventTags(c.quote[c.head:]),
		Quotes:        []string{strings.TrimSpace(c.quote)},
		MessageIDs:    []uint64{m.ID},
		EventType:     c.an.typ,
		Status:        c.status,
		Participants:  c.people,
		Entities:      c.entities,
		Criticality:   criticality(c),
		TimeText:      c.timeText,
		Supersedes:    sup,
		ConflictsWith: con,
	}
	return ev
}

// criticality: safety for a safety cue, preference for preference events,
// identity for life events or an identity cue, else routine.
func criticality(c *candidate) string {
	switch {
	case c.an.flags&flagSafety != 0:
		return "safety"
	case c.an.typ == typePreference:
		return "preference"
	case c.an.typ == typeLifeEvent || c.an.flags&flagIdentity != 0:
		return "identity"
	}
	return "routine"
}

// eventTags returns up to maxEventTags distinct keywords of s in order of
// appearance.
func eventTags(s string) []string {
	var tags []string
	t := tokenizer{s: s}
	for len(tags) < maxEventTags {
		tok, han, ok := t.next()
		if !ok {
			break
		}
		if han {
			continue
		}
		lw := strings.ToLower(tok)
		n := utf8.RuneCountInString(lw)
		if n < minWordRunes || n > maxTagRunes || !hasLetter(lw) || stopword(lw) || slices.Contains(tags, lw) {
			continue
		}
		tags = append(tags, lw)
	}
	return tags
}

// title renders the compact title of c: the sentence without its
// restating head, leading list markers, fillers and short "Topic:" heads,
// with a leading first-person word replaced by the speaker's name, without
// a final "." or "!", first letter upper-cased, cut on a word boundary.
func (x *extractor) title(c *candidate, speaker string) string {
	t := cleanText(c.quote[c.head:])
	t = stripMarker(t)
	for changed := true; changed; {
		changed = false
		if w, rest, ok := leadingWord(t); ok && fillerWord(strings.ToLower(w)) && rest != "" {
			t, changed = rest, true
			continue
		}
		if rest, ok := cutFillerPhrase(t); ok {
			t, changed = rest, true
			continue
		}
		if colon := strings.IndexByte(t, ':'); colon > 0 && colon+1 < len(t) && t[colon+1] == ' ' && len(strings.Fields(t[:colon])) <= 3 {
			if rest := strings.TrimSpace(t[colon+1:]); tokenCount(rest) >= 2 {
				t, changed = rest, true
			}
		}
	}
	if speaker != "" && !c.restate {
		t = replaceFirstPerson(t, speaker)
	}
	t = strings.TrimRight(t, ".! ")
	t = upperFirst(strings.TrimSpace(t))
	t = truncateWords(t, maxEventTitleRunes)
	if t == "" {
		t = truncateWords(cleanText(c.quote), maxEventTitleRunes)
	}
	if t == "" {
		t = defaultEventTitle
	}
	return t
}

// cutFillerPhrase removes a leading filler phrase ("I know, I know, …",
// "I think …") when text follows it.
func cutFillerPhrase(t string) (string, bool) {
	for _, p := range fillerPhrases {
		if len(t) <= len(p)+1 || !strings.EqualFold(t[:len(p)], p) {
			continue
		}
		if c := t[len(p)]; c != ',' && c != ' ' {
			continue
		}
		rest := strings.TrimLeft(t[len(p)+1:], " ")
		if tokenCount(rest) >= 2 {
			return rest, true
		}
	}
	return t, false
}

// leadingWord splits off the first word of s together with a following
// comma and spaces.
func leadingWord(s string) (word, rest string, ok bool) {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) {
			break
		}
		i += n
	}
	if i == 0 {
		return "", s, false
	}
	j := i
	if j < len(s) && (s[j] == ',' || s[j] == ' ') {
		if s[j] == ',' {
			j++
		}
		return s[:i], strings.TrimLeft(s[j:], " "), true
	}
	return "", s, false
}

// replaceFirstPerson replaces a leading I, I'm, I've, I'll, I'd or My
// (straight or curly apostrophe) with the speaker's name. After a bare
// "I" the next verb is put in the third person (see thirdPerson), after
// any adverbs; past tenses and modal verbs stay as they are.
func replaceFirstPerson(t, speaker string) string {
	forms := [...]struct{ from, to string }{
		{"I'm ", " is "}, {"I’m ", " is "}, {"I've ", " has "}, {"I’ve ", " has "},
		{"I'll ", " will "}, {"I’ll ", " will "}, {"I'd ", " would "}, {"I’d ", " would "},
		{"My ", "'s "},
	}
	for _, f := range forms {
		if rest, ok := strings.CutPrefix(t, f.from); ok {
			return speaker + f.to + rest
		}
	}
	rest, ok := strings.CutPrefix(t, "I ")
	if !ok {
		return t
	}
	var b strings.Builder
	b.WriteString(speaker)
	for rest != "" {
		w, after, _ := strings.Cut(rest, " ")
		lw := strings.ToLower(w)
		b.WriteByte(' ')
		if adverbWord(lw) && after != "" && w == lw {
			b.WriteString(w) // an adverb: conjugate the word after it
			rest = after
			continue
		}
		b.WriteString(thirdPerson(w))
		if after != "" {
			b.WriteByte(' ')
			b.WriteString(after)
		}
		break
	}
	return b.String()
}

// thirdPerson returns the third-person singular present form of the
// lower-case verb w ("live" → "lives", "go" → "goes", "try" → "tries",
// "have" → "has", "don't" → "doesn't"); past tenses (ending in "ed" or
// irregular), modal verbs and words that are not plain lower-case
// letters are returned unchanged.
func thirdPerson(w string) string {
	switch w {
	case "am":
		return "is"
	case "have":
		return "has"
	case "do":
		return "does"
	case "don't", "don’t":
		return "doesn't"
	case "haven't", "haven’t":
		return "hasn't"
	}
	if w == "" || keepVerb(w) || pastVerb(w) || strings.HasSuffix(w, "ed") {
		return w
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return w
		}
	}
	switch {
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "sh"), strings.HasSuffix(w, "ch"),
		strings.HasSuffix(w, "x"), strings.HasSuffix(w, "z"), strings.HasSuffix(w, "o"):
		return w + "es"
	case len(w) > 1 && w[len(w)-1] == 'y' && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}

// truncateWords shortens s to at most max runes, cutting at the last
// space that keeps room for "…" when possible.
func truncateWords(s string, max int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	cut, n, lastSpace := 0, 0, -1
	for i, r := range s {
		if n == max-ellipsisRunes {
			cut = i
			break
		}
		if r == ' ' {
			lastSpace = i
		}
		n++
	}
	if lastSpace > 0 {
		cut = lastSpace
	}
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s[:cut]), ",;:—-")) + ellipsis
}
