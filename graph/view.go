package graph

import (
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/index"
)

// View is a node with the facts and edges valid at a time.
type View struct {
	Node  Node
	Facts []Fact
	Edges []Edge // outgoing, then incoming
}

// activeEvent reports whether an event can support derived state: it
// exists and is neither superseded nor forgotten.
func activeEvent(tx *bolt.Tx, id uint64, cache map[uint64]bool) bool {
	if v, ok := cache[id]; ok {
		return v
	}
	l, err := events.GetLifecycle(tx, id)
	v := err == nil && l == events.LifecycleActive
	cache[id] = v
	return v
}

func anyActive(tx *bolt.Tx, ids []uint64, cache map[uint64]bool) bool {
	for _, id := range ids {
		if activeEvent(tx, id, cache) {
			return true
		}
	}
	return false
}

// Expand returns node id as of asOf (zero = now): the facts and edges
// valid then whose source events are active. With history, closed and
// inactive ones are included too (each with Active and ValidTo saying why).
func Expand(tx *bolt.Tx, id uint64, asOf time.Time, history bool) (View, error) {
	return expand(tx, id, asOf, history, GetNode)
}

// expand is Expand reading the node with getNode (getNodeHead where its
// sources are not needed).
func expand(tx *bolt.Tx, id uint64, asOf time.Time, history bool, getNode func(*bolt.Tx, uint64) (Node, error)) (View, error) {
	n, err := getNode(tx, id)
	if err != nil {
		return View{}, err
	}
	if asOf.IsZero() {
		asOf = time.Now()
	}
	cache := map[uint64]bool{}
	v := View{Node: n}
	facts, err := NodeFacts(tx, id)
	if err != nil {
		return View{}, err
	}
	for _, f := range facts {
		f.Active = anyActive(tx, f.SourceEventIDs, cache)
		if history || (f.Active && f.Current(asOf)) {
			v.Facts = append(v.Facts, f)
		}
	}
	for _, out := range []bool{true, false} {
		es, err := NodeEdges(tx, id, out)
		if err != nil {
			return View{}, err
		}
		for _, e := range es {
			e.Active = anyActive(tx, e.SourceEventIDs, cache)
			if history || (e.Active && e.Current(asOf)) {
				v.Edges = append(v.Edges, e)
			}
		}
	}
	return v, nil
}

// Field order of the graph index and their BM25F weights: name 6, aliases
// 5, tags 5, kind 2, state 4, facts 4, relations 3.
const (
	FieldName = iota
	FieldAliases
	FieldTags
	FieldKind
	FieldState
	FieldFacts
	FieldRelations
)

// NewIndex returns the graph-node index.
func NewIndex() *index.Index {
	return index.New("graph", []index.Field{
		{Name: "name", Weight: 6}, {Name: "aliases", Weight: 5}, {Name: "tags", Weight: 5},
		{Name: "kind", Weight: 2}, {Name: "state", Weight: 4}, {Name: "facts", Weight: 4},
		{Name: "relations", Weight: 3},
	}, index.Options{})
}

// Doc builds the index document of a node from its current view: state
// facts (single-valued keys), other facts, and relations with their
// targets' names.
func Doc(tx *bolt.Tx, id uint64) (index.Doc, error) {
	v, err := expand(tx, id, time.Now(), false, getNodeHead)
	if err != nil {
		return index.Doc{}, err
	}
	var state, facts, rels []string
	for _, f := range v.Facts {
		line := strings.ReplaceAll(f.Key, "_", " ") + " " + f.Value
		if FactKeys[f.Key] == State {
			state = append(state, line)
		} else {
			facts = append(facts, line)
		}
	}
	for _, e := range v.Edges {
		target := e.ToName
		if e.From != id { // incoming: name the source
			if n, err := getNodeHead(tx, e.From); err == nil {
				target = n.Name
			}
		}
		rels = append(rels, strings.ReplaceAll(e.Relation, "_", " ")+" "+target)
	}
	terms := func(parts ...string) []string {
		var out []string
		for _, p := range parts {
			out = bm25.AppendTerms(out, p)
		}
		return out
	}
	return index.Doc{
		ID: id, Scope: v.Node.Scope,
		Fields: [][]string{
			terms(v.Node.Name), terms(v.Node.Aliases...), terms(v.Node.Tags...), terms(string(v.Node.Kind)),
			terms(state...), terms(facts...), terms(rels...),
		},
		Keywords: []string{"kind:" + string(v.Node.Kind)},
	}, nil
}

// MatchedFacts returns the node's current facts and relations rendered as
// "key: value", those containing a query term first, at most n.
func MatchedFacts(v *View, terms []string, n int) []string {
	type line struct {
		text  string
		match bool
	}
	var lines []line
	set := map[string]bool{}
	for _, t := range terms {
		set[t] = true
	}
	matches := func(s string) bool {
		for _, t := range bm25.AppendTerms(nil, s) {
			if set[t] {
				return true
			}
		}
		return false
	}
	for _, f := range v.Facts {
		s := f.Key + ": " + f.Value
		lines = append(lines, line{s, matches(s)})
	}
	for _, e := range v.Edges {
		if e.From != v.Node.ID {
			continue
		}
		s := e.Relation + ": " + e.ToName
		lines = append(lines, line{s, matches(s)})
	}
	slices.SortStableFunc(lines, func(a, b line) int {
		switch {
		case a.match && !b.match:
			return -1
		case !a.match && b.match:
			return 1
		}
		return 0
	})
	var out []string
	for i := 0; i < len(lines) && len(out) < n; i++ {
		out = append(out, lines[i].text)
	}
	return out
}
