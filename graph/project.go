package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/wal"
)

const projectedVersion byte = 1

// projected is the record of a block's projection, written once in the
// transaction that applies it.
type projected struct {
	Accepted int      `msgpack:"a"`
	Rejected int      `msgpack:"r"`
	Events   []uint64 `msgpack:"e"`
	// Journal is kept for import blocks only (Revert); Reverted marks a
	// projection taken back (or pre-empted: a block undone before its
	// project job ran).
	Journal  []JournalEntry `msgpack:"j,omitempty"`
	Reverted bool           `msgpack:"rv,omitempty"`
}

// Projected reports whether block's events have been projected.
func Projected(tx *bolt.Tx, block uint64) bool {
	return tx.Bucket(kv.BucketGraphBatches).Get(kv.Key(block)) != nil
}

// ProjectHandler returns the wal handler for project jobs: the events
// extracted from block Target form the batch; the model proposes graph
// operations; Apply validates and applies them, the touched nodes are
// reindexed, and the block's projection record is written — all in the
// transaction that marks the job done. It never re-extracts events; a
// failed projection retries alone.
func ProjectHandler(db *kv.DB, m model.Model, ix *index.Index, log *slog.Logger, now func() time.Time) wal.Handler {
	return JournaledProjectHandler(db, m, ix, log, now, nil)
}

