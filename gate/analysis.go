package gate

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events/temporal"
)

// Question is the analysis of a user question; see Analyze.
type Question struct {
	Text      string
	WH        string // one of the Wh* constants
	WantsTime bool   // the answer is a date or interval ("when", "what year", "how long ago")
	WantsList bool   // the answer is a list or a count ("which pets", "what are", "how many", "all")
	Entities  []string
	Time      *temporal.Resolution // first known time expression, resolved against now
	Terms     []string             // bm25 terms of the content (wh-phrase, lead-in and time expressions removed)
	Expanded  []string             // Terms + concept members + irregular verb forms + bm25 synonyms
	Query     string               // Expanded joined by spaces, for retrieval

	// Current: the question asks for the present state — a current-state
	// marker (now, currently, these days, still, 现在…) or a present-tense
	// auxiliary (does, is, has…) without a past marker, not a time
	// question and without a time of its own. Past: a past-tense
	// auxiliary (did, was…) or past marker (ago, used, previously…).
	Current bool
	Past    bool
	// Alternatives are the terms of an either-or question ("tea or
	// coffee" → tea, coff), one per alternative.
	Alternatives []string
	// Head are the terms of the wh-noun ("which package manager" →
	// packag, manager; "how many books" → book); nil when none.
	Head []string
	// Topic are the Terms that are neither terms of an entity (unless an
	// either-or alternative) nor reporting verbs (say, tell, mention…):
	// what evidence must cover besides the entity.
	Topic []string
	// Weights, when set, weigh Terms (same order) in the assessor's
	// coverage: the caller's corpus idf, so that covering a rare word
	// ("museum") counts for more than covering a common one ("go"). nil
	// weighs every term 1.
	Weights []float64

	// Now is the reference time the question was analysed at (zero when
	// none): "how long ago" answers count from it.
	Now time.Time
	// Ago: the question asks how long ago something happened ("How many
	// days ago…", "How long ago…"). Between: the terms of the two sides
	// of "between … and …" in a question asking a length of time. Both
	// are time questions; DurationUnit is the unit asked for (day, week,
	// month, year), empty for "how long". See duration.go.
	Ago          bool
	Between      [2][]string
	DurationUnit string
	// MentionTime: a time question about saying something ("When did Sam
	// mention the trip?", "…talk about…"): the answer is when the
	// evidence was said, its MentionedAt.
	MentionTime bool

	relation  relation          // where-questions: the relation cues to prefer
	altEntity map[int]bool      // indexes of Entities that are either-or alternatives
	altWord   map[string]string // alternative term → the word as written
	surface   map[string]string // term → question word it came from, for messages
	secondary map[string]bool   // terms of a purpose clause (see purposeSpan)
}

// relation selects the relation cues of a where-question.
type relation int

const (
	relLocation relation = 1 << iota
	relEmployer
)

// word is one word of the question: letters, digits and marks, with inner
// apostrophes and hyphens.
type word struct {
	text       string // as written, without a trailing possessive 's
	key        string // lower case, apostrophes removed (lexicon form)
	start, end int    // byte span in the question
	sentStart  bool   // first word of a sentence
	joined     bool   // separated from the previous word by white space only
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' || r == 'ʼ' || r == '＇' }

// scanWords splits text into words.
func scanWords(text string) []word {
	var out []word
	sentStart, joined := true, false
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			switch {
			case r == '.' || r == '?' || r == '!' || r == '。' || r == '？' || r == '！' || r == ';' || r == ':':
				sentStart = true
				joined = false
			case unicode.IsSpace(r):
			default:
				joined = false
			}
			i += size
			continue
		}
		start := i
		end := i
		for end < len(text) {
			r, size := utf8.DecodeRuneInString(text[end:])
			if isWordRune(r) {
				end += size
				continue
			}
			if isApostrophe(r) || r == '-' {
				if r2, _ := utf8.DecodeRuneInString(text[end+size:]); end+size < len(text) && isWordRune(r2) {
					end += size
					continue
				}
			}
			break
		}
		w := word{text: text[start:end], start: start, end: end, sentStart: sentStart, joined: joined && len(out) > 0}
		w.text = stripPossessive(w.text)
		var b strings.Builder
		for _, r := range strings.ToLower(w.text) {
			if !isApostrophe(r) {
				b.WriteRune(r)
			}
		}
		w.key = b.String()
		out = append(out, w)
		sentStart, joined = false, true
		i = end
	}
	return out
}

func stripPossessive(s string) string {
	for _, suf := range []string{"'s", "’s", "'S", "’S"} {
		if strings.HasSuffix(s, suf) && len(s) > len(suf) {
			return s[:len(s)-len(suf)]
		}
	}
	return s
}

