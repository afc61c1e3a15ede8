package gate

// How much of a question an item covers: weighted coverage, the key term,
// the main clause's topic, short forms of names.

import (
	"strings"

	"github.com/stratagate/stratagate/bm25"
)

// termIndex is the set of terms.
func termIndex(terms []string) map[string]bool {
	m := make(map[string]bool, len(terms))
	for _, t := range terms {
		m[t] = true
	}
	return m
}

func refKind(ref string) (uint64, string) {
	kind, id, _ := ParseRef(ref)
	return id, kind
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// coverage is the share of the question's terms that covered marks,
// weighted by Weights when they are set (and valid), by count otherwise.
func (q *Question) coverage(covered []bool) float64 {
	if len(q.Weights) != len(q.Terms) {
		return float64(count(covered)) / float64(len(q.Terms))
	}
	var got, all float64
	for j, w := range q.Weights {
		if !(w > 0) {
			w = 0
		}
		if q.secondary[q.Terms[j]] {
			w /= 2
		}
		all += w
		if covered[j] {
			got += w
		}
	}
	if all == 0 {
		return float64(count(covered)) / float64(len(q.Terms))
	}
	return got / all
}

// keyTerm is the index in Terms of the Topic term with the highest weight
// (the rarest word the question is about), or -1 without weights or
// topic terms.
func (q *Question) keyTerm() int {
	if len(q.Weights) != len(q.Terms) || len(q.Topic) == 0 {
		return -1
	}
	topic := termIndex(q.Topic)
	best := -1
	for pass := 0; pass < 2 && best < 0; pass++ {
		// Main-clause topic terms first; purpose-clause ones only when the
		// main clause has none.
		for j, t := range q.Terms {
			if topic[t] && (pass == 1 || !q.secondary[t]) && (best < 0 || q.Weights[j] > q.Weights[best]) {
				best = j
			}
		}
	}
	return best
}

// mentionSet is the set of canonical terms the question asks about: its
// content terms with their expansions, and its entities' terms.
func mentionSet(q *Question) map[string]bool {
	m := map[string]bool{}
	for _, qt := range q.Terms {
		for x := range expansionSet(qt) {
			m[x] = true
		}
	}
	for _, e := range q.Entities {
		for _, et := range bm25.AppendTerms(nil, e) {
			m[canon(et)] = true
		}
	}
	return m
}

// topicCovered reports whether an item covers enough of the question's
// main-clause topic terms to answer it alone: all of one or two, all but
// one of three to five, all but two of more. Words of a purpose clause
// are not counted (see purposeSpan).
func topicCovered(q *Question, covered []bool) bool {
	n, got := mainTopic(q, covered)
	return got >= n-n/3
}

// allButOneTopic reports whether an item covers every main-clause topic
// term but one, of three or more: the one left may be the rarest, worded
// otherwise ("attend" for "went to"), when everything else is there. With
// two topic terms the rarest one decides ("onsite interview").
func allButOneTopic(q *Question, covered []bool) bool {
	n, got := mainTopic(q, covered)
	return n >= 3 && got >= n-1
}

func contribItems(b *Batch, idx []int) []*Item {
	out := make([]*Item, len(idx))
	for k, c := range idx {
		out[k] = &b.Items[c]
	}
	return out
}

// halfTopic reports whether an item covers at least half of the
// question's main-clause topic terms, of four or more (with fewer, the
// rarest word decides: "onsite interview").
func halfTopic(q *Question, covered []bool) bool {
	n, got := mainTopic(q, covered)
	return n >= 4 && 2*got >= n
}

// nickname adds to set each entity term of the question that is a short
// form of a term of the speaker's name ("Kat" for Katarina, "Chris" for
// Christopher): people are asked about by the names others call them.
// The short form has three letters or more.
func nickname(set map[string]bool, speaker string, entTerms []string) {
	if speaker == "" || len(entTerms) == 0 {
		return
	}
	for _, st := range bm25.AppendTerms(nil, speaker) {
		for _, et := range entTerms {
			if len(et) >= 3 && len(et) < len(st) && strings.HasPrefix(st, et) {
				set[et] = true
			}
		}
	}
}

// mainTopic counts the question's main-clause topic terms (purpose-clause
// terms left out) and how many of them covered marks.
func mainTopic(q *Question, covered []bool) (n, got int) {
	topic := termIndex(q.Topic)
	for j, t := range q.Terms {
		if !topic[t] || q.secondary[t] {
			continue
		}
		n++
		if covered[j] {
			got++
		}
	}
	return n, got
}
