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

// ---- names ---------------------------------------------------------------

// nkey normalises a name as the graph does: lower case, white space
// collapsed.
func nkey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		return strings.Join(strings.Fields(strings.ToLower(s)), " ")
	}
	s = strings.ToLower(s) // allocates only when there is an upper-case letter
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c != ' ' && c <= ' ') || (c == ' ' && prevSpace) {
			return strings.Join(strings.Fields(s), " ")
		}
		prevSpace = c == ' '
	}
	if prevSpace && s != "" {
		return strings.TrimRight(s, " ")
	}
	return s
}

// cleanName returns s trimmed, valid and with white space collapsed, and
// whether it can name a node (1–128 runes with a letter).
func cleanName(s string) (string, bool) {
	s = cleanText(validUTF8(s))
	if s == "" || utf8.RuneCountInString(s) > maxProjNameRunes || !hasLetter(s) {
		return "", false
	}
	return s, true
}

// personName returns s cleaned when it can name a person: not an
// assistant, system or tool speaker (a role word, or a name with "_",
// "/", "@" or ":" such as "web_search").
func personName(s string) (string, bool) {
	n, ok := cleanName(s)
	if !ok || strings.ContainsAny(n, "_/@:") || notPersonName(strings.ToLower(n)) {
		return "", false
	}
	return n, true
}

// learn collects what the rules need to know about the whole batch: the
// known nodes, the full names of persons, the multi-word entities, and
// the batch's projects.
func (p *projector) learn() {
	for i, n := range p.in.Nodes {
		for _, s := range append([]string{n.Name}, n.Aliases...) {
			if c, ok := cleanName(s); ok {
				if _, dup := p.known[nkey(c)]; !dup {
					p.known[nkey(c)] = i
				}
			}
		}
	}
	addFull := func(s string) {
		n, ok := personName(s)
		if !ok || !strings.Contains(n, " ") {
			return
		}
		k := nkey(n)
		if _, dup := p.fulls[k]; dup {
			return
		}
		p.fulls[k] = n
		first, _, _ := strings.Cut(k, " ")
		if other, seen := p.firsts[first]; seen && other != n {
			p.firsts[first] = ""
		} else if !seen {
			p.firsts[first] = n
		}
	}
	for _, n := range p.in.Nodes {
		if n.Kind == kindPerson {
			addFull(n.Name)
		}
	}
	for i := range p.in.Events {
		ev := &p.in.Events[i]
		for _, s := range ev.Speakers {
			addFull(s)
		}
		for _, s := range ev.Participants {
			addFull(s)
			if n, ok := personName(s); ok {
				p.partic[nkey(n)] = true
			}
		}
	}
	addOrg := func(s string) {
		n, ok := cleanName(s)
		if !ok || !strings.Contains(n, " ") {
			return
		}
		first, _, _ := strings.Cut(nkey(n), " ")
		if other, seen := p.orgs[first]; seen && nkey(other) != nkey(n) {
			p.orgs[first] = ""
		} else if !seen {
			p.orgs[first] = n
		}
	}
	for _, n := range p.in.Nodes {
		if n.Kind == kindOrganization {
			addOrg(n.Name)
		}
	}
	for i := range p.in.Events {
		for _, s := range p.in.Events[i].Entities {
			addOrg(s)
		}
	}
	for _, n := range p.in.Nodes {
		if n.Kind == kindProject {
			p.addProject(n.Name)
		}
	}
	for i := range p.in.Events {
		ev := &p.in.Events[i]
		p.ev = ev
		for _, t := range eventTexts(ev) {
			if strings.Contains(t, "called") || strings.Contains(t, "named") || strings.Contains(t, "for ") {
				p.load(t)
				p.learnProjects()
			}
		}
	}
	p.ev = nil
}

// addProject records name as a project of the batch and returns its
// spelling (the first one recorded, or the known node's name).
func (p *projector) addProject(name string) string {
	n, ok := cleanName(name)
	if !ok {
		return ""
	}
	k := nkey(n)
	if i, ok := p.known[k]; ok && p.in.Nodes[i].Kind == kindProject {
		n, _ = cleanName(p.in.Nodes[i].Name)
		k = nkey(n)
	}
	if s, ok := p.projSet[k]; ok {
		return s
	}
	p.projSet[k] = n
	p.projects = append(p.projects, n)
	return n
}

// learnProjects records the projects named in the loaded text: "a
// project/app called X" and "use Y for X".
func (p *projector) learnProjects() {
	for si := 0; si < len(p.sents); si++ {
		a, b := p.sentRange(si)
		tool := false
		for i := a; i < b; i++ {
			t := &p.toks[i]
			if (t.low == "called" || t.low == "named") && i > a && projectNoun(p.toks[i-1].low) {
				if name, _, ok := p.object(i+1, b, false); ok && p.projectCandidate(name) {
					p.addProject(name)
				}
			}
			if list := projTriggerIndex[t.low]; len(list) > 0 {
				for _, ph := range list {
					if (ph.act == actTool || ph.act == actDeploy || ph.act == actSwitchFrom) && p.phraseAt(i, b, ph.words) {
						tool = true
					}
				}
			}
			if tool && t.low == "for" {
				if name, _, ok := p.object(i+1, b, false); ok && p.projectCandidate(name) {
					p.addProject(name)
				}
			}
		}
	}
}

// projectCandidate reports whether a capitalised name may be a project:
// not a person, not a known node of another kind, not a lexicon term.
func (p *projector) projectCandidate(name string) bool {
	k := nkey(name)
	if i, ok := p.known[k]; ok {
		return p.in.Nodes[i].Kind == kindProject
	}
	if p.isPerson(name) {
		return false
	}
	return !isTerm(name)
}

// resolvePerson returns the spelling of the person name n: a known person
// node's name, a full name of the batch, or — for a single word that is
// the first name of exactly one full name of the batch — that full name.
func (p *projector) resolvePerson(n string) string {
	k := nkey(n)
	if i, ok := p.known[k]; ok && p.in.Nodes[i].Kind == kindPerson {
		if c, ok := cleanName(p.in.Nodes[i].Name); ok {
			return c
		}
	}
	if f, ok := p.fulls[k]; ok {
		return f
	}
	if !strings.Contains(k, " ") {
		if f := p.firsts[k]; f != "" {
			return f
		}
	}
	return n
}

// isPerson reports whether name resolves to a person known to the batch.
func (p *projector) isPerson(name string) bool {
	k := nkey(name)
	if i, ok := p.known[k]; ok {
		return p.in.Nodes[i].Kind == kindPerson
	}
	if _, ok := p.fulls[k]; ok {
		return true
	}
	if !strings.Contains(k, " ") && p.firsts[k] != "" {
		return true
	}
	return p.partic[k]
}

// knownKind returns the kind and name of the known node named name.
func (p *projector) knownKind(name string) (kind, canon string, ok bool) {
	i, ok := p.known[nkey(name)]
	if !ok {
		return "", "", false
	}
	c, okc := cleanName(p.in.Nodes[i].Name)
	if !okc {
		return "", "", false
	}
	return p.in.Nodes[i].Kind, c, true
}

// resolveOrg returns the organization name n, or the one multi-word
// entity of the batch (or known organization) whose first word n is.
func (p *projector) resolveOrg(n string) string {
	if kind, c, ok := p.knownKind(n); ok && kind == kindOrganization {
		return c
	}
	k := nkey(n)
	if !strings.Contains(k, " ") {
		if o := p.orgs[k]; o != "" {
			return o
		}
	}
	return n
}