// JournaledProjectHandler is ProjectHandler that keeps a Journal of the
// projection of every block for which journal reports true (in the
// applying transaction), so that Revert can take it back.
func JournaledProjectHandler(db *kv.DB, m model.Model, ix *index.Index, log *slog.Logger, now func() time.Time,
	journal func(tx *bolt.Tx, block uint64) bool) wal.Handler {
	return wal.Handler{RunIn: func(ctx context.Context, view wal.View, j wal.Job) (wal.Apply, error) {
		var in model.ProjectInput
		var b Batch
		done := false
		err := view(func(tx *bolt.Tx) error {
			if Projected(tx, j.Target) {
				done = true
				return nil
			}
			var err error
			b, err = loadBatch(tx, j.Target, &in)
			return err
		})
		if errors.Is(err, kv.ErrNotFound) || errors.Is(err, kv.ErrCorrupt) {
			return nil, wal.Permanent(err)
		}
		if err != nil {
			return nil, err
		}
		if done {
			return func(*bolt.Tx) error { return nil }, nil
		}
		var out model.ProjectOutput
		if len(in.Events) > 0 {
			req, err := model.NewRequestFor(m, model.TaskProjectGraph, &in)
			if err != nil {
				return nil, wal.Permanent(err)
			}
			raw, err := model.Call(ctx, m, req)
			if err != nil {
				return nil, fmt.Errorf("model %s: %w", m.Name(), err)
			}
			if err := model.Decode(raw, &out); err != nil {
				return nil, err
			}
		}
		ids := make([]uint64, 0, len(b.Events))
		for id := range b.Events {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return func(tx *bolt.Tx) error {
			if Projected(tx, j.Target) {
				return nil
			}
			b.Now = now()
			if journal != nil && journal(tx, j.Target) {
				b.Journal = &Journal{}
			}
			res, err := Apply(tx, &b, out.Ops, log)
			if err != nil {
				return err
			}
			if err := reindexLater(tx, ix, res.Touched); err != nil {
				return err
			}
			p := projected{Accepted: res.Accepted, Rejected: res.Rejected, Events: ids}
			if b.Journal != nil {
				p.Journal = b.Journal.Entries
			}
			v, err := kv.Encode(projectedVersion, &p)
			if err != nil {
				return err
			}
			return tx.Bucket(kv.BucketGraphBatches).Put(kv.Key(j.Target), v)
		}, nil
	}}.Through(db)
}

// Reindex replaces the index documents of nodes with their current state.
func Reindex(tx *bolt.Tx, ix *index.Index, nodes []uint64) error {
	for _, id := range nodes {
		d, err := Doc(tx, id)
		if err != nil {
			return err
		}
		if _, err := ix.Replace(tx, d); err != nil {
			return err
		}
	}
	return nil
}

// reindexLater reindexes nodes, or, in an inline chain (wal.Deferred),
// notes them and reindexes every node the chain touched once, from its
// state at the chain's end, when the chain is done. No job reads the
// graph index (projection resolves names through graph.names), and a
// node's document is a function of its current state, so the last of
// the chain's Replaces is the only one that would remain.
func reindexLater(tx *bolt.Tx, ix *index.Index, nodes []uint64) error {
	if p, ok := wal.Deferred(tx, ix, func() wal.Flusher { return &pendingNodes{ix: ix, seen: map[uint64]bool{}} }).(*pendingNodes); ok {
		for _, id := range nodes {
			if !p.seen[id] {
				p.seen[id] = true
				p.ids = append(p.ids, id)
			}
		}
		return nil
	}
	return Reindex(tx, ix, nodes)
}

// pendingNodes are the nodes an inline chain's projections touched, in
// the order first touched.
type pendingNodes struct {
	ix   *index.Index
	ids  []uint64
	seen map[uint64]bool
}

// Flush reindexes the chain's nodes.
func (p *pendingNodes) Flush(tx *bolt.Tx) error { return Reindex(tx, p.ix, p.ids) }

// loadBatch reads the events extracted from block and the nodes they name.
func loadBatch(tx *bolt.Tx, block uint64, in *model.ProjectInput) (Batch, error) {
	bl, err := layers.GetBlock(tx, block)
	if err != nil {
		return Batch{}, err
	}
	b := Batch{Scope: bl.Scope, Events: map[uint64]*BatchEvent{}}
	ids, _, err := events.BlockCards(tx, block)
	if err != nil {
		return Batch{}, err
	}
	known := map[uint64]bool{}
	for _, id := range ids {
		c, err := events.Get(tx, id)
		if err != nil {
			return Batch{}, err
		}
		var speakers []string
		for _, mid := range c.SourceMessageIDs {
			msg, err := layers.GetMessage(tx, mid)
			if err != nil {
				return Batch{}, err
			}
			if msg.Speaker != "" && msg.Role != layers.RoleAssistant && !slices.Contains(speakers, msg.Speaker) {
				speakers = append(speakers, msg.Speaker)
			}
		}
		b.Events[id] = &BatchEvent{ID: id, MentionedAt: c.Temporal.MentionedAt, HappenedStart: c.Temporal.HappenedStart, Speakers: speakers}
		pe := model.ProjectEvent{
			ID: id, Title: c.Title, Summary: c.Summary, Quotes: c.Quotes, EventType: string(c.EventType), Status: string(c.Status),
			Participants: c.Participants, Entities: c.Entities, Speakers: speakers,
			MentionedAt: c.Temporal.MentionedAt.Format(time.RFC3339), TimeText: c.Temporal.OriginalText,
		}
		if !c.Temporal.HappenedStart.IsZero() {
			pe.HappenedStart = c.Temporal.HappenedStart.Format(time.RFC3339)
			pe.HappenedEnd = c.Temporal.HappenedEnd.Format(time.RFC3339)
		}
		in.Events = append(in.Events, pe)
		for _, name := range append(append(append([]string(nil), c.Participants...), c.Entities...), speakers...) {
			for _, nid := range LookupAnyKind(tx, bl.Scope, name) {
				if known[nid] {
					continue
				}
				known[nid] = true
				n, err := getNodeHead(tx, nid)
				if err != nil {
					return Batch{}, err
				}
				in.Nodes = append(in.Nodes, model.KnownNode{ID: n.ID, Kind: string(n.Kind), Name: n.Name, Aliases: n.Aliases})
			}
		}
	}
	return b, nil
}
