package gate

// The words of an assessment: Fit, and what Missing names.

import (
	"fmt"
	"strings"

	"github.com/stratagate/stratagate/bm25"
)

// surfaceOf is the question word a term came from (the term itself when
// unknown).
func surfaceOf(q *Question, t string) string {
	if w, ok := q.surface[t]; ok {
		return w
	}
	return t
}

// soughtText names what the question seeks: its entities, then its other
// content words.
func soughtText(q *Question) string {
	parts := append([]string(nil), q.Entities...)
	lowerEnt := map[string]bool{}
	for _, e := range q.Entities {
		for _, t := range bm25.AppendTerms(nil, e) {
			lowerEnt[t] = true
		}
	}
	for _, t := range q.Terms {
		if !lowerEnt[t] {
			parts = append(parts, surfaceOf(q, t))
		}
	}
	if len(parts) == 0 {
		return "the question"
	}
	return strings.Join(parts, ", ")
}

func uncoveredText(q *Question, covered []bool) string {
	var parts []string
	for j, c := range covered {
		if !c {
			parts = append(parts, surfaceOf(q, q.Terms[j]))
		}
	}
	return strings.Join(parts, ", ")
}

// fitText is a short sentence saying what covers what.
func fitText(q *Question, nCovered int, allEnts bool, missingEnts []string, refs []string, dated *Item) string {
	if len(refs) == 0 {
		return fmt.Sprintf("no item covers the question (0/%d question terms)", len(q.Terms))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d question terms", nCovered, len(q.Terms))
	if len(q.Entities) > 0 && allEnts {
		b.WriteString(" and all entities")
	}
	b.WriteString(" covered by ")
	b.WriteString(strings.Join(refs, ", "))
	if len(missingEnts) > 0 {
		b.WriteString("; not found: " + strings.Join(missingEnts, ", "))
	}
	if q.WantsTime {
		if dated != nil {
			b.WriteString("; date from " + dated.Ref)
		} else {
			b.WriteString("; no date")
		}
	}
	return b.String()
}
