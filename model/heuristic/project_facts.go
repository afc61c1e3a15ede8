package heuristic

import (
	"strings"
	"unicode/utf8"

	"github.com/stratagate/stratagate/model"
)

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
	for j < b && !p.toks[j].brk && dietModifier(p.toks[j].low) {
		j++
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
