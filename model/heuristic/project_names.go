package heuristic

import (
	"strings"
	"unicode/utf8"

	"github.com/stratagate/stratagate/model"
)

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
