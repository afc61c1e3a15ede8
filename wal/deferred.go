package wal

import (
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// An inline chain's jobs each rewrite the same index terms: an extraction
// adds its block's cards to the event index, a projection replaces the
// documents of the nodes it touched, and a hot term or node is rewritten
// once per job. A Flusher lets an Apply leave such writes to the end of
// the chain's transaction, merged: the index is then written once per
// term (and a node's document once) per chain, not once per job.
//
// This keeps a chain equal to running its jobs one by one only for
// writes that no job of the chain reads back: an Apply may defer writes
// to an index that handlers never consult (they read the buckets the
// index is built from), and the merged writes must leave the same
// logical state as the separate ones. Everything lands in the chain's own
// transaction, so a crash or a rollback loses deferred writes together
// with the jobs that made them.

// A Flusher holds writes an inline chain's Apply calls deferred.
type Flusher interface {
	// Flush writes what the chain's Apply calls deferred, in tx, before it
	// commits. An error rolls the chain back (its jobs then run one at a
	// time, each writing at once).
	Flush(tx *bolt.Tx) error
}

// chain is the deferred state of one inline transaction: its Flushers in
// the order they were first asked for.
type chain struct {
	keys     []any
	flushers []Flusher
}

// chains maps the *bolt.Tx of every inline chain under way to its chain.
var chains sync.Map

// Deferred returns the Flusher that tx's inline chain holds under key,
// made by mk the first time it is asked for; nil when tx runs no chain,
// and the caller then writes at once. key identifies what is deferred
// (the index written, say): Apply calls of different jobs that ask with
// the same key share one Flusher.
func Deferred(tx *bolt.Tx, key any, mk func() Flusher) Flusher {
	v, ok := chains.Load(tx)
	if !ok {
		return nil
	}
	c := v.(*chain) // only the chain's goroutine uses it
	for i, k := range c.keys {
		if k == key {
			return c.flushers[i]
		}
	}
	f := mk()
	c.keys, c.flushers = append(c.keys, key), append(c.flushers, f)
	return f
}

// inChain runs fn in tx as an inline chain: Apply calls inside it may
// defer writes (Deferred), which are flushed, in the order first
// deferred, when fn returns no error.
func inChain(tx *bolt.Tx, fn func(*bolt.Tx) error) error {
	c := &chain{}
	chains.Store(tx, c)
	defer chains.Delete(tx)
	if err := fn(tx); err != nil {
		return err
	}
	for i, f := range c.flushers {
		if err := safeApply(f.Flush, tx); err != nil {
			return fmt.Errorf("%w: deferred writes %v: %w", errInlineApply, c.keys[i], err)
		}
	}
	return nil
}
