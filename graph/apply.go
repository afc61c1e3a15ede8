package graph

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
)

// Limits on operation fields.
const (
	MaxNameRunes   = 128
	MaxValueRunes  = 256
	MaxTags        = 8
	MaxOpsPerBatch = 512
)

// BatchEvent is what projection knows of one event of the batch.
type BatchEvent struct {
	ID            uint64
	MentionedAt   time.Time
	HappenedStart time.Time
	Speakers      []string
}

// Batch is the set of events a projection may cite, all of one scope.
type Batch struct {
	Scope  string
	Events map[uint64]*BatchEvent
	Now    time.Time
	// Journal, when set, records the before-image of every key Apply
	// writes, so that Revert can take the projection back (imports).
	Journal *Journal
}

// Applied summarises a projection.
type Applied struct {
	Accepted, Rejected int
	Touched            []uint64 // nodes whose facts, edges or names changed
}

type applier struct {
	tx      *bolt.Tx
	b       *Batch
	log     *slog.Logger
	touched map[uint64]bool
}

// Apply validates ops against the batch and applies the accepted ones
// inside tx. An op is rejected (logged with its reason, nothing written)
// when it cites no event or an event outside the batch, names an unknown
// kind, key or relation, or has an empty or over-long field. Apply returns
// an error only for storage failures.
func Apply(tx *bolt.Tx, b *Batch, ops []model.GraphOp, log *slog.Logger) (Applied, error) {
	a := &applier{tx: tx, b: b, log: log, touched: map[uint64]bool{}}
	var res Applied
	if len(ops) > MaxOpsPerBatch {
		log.Warn("graph ops dropped: batch limit", "ops", len(ops), "limit", MaxOpsPerBatch)
		res.Rejected += len(ops) - MaxOpsPerBatch
		ops = ops[:MaxOpsPerBatch]
	}
	for i := range ops {
		op := &ops[i]
		if err := a.check(op); err != nil {
			log.Warn("graph op rejected", "op", op.Op, "name", op.Name, "reason", err)
			res.Rejected++
			continue
		}
		ok, err := a.apply(op)
		if err != nil {
			return res, err
		}
		if ok {
			res.Accepted++
		} else {
			res.Rejected++
		}
	}
	if b.Journal != nil {
		b.Journal.seal(tx)
	}
	for id := range a.touched {
		res.Touched = append(res.Touched, id)
	}
	slices.Sort(res.Touched)
	return res, nil
}

func text(field, s string, max int) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("%w: empty %s", ErrInvalidOp, field)
	}
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) > max {
		return fmt.Errorf("%w: %s must be valid UTF-8 of at most %d runes", ErrInvalidOp, field, max)
	}
	return nil
}

func (a *applier) check(op *model.GraphOp) error {
	if len(op.EventIDs) == 0 {
		return fmt.Errorf("%w: cites no event", ErrInvalidOp)
	}
	for _, id := range op.EventIDs {
		if a.b.Events[id] == nil {
			return fmt.Errorf("%w: cites event %d, which is not in this batch", ErrInvalidOp, id)
		}
	}
	if !ValidKind(Kind(op.Kind)) {
		return fmt.Errorf("%w: unknown node kind %q", ErrInvalidOp, op.Kind)
	}
	if err := text("name", op.Name, MaxNameRunes); err != nil {
		return err
	}
	if op.ValidFrom != "" {
		if _, err := time.Parse(time.RFC3339, op.ValidFrom); err != nil {
			return fmt.Errorf("%w: valid_from %q is not RFC 3339", ErrInvalidOp, op.ValidFrom)
		}
	}
	switch op.Op {
	case model.OpUpsertNode:
		if len(op.Tags) > MaxTags {
			return fmt.Errorf("%w: %d tags", ErrInvalidOp, len(op.Tags))
		}
		for _, t := range op.Tags {
			if err := text("tag", t, MaxNameRunes); err != nil {
				return err
			}
		}
	case model.OpAddAlias:
		return text("alias", op.Alias, MaxNameRunes)
	case model.OpSetFact, model.OpCloseFact:
		if _, ok := FactKeys[op.Key]; !ok {
			return fmt.Errorf("%w: unknown fact key %q", ErrInvalidOp, op.Key)
		}
		return text("value", op.Value, MaxValueRunes)
	case model.OpAddEdge, model.OpCloseEdge:
		if _, ok := Relations[op.Relation]; !ok {
			return fmt.Errorf("%w: unknown relation %q", ErrInvalidOp, op.Relation)
		}
		if op.TargetKind != "" && !ValidKind(Kind(op.TargetKind)) {
			return fmt.Errorf("%w: unknown target kind %q", ErrInvalidOp, op.TargetKind)
		}
		return text("target", op.Target, MaxNameRunes)
	default:
		return fmt.Errorf("%w: unknown op %q", ErrInvalidOp, op.Op)
	}
	return nil
}

