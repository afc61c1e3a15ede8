package stratagate

import (
	"github.com/stratagate/stratagate/graph"
)

// graphPass checks provenance of the graph: every node, fact and edge
// cites at least one source event, and every cited event exists; facts
// and edges point at existing nodes.
func (v *verifier) graphPass() error {
	nodes := map[uint64]bool{}
	check := func(kind string, id uint64, srcs []uint64) {
		if len(srcs) == 0 {
			v.fail("graph."+kind, id, "", "%s %d has no source event", kind, id)
		}
		for _, e := range srcs {
			if v.cards[e] == nil {
				v.fail("graph."+kind, id, "", "%s %d cites event %d, which does not exist", kind, id, e)
			}
		}
	}
	if err := graph.ForEachNode(v.tx, func(n graph.Node) error {
		if err := v.tick("graph.nodes"); err != nil {
			return err
		}
		nodes[n.ID] = true
		check("node", n.ID, n.SourceEventIDs)
		return nil
	}); err != nil {
		v.fail("graph.node", 0, "", "graph nodes do not decode: %v", err)
	}
	if err := graph.ForEachFact(v.tx, func(f graph.Fact) error {
		if err := v.tick("graph.facts"); err != nil {
			return err
		}
		check("fact", f.ID, f.SourceEventIDs)
		if !nodes[f.Node] {
			v.fail("graph.fact", f.ID, "", "fact %d belongs to node %d, which does not exist", f.ID, f.Node)
		}
		return nil
	}); err != nil {
		v.fail("graph.fact", 0, "", "graph facts do not decode: %v", err)
	}
	if err := graph.ForEachEdge(v.tx, func(e graph.Edge) error {
		if err := v.tick("graph.edges"); err != nil {
			return err
		}
		check("edge", e.ID, e.SourceEventIDs)
		if !nodes[e.From] || (e.To != 0 && !nodes[e.To]) {
			v.fail("graph.edge", e.ID, "", "edge %d joins %d → %d, not both existing nodes", e.ID, e.From, e.To)
		}
		return nil
	}); err != nil {
		v.fail("graph.edge", 0, "", "graph edges do not decode: %v", err)
	}
	// Every node is indexed (the graph index is checked by coverage, not
	// byte equality: node documents are replaced as their facts change).
	for _, id := range sortedMapKeys(nodes) {
		if _, ok := v.m.graph.Lookup(v.tx, id); !ok {
			v.fail("index.graph", id, "", "node %d is not in the graph index", id)
		}
	}
	// A node an import undo deleted stays in the index, tombstoned.
	return v.indexIDs(v.m.graph, "graph node", len(nodes) > 0, func(id uint64) bool { return nodes[id] || v.m.graph.Deleted(v.tx, id) })
}
