package temporal

import (
	"cmp"
	"slices"
	"strings"
)

// Message-dated reports. "I just opened my bakery" names no date, but the
// adverb "just" before a past verb says the event happened right before
// the message was written: its day is the message's own day. The match
// is "just" plus the verb ("just opened"), precision day, Basis said.
//
// "just" is a common word, and most of its uses date nothing: "just a
// friend", "just like", "just in case", "it's just that", "I just wanted
// to say", "I just loved it". The reading is accepted only when the next
// word is a past verb or participle that reports an event:
//
//   - a regular past form: a lower-case word of at least five letters
//     ending in -ed, not in -eed ("need", "proceed"), not an -ed word that
//     is no verb form (nonVerbEd: "hundred", "naked");
//   - an irregular past or participle from irregularPast ("got", "went",
//     "done", "been"); forms identical to the base form ("put", "set",
//     "read", "come") are left out, since "I just read books" is present;
//   - and not a verb of thinking, wanting or feeling (emphaticVerbs:
//     "I just wanted to", "it just felt right"), nor an -ed adjective of
//     a state (stateAdjectives: "just tired"), nor a verb that with the
//     words after it states no event (notEvent: "I just had to share",
//     "just been keeping busy", "it just made me smile").
//
// In free text (Find) the words before "just" must leave it a report of
// the speaker's present: not after "had"/'d (past perfect: "I had just
// moved when…" is dated by the story, not the message), a form of "be"
// ("I'm just tired", "it was just released": a state, or a passive whose
// time is not said), "not" ("not just painted": not only), or a modal
// with "have" ("I should have just asked": counterfactual). And the
// reading yields in its sentence: a question ("Have you just moved?") is
// no report, and another dated expression in the sentence states the time
// itself ("I just finished the race on Sunday" is Sunday).

// justPast parses "just" + past verb at i (see above).
func (p *parser) justPast(i int) (cand, bool) {
	if !p.isW(i, "just") || i+1 >= len(p.toks) || p.toks[i+1].kind != tWord {
		return cand{}, false
	}
	v := p.toks[i+1]
	// "just Alfred": a capitalised word after a lower-case "just" is a name.
	if !v.lower && p.toks[i].lower {
		return cand{}, false
	}
	if !pastForm(v.s) || p.notEvent(i+1) {
		return cand{}, false
	}
	if !p.whole && !p.reportContext(i) {
		return cand{}, false
	}
	return cand{p.dayRes(p.today, BasisSaid), 2}, true
}

// notEvent reports whether the past form at token j, with the words after
// it, states no event: "had to" (obligation: "I just had to share"),
// "did not" (emphatic negation), "been" + -ing (an activity going on:
// "just been keeping busy"), "made" + an object pronoun (causative: "it
// just made me smile"), and showed/taught/reminded + a pronoun + that,
// how, what or why (a realisation: "it just showed me that…").
func (p *parser) notEvent(j int) bool {
	switch p.w(j) {
	case "had":
		return p.isW(j+1, "to")
	case "did":
		return p.isW(j+1, "not")
	case "been":
		next := p.w(j + 1)
		return len(next) > 4 && strings.HasSuffix(next, "ing")
	case "made":
		return objectPronouns[p.w(j+1)]
	case "showed", "taught", "reminded":
		return objectPronouns[p.w(j+1)] && p.isW(j+2, "that", "how", "what", "why")
	}
	return false
}

// objectPronouns are the object forms of the personal pronouns.
var objectPronouns = setOf(`me you him her us them`)

// pastForm reports whether lower-case w is a past verb or participle that
// reports an event after "just".
func pastForm(w string) bool {
	if emphaticVerbs[w] || stateAdjectives[w] {
		return false
	}
	if irregularPast[w] {
		return true
	}
	return len(w) >= 5 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && !nonVerbEd[w] && asciiLetters(w)
}

// asciiLetters reports whether w is all a–z (the -ed rule is English).
func asciiLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// reportContext reports whether the words before "just" at token i leave
// it a report of the speaker's present (see the comment above).
func (p *parser) reportContext(i int) bool {
	prev := p.w(i - 1)
	contracted := p.isApostrophe(i - 2)
	switch {
	case prev == "had", prev == "not", beForms[prev]:
		return false
	case contracted && (prev == "d" || prev == "m" || prev == "re"):
		return false // I'd (had/would), I'm, we're
	}
	// "should have just", "could've just": a modal before have.
	have := prev == "have" || (contracted && prev == "ve")
	if have {
		k := i - 2
		if contracted {
			k = i - 3
		}
		if modals[p.w(k)] {
			return false
		}
	}
	return true
}

