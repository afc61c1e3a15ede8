package graph

import "time"

// Node is an entity of the current-state graph.
type Node struct {
	ID             uint64
	Scope          string
	Kind           Kind
	Name           string
	Aliases        []string
	Tags           []string
	SourceEventIDs []uint64 // the events that created or named it
	CreatedAt      time.Time
}

// Fact is a key/value statement about a node with bi-temporal bounds:
// ValidFrom/ValidTo say when it was true in the world (half-open; zero
// ValidTo = still true), RecordedAt when StrataGate learned it.
type Fact struct {
	ID             uint64
	Node           uint64
	Key            string
	Value          string
	ValidFrom      time.Time
	ValidTo        time.Time
	RecordedAt     time.Time
	ClosedAt       time.Time // record time of the closing, if closed
	SourceEventIDs []uint64
	// Active is computed on read: at least one source event is active
	// (neither superseded nor forgotten).
	Active bool
}

// Edge is a directed relation between nodes; To is 0 when the target is a
// named value without a node (a pet's name, an unknown place).
type Edge struct {
	ID             uint64
	From           uint64
	To             uint64
	ToName         string
	Relation       string
	ValidFrom      time.Time
	ValidTo        time.Time
	RecordedAt     time.Time
	ClosedAt       time.Time
	SourceEventIDs []uint64
	Active         bool
}

// Current reports whether f holds at t in valid time.
func (f *Fact) Current(t time.Time) bool { return holds(f.ValidFrom, f.ValidTo, t) }

// Current reports whether e holds at t in valid time.
func (e *Edge) Current(t time.Time) bool { return holds(e.ValidFrom, e.ValidTo, t) }

func holds(from, to, t time.Time) bool {
	return (from.IsZero() || !from.After(t)) && (to.IsZero() || to.After(t))
}