// matchWh returns the rule matching words at i, or nil.
func matchWh(words []word, i int) *whRule {
	for k := range whPhrases {
		r := &whPhrases[k]
		if i+len(r.words) > len(words) {
			continue
		}
		ok := true
		for j, w := range r.words {
			if words[i+j].key != w {
				ok = false
				break
			}
		}
		if ok {
			return r
		}
	}
	return nil
}

// Analyze analyses a question asked at now (used to resolve relative time
// expressions in the question; a zero now keeps only explicit dates).
// It is pure and deterministic; see the package documentation.
func Analyze(question string, now time.Time) *Question {
	q := &Question{Text: question, WH: WhOther, surface: map[string]string{}}
	words := scanWords(question)
	blank := make([]bool, len(question)) // bytes removed from the content

	// Lead-in and wh-phrase.
	lead := 0
	var rule *whRule
	whAt := -1
	for lead < len(words) {
		if r := matchWh(words, lead); r != nil {
			rule, whAt = r, lead
			break
		}
		k := words[lead].key
		if auxWords[k] || leadWords[k] || commandWords[k] {
			lead++
			continue
		}
		break
	}
	leadCmdList := false
	for i := 0; i < lead && i < len(words); i++ {
		if listCommands[words[i].key] {
			leadCmdList = true
		}
		markBlank(blank, words[i].start, words[i].end)
	}
	firstAux := len(words) > 0 && auxWords[words[0].key]
	if rule == nil && !firstAux {
		for i := lead; i < len(words); i++ {
			if r := matchWh(words, i); r != nil {
				rule, whAt = r, i
				break
			}
		}
	}
	switch {
	case rule != nil:
		q.WH, q.WantsTime, q.WantsList = rule.wh, rule.time, rule.list
		markBlank(blank, words[whAt].start, words[whAt+len(rule.words)-1].end)
		// "which pets", "what books", "what are", "what kinds of".
		if (rule.wh == WhWhich || rule.wh == WhWhat) && whAt+1 < len(words) {
			next := words[whAt+1].key
			if next == "are" || next == "were" || isPlural(next) {
				q.WantsList = true
			}
		}
	default:
		zhFound := false
		for _, z := range zhPhrases {
			if at := strings.Index(question, z.text); at >= 0 {
				q.WH, q.WantsTime, q.WantsList = z.wh, z.time, z.list
				markBlank(blank, at, at+len(z.text))
				zhFound = true
				break
			}
		}
		if !zhFound {
			trimmed := strings.TrimRight(question, " ?？!！。.")
			if firstAux || strings.HasSuffix(trimmed, zhYesNo) {
				q.WH = WhYesNo
				if at := strings.LastIndex(question, zhYesNo); !firstAux && at >= 0 {
					markBlank(blank, at, at+len(zhYesNo))
				}
			}
		}
	}
	if leadCmdList {
		q.WantsList = true
	}
	for _, w := range words {
		if listWords[w.key] {
			q.WantsList = true
		}
	}
	q.Now = now
	analyseDuration(q, words)
	if q.WantsTime && !q.Ago && len(q.Between[0]) == 0 {
		for _, w := range words {
			if mentionVerbs[w.key] {
				q.MentionTime = true
			}
		}
	}

	// Framing words shape the answer, not its topic: not content.
	for _, w := range words {
		if framingWords[w.key] {
			markBlank(blank, w.start, w.end)
		}
	}

	// Current-state markers are not content: they set Current.
	explicitNow := false
	for i := 0; i < len(words); i++ {
		if currentWords[words[i].key] {
			explicitNow = true
			markBlank(blank, words[i].start, words[i].end)
			continue
		}
		for _, ph := range currentPhrases {
			if i+len(ph) <= len(words) && keysAt(words, i, ph) {
				explicitNow = true
				markBlank(blank, words[i].start, words[i+len(ph)-1].end)
			}
		}
	}
	for _, z := range zhCurrentWords {
		if at := strings.Index(question, z); at >= 0 {
			explicitNow = true
			markBlank(blank, at, at+len(z))
		}
	}
	present, past := false, false
	for _, w := range words {
		if presentAux[w.key] || pastAux[w.key] {
			present, past = presentAux[w.key], pastAux[w.key]
			break
		}
	}
	for _, w := range words {
		if pastMarkers[w.key] {
			past, present = true, false
		}
	}
	q.Past = past

	// Time expressions: the first known one is the question's time; all
	// are removed from the content terms.
	inTime := make([]bool, len(question))
	for _, m := range temporal.Find(question, now) {
		markBlank(blank, m.Offset, m.Offset+m.Length)
		markBlank(inTime, m.Offset, m.Offset+m.Length)
		if q.Time != nil || !m.Known() || m.Basis == temporal.BasisSaid {
			// A question's "just bought" is no time of its own.
			continue
		}
		if now.IsZero() && m.Basis != temporal.BasisExplicit {
			continue
		}
		r := m.Resolution
		q.Time = &r
	}

	// A present-tense question whose time contains now ("Where does Leo
	// live today?") asks for the current state, not for a dated item.
	if q.Time != nil && !past && (present || explicitNow) && !q.WantsTime && !now.IsZero() &&
		!now.Before(q.Time.Start) && (q.Time.End.IsZero() || now.Before(q.Time.End)) {
		q.Time = nil
		explicitNow = true
	}
	// A habit ("What does Sam do to relax?") holds across time: without
	// an explicit marker it is no current-state question.
	if present && !explicitNow && habitQuestion(words) {
		present = false
	}
	q.Current = !q.WantsTime && q.Time == nil && !past && (explicitNow || present) &&
		q.WH != WhWhy && q.WH != WhHowLong

	// Entities: capitalised words, merging adjacent ones ("New York").
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			q.Entities = appendUnique(q.Entities, strings.Join(cur, " "))
			cur = nil
		}
	}
	whEnd := whAt
	if rule != nil {
		whEnd = whAt + len(rule.words)
	}
	for i, w := range words {
		if !isEntityWord(w, i < lead || (i >= whAt && i < whEnd), inTime) {
			flush()
			continue
		}
		if len(cur) > 0 && !w.joined {
			flush()
		}
		cur = append(cur, w.text)
	}
	flush()

	// Content terms.
	content := []byte(question)
	for i := range content {
		if blank[i] {
			content[i] = ' '
		}
	}
	for _, w := range words {
		if blank[w.start] {
			continue
		}
		for _, t := range bm25.AppendTerms(nil, w.text) {
			if _, ok := q.surface[t]; !ok {
				q.surface[t] = strings.ToLower(w.text)
			}
		}
	}
	q.Terms = appendUnique(nil, bm25.AppendTerms(nil, string(content))...)
	// A purpose clause ("…to get more exposure") says why, and evidence
	// often words it otherwise: its terms count half and are not the key
	// term while the main clause has a topic term of its own.
	if p := purposeSpan(words, max(whAt, lead)); p >= 0 {
		main := map[string]bool{}
		for _, w := range words[:p] {
			if !blank[w.start] {
				for _, t := range bm25.AppendTerms(nil, w.text) {
					main[t] = true
				}
			}
		}
		for _, w := range words[p:] {
			if blank[w.start] {
				continue
			}
			for _, t := range bm25.AppendTerms(nil, w.text) {
				if !main[t] {
					if q.secondary == nil {
						q.secondary = map[string]bool{}
					}
					q.secondary[t] = true
				}
			}
		}
	}
	q.Expanded = expandTerms(q.Terms)
	q.Query = strings.Join(q.Expanded, " ")

	inTerms := map[string]bool{}
	for _, t := range q.Terms {
		inTerms[t] = true
	}
	entTerm := map[string]bool{}
	for _, e := range q.Entities {
		for _, t := range bm25.AppendTerms(nil, e) {
			entTerm[t] = true
		}
	}

	// The wh-noun: the words after which/what/how many or a list command
	// ("List all the drinks…"), up to an auxiliary, preposition,
	// stopword or name; "kind of" and the like are skipped.
	headFrom := -1
	switch {
	case rule != nil && (len(rule.words) == 1 && (rule.wh == WhWhich || rule.wh == WhWhat) || rule.wh == WhHowMany && rule.list):
		headFrom = whAt + len(rule.words)
	case rule == nil && leadCmdList:
		headFrom = lead
	}
	if headFrom >= 0 {
		var head []string
		for i := headFrom; i < len(words) && len(head) < 3; i++ {
			w := words[i]
			if headSkip[w.key] || (len(head) == 0 && bm25.IsStopword(w.key) && !auxWords[w.key]) {
				continue
			}
			r, _ := utf8.DecodeRuneInString(w.text)
			if auxWords[w.key] || leadWords[w.key] || bm25.IsStopword(w.key) || isWhWord(w.key) || blank[w.start] || unicode.IsUpper(r) {
				break
			}
			for _, t := range bm25.AppendTerms(nil, w.text) {
				if inTerms[t] && !entTerm[t] {
					head = appendUnique(head, t)
				}
			}
		}
		q.Head = head
	}

	// Either-or: the content words on both sides of "or" (names too:
	// "Vim or Emacs"). Alternatives are Topic terms; alternative entities
	// count as one entity, covered when one of them is.
	for i := 1; i+1 < len(words); i++ {
		if words[i].key != "or" {
			continue
		}
		for _, w := range []word{words[i-1], words[i+1]} {
			ts := bm25.AppendTerms(nil, w.text)
			if len(ts) == 1 && inTerms[ts[0]] {
				q.Alternatives = appendUnique(q.Alternatives, ts[0])
				if q.altWord == nil {
					q.altWord = map[string]string{}
				}
				q.altWord[ts[0]] = w.text
			}
		}
	}
	if len(q.Alternatives) < 2 {
		q.Alternatives = nil
	}
	isAlt := map[string]bool{}
	for _, a := range q.Alternatives {
		isAlt[a] = true
	}
	for _, t := range q.Terms {
		if (!entTerm[t] || isAlt[t]) && !weakTerms[canon(t)] {
			q.Topic = append(q.Topic, t)
		}
	}
	for i, e := range q.Entities {
		ts := bm25.AppendTerms(nil, e)
		if len(ts) == 1 && isAlt[ts[0]] {
			if q.altEntity == nil {
				q.altEntity = map[int]bool{}
			}
			q.altEntity[i] = true
		}
	}

	if q.WH == WhWhere {
		for _, t := range q.Topic {
			if locationTopics[canon(t)] {
				q.relation |= relLocation
			}
			if employerTopics[canon(t)] {
				q.relation |= relEmployer
			}
		}
	}
	return q
}