// keepSaid drops the message-dated readings that yield in their sentence:
// a question, or a sentence holding another known expression.
func (p *parser) keepSaid(out []Match) []Match {
	first := make([]int, len(out)) // the first token of each match
	for k, m := range out {
		first[k], _ = slices.BinarySearchFunc(p.toks, m.Offset, func(t token, off int) int { return cmp.Compare(t.start, off) })
	}
	kept := out[:0]
	for k, m := range out {
		if m.Basis != BasisSaid || !p.yields(out, first, k) {
			kept = append(kept, m)
		}
	}
	return kept
}

// yields reports whether message-dated match k gives way: its sentence
// ends with a question mark or holds another known expression. first[j]
// is the first token of out[j].
func (p *parser) yields(out []Match, first []int, k int) bool {
	lo, hi := p.sentence(first[k])
	if hi < len(p.toks) && (p.toks[hi].s == "?" || p.toks[hi].s == "？") {
		return true
	}
	for j, m := range out {
		if j != k && m.Basis != BasisSaid && m.Known() && first[j] >= lo && first[j] < hi {
			return true
		}
	}
	return false
}

// sentence returns the token range [lo, hi) of the sentence holding token
// i; toks[hi], when in range, is the mark that ends it.
func (p *parser) sentence(i int) (lo, hi int) {
	lo, hi = i, i
	for lo > 0 && !p.sentenceEnd(lo-1) {
		lo--
	}
	for hi < len(p.toks) && !p.sentenceEnd(hi) {
		hi++
	}
	return lo, hi
}

// beForms are the forms of "be" that make "just" + participle a state or
// a passive ("I am just tired", "it was just released").
var beForms = setOf(`am is are was were be being`)

// modals before "have just" make it counterfactual ("should have just").
var modals = setOf(`would could should might must may`)

// irregularPast holds irregular past forms and participles that differ
// from the base form, so that "just" + the word reports an event ("I just
// got back", "we've just begun"). Forms that equal the base form (put,
// set, cut, read, come, run) are left out: "I just read books" is present.
// "fed" is left out ("just fed up" is a state), and so are "felt",
// "knew", "meant" and "thought" (see emphaticVerbs).
var irregularPast = setOf(`
	ate eaten awoke awoken been became began begun bent bit bitten bled
	blew blown bought bred broke broken brought built burnt caught chose
	chosen came dealt did done drank drunk drew drawn dreamt drove driven dug
	fell fallen fled flew flown fought found forgot forgotten forgave
	forgiven froze frozen gave given got gotten went gone grew grown had
	heard held hid hidden hung laid led learnt left lent lost made met
	mistook mistaken paid ran rang rung rode ridden rose risen said sang sung
	sank sunk sat saw seen shook shaken shot showed shown slept slid sold
	sent sped spent spilt spoke spoken sprang spun stole stolen stood
	struck swam swum swore sworn taught took taken threw thrown told tore
	torn understood woke woken won wore worn wept withdrew written wrote
	agreed freed guaranteed`)

// emphaticVerbs are past forms after which "just" is emphatic, not a time:
// verbs of thinking, wanting, feeling and seeming ("I just wanted to say
// hi", "it just felt right", "I just knew it", "it just happened"), and
// "used" ("we just used to talk").
var emphaticVerbs = setOf(`
	wanted needed meant thought wondered hoped wished felt liked loved
	hated knew seemed looked sounded figured believed happened used supposed
	guessed assumed preferred enjoyed adored expected imagined appeared kept`)

// stateAdjectives are -ed words that, after "just", describe a state
// rather than an event ("Just tired today", "she's just excited").
var stateAdjectives = setOf(`
	tired excited interested bored scared worried stressed exhausted amazed
	surprised pleased thrilled overwhelmed relieved blessed obsessed annoyed
	confused frustrated shocked impressed stunned delighted devastated
	disappointed embarrassed terrified inspired motivated determined
	convinced committed dedicated focused prepared stuck`)

// nonVerbEd are -ed words of five letters or more that are no verb form.
var nonVerbEd = setOf(`
	hundred sacred naked wicked kindred hatred rugged ragged crooked
	wretched beloved infrared`)

// setOf builds a word set from a space-separated list.
func setOf(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}
