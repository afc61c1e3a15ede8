package stratagate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/wal"
)

// Browsing: listings for tools that show a store whole (the viewer,
// sgdump), beside the ranked channels. They read one snapshot each and
// write nothing, so they work on a ReadOnly Memory too.

// MaxListEvents bounds one ListEvents call without a smaller Limit.
const MaxListEvents = 100_000

// EventFilter selects the cards ListEvents returns. Its zero value selects
// every card, forgotten, superseded and undone ones included: a listing
// shows what is stored, not what search would rank.
type EventFilter struct {
	// Thread, if set, keeps the cards of that thread.
	Thread string
	// Block, if set, keeps the cards extracted from that block.
	Block uint64
	// Scopes, if set, keeps the cards of those scopes.
	Scopes []string
	// Type, Status and Lifecycle, if set, keep the cards with that value
	// (exact match: "preference", "planned", "forgotten").
	Type, Status, Lifecycle string
	// Participant, if set, keeps the cards naming that participant
	// (case-insensitive).
	Participant string
	// Limit keeps the newest Limit matching cards (0 = MaxListEvents).
	Limit int
}

func (f *EventFilter) keep(c *events.Card) bool {
	if f.Thread != "" && c.Thread != f.Thread || f.Block != 0 && c.SourceBlockID != f.Block ||
		len(f.Scopes) > 0 && !slices.Contains(f.Scopes, c.Scope) ||
		f.Type != "" && string(c.EventType) != f.Type ||
		f.Status != "" && string(c.Status) != f.Status ||
		f.Lifecycle != "" && string(c.Lifecycle) != f.Lifecycle {
		return false
	}
	if f.Participant == "" {
		return true
	}
	return slices.ContainsFunc(c.Participants, func(p string) bool { return strings.EqualFold(p, f.Participant) })
}

// ListEvents returns the cards f selects in id order (the order they were
// stored). Every field of f is checked: a malformed scope or a negative
// limit is ErrInvalidInput.
func (m *Memory) ListEvents(ctx context.Context, f EventFilter) ([]events.Card, error) {
	if f.Limit < 0 {
		return nil, fmt.Errorf("%w: limit %d is negative", ErrInvalidInput, f.Limit)
	}
	for _, s := range f.Scopes {
		if err := layers.ValidateScope(s); err != nil {
			return nil, err
		}
	}
	limit := f.Limit
	if limit == 0 || limit > MaxListEvents {
		limit = MaxListEvents
	}
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var out []events.Card
	err = m.db.View(func(tx *bolt.Tx) error {
		return events.ForEach(tx, func(c events.Card) error {
			if err := ctx.Err(); err != nil {
				return classify(err)
			}
			if f.keep(&c) {
				out = append(out, c)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}

// GraphSnapshot is the current-state graph as of a time: every node of the
// selected scopes, and the facts and edges that held then and still rest
// on an active source event (Active is set on each).
type GraphSnapshot struct {
	AsOf  time.Time
	Nodes []graph.Node
	Facts []graph.Fact
	Edges []graph.Edge
}

// GraphAsOf returns the graph of the given scopes (none = every scope) as
// of asOf (zero = the store clock's now). Nodes carry no validity of their
// own, so every node is listed; the facts and edges say what was true.
func (m *Memory) GraphAsOf(ctx context.Context, asOf time.Time, scopes []string) (GraphSnapshot, error) {
	for _, s := range scopes {
		if err := layers.ValidateScope(s); err != nil {
			return GraphSnapshot{}, err
		}
	}
	release, err := m.enter(ctx)
	if err != nil {
		return GraphSnapshot{}, err
	}
	defer release()
	if asOf.IsZero() {
		asOf = m.opts.Clock()
	}
	g := GraphSnapshot{AsOf: asOf}
	err = m.db.View(func(tx *bolt.Tx) error {
		in := map[uint64]bool{}
		if err := graph.ForEachNode(tx, func(n graph.Node) error {
			if len(scopes) == 0 || slices.Contains(scopes, n.Scope) {
				in[n.ID] = true
				g.Nodes = append(g.Nodes, n)
			}
			return ctx.Err()
		}); err != nil {
			return err
		}
		active := activeCache{tx: tx, seen: map[uint64]bool{}}
		if err := graph.ForEachFact(tx, func(f graph.Fact) error {
			if in[f.Node] && f.Current(asOf) && active.any(f.SourceEventIDs) {
				f.Active = true
				g.Facts = append(g.Facts, f)
			}
			return ctx.Err()
		}); err != nil {
			return err
		}
		return graph.ForEachEdge(tx, func(e graph.Edge) error {
			if in[e.From] && e.Current(asOf) && active.any(e.SourceEventIDs) {
				e.Active = true
				g.Edges = append(g.Edges, e)
			}
			return ctx.Err()
		})
	})
	if err != nil {
		return GraphSnapshot{}, classify(err)
	}
	return g, nil
}

// activeCache answers "is any of these events active" once per event.
type activeCache struct {
	tx   *bolt.Tx
	seen map[uint64]bool
}

func (a *activeCache) any(ids []uint64) bool {
	for _, id := range ids {
		v, ok := a.seen[id]
		if !ok {
			l, err := events.GetLifecycle(a.tx, id)
			v = err == nil && l == events.LifecycleActive
			a.seen[id] = v
		}
		if v {
			return true
		}
	}
	return false
}

// GraphFact returns fact id with Active set (some source event is still
// active); an unknown id is ErrNotFound.
func (m *Memory) GraphFact(ctx context.Context, id uint64) (graph.Fact, error) {
	var f graph.Fact
	err := m.viewGraph(ctx, func(tx *bolt.Tx) (err error) {
		f, err = graph.GetFact(tx, id)
		if err == nil {
			f.Active = (&activeCache{tx: tx, seen: map[uint64]bool{}}).any(f.SourceEventIDs)
		}
		return err
	})
	return f, err
}

// GraphEdge returns edge id with Active set; an unknown id is ErrNotFound.
func (m *Memory) GraphEdge(ctx context.Context, id uint64) (graph.Edge, error) {
	var e graph.Edge
	err := m.viewGraph(ctx, func(tx *bolt.Tx) (err error) {
		e, err = graph.GetEdge(tx, id)
		if err == nil {
			e.Active = (&activeCache{tx: tx, seen: map[uint64]bool{}}).any(e.SourceEventIDs)
		}
		return err
	})
	return e, err
}

func (m *Memory) viewGraph(ctx context.Context, fn func(tx *bolt.Tx) error) error {
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	return m.db.View(fn)
}

// Job is one derivation job of the store's log: derive, extract or
// project, with its state, attempts and last error.
type Job = wal.Job

// Jobs returns the jobs in the given state ("" = every state; else
// pending, running, done or failed), oldest first.
func (m *Memory) Jobs(ctx context.Context, state string) ([]Job, error) {
	switch wal.State(state) {
	case "", wal.StatePending, wal.StateRunning, wal.StateDone, wal.StateFailed:
	default:
		return nil, fmt.Errorf("%w: job state %q (want pending, running, done or failed)", ErrInvalidInput, state)
	}
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var jobs []Job
	err = m.db.View(func(tx *bolt.Tx) (err error) {
		jobs, err = wal.List(tx, wal.State(state))
		return err
	})
	return jobs, err
}
