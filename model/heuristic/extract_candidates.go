package heuristic

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stratagate/stratagate/model"
)

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
		n, plain := 0, 0
		forEachSentence(m.Content, func(s string) {
			if n++; n > maxMsgSentences {
				return
			}
			if !utf8.ValidString(s) {
				return // a quote must be valid text and verbatim
			}
			c, ok := x.consider(i, m, s, assistant)
			if !ok || (c.plain && plain == maxStatementsPerMessage) {
				return
			}
			if c.plain {
				plain++
			}
			c.order = len(cands)
			cands = append(cands, c)
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
		if x.topicWords() == 0 {
			return c, false // an acknowledgement or greeting
		}
		subject := c.an.firstPers || named
		typed := c.an.typ != ""
		if !((subject && (typed || c.hasTime)) || (typed && c.hasTime)) {
			if !subject && !x.thirdPersonSubject() && !x.elidedSubject() {
				return c, false
			}
			c.plain = true // a statement without a cue
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
	keys := candidateKeys(s)
	if dst == nil {
		dst = keys[:0] // filtered in place: each key is written at or before where it was read
	}
	return x.withoutPersonWords(dst, keys)
}

// withoutPersonWords appends the keys that are not words of a known
// person's name to dst.
func (x *extractor) withoutPersonWords(dst, keys []string) []string {
	for _, k := range keys {
		if !x.personWords[k] {
			dst = append(dst, k)
		}
	}
	return dst
}

// candidateKeys returns the sorted distinct match keys of s before the
// person-name filter, which depends on the block: what is left of s
// depends on s alone.
func candidateKeys(s string) []string {
	var keys []string
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
		if isMatchKey(lw) {
			keys = append(keys, lw)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// earlierKeys caches candidateKeys of earlier cards' texts. Every block
// compares its candidates with up to 40 earlier cards of its thread, so
// a card's texts were reduced to keys for each of the blocks after it
// (3.5% of a 100k-turn ingest's CPU).
var earlierKeys textCache[[]string]

// cachedCandidateKeys is candidateKeys(s), from earlierKeys when there.
// The slice is shared: callers only read it.
func cachedCandidateKeys(s string) []string {
	return earlierKeys.get(s, func(s string) []string { return slices.Clip(candidateKeys(s)) })
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
