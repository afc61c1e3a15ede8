package heuristic

import (
	"strings"

	"github.com/stratagate/stratagate/model"
)

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
