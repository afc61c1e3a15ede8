package heuristic

import "strings"

// callMe handles "call me Kat": an alias of the event's self.
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

// aliasConnector handles "Katarina, aka Kat", "Katarina a.k.a. Kat",
// "Katarina, also known as Kat", "Katarina, or Kat," (persons only) and
// "Kat is short for Katarina".
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
		// "Katarina, or Kat," — a comma before, and the name ends the clause.
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

// aliasParen handles "Kat (Katarina)" and "Kat (aka Katarina)" at the name
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