// keysAt reports whether the word keys at i are phrase.
func keysAt(words []word, i int, phrase []string) bool {
	if i < 0 || i+len(phrase) > len(words) {
		return false
	}
	for j, k := range phrase {
		if words[i+j].key != k {
			return false
		}
	}
	return true
}

// expandTerms returns terms followed, term by term, by their expansion
// (see termExpansion), deduplicated.
func expandTerms(terms []string) []string {
	out := append([]string(nil), terms...)
	syn := bm25.ExpandQuery(terms)
	for i, t := range terms {
		out = appendUnique(out, termExpansion(t, syn[i][1:])...)
	}
	return out
}

// termExpansion lists what a question term expands to, in this order: the
// base and irregular forms of its verb, its bm25 synonyms, and the concept
// members of the term and of each synonym ("宠物" → pet → cat, dog, …).
func termExpansion(t string, synonyms []string) []string {
	var out []string
	base := canon(t)
	if base != t {
		out = append(out, base)
	}
	out = appendUnique(out, verbForms[base]...)
	out = appendUnique(out, synonyms...)
	out = appendUnique(out, conceptMembers[t]...)
	for _, s := range synonyms {
		out = appendUnique(out, conceptMembers[s]...)
	}
	return out
}

// expansionSet is the set of canonical terms that cover question term t.
func expansionSet(t string) map[string]bool {
	set := map[string]bool{canon(t): true}
	for _, x := range termExpansion(t, bm25.ExpandQuery([]string{t})[0][1:]) {
		set[canon(x)] = true
	}
	return set
}