// validFrom is when op's fact or edge became true: its own ValidFrom, else
// the first cited event's happened start, else its mention time.
func (a *applier) validFrom(op *model.GraphOp) time.Time {
	if op.ValidFrom != "" {
		t, _ := time.Parse(time.RFC3339, op.ValidFrom)
		return t
	}
	ev := a.b.Events[op.EventIDs[0]]
	if !ev.HappenedStart.IsZero() {
		return ev.HappenedStart
	}
	return ev.MentionedAt
}

func (a *applier) apply(op *model.GraphOp) (bool, error) {
	node, err := a.node(Kind(op.Kind), op.Name, op.EventIDs)
	if err != nil {
		return false, err
	}
	switch op.Op {
	case model.OpUpsertNode:
		return true, a.updateNode(node, func(r *nodeRecord) {
			for _, t := range op.Tags {
				if t = strings.ToLower(strings.TrimSpace(t)); !slices.Contains(r.Tags, t) && len(r.Tags) < MaxTags {
					r.Tags = append(r.Tags, t)
				}
			}
			r.Sources = addSource(r.Sources, op.EventIDs...)
		})
	case model.OpAddAlias:
		return a.alias(node, Kind(op.Kind), op.Alias, op.EventIDs)
	case model.OpSetFact:
		return true, a.setFact(node, op.Key, strings.TrimSpace(op.Value), a.validFrom(op), op.EventIDs)
	case model.OpCloseFact:
		return a.closeFact(node, op.Key, op.Value, a.validFrom(op), op.EventIDs)
	case model.OpAddEdge:
		return true, a.addEdge(node, op, a.validFrom(op))
	case model.OpCloseEdge:
		return a.closeEdge(node, op, a.validFrom(op))
	}
	return false, nil
}

// node resolves (kind, name) in the batch's scope, creating the node if
// needed. A single-word person name that is the first name of exactly one
// person who speaks in the cited events resolves to that person and
// becomes an alias (explicit evidence: the same speaker); nothing fuzzier
// ever merges nodes.
func (a *applier) node(k Kind, name string, evs []uint64) (uint64, error) {
	name = strings.TrimSpace(name)
	if id, ok := Lookup(a.tx, a.b.Scope, k, name); ok {
		return id, nil
	}
	if k == KindPerson && !strings.Contains(name, " ") {
		var match uint64
		n := 0
		for _, e := range evs {
			for _, sp := range a.b.Events[e].Speakers {
				if f := strings.Fields(sp); len(f) > 1 && strings.EqualFold(f[0], name) {
					if id, ok := Lookup(a.tx, a.b.Scope, KindPerson, sp); ok && id != match {
						match = id
						n++
					}
				}
			}
		}
		if n == 1 {
			_, err := a.alias(match, k, name, evs)
			return match, err
		}
	}
	nb := a.tx.Bucket(kv.BucketGraphNodes)
	nb.FillPercent = 0.9
	id, err := nb.NextSequence()
	if err != nil {
		return 0, err
	}
	r := nodeRecord{ID: id, Scope: a.b.Scope, Kind: string(k), Name: name, Sources: addSource(nil, evs...), Created: kv.ToStamp(a.b.Now)}
	if err := a.put(kv.BucketGraphNodes, id, r.encode()); err != nil {
		return 0, err
	}
	a.touched[id] = true
	return id, a.putKey(kv.BucketGraphNames, nameKey(a.b.Scope, k, name), kv.Key(id))
}

