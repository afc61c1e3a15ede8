package heuristic

import (
	"strings"
	"time"
	"unicode"

	"github.com/stratagate/stratagate/model"
)

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
		if j < b && !p.toks[j].brk && moveParticle(p.toks[j].low) {
			return // a phrase this rule does not read
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
// lunch", "at the library", "and Ana".
func (p *projector) joinedEnd(end, b int) bool {
	if end >= b || p.toks[end].brk {
		return true
	}
	if joinedTimeWord(p.toks[end].low) {
		return true
	}
	switch p.toks[end].low {
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
