package stratagate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/layers"
)

// NodeHit is one SearchGraphNodes result: a compact view of a node.
type NodeHit struct {
	ID    uint64
	Name  string
	Kind  string
	Scope string
	// Facts are a few current facts and relations ("drinks: coffee"),
	// those matching the query first.
	Facts []string
	Score float64
}

// NodeDetail is a node as of a time, with its facts and edges.
type NodeDetail struct {
	Node  graph.Node
	Facts []graph.Fact
	Edges []graph.Edge
	AsOf  time.Time
}

const (
	observationGraphTag = "graph"
	nodeHitFacts        = 4
)

// SearchGraphNodes ranks graph nodes by field-weighted BM25 (BM25F: name 6,
// aliases 5, tags 5, kind 2, state 4, facts 4, relations 3) over their
// current state. A node that matches only through relation text is
// adjacency noise and is dropped. Query.Thread keeps the nodes derived from
// an event of that thread (an unknown thread is ErrNotFound); Query.From
// and To are refused with ErrInvalidInput (a node has no single time: use
// ExpandGraphNode's asOf). Each search is recorded as an Observation.
func (m *Memory) SearchGraphNodes(ctx context.Context, q Query) ([]NodeHit, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := checkQuery(&q); err != nil {
		return nil, err
	}
	if !q.From.IsZero() || !q.To.IsZero() {
		return nil, invalid(ErrInvalidInput, "query From/To: SearchGraphNodes does not filter by time (use ExpandGraphNode's asOf)")
	}
	terms := queryTerms(q.Text)
	var hits []NodeHit
	err = m.db.View(func(tx *bolt.Tx) error {
		if q.Thread != "" {
			if _, ok, err := layers.GetThread(tx, q.Thread); err != nil {
				return err
			} else if !ok {
				return notFound("thread", fmt.Sprintf("%q", q.Thread))
			}
		}
		// Ask for more than Limit: relation-only matches are dropped (and,
		// with a thread, nodes of other threads).
		k := 3 * q.Limit
		if q.Thread != "" {
			k = 10 * q.Limit
		}
		res, err := m.graph.Search(tx, index.Query{Terms: terms, Scopes: q.Scopes, K: k})
		if err != nil {
			return err
		}
		for _, r := range res {
			if len(hits) == q.Limit {
				break
			}
			if m.graph.MatchesOnly(tx, r.Doc, terms, graph.FieldRelations) {
				continue
			}
			v, err := graph.Expand(tx, r.ID, m.opts.Clock(), false)
			if err != nil {
				return err
			}
			if q.Thread != "" {
				in, err := nodeInThread(tx, &v, q.Thread)
				if err != nil {
					return err
				}
				if !in {
					continue
				}
			}
			hits = append(hits, NodeHit{ID: r.ID, Name: v.Node.Name, Kind: string(v.Node.Kind), Scope: v.Node.Scope,
				Facts: graph.MatchedFacts(&v, terms, nodeHitFacts), Score: r.Score})
		}
		return nil
	})
	if err != nil {
		return nil, searchErr(err, q.Thread)
	}
	ids := make([]uint64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	m.observe(Observation{At: m.opts.Clock().UTC(), Channel: observationGraphTag, Text: q.Text, Scopes: q.Scopes, Thread: q.Thread, Returned: ids})
	return hits, nil
}

// nodeInThread reports whether node v was derived from an event of
// thread: the node itself or one of the current facts and edges it shows.
func nodeInThread(tx *bolt.Tx, v *graph.View, thread string) (bool, error) {
	ids := slices.Clone(v.Node.SourceEventIDs)
	for _, f := range v.Facts {
		ids = append(ids, f.SourceEventIDs...)
	}
	for _, e := range v.Edges {
		ids = append(ids, e.SourceEventIDs...)
	}
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		c, err := events.Get(tx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return false, err
		}
		if c.Thread == thread {
			return true, nil
		}
	}
	return false, nil
}

// ExpandGraphNode returns node id as of asOf (zero = now): the facts and
// edges valid at that time whose source events are active, each with its
// source event ids.
func (m *Memory) ExpandGraphNode(ctx context.Context, id uint64, asOf time.Time) (NodeDetail, error) {
	return m.expandNode(ctx, id, asOf, false)
}

// GraphNodeHistory is ExpandGraphNode with closed and inactive facts and
// edges included: the whole record of what was true when, and why it no
// longer is (ValidTo set, or Active false because its source events were
// superseded or forgotten).
func (m *Memory) GraphNodeHistory(ctx context.Context, id uint64) (NodeDetail, error) {
	return m.expandNode(ctx, id, time.Time{}, true)
}

func (m *Memory) expandNode(ctx context.Context, id uint64, asOf time.Time, history bool) (NodeDetail, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return NodeDetail{}, err
	}
	defer release()
	if asOf.IsZero() {
		asOf = m.opts.Clock()
	}
	var d NodeDetail
	err = m.db.View(func(tx *bolt.Tx) error {
		v, err := graph.Expand(tx, id, asOf, history)
		if err != nil {
			return err
		}
		d = NodeDetail{Node: v.Node, Facts: v.Facts, Edges: v.Edges, AsOf: asOf}
		return nil
	})
	return d, err
}