func (a *applier) updateNode(id uint64, fn func(*nodeRecord)) error {
	r, err := getNodeRecord(a.tx, id, true)
	if err != nil {
		return err
	}
	fn(&r)
	a.touched[id] = true
	return a.put(kv.BucketGraphNodes, id, r.encode())
}

func (a *applier) alias(node uint64, k Kind, alias string, evs []uint64) (bool, error) {
	alias = strings.TrimSpace(alias)
	if other, ok := Lookup(a.tx, a.b.Scope, k, alias); ok {
		if other != node {
			a.log.Warn("graph alias rejected: names another node", "alias", alias, "node", node, "other", other)
			return false, nil
		}
		return true, nil
	}
	if err := a.putKey(kv.BucketGraphNames, nameKey(a.b.Scope, k, alias), kv.Key(node)); err != nil {
		return false, err
	}
	return true, a.updateNode(node, func(r *nodeRecord) {
		if NameKey(r.Name) != NameKey(alias) && !slices.Contains(r.Aliases, alias) {
			r.Aliases = append(r.Aliases, alias)
		}
		r.Sources = addSource(r.Sources, evs...)
	})
}

func (a *applier) putFact(r *factRecord) error {
	return a.put(kv.BucketGraphFacts, r.ID, r.encode())
}
func (a *applier) putEdge(r *edgeRecord) error {
	return a.put(kv.BucketGraphEdges, r.ID, r.encode())
}

func (a *applier) link(node uint64, kind byte, id uint64, evs []uint64) error {
	if err := a.putKey(kv.BucketGraphLinks, linkKey(node, kind, id), nil); err != nil {
		return err
	}
	// Event → node links let Forget and Restore refresh the nodes whose
	// current state depends on an event.
	for _, e := range evs {
		if err := a.putKey(kv.BucketGraphLinks, linkKey(e, linkEvent, node), nil); err != nil {
			return err
		}
	}
	return nil
}

const linkEvent = 'e'

// EventNodes returns the nodes whose records cite event id.
func EventNodes(tx *bolt.Tx, event uint64) []uint64 { return links(tx, event, linkEvent) }

