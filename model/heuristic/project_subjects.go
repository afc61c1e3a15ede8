package heuristic

import "strings"

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