// selfOf returns the person "I" refers to in ev: its one person speaker;
// nobody when it has several, or only non-person speakers; with no
// speakers at all, the participant its summary is labelled with
// ("Leo Park: …"), nobody when that label is an assistant, else its first
// participant.
func (p *projector) selfOf(ev *model.ProjectEvent) string {
	var persons []string
	anySpeaker := false
	for _, s := range ev.Speakers {
		if strings.TrimSpace(s) == "" {
			continue
		}
		anySpeaker = true
		if n, ok := personName(s); ok {
			n = p.resolvePerson(n)
			if !containsFold(persons, n) {
				persons = append(persons, n)
			}
		}
	}
	if anySpeaker {
		if len(persons) == 1 {
			return persons[0]
		}
		return ""
	}
	if label, _, ok := strings.Cut(ev.Summary, ":"); ok && utf8.RuneCountInString(label) <= 64 {
		label = strings.TrimSpace(validUTF8(label))
		if notPersonName(strings.ToLower(label)) {
			return ""
		}
		for _, s := range ev.Participants {
			if n, ok := personName(s); ok && strings.EqualFold(n, label) {
				return p.resolvePerson(n)
			}
		}
	}
	for _, s := range ev.Participants {
		if n, ok := personName(s); ok {
			return p.resolvePerson(n)
		}
		break
	}
	return ""
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
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
			if isWordStart(r2) || unicode.IsMark(r2) {
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

// ---- names in text -----------------------------------------------------

// nameWordAt reports whether token i can be part of a capitalised name.
func (p *projector) nameWordAt(i int) bool {
	t := &p.toks[i]
	if !t.cap || !hasLetter(t.text) {
		return false
	}
	low := t.low
	if t.poss > 0 {
		low = strings.ToLower(t.text[:t.poss])
	}
	return !nonName(low) && !firstPersonSingular(low) && !firstPersonPlural(low)
}

// group returns the capitalised name starting at token i (after an
// optional "the" when allowThe): up to maxNameWords name words separated
// by single spaces, ending early at a possessive. It also returns the
// index after the name.
func (p *projector) group(i, b int, allowThe bool) (string, int, bool) {
	if allowThe && i < b && p.toks[i].low == "the" && i+1 < b && !p.toks[i+1].brk {
		i++
	}
	if i >= b || !p.nameWordAt(i) {
		return "", i, false
	}
	j := i
	end := p.toks[i].end
	for j < b && j-i < maxNameWords {
		if j > i && (!p.toks[j].space || !p.nameWordAt(j)) {
			break
		}
		if p.toks[j].poss > 0 {
			end = p.toks[j].start + p.toks[j].poss
			j++
			break
		}
		end = p.toks[j].end
		j++
	}
	name, ok := cleanName(p.text[p.toks[i].start:end])
	return name, j, ok
}

// object returns the capitalised name at token i like group, but no
// name that ends in a possessive ("Ana's place" names no place).
func (p *projector) object(i, b int, allowThe bool) (string, int, bool) {
	name, end, ok := p.group(i, b, allowThe)
	if !ok || p.toks[end-1].poss > 0 {
		return "", end, false
	}
	return name, end, true
}

// groupBefore returns the capitalised name that ends with token j (or
// with the possessive token j), scanning back at most maxNameWords words.
func (p *projector) groupBefore(j, a int) (string, int, bool) {
	if j < a || !p.nameWordAt(j) {
		return "", j, false
	}
	i := j
	for i-1 >= a && j-i+1 < maxNameWords && p.toks[i].space && p.nameWordAt(i-1) && p.toks[i-1].poss == 0 {
		i--
	}
	end := p.toks[j].end
	if p.toks[j].poss > 0 {
		end = p.toks[j].start + p.toks[j].poss
	}
	name, ok := cleanName(p.text[p.toks[i].start:end])
	return name, i, ok
}

// termAt returns the lexicon term at token i and the index after it.
// A term that is also a common word ("render") counts in lower case only
// when loose is set.
func (p *projector) termAt(i, b int, loose bool) (*projTerm, int) {
	if i >= b {
		return nil, i
	}
	for _, ph := range projTermIndex[p.toks[i].low] {
		if !p.phraseAt(i, b, ph.words) {
			continue
		}
		if len(ph.words) == 1 && lowerOnlyTerm(ph.words[0]) && !loose && !p.toks[i].cap {
			continue
		}
		return ph.term, i + len(ph.words)
	}
	return nil, i
}

// placeOK reports whether name can be a place: not a person, not a known
// node of another kind, not a lexicon term.
func (p *projector) placeOK(name string) bool {
	if kind, _, ok := p.knownKind(name); ok {
		return kind == kindPlace
	}
	if p.isPerson(name) || p.isProject(name) {
		return false
	}
	return !isTerm(name)
}

// orgOK reports whether name can be an organization.
func (p *projector) orgOK(name string) bool {
	if kind, _, ok := p.knownKind(name); ok {
		return kind == kindOrganization
	}
	if p.isPerson(name) || p.isProject(name) {
		return false
	}
	return !isTerm(name)
}

// personOK reports whether name can be a person.
func (p *projector) personOK(name string) bool {
	if kind, _, ok := p.knownKind(name); ok {
		return kind == kindPerson
	}
	if p.isProject(name) {
		return false
	}
	return !isTerm(name)
}

// isProject reports whether name is a project of the batch.
func (p *projector) isProject(name string) bool {
	_, ok := p.projSet[nkey(name)]
	return ok
}

// classify turns a name used as a subject into a subject: a known node, a
// project of the batch, a person of the batch, nothing for another entity
// of the event, else a person.
func (p *projector) classify(name string) (subject, bool) {
	if kind, c, ok := p.knownKind(name); ok {
		if kind == kindPerson {
			return subject{kindPerson, p.resolvePerson(c)}, true
		}
		return subject{kind, c}, true
	}
	if s, ok := p.projSet[nkey(name)]; ok {
		return subject{kindProject, s}, true
	}
	if p.isPerson(name) {
		return subject{kindPerson, p.resolvePerson(name)}, true
	}
	for _, e := range p.ev.Entities {
		if strings.EqualFold(strings.TrimSpace(e), name) {
			return subject{}, false
		}
	}
	if isTerm(name) {
		return subject{}, false
	}
	return subject{kindPerson, p.resolvePerson(name)}, true
}

// ---- subjects ------------------------------------------------------------

// subjectInfo is what subject scanning found before a trigger.
type subjectInfo struct {
	subs     []subject
	usedTo   bool // "used to" stood between subject and trigger
	intent   bool // a modal or intent word did ("I'll", "want to")
	implicit bool // no subject word: the clause starts at the trigger
	would    bool // the subject word was "I'd"/"we'd"
}

// subjects finds the subjects of the trigger at token i of the sentence
// starting at a. When token i is itself a subject word ("i'm a") it is
// the subject.
func (p *projector) subjects(i, a int) (subjectInfo, bool) {
	var si subjectInfo
	j := i - 1
	if w := p.toks[i].low; firstPersonSingular(w) || firstPersonPlural(w) {
		j = i
	} else {
		for steps := 0; j >= a && steps < subjectWindow; steps++ {
			if p.toks[j+1].brk {
				break
			}
			w := p.toks[j].low
			if w == "to" && j-1 >= a && p.toks[j-1].low == "used" && !p.toks[j].brk {
				si.usedTo = true
				j -= 2
				continue
			}
			if !subjectSkip(w) {
				break
			}
			if intentWord(w) {
				si.intent = true
			}
			j--
		}
		if j < a || p.toks[j+1].brk {
			if p.self == "" {
				return si, false
			}
			si.implicit = true
			si.subs = append(si.subs, subject{kindPerson, p.self})
			return si, true
		}
	}
	s, start, ok := p.subjectAt(j, a, &si)
	if !ok {
		return si, false
	}
	si.subs = append(si.subs, s)
	// "Mia and I", "Leo and Ana".
	if start-2 >= a && !p.toks[start].brk && p.toks[start-1].low == "and" && !p.toks[start-1].brk {
		var tmp subjectInfo
		if s2, _, ok := p.subjectAt(start-2, a, &tmp); ok && s2 != s {
			si.subs = append(si.subs, s2)
		}
	}
	return si, true
}

// subjectAt reads the subject word ending at token j: I/my forms (the
// event's self), we forms ("we"), a possessive or plain capitalised name.
// It returns the subject and the index of its first token.
func (p *projector) subjectAt(j, a int, si *subjectInfo) (subject, int, bool) {
	w := p.toks[j].low
	switch {
	case firstPersonSingular(w):
		if w == "i'll" {
			si.intent = true
		}
		if w == "i'd" {
			si.would, si.intent = true, true
		}
		if p.self == "" {
			return subject{}, j, false
		}
		return subject{kindPerson, p.self}, j, true
	case firstPersonPlural(w):
		if w == "we'll" || w == "let's" || w == "lets" {
			si.intent = true
		}
		if w == "we'd" {
			si.would, si.intent = true, true
		}
		return subject{"we", ""}, j, true
	}
	name, start, ok := p.groupBefore(j, a)
	if !ok {
		return subject{}, j, false
	}
	s, ok := p.classify(name)
	return s, start, ok
}

// intentWord reports whether a skipped word makes a statement a plan or a
// wish rather than a fact.
func intentWord(w string) bool {
	switch w {
	case "will", "would", "shall", "gonna", "going", "want", "wants", "wanted",
		"plan", "plans", "planned", "planning", "need", "needs", "to":
		return true
	}
	return false
}

// negatedBefore reports whether token i is negated: a negation word
// among the negationWindow words before it in its clause, up to its
// subject ("I don't live in", "I'll never work at"), or a conditional
// right before that subject ("if I'm …", "whether we use …").
func (p *projector) negatedBefore(i, a int) bool {
	for j := i - 1; j >= a && j >= i-negationWindow; j-- {
		w := p.toks[j].low
		if negationWord(w) {
			return true
		}
		if firstPersonSingular(w) || firstPersonPlural(w) || p.toks[j].cap {
			return j-1 >= a && !p.toks[j].brk && conditionalWord(p.toks[j-1].low)
		}
		if p.toks[j].brk {
			break
		}
	}
	return false
}

// conditionalWord reports whether w, right before a subject, makes its
// statement hypothetical.
func conditionalWord(w string) bool {
	switch w {
	case "if", "whether", "unless", "maybe", "perhaps", "when":
		return true
	}
	return false
}

// persons returns the person subjects of si, "we" read as the event's
// self.
func (p *projector) persons(si subjectInfo) []string {
	var out []string
	for _, s := range si.subs {
		name := ""
		switch s.kind {
		case kindPerson:
			name = s.name
		case "we":
			name = p.self
		}
		if name != "" && !containsFold(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// statusPlanned reports whether the current event is planned or
// cancelled: it did not happen (yet).
func (p *projector) statusPlanned() bool {
	switch strings.ToLower(strings.TrimSpace(p.ev.Status)) {
	case "planned", "cancelled", "canceled":
		return true
	}
	return false
}

// ---- the project of a decision --------------------------------------------

// projectFor returns the project a "we" decision in the sentence [a, b)
// is about: the name after a "for" at or after token from ("use Postgres
// for Atlas"); else the first batch project named by the event's
// entities or the sentence; else the batch's only project; else "".
func (p *projector) projectFor(a, b, from int) string {
	for k := from; k < b-1; k++ {
		if p.toks[k].low != "for" {
			continue
		}
		if name, _, ok := p.object(k+1, b, false); ok && p.projectCandidate(name) {
			return p.addProject(name)
		}
	}
	for _, e := range p.ev.Entities {
		if s, ok := p.projSet[nkey(e)]; ok {
			return s
		}
	}
	for k := a; k < b; k++ {
		if s, ok := p.projSet[p.toks[k].low]; ok {
			return s
		}
	}
	if len(p.projects) == 1 {
		return p.projects[0]
	}
	return ""
}

// ---- sentences ------------------------------------------------------------

// sentence applies the rules to sentence si of the loaded text.
func (p *projector) sentence(si int) {
	if question(p.sents[si]) {
		return
	}
	a, b := p.sentRange(si)
	launched := false
	for i := a; i < b; i++ {
		t := &p.toks[i]
		if rel, plural := relationKind(t.low); rel != "" {
			p.relationWord(i, a, b, rel, plural)
		}
		if petSpecies(t.low) {
			p.pet(i, a, b)
		}
		switch t.low {
		case "called", "named":
			p.naming(i, a, b)
		case "person":
			p.personType(i, a)
		case "me":
			p.callMe(i, a, b)
		case "aka", "a.k.a", "also", "or", "short":
			p.aliasConnector(i, a, b)
		}
		if homeNoun(t.low) {
			p.home(i, a)
		}
		if t.cap {
			p.aliasParen(i, b)
		}
		if !launched && launchWord(t.low) {
			launched = true
			p.launch(si, i, a, b)
		}
		for _, ph := range projTriggerIndex[t.low] {
			if p.phraseAt(i, b, ph.words) {
				p.trigger(ph.act, i, i+len(ph.words), a, b)
				break
			}
		}
	}
}

// trigger runs the action of a trigger phrase at [i, j) of the sentence
// [a, b).
func (p *projector) trigger(act projAct, i, j, a, b int) {
	if p.negatedBefore(i, a) {
		return
	}
	switch act {
	case actInNow:
		p.inNow(i, j, a, b)
		return
	case actMovingTo:
		if term, _ := p.termAt(j, b, false); term != nil {
			p.tool(i, j, a, b, false)
			return
		}
	case actMovedTo:
		if term, _ := p.termAt(j, b, false); term != nil {
			p.tool(i, j, a, b, false)
			return
		}
	}
	si, ok := p.subjects(i, a)
	if !ok {
		return
	}
	switch act {
	case actLivesIn, actMovedTo:
		if si.intent && !si.usedTo {
			return
		}
		place, end, ok := p.object(j, b, true)
		if !ok || !p.placeOK(place) {
			return
		}
		var from string
		if act == actMovedTo && end+1 < b && p.toks[end].low == "from" && !p.toks[end].brk {
			if f, _, ok := p.object(end+1, b, true); ok && p.placeOK(f) {
				from = f
			}
		}
		for _, person := range p.persons(si) {
			if si.usedTo {
				p.edge(model.OpCloseEdge, kindPerson, person, relLivesIn, place, "", "")
				continue
			}
			if from != "" {
				p.edge(model.OpCloseEdge, kindPerson, person, relLivesIn, from, "", "")
			}
			p.edge(model.OpAddEdge, kindPerson, person, relLivesIn, place, kindPlace, "")
			p.homed[nkey(person)] = true
		}
	case actMovedFrom:
		if term, _ := p.termAt(j, b, false); term != nil {
			p.switchFrom(si, i, j, a, b)
			return
		}
		if si.intent {
			return
		}
		from, end, ok := p.object(j, b, true)
		if !ok || !p.placeOK(from) {
			return
		}
		to := ""
		if end+1 < b && p.toks[end].low == "to" && !p.toks[end].brk {
			if t, _, ok := p.object(end+1, b, true); ok && p.placeOK(t) {
				to = t
			}
		}
		for _, person := range p.persons(si) {
			p.edge(model.OpCloseEdge, kindPerson, person, relLivesIn, from, "", "")
			if to != "" {
				p.edge(model.OpAddEdge, kindPerson, person, relLivesIn, to, kindPlace, "")
				p.homed[nkey(person)] = true
			}
		}
	case actLeftPlace:
		place, _, ok := p.object(j, b, true)
		if !ok || !p.placeOK(place) || si.intent {
			return
		}
		for _, person := range p.persons(si) {
			p.edge(model.OpCloseEdge, kindPerson, person, relLivesIn, place, "", "")
		}
	case actMovingTo:
		place, _, ok := p.object(j, b, true)
		if !ok || !p.placeOK(place) || p.self == "" {
			return
		}
		for _, person := range p.persons(si) {
			if strings.EqualFold(person, p.self) && !si.implicit {
				p.pending[nkey(person)] = pendingMove{place: place, event: p.ev.ID}
			}
		}
	case actMoved:
		if si.intent || p.statusPlanned() {
			return
		}
		if j < b && !p.toks[j].brk {
			switch p.toks[j].low {
			case "to", "from", "out", "away", "back", "over", "into", "in":
				return // a phrase this rule does not read
			}
		}
		for _, person := range p.persons(si) {
			mv, ok := p.pending[nkey(person)]
			if !ok || p.homed[nkey(person)] {
				continue
			}
			vf := p.ev.HappenedStart
			if _, err := time.Parse(time.RFC3339, vf); err != nil {
				vf = p.validMention()
			}
			cites := []uint64{p.ev.ID}
			if mv.event != p.ev.ID {
				cites = append(cites, mv.event)
			}
			p.emitEdge(model.OpAddEdge, kindPerson, person, relLivesIn, mv.place, kindPlace, vf, cites)
			p.homed[nkey(person)] = true
		}
	case actWorksAt, actEmployer:
		org, end, ok := p.object(j, b, true)
		if !ok {
			return
		}
		org = p.resolveOrg(org)
		if !p.orgOK(org) {
			return
		}
		role := ""
		if end+1 < b && p.toks[end].low == "as" && !p.toks[end].brk {
			role = p.rolePhrase(end+1, b)
		}
		if p.toks[i].low == "joined" {
			// "joined" also takes people and events: only a club-like
			// name is a membership, and only a known organization, a
			// company-like name or "as a ROLE" is a job.
			last := nkey(org)
			last = last[strings.LastIndexByte(last, ' ')+1:]
			if orgNoun(last) {
				for _, person := range p.persons(si) {
					p.edge(model.OpAddEdge, kindPerson, person, relMemberOf, org, kindOrganization, "")
				}
				return
			}
			kind, _, known := p.knownKind(org)
			if !(known && kind == kindOrganization) && !companySuffix(last) && role == "" && !p.joinedEnd(end, b) {
				return
			}
		}
		for _, person := range p.persons(si) {
			if si.usedTo {
				p.edge(model.OpCloseEdge, kindPerson, person, relWorksAt, org, "", "")
				continue
			}
			p.edge(model.OpAddEdge, kindPerson, person, relWorksAt, org, kindOrganization, "")
			p.employer[nkey(person)+"\x00"+nkey(org)] = true
			if role != "" {
				p.fact(kindPerson, person, keyRole, role, "")
			}
		}
	case actLeftOrg:
		org, _, ok := p.object(j, b, true)
		if !ok || si.intent {
			return
		}
		org = p.resolveOrg(org)
		for _, person := range p.persons(si) {
			kind, _, known := p.knownKind(org)
			if (known && kind == kindOrganization) || p.employer[nkey(person)+"\x00"+nkey(org)] {
				p.edge(model.OpCloseEdge, kindPerson, person, relWorksAt, org, "", "")
			}
		}
	case actRoleAs, actRoleIs:
		if si.usedTo {
			return
		}
		role, end := p.roleAt(j, b)
		if role == "" {
			if act == actRoleIs {
				p.diet(si, j, b)
			}
			return
		}
		var persons []string
		for _, s := range si.subs {
			switch {
			case s.kind == kindPerson:
				persons = append(persons, s.name)
			case s.kind == "we" && act == actRoleAs && p.self != "":
				persons = append(persons, p.self)
			}
		}
		for _, person := range persons {
			p.fact(kindPerson, person, keyRole, role, "")
		}
		p.roleOrg(persons, end, b)
	case actTool:
		p.toolFor(si, i, j, a, b, false)
	case actToolTerm:
		if term, _ := p.termAt(j, b, false); term != nil {
			p.toolFor(si, i, j, a, b, false)
		}
	case actSwitchFrom:
		p.switchFrom(si, i, j, a, b)
	case actDeploy:
		p.toolFor(si, i, j, a, b, true)
	case actDrinks, actIndent:
		if si.intent || si.usedTo {
			return
		}
		k := j
		for k < b && valueDeterminer(p.toks[k].low) {
			k++
		}
		term, _ := p.termAt(k, b, false)
		if term == nil || (act == actDrinks && term.cat != catDrink) || (act == actIndent && term.cat != catIndent) {
			return
		}
		p.dispatch(si, term.cat, term.canon, a, b, j)
	case actLikes, actDislikes:
		p.likes(si, act, i, j, b)
	case actHobby:
		if si.intent || si.usedTo {
			return
		}
		k := j
		for k < b && valueDeterminer(p.toks[k].low) {
			k++
		}
		if term, _ := p.termAt(k, b, false); term != nil && term.cat == catHobby {
			for _, person := range p.persons(si) {
				p.fact(kindPerson, person, keyHobby, term.canon, "")
			}
		}
	case actDiet:
		if si.usedTo {
			return
		}
		p.diet(si, j, b)
	case actFriendsWith:
		for _, friend := range p.people(j, b) {
			for _, person := range p.persons(si) {
				if !strings.EqualFold(person, friend) {
					p.edge(model.OpAddEdge, kindPerson, person, relFriendOf, friend, kindPerson, "")
				}
			}
		}
	case actMet:
		if si.intent {
			return
		}
		subs := p.persons(si)
		others := p.people(j, b)
		from := ""
		for _, s := range subs {
			if strings.EqualFold(s, p.self) {
				from = s
			}
		}
		if len(others) == 0 && len(subs) > 1 {
			if from == "" {
				from = subs[0]
			}
			others = subs
		}
		if len(others) > 0 && from == "" && len(subs) > 0 {
			from = subs[0]
		}
		for _, o := range others {
			if from != "" && !strings.EqualFold(from, o) {
				p.edge(model.OpAddEdge, kindPerson, from, relKnows, o, kindPerson, "")
			}
		}
	case actVisited:
		if si.intent || p.statusPlanned() {
			return
		}
		place, _, ok := p.object(j, b, true)
		if !ok || !p.placeOK(place) {
			return
		}
		for _, person := range p.persons(si) {
			p.edge(model.OpAddEdge, kindPerson, person, relVisited, place, kindPlace, "")
		}
	case actWorksOn:
		name, _, ok := p.object(j, b, true)
		if !ok || !p.isProject(name) || si.usedTo {
			return
		}
		proj := p.addProject(name)
		for _, person := range p.persons(si) {
			p.edge(model.OpAddEdge, kindPerson, person, relWorksOn, proj, kindProject, "")
		}
	case actMemberOf:
		org, _, ok := p.object(j, b, true)
		if !ok || !p.orgOK(org) || si.usedTo {
			return
		}
		for _, person := range p.persons(si) {
			p.edge(model.OpAddEdge, kindPerson, person, relMemberOf, org, kindOrganization, "")
		}
	case actLocatedIn:
		place, _, ok := p.object(j, b, true)
		if !ok || !p.placeOK(place) {
			return
		}
		for _, s := range si.subs {
			switch s.kind {
			case kindOrganization, kindProject:
				p.edge(model.OpAddEdge, s.kind, s.name, relLocatedIn, place, kindPlace, "")
			case kindPerson:
				if p.toks[i].low == "based" && !si.intent {
					p.edge(model.OpAddEdge, kindPerson, s.name, relLivesIn, place, kindPlace, "")
				}
			}
		}
	}
}

// joinedEnd reports whether "joined X" ends at token end as a job
// statement does: at the end of the clause, or before a time ("last
// month", "in 2021", "this week", "yesterday") — not before "for
// lunch", "at the park", "and Ana".
func (p *projector) joinedEnd(end, b int) bool {
	if end >= b || p.toks[end].brk {
		return true
	}
	switch w := p.toks[end].low; w {
	case "last", "this", "recently", "today", "yesterday", "back", "full-time", "officially":
		return true
	case "in", "on":
		if end+1 < b && !p.toks[end+1].brk {
			n := p.toks[end+1].low
			return strings.ContainsFunc(n, unicode.IsDigit) || calendarWord(n)
		}
	}
	return false
}

// validMention returns the event's mention time as RFC 3339, or "".
func (p *projector) validMention() string {
	if p.mentioned.IsZero() {
		return ""
	}
	return p.mentioned.Format(time.RFC3339)
}

// inNow handles "I'm in Seattle now" / "Leo is in Seattle now".
func (p *projector) inNow(i, j, a, b int) {
	if i == a || p.toks[i].brk {
		return
	}
	switch p.toks[i-1].low {
	case "i'm", "am", "is", "are", "we're":
	default:
		return
	}
	place, end, ok := p.object(j, b, false)
	if !ok || end >= b || p.toks[end].low != "now" || p.toks[end].brk || !p.placeOK(place) {
		return
	}
	if end+1 < b && !p.toks[end+1].brk {
		return // "in Lisbon now for the conference": a stay, not a home
	}
	si, ok := p.subjects(i, a)
	if !ok || si.implicit || si.intent {
		return
	}
	for _, person := range p.persons(si) {
		p.edge(model.OpAddEdge, kindPerson, person, relLivesIn, place, kindPlace, "")
		p.homed[nkey(person)] = true
	}
}

// rolePhrase returns the role starting at token j: an optional "a"/"an",
// then up to maxRoleWords words ending with a role noun ("frontend
// developer"), or "".
func (p *projector) rolePhrase(j, b int) string {
	r, _ := p.roleAt(j, b)
	return r
}

// roleAt is rolePhrase that also returns the index after the role.
func (p *projector) roleAt(j, b int) (string, int) {
	if j < b && (p.toks[j].low == "a" || p.toks[j].low == "an") {
		j++
	}
	for k := j; k < b && k-j < maxRoleWords; k++ {
		t := &p.toks[k]
		if (k > j && t.brk) || !hasLetter(t.text) || valueStop(t.low) || stopword(t.low) && !roleNoun(t.low) {
			return "", j
		}
		if roleNoun(t.low) {
			// Take a following role noun too ("software engineer lead").
			end := k
			if k+1 < b && !p.toks[k+1].brk && roleNoun(p.toks[k+1].low) {
				end = k + 1
			}
			v, ok := cleanValue(p.text[p.toks[j].start:p.toks[end].end])
			if !ok {
				return "", j
			}
			return v, end + 1
		}
	}
	return "", j
}

// roleOrg proposes works_at for "ROLE at ORG" ("a designer at Figma")
// when token end is "at" followed by an organization.
func (p *projector) roleOrg(persons []string, end, b int) {
	if end+1 >= b || p.toks[end].low != "at" || p.toks[end].brk {
		return
	}
	org, _, ok := p.object(end+1, b, true)
	if !ok {
		return
	}
	if org = p.resolveOrg(org); !p.orgOK(org) {
		return
	}
	for _, person := range persons {
		p.edge(model.OpAddEdge, kindPerson, person, relWorksAt, org, kindOrganization, "")
		p.employer[nkey(person)+"\x00"+nkey(org)] = true
	}
}

// cleanValue returns s cleaned when it can be a fact value: 1–256 runes
// with a letter or digit.
func cleanValue(s string) (string, bool) {
	s = cleanText(validUTF8(s))
	if s == "" || utf8.RuneCountInString(s) > maxProjValRunes || !strings.ContainsFunc(s, isWordStart) {
		return "", false
	}
	return s, true
}

// diet sets a diet named at token j ("vegetarian", "a vegan").
func (p *projector) diet(si subjectInfo, j, b int) {
	if si.intent {
		return
	}
	for j < b && !p.toks[j].brk {
		switch p.toks[j].low {
		case "a", "an", "strictly", "fully", "mostly", "now", "full", "totally":
			j++
			continue
		}
		break
	}
	if j < b && p.toks[j].brk {
		return
	}
	term, _ := p.termAt(j, b, false)
	if term == nil || term.cat != catDiet {
		return
	}
	for _, person := range p.persons(si) {
		p.fact(kindPerson, person, keyDiet, term.canon, "")
	}
}

// people returns the person names at token j: "Priya", "Priya and Dana",
// "Priya, Dana and Sam".
func (p *projector) people(j, b int) []string {
	var out []string
	for len(out) < maxNameWords {
		name, end, ok := p.group(j, b, false)
		if !ok || !p.personOK(name) {
			break
		}
		out = append(out, p.resolvePerson(name))
		if end < b && (p.toks[end].low == "and" || (p.toks[end].brk && strings.TrimSpace(p.text[p.toks[end-1].end:p.toks[end].start]) == ",")) {
			if p.toks[end].low == "and" {
				end++
			}
			j = end
			continue
		}
		break
	}
	return out
}

// tool handles a tool phrase whose subject still has to be found.
func (p *projector) tool(i, j, a, b int, deploy bool) {
	si, ok := p.subjects(i, a)
	if !ok {
		return
	}
	p.toolFor(si, i, j, a, b, deploy)
}

// toolFor reads the tool after a tool phrase ("use pnpm", "deploy on
// Fly.io") and proposes what it means for the subjects.
func (p *projector) toolFor(si subjectInfo, i, j, a, b int, deploy bool) {
	if si.usedTo || si.would {
		return
	}
	k := j
	if k < b && p.toks[k].low == "the" {
		k++
	}
	cat, value, end, ok := p.toolAt(k, b, deploy)
	if !ok {
		return
	}
	if deploy {
		cat = catDeploy
	}
	p.dispatch(si, cat, value, a, b, end)
}

// toolAt reads a tool at token k: a lexicon term, a lower-case product
// word, or a capitalised name that is no person, place or organization.
// A short all-capital word ("API", "CI") is no tool unless listed.
func (p *projector) toolAt(k, b int, loose bool) (termCat, string, int, bool) {
	if term, end := p.termAt(k, b, loose); term != nil {
		return term.cat, term.canon, end, true
	}
	if k >= b {
		return 0, "", k, false
	}
	if productWord(p.toks[k].low) {
		return catTool, p.toks[k].text, k + 1, true
	}
	name, end, ok := p.object(k, b, false)
	if !ok {
		return 0, "", k, false
	}
	if utf8.RuneCountInString(name) <= 3 && name == strings.ToUpper(name) {
		return 0, "", k, false
	}
	if kind, c, ok := p.knownKind(name); ok {
		if kind != kindTool {
			return 0, "", k, false
		}
		name = c
	} else if p.isPerson(name) || p.isProject(name) {
		return 0, "", k, false
	}
	return catTool, name, end, true
}

// switchFrom handles "switched from A to B": B becomes the value (a state
// key closes A by itself); a plain tool A gets its uses edge closed. One
// side at least must be a lexicon term.
func (p *projector) switchFrom(si subjectInfo, i, j, a, b int) {
	if si.usedTo || si.would {
		return
	}
	catA, valA, end, okA := p.toolAt(j, b, false)
	if !okA || end+1 >= b || p.toks[end].low != "to" || p.toks[end].brk {
		return
	}
	catB, valB, endB, okB := p.toolAt(end+1, b, false)
	if !okB {
		return
	}
	termA := isTerm(valA)
	termB := isTerm(valB)
	if !termA && !termB && catA == catTool && catB == catTool {
		return
	}
	if catA == catTool && catB == catTool {
		for _, s := range p.toolNodes(si, a, b, endB) {
			p.edge(model.OpCloseEdge, s.kind, s.name, relUses, valA, "", "")
		}
	}
	p.dispatch(si, catB, valB, a, b, endB)
}

// toolNodes returns the nodes a tool decision applies to: persons as
// they are, "we" and projects as the decision's project.
func (p *projector) toolNodes(si subjectInfo, a, b, from int) []subject {
	var out []subject
	for _, s := range si.subs {
		switch s.kind {
		case kindPerson, kindProject:
			out = append(out, s)
		case "we":
			if proj := p.projectFor(a, b, from); proj != "" {
				out = append(out, subject{kindProject, proj})
			}
		}
	}
	return out
}

// dispatch proposes what adopting value of category cat means for each
// subject: on a person, editor/drinks/indentation/diet/hobby facts, or a
// uses edge to a tool; on a project ("we", or a project subject),
// uses_package_manager/database/deploy_platform/indentation facts, or a
// uses edge.
func (p *projector) dispatch(si subjectInfo, cat termCat, value string, a, b, from int) {
	for _, s := range p.toolNodes(si, a, b, from) {
		we := false
		for _, x := range si.subs {
			if x.kind == "we" {
				we = true
			}
		}
		if s.kind == kindPerson {
			switch cat {
			case catEditor, catDrink, catIndent, catDiet, catHobby:
				p.fact(kindPerson, s.name, catKey(cat), value, "")
			default:
				p.useTool(s, cat, value)
			}
			continue
		}
		switch cat {
		case catPackageManager, catDatabase, catDeploy, catIndent:
			p.fact(kindProject, s.name, catKey(cat), value, "")
		case catTool:
			p.useTool(s, cat, value)
		case catEditor, catDrink, catDiet, catHobby:
			if we && p.self != "" {
				// "we drink coffee": personal, not the project's.
				continue
			}
		}
	}
}

// useTool proposes a uses edge from s to the tool named value.
func (p *projector) useTool(s subject, cat termCat, value string) {
	p.node(kindTool, value, catTag(cat))
	p.edge(model.OpAddEdge, s.kind, s.name, relUses, value, kindTool, "")
}

// likes handles "I love/like/enjoy/prefer Y" and "I hate Y" in a
// preference event.
func (p *projector) likes(si subjectInfo, act projAct, i, j, b int) {
	if !strings.EqualFold(strings.TrimSpace(p.ev.EventType), "preference") || si.would || si.usedTo || si.intent {
		return
	}
	k := j
	for k < b && !p.toks[k].brk && valueDeterminer(p.toks[k].low) {
		k++
	}
	if k >= b || p.toks[k].brk || valueBad(p.toks[k].low) || firstPersonSingular(p.toks[k].low) {
		return
	}
	verb := p.toks[i].low
	key := keyLikes
	if act == actDislikes {
		key = keyDislikes
	}
	value := ""
	if term, _ := p.termAt(k, b, false); term != nil {
		value = term.canon
		if act == actLikes {
			switch {
			case term.cat == catHobby:
				key = keyHobby
			case (verb == "prefer" || verb == "prefers") && (term.cat == catDrink || term.cat == catIndent || term.cat == catEditor):
				key = catKey(term.cat)
			}
		}
	} else {
		end := k
		for end < b && end-k < maxValueWords && (end == k || !p.toks[end].brk) && !valueStop(p.toks[end].low) && hasLetter(p.toks[end].text) {
			end++
		}
		if end == k {
			return
		}
		v, ok := cleanValue(p.text[p.toks[k].start:p.toks[end-1].end])
		if !ok || utf8.RuneCountInString(v) < 3 {
			return
		}
		value = v
	}
	for _, person := range p.persons(si) {
		p.fact(kindPerson, person, key, value, "")
	}
}

// ---- special patterns ------------------------------------------------------

// ownerAt reads the owner word at token k: my/our (the event's self) or
// a possessive name ("Leo's").
func (p *projector) ownerAt(k, a int) (string, bool) {
	if k < a {
		return "", false
	}
	t := &p.toks[k]
	switch t.low {
	case "my", "our":
		return p.self, p.self != ""
	}
	if t.poss > 0 && p.nameWordAt(k) {
		name, _, ok := p.groupBefore(k, a)
		if !ok {
			return "", false
		}
		s, ok := p.classify(name)
		if !ok || s.kind != kindPerson {
			return "", false
		}
		return s.name, true
	}
	return "", false
}

// ownerBefore returns the nearest owner before token k in the sentence:
// a first-person word (the event's self) or a possessive person name.
func (p *projector) ownerBefore(k, a int) string {
	for j := k - 1; j >= a; j-- {
		w := p.toks[j].low
		if firstPersonSingular(w) || firstPersonPlural(w) {
			return p.self
		}
		if o, ok := p.ownerAt(j, a); ok {
			return o
		}
	}
	return ""
}

// relationWord handles "my sister Ana", "Leo's sister Ana", "my friends
// Priya and Dana" and "Ana is my sister".
func (p *projector) relationWord(i, a, b int, rel string, plural bool) {
	k := i - 1
	for n := 0; k >= a && n < 2 && relationAdjective(p.toks[k].low) && !p.toks[k+1].brk; n++ {
		k--
	}
	if k < a || p.toks[k+1].brk {
		return
	}
	owner, ok := p.ownerAt(k, a)
	if !ok {
		return
	}
	var targets []string
	j := i + 1
	if j < b && (p.toks[j].space || strings.TrimSpace(p.text[p.toks[i].end:p.toks[j].start]) == ",") {
		if plural {
			targets = p.people(j, b)
		} else if name, _, ok := p.group(j, b, false); ok && p.personOK(name) {
			targets = []string{p.resolvePerson(name)}
		}
	}
	if len(targets) == 0 && !plural && p.toks[k].low == "my" && k-1 > a && p.toks[k-1].low == "is" && !p.toks[k].brk && !p.toks[k-1].brk {
		if name, _, ok := p.groupBefore(k-2, a); ok && p.personOK(name) && !p.toks[k-1].brk {
			targets = []string{p.resolvePerson(name)}
		}
	}
	if p.negatedBefore(k, a) {
		return
	}
	for _, t := range targets {
		if !strings.EqualFold(t, owner) {
			p.edge(model.OpAddEdge, kindPerson, owner, rel, t, kindPerson, "")
		}
	}
}

// pet handles the pet patterns around the species word at token i: "my
// cat Pixel", "a parrot named Kiwi", "Kiwi the parrot", "Pixel, my cat",
// "I adopted a parrot! … Kiwi", "Kiwi …, he's a green-cheeked conure".
func (p *projector) pet(i, a, b int) {
	end := i + 1
	if p.toks[i].low == "guinea" {
		if end >= b || p.toks[end].low != "pig" {
			return
		}
		end++
	}
	// The words before the species: adjectives, then the owner or "a".
	k := i - 1
	for n := 0; k >= a && n < maxPetAdjectives && !p.toks[k+1].brk && !p.toks[k].cap && petAdjective(p.toks[k].low); n++ {
		k--
	}
	owner, hasOwner := "", false
	article := false
	if k >= a && !p.toks[k+1].brk {
		owner, hasOwner = p.ownerAt(k, a)
		article = p.toks[k].low == "a" || p.toks[k].low == "an"
	}
	emit := func(owner, name string) {
		if owner == "" || !p.petNameOK(name, owner) || p.negatedBefore(i, a) {
			return
		}
		p.edge(model.OpAddEdge, kindPerson, owner, relHasPet, name, "", "")
	}
	// "my cat Pixel", "my cat, Pixel", "my cat named Pixel".
	j := end
	if j < b && (p.toks[j].low == "named" || p.toks[j].low == "called") && !p.toks[j].brk {
		j++
		if !hasOwner {
			owner, hasOwner = p.ownerBefore(k+1, a), true
		}
	}
	if hasOwner && j < b && (p.toks[j].space || strings.TrimSpace(p.text[p.toks[j-1].end:p.toks[j].start]) == ",") {
		if name, _, ok := p.group(j, b, false); ok {
			emit(owner, name)
			return
		}
	}
	// "Kiwi the parrot", "Pixel, my cat".
	if k >= a && (p.toks[k].low == "the" || p.toks[k].low == "my") && !p.toks[k+1].brk && k-1 >= a {
		if name, start, ok := p.groupBefore(k-1, a); ok {
			o := owner
			if p.toks[k].low == "the" {
				o = p.ownerBefore(start, a)
			}
			emit(o, name)
			return
		}
	}
	if !article {
		return
	}
	// "he's a green-cheeked conure": the name before the pronoun.
	if k-1 >= a {
		switch p.toks[k-1].low {
		case "he's", "she's", "it's", "is":
			for m := k - 2; m >= a && m >= k-10; m-- {
				if name, start, ok := p.groupBefore(m, a); ok && p.toks[m].poss == 0 {
					emit(p.ownerBefore(start, a), name)
					return
				}
			}
			return
		}
	}
	// "I adopted a parrot! We picked up Kiwi yesterday".
	if k-1 >= a && petVerb(p.toks[k-1].low) && !p.toks[k].brk && !p.statusPlanned() {
		si, ok := p.subjects(k-1, a)
		if !ok || si.intent {
			return
		}
		persons := p.persons(si)
		if len(persons) == 0 {
			return
		}
		for m := end; m < len(p.toks) && m < end+petNameWindow; m++ {
			if m > 0 && isPreposition(p.toks[m-1].low) {
				continue
			}
			if name, _, ok := p.group(m, len(p.toks), false); ok && p.petNameOK(name, persons[0]) {
				emit(persons[0], name)
				return
			}
		}
	}
}

// petAdjective reports whether the lower-case word w may stand between
// "a" or an owner and a species ("a green-cheeked conure").
func petAdjective(w string) bool {
	return hasLetter(w) && !stopword(w) && !firstPersonSingular(w) && !firstPersonPlural(w) &&
		w != "a" && w != "an" && w != "the" && !petVerb(w)
}

// isPreposition reports whether w places the next word ("in Somerville").
func isPreposition(w string) bool {
	switch w {
	case "in", "from", "at", "to", "of", "near", "on", "with", "by", "for", "into", "via":
		return true
	}
	return false
}

// petNameOK reports whether name can be a pet's name: not a known node,
// not a person of the batch, not a lexicon term, not the owner.
func (p *projector) petNameOK(name, owner string) bool {
	if _, _, ok := p.knownKind(name); ok {
		return false
	}
	if p.isPerson(name) || p.isProject(name) || strings.EqualFold(name, owner) {
		return false
	}
	for _, e := range p.ev.Participants {
		if strings.EqualFold(strings.TrimSpace(e), name) {
			return false
		}
	}
	return !isTerm(name)
}

// naming handles "a project called Atlas" (a project, worked on by the
// clause's first-person and named subjects when it has a making verb),
// "a startup named Northwind" (an organization) and "a parrot named
// Kiwi" (left to the pet rule).
func (p *projector) naming(i, a, b int) {
	if i == a || p.toks[i].brk {
		return
	}
	noun := p.toks[i-1].low
	name, _, ok := p.object(i+1, b, false)
	if !ok {
		return
	}
	switch {
	case projectNoun(noun):
		if !p.projectCandidate(name) {
			return
		}
		proj := p.addProject(name)
		p.node(kindProject, proj, "project")
		if p.negatedBefore(i-1, a) {
			return
		}
		var workers []string
		making := false
		for k := i - 2; k >= a; k-- {
			w := p.toks[k].low
			if makingVerb(w) {
				making = true
			}
			if firstPersonSingular(w) || firstPersonPlural(w) {
				if p.self != "" && !containsFold(workers, p.self) {
					workers = append(workers, p.self)
				}
			} else if name, start, ok := p.groupBefore(k, a); ok && p.isPerson(name) {
				if n := p.resolvePerson(name); !containsFold(workers, n) {
					workers = append(workers, n)
				}
				k = start
			}
			if p.toks[k].brk {
				break
			}
		}
		if !making {
			return
		}
		for w := len(workers) - 1; w >= 0; w-- {
			p.edge(model.OpAddEdge, kindPerson, workers[w], relWorksOn, proj, kindProject, "")
		}
	case orgNoun(noun):
		if p.orgOK(name) {
			p.node(kindOrganization, name, "")
		}
	}
}

// makingVerb reports whether w says someone makes or runs a project.
func makingVerb(w string) bool {
	switch w {
	case "starting", "started", "start", "building", "built", "build",
		"making", "made", "creating", "created", "working", "run",
		"running", "maintain", "maintaining", "launching", "launched",
		"developing", "developed", "writing", "wrote":
		return true
	}
	return false
}

// personType handles "a tea person", "a Neovim person", "a tabs person";
// "used to be a tea person" proposes nothing.
func (p *projector) personType(i, a int) {
	for n := 1; n <= 3; n++ {
		k := i - n - 1 // index of "a"/"an"
		if k < a {
			return
		}
		if p.toks[k].low != "a" && p.toks[k].low != "an" {
			continue
		}
		term, end := p.termAt(k+1, i, true)
		if term == nil || end != i {
			return
		}
		switch term.cat {
		case catDrink, catEditor, catIndent:
		default:
			return
		}
		if p.negatedBefore(k, a) {
			return
		}
		si, ok := p.subjects(k, a)
		if !ok || si.usedTo || si.intent {
			return
		}
		for _, person := range p.persons(si) {
			p.fact(kindPerson, person, catKey(term.cat), term.canon, "")
		}
		return
	}
}

// home handles "my Seattle place", "Leo's Seattle apartment".
func (p *projector) home(i, a int) {
	if i-1 < a || p.toks[i].brk {
		return
	}
	place, start, ok := p.groupBefore(i-1, a)
	if !ok || p.toks[i-1].poss > 0 || !p.placeOK(place) || start-1 < a || p.toks[start].brk {
		return
	}
	owner, ok := p.ownerAt(start-1, a)
	if !ok || p.negatedBefore(start-1, a) {
		return
	}
	p.edge(model.OpAddEdge, kindPerson, owner, relLivesIn, place, kindPlace, "")
	p.homed[nkey(owner)] = true
}

// helloFrom handles "Hello from Seattle! I moved last Saturday.": a
// greeting from a place and a move word in the same text make the place
// the speaker's home.
func (p *projector) helloFrom() {
	if p.self == "" || p.statusPlanned() {
		return
	}
	moved := false
	for _, t := range p.toks {
		if moveWord(t.low) {
			moved = true
			break
		}
	}
	if !moved {
		return
	}
	for i := 0; i+2 < len(p.toks); i++ {
		if !greetingWord(p.toks[i].low) || p.toks[i+1].low != "from" || p.toks[i+1].brk || question(p.sents[p.toks[i].sent]) {
			continue
		}
		place, _, ok := p.object(i+2, len(p.toks), false)
		if !ok || p.toks[i+2].sent != p.toks[i].sent || !p.placeOK(place) {
			continue
		}
		p.edge(model.OpAddEdge, kindPerson, p.self, relLivesIn, place, kindPlace, "")
		p.homed[nkey(p.self)] = true
		return
	}
}

// callMe handles "call me Mel": an alias of the event's self.
func (p *projector) callMe(i, a, b int) {
	if i == a || p.self == "" || p.toks[i].brk {
		return
	}
	switch p.toks[i-1].low {
	case "call", "calls", "called":
	default:
		return
	}
	if p.negatedBefore(i-1, a) {
		return
	}
	alias, _, ok := p.group(i+1, b, false)
	if !ok || !p.toks[i+1].space {
		return
	}
	p.alias(kindPerson, p.self, alias)
}

// aliasConnector handles "Melanie, aka Mel", "Melanie a.k.a. Mel",
// "Melanie, also known as Mel", "Melanie, or Mel," (persons only) and
// "Mel is short for Melanie".
func (p *projector) aliasConnector(i, a, b int) {
	w := p.toks[i].low
	next := i + 1
	personsOnly := false
	switch w {
	case "also":
		if !p.phraseAt(i, b, []string{"also", "known", "as"}) {
			return
		}
		next = i + 3
	case "or":
		// "Melanie, or Mel," — a comma before, and the name ends the clause.
		// A sentence that opens with "Or" has no name before it.
		if i <= a || !p.toks[i].brk || strings.TrimSpace(p.text[p.toks[i-1].end:p.toks[i].start]) != "," {
			return
		}
		personsOnly = true
	case "short":
		if !p.phraseAt(i, b, []string{"short", "for"}) || i-1 <= a || p.toks[i-1].low != "is" {
			return
		}
		next = i + 2
		i-- // the name ends before "is"
	}
	if i-1 < a {
		return
	}
	first, _, ok := p.groupBefore(i-1, a)
	if !ok {
		return
	}
	second, end, ok := p.group(next, b, false)
	if !ok {
		return
	}
	if w == "or" && end < b && !p.toks[end].brk {
		return
	}
	p.aliasPair(first, second, personsOnly)
}

// aliasParen handles "Mel (Melanie)" and "Mel (aka Melanie)" at the name
// starting at token i.
func (p *projector) aliasParen(i, b int) {
	if i > 0 && p.toks[i-1].sent == p.toks[i].sent && p.nameWordAt(i-1) && p.toks[i].space {
		return // not the start of a name
	}
	first, end, ok := p.group(i, b, false)
	if !ok || end >= b {
		return
	}
	gap := p.text[p.toks[end-1].end:p.toks[end].start]
	if strings.TrimSpace(gap) != "(" {
		return
	}
	j := end
	if p.toks[j].low == "aka" || p.toks[j].low == "a.k.a" {
		j++
	}
	second, e2, ok := p.group(j, b, false)
	if !ok || e2-j > 3 {
		return
	}
	after := p.toks[e2-1].end
	if after >= len(p.text) || p.text[after] != ')' {
		return
	}
	p.aliasPair(first, second, false)
}

// aliasPair proposes an alias when exactly one of the two names is known
// (a known node, or a person of the batch): the other becomes its alias.
func (p *projector) aliasPair(x, y string, personsOnly bool) {
	resolve := func(n string) (string, string, bool) {
		if kind, c, ok := p.knownKind(n); ok {
			if kind == kindPerson {
				c = p.resolvePerson(c)
			}
			return kind, c, true
		}
		if p.isPerson(n) {
			return kindPerson, p.resolvePerson(n), true
		}
		return "", "", false
	}
	kx, cx, okx := resolve(x)
	ky, cy, oky := resolve(y)
	var kind, name, alias string
	switch {
	case okx && !oky:
		kind, name, alias = kx, cx, y
	case oky && !okx:
		kind, name, alias = ky, cy, x
	default:
		return
	}
	if personsOnly && kind != kindPerson {
		return
	}
	p.alias(kind, name, alias)
}

// launch handles a launch date in sentence si: a date that starts within
// launchWindow words after the launch word at token i and is not negated
// ("not on May 20"). It reports whether it proposed anything.
func (p *projector) launch(si, i, a, b int) bool {
	if st := strings.ToLower(strings.TrimSpace(p.ev.Status)); st == "cancelled" || st == "canceled" {
		return false
	}
	proj := p.projectFor(a, b, b)
	if proj == "" {
		return false
	}
	s := p.sents[si]
	base := p.sentOff[si]
	ref := p.mentioned
	if ref.IsZero() {
		return false
	}
	p.times = findTimes(s, ref, p.times[:0])
	limit := p.toks[min(i+launchWindow, b-1)].end - base
	from := p.toks[i].end - base
	pick := -1
	for k, t := range p.times {
		if t.off < from || t.off > limit || negated(s, t.off) {
			continue
		}
		if pick < 0 || (p.ev.TimeText != "" && strings.Contains(s[t.off:t.off+t.n], strings.TrimSpace(p.ev.TimeText))) {
			pick = k
		}
	}
	if pick < 0 {
		return false
	}
	t := p.times[pick]
	value := strings.TrimSpace(s[t.off : t.off+t.n])
	for _, prep := range [...]string{"on ", "by ", "for ", "at ", "in "} {
		if len(value) > len(prep) && strings.EqualFold(value[:len(prep)], prep) {
			value = strings.TrimSpace(value[len(prep):])
			break
		}
	}
	if !absoluteDate(value) {
		// A relative date ("next Monday") means nothing later: use the
		// day it resolves to, or nothing.
		if !t.known || t.start.IsZero() || (!t.end.IsZero() && t.end.Sub(t.start) > 24*time.Hour) {
			return false
		}
		value = t.start.Format("2006-01-02")
	}
	v, ok := cleanValue(value)
	if !ok {
		return false
	}
	p.fact(kindProject, proj, keyLaunchDate, v, p.validMention())
	return true
}

// absoluteDate reports whether a date expression names its date by
// itself: it has a digit or a month name.
func absoluteDate(s string) bool {
	for _, r := range s {
		if unicode.IsDigit(r) {
			return true
		}
	}
	for i := 0; ; {
		w, next := cueToken(s, i)
		if w == "" {
			return false
		}
		i = next
		lw := strings.ToLower(w)
		if calendarWord(lw) && !weekday(lw) {
			return true
		}
	}
}

// weekday reports whether w is a lower-case weekday name.
func weekday(w string) bool {
	switch w {
	case "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday":
		return true
	}
	return false
}

// ---- ops -------------------------------------------------------------------

// cites returns the current event's id as a citation list.
func (p *projector) cites() []uint64 { return []uint64{p.ev.ID} }

// node proposes upsert_node (kind, name) once per batch; later mentions
// add their event (up to maxOpCites) and tag.
func (p *projector) node(kind, name, tag string) {
	n, ok := cleanName(name)
	if !ok {
		return
	}
	if k, c, ok := p.knownKind(n); ok && k == kind {
		n = c
	}
	key := kind + "\x00" + nkey(n)
	if idx, ok := p.nodeOp[key]; ok {
		op := &p.ops[idx]
		op.EventIDs = addCite(op.EventIDs, p.ev.ID)
		if tag != "" && !containsFold(op.Tags, tag) && len(op.Tags) < maxProjTags {
			op.Tags = append(op.Tags, tag)
		}
		return
	}
	if len(p.ops) >= maxProjOps {
		return
	}
	op := model.GraphOp{Op: model.OpUpsertNode, Kind: kind, Name: n, EventIDs: p.cites()}
	if tag == "" && kind == kindProject {
		tag = "project"
	}
	if tag != "" {
		op.Tags = []string{tag}
	}
	p.nodeOp[key] = len(p.ops)
	p.ops = append(p.ops, op)
}

// canonName returns the spelling the ops use for node (kind, name): the
// name of its upsert op when there is one.
func (p *projector) canonName(kind, name string) string {
	if idx, ok := p.nodeOp[kind+"\x00"+nkey(name)]; ok {
		return p.ops[idx].Name
	}
	return name
}

// alias proposes add_alias.
func (p *projector) alias(kind, name, alias string) {
	a, ok := cleanName(alias)
	if !ok || nkey(a) == nkey(name) {
		return
	}
	p.node(kind, name, "")
	name = p.canonName(kind, name)
	key := kind + "\x00" + nkey(name) + "\x00" + nkey(a)
	if idx, ok := p.aliasOp[key]; ok {
		p.ops[idx].EventIDs = addCite(p.ops[idx].EventIDs, p.ev.ID)
		return
	}
	if len(p.ops) >= maxProjOps {
		return
	}
	p.aliasOp[key] = len(p.ops)
	p.ops = append(p.ops, model.GraphOp{Op: model.OpAddAlias, Kind: kind, Name: name, Alias: a, EventIDs: p.cites()})
}

// fact proposes set_fact on (kind, name).
func (p *projector) fact(kind, name, key, value, validFrom string) {
	v, ok := cleanValue(value)
	if !ok {
		return
	}
	p.node(kind, name, "")
	name = p.canonName(kind, name)
	p.emit(model.GraphOp{Op: model.OpSetFact, Kind: kind, Name: name, Key: key, Value: v, ValidFrom: validFrom, EventIDs: p.cites()}, key, v)
}

// edge proposes add_edge or close_edge citing the current event; an
// add_edge to a node kind first proposes that node.
func (p *projector) edge(op, kind, name, rel, target, targetKind, validFrom string) {
	p.emitEdge(op, kind, name, rel, target, targetKind, validFrom, p.cites())
}

func (p *projector) emitEdge(op, kind, name, rel, target, targetKind, validFrom string, cites []uint64) {
	t, ok := cleanName(target)
	if !ok || (kind == targetKind && nkey(t) == nkey(name)) {
		return
	}
	p.node(kind, name, "")
	name = p.canonName(kind, name)
	if op == model.OpAddEdge && targetKind != "" {
		tag := ""
		switch targetKind {
		case kindOrganization:
			if rel == relWorksAt {
				tag = "employer"
			}
		case kindProject:
			tag = "project"
		}
		p.node(targetKind, t, tag)
		t = p.canonName(targetKind, t)
	} else if op == model.OpCloseEdge {
		for _, k := range []string{kindPlace, kindOrganization, kindTool, kindPerson, kindProject} {
			if _, seen := p.nodeOp[k+"\x00"+nkey(t)]; seen {
				t = p.canonName(k, t)
				break
			}
		}
	}
	if op == model.OpCloseEdge {
		targetKind = ""
	}
	g := model.GraphOp{Op: op, Kind: kind, Name: name, Relation: rel, Target: t, TargetKind: targetKind, ValidFrom: validFrom, EventIDs: cites}
	p.emit(g, rel, t)
}

// emit appends op unless it repeats one: an op the current event already
// proposed is dropped; an op equal to the latest op on the same (node,
// key or relation, value or target) is merged into it (its events are
// added) — for a single-valued key or relation only when no other value
// was set after it, so that the order of changes survives.
func (p *projector) emit(op model.GraphOp, slot, value string) {
	slotKey := op.Kind + "\x00" + nkey(op.Name) + "\x00" + slot
	valueKey := slotKey + "\x00" + nkey(value)
	p.keyBuf = append(append(append(p.keyBuf[:0], op.Op...), 0), valueKey...)
	if p.evOps[string(p.keyBuf)] {
		return
	}
	evKey := string(p.keyBuf)
	adds := op.Op == model.OpSetFact || op.Op == model.OpAddEdge
	if idx, ok := p.target[valueKey]; ok && p.ops[idx].Op == op.Op && p.ops[idx].TargetKind == op.TargetKind {
		if !adds || !singleValued(slot) || p.lastAdd[slotKey] == idx {
			for _, id := range op.EventIDs {
				p.ops[idx].EventIDs = addCite(p.ops[idx].EventIDs, id)
			}
			p.evOps[evKey] = true
			return
		}
	}
	if len(p.ops) >= maxProjOps {
		return
	}
	p.target[valueKey] = len(p.ops)
	if adds {
		p.lastAdd[slotKey] = len(p.ops)
	}
	p.evOps[evKey] = true
	p.ops = append(p.ops, op)
}

// addCite appends id to ids unless present or ids is full.
func addCite(ids []uint64, id uint64) []uint64 {
	for _, x := range ids {
		if x == id {
			return ids
		}
	}
	if len(ids) >= maxOpCites {
		return ids
	}
	return append(ids, id)
}