func markBlank(blank []bool, from, to int) {
	for i := from; i < to && i < len(blank); i++ {
		if i >= 0 {
			blank[i] = true
		}
	}
}

// isPlural guesses whether a lower-case word is a plural noun.
func isPlural(k string) bool {
	if irregularPlurals[k] {
		return true
	}
	if len(k) <= 3 || notPlural[k] || auxWords[k] || bm25.IsStopword(k) {
		return false
	}
	if !strings.HasSuffix(k, "s") {
		return false
	}
	return !strings.HasSuffix(k, "ss") && !strings.HasSuffix(k, "us") && !strings.HasSuffix(k, "is")
}

// isEntityWord reports whether w can be (part of) a named entity.
func isEntityWord(w word, lexical bool, inTime []bool) bool {
	r, _ := utf8.DecodeRuneInString(w.text)
	if !unicode.IsUpper(r) || lexical || inTime[w.start] || calendarWords[w.key] {
		return false
	}
	if w.sentStart {
		// Capitalisation at a sentence start says nothing: framing words
		// and adverbs ("According", "Recently") are no names.
		k := w.key
		if auxWords[k] || leadWords[k] || commandWords[k] || bm25.IsStopword(k) || isWhWord(k) || sentenceFraming[k] ||
			framingWords[k] || strings.HasSuffix(k, "ly") || strings.HasSuffix(k, "ing") {
			return false
		}
	}
	return true
}

func isWhWord(k string) bool {
	for _, r := range whPhrases {
		if r.words[0] == k {
			return true
		}
	}
	return false
}
