// Package graph is the current-state graph: people, projects,
// organizations, tools, places and topics (Node), key/value facts about
// them (Fact) and directed relations between them (Edge), all derived from
// event cards and bi-temporal — ValidFrom/ValidTo say when something was
// true in the world, RecordedAt when StrataGate learned it.
//
// # Projection
//
// After a block's events are stored, a project job (ProjectHandler) asks
// the model for operations over that batch: upsert_node, add_alias,
// set_fact, close_fact, add_edge, close_edge, each citing event ids. Apply
// accepts an operation only if every cited event belongs to the batch and
// its kind, key or relation is declared in the schema (schema.go);
// rejected operations are logged. The accepted changes, the reindexed
// nodes and the block's projection record commit with the job's done
// state, so a crash never leaves a partial batch, and a failed projection
// retries alone (events are never re-extracted).
//
// # Cardinality and time
//
// A new value of a state key (drinks, database, uses_package_manager…) or
// a one-relation (lives_in, works_at) closes the current one by setting
// its ValidTo to the new value's ValidFrom — the cited event's happened
// start, else its mention time — instead of rewriting it; set keys and
// many-relations (friend_of, has_pet) accumulate. Nothing is deleted.
//
// # Provenance
//
// Every node, fact and edge lists its source events. A fact or edge is
// active only while at least one source event is active: superseding or
// forgetting the event hides what was derived from it from current state
// (Expand), while Expand with history still shows it and why.
//
// # Entity resolution
//
// (kind, exact normalised name or alias) within a scope. A single-word
// person name resolves to a multi-word person only when that person is a
// speaker of the cited events (explicit evidence), and it then becomes an
// alias; nothing is merged by fuzzy similarity.
package graph