func (a *applier) openFacts(node uint64, key string) ([]factRecord, error) {
	var out []factRecord
	rs := factRecords(a.tx)
	for _, id := range links(a.tx, node, linkFact) {
		r, err := rs.fact(id, false)
		if err != nil {
			return nil, err
		}
		if r.Key == key && !r.To.Set {
			if r, err = rs.fact(id, true); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// closeAt is the ValidTo for a value replaced at t: never before the value
// began.
func closeAt(from kv.Stamp, t time.Time) kv.Stamp {
	if from.Set && t.Before(from.Time()) {
		return from
	}
	return kv.ToStamp(t)
}

func (a *applier) setFact(node uint64, key, value string, from time.Time, evs []uint64) error {
	open, err := a.openFacts(node, key)
	if err != nil {
		return err
	}
	a.touched[node] = true
	for i := range open {
		f := &open[i]
		if NameKey(f.Value) == NameKey(value) {
			f.Sources = addSource(f.Sources, evs...)
			if err := a.link(node, linkFact, f.ID, evs); err != nil {
				return err
			}
			return a.putFact(f)
		}
	}
	if FactKeys[key] == State {
		for i := range open {
			f := &open[i]
			f.To, f.Closed = closeAt(f.From, from), kv.ToStamp(a.b.Now)
			if err := a.putFact(f); err != nil {
				return err
			}
		}
	}
	fb := a.tx.Bucket(kv.BucketGraphFacts)
	fb.FillPercent = 0.9
	id, err := fb.NextSequence()
	if err != nil {
		return err
	}
	r := factRecord{ID: id, Node: node, Key: key, Value: value, From: kv.ToStamp(from), Recorded: kv.ToStamp(a.b.Now), Sources: addSource(nil, evs...)}
	if err := a.putFact(&r); err != nil {
		return err
	}
	return a.link(node, linkFact, id, evs)
}

func (a *applier) closeFact(node uint64, key, value string, at time.Time, evs []uint64) (bool, error) {
	open, err := a.openFacts(node, key)
	if err != nil {
		return false, err
	}
	for i := range open {
		f := &open[i]
		if NameKey(f.Value) != NameKey(value) {
			continue
		}
		f.To, f.Closed = closeAt(f.From, at), kv.ToStamp(a.b.Now)
		f.Sources = addSource(f.Sources, evs...)
		a.touched[node] = true
		if err := a.link(node, linkFact, f.ID, evs); err != nil {
			return false, err
		}
		return true, a.putFact(f)
	}
	a.log.Warn("graph close_fact rejected: no open fact", "node", node, "key", key, "value", value)
	return false, nil
}

func (a *applier) openEdges(node uint64, relation string) ([]edgeRecord, error) {
	var out []edgeRecord
	rs := edgeRecords(a.tx)
	for _, id := range links(a.tx, node, linkOut) {
		// Filtered without the sources, read only for the few that match:
		// a hub has hundreds of edges, most of another relation or closed.
		r, err := rs.edge(id, false)
		if err != nil {
			return nil, err
		}
		if r.Relation == relation && !r.VTo.Set {
			if r, err = rs.edge(id, true); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func (a *applier) addEdge(node uint64, op *model.GraphOp, from time.Time) error {
	var to uint64
	target := strings.TrimSpace(op.Target)
	if op.TargetKind != "" {
		var err error
		if to, err = a.node(Kind(op.TargetKind), target, op.EventIDs); err != nil {
			return err
		}
	}
	open, err := a.openEdges(node, op.Relation)
	if err != nil {
		return err
	}
	a.touched[node] = true
	for i := range open {
		e := &open[i]
		if (to != 0 && e.To == to) || (to == 0 && e.To == 0 && NameKey(e.ToName) == NameKey(target)) {
			e.Sources = addSource(e.Sources, op.EventIDs...)
			if err := a.link(node, linkOut, e.ID, op.EventIDs); err != nil {
				return err
			}
			return a.putEdge(e)
		}
	}
	if Relations[op.Relation] == One {
		for i := range open {
			e := &open[i]
			e.VTo, e.Closed = closeAt(e.VFrom, from), kv.ToStamp(a.b.Now)
			if err := a.putEdge(e); err != nil {
				return err
			}
		}
	}
	eb := a.tx.Bucket(kv.BucketGraphEdges)
	eb.FillPercent = 0.9
	id, err := eb.NextSequence()
	if err != nil {
		return err
	}
	r := edgeRecord{ID: id, From: node, To: to, ToName: target, Relation: op.Relation, VFrom: kv.ToStamp(from),
		Recorded: kv.ToStamp(a.b.Now), Sources: addSource(nil, op.EventIDs...)}
	if err := a.putEdge(&r); err != nil {
		return err
	}
	if err := a.link(node, linkOut, id, op.EventIDs); err != nil {
		return err
	}
	if to != 0 {
		a.touched[to] = true
		return a.link(to, linkIn, id, op.EventIDs)
	}
	return nil
}

func (a *applier) closeEdge(node uint64, op *model.GraphOp, at time.Time) (bool, error) {
	open, err := a.openEdges(node, op.Relation)
	if err != nil {
		return false, err
	}
	for i := range open {
		e := &open[i]
		name := e.ToName
		if NameKey(name) != NameKey(op.Target) {
			continue
		}
		e.VTo, e.Closed = closeAt(e.VFrom, at), kv.ToStamp(a.b.Now)
		e.Sources = addSource(e.Sources, op.EventIDs...)
		a.touched[node] = true
		if err := a.link(node, linkOut, e.ID, op.EventIDs); err != nil {
			return false, err
		}
		return true, a.putEdge(e)
	}
	a.log.Warn("graph close_edge rejected: no open edge", "node", node, "relation", op.Relation, "target", op.Target)
	return false, nil
}
