package graph

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

// Journal records what one projection wrote, so that Revert can take it
// back exactly: for every key, the value before the projection (or that
// there was none) and a hash of the value after it. Only projections of
// import blocks keep one (an import can be undone; a conversation cannot).
type Journal struct {
	Entries []JournalEntry
	seen    map[string]bool
}

// JournalEntry is one key a projection wrote.
type JournalEntry struct {
	Bucket string `msgpack:"b"`
	Key    []byte `msgpack:"k"`
	Had    bool   `msgpack:"h,omitempty"` // the key existed before
	Before []byte `msgpack:"v,omitempty"` // its value then
	After  uint64 `msgpack:"a"`           // hash of the value the projection left
}

// note records key's current value the first time the projection writes it.
func (j *Journal) note(tx *bolt.Tx, bucket, key []byte) {
	sk := string(bucket) + "\x00" + string(key)
	if j.seen[sk] {
		return
	}
	if j.seen == nil {
		j.seen = map[string]bool{}
	}
	j.seen[sk] = true
	cur := tx.Bucket(bucket).Get(key)
	j.Entries = append(j.Entries, JournalEntry{Bucket: string(bucket), Key: slices.Clone(key), Had: cur != nil, Before: slices.Clone(cur)})
}

// seal hashes the value each journaled key holds after the projection.
func (j *Journal) seal(tx *bolt.Tx) {
	for i := range j.Entries {
		e := &j.Entries[i]
		e.After = valueHash(tx.Bucket([]byte(e.Bucket)).Get(e.Key))
	}
}

// valueHash is 0 for an absent key and never 0 for a present one.
func valueHash(v []byte) uint64 {
	if v == nil {
		return 0
	}
	s := sha256.Sum256(v)
	return binary.BigEndian.Uint64(s[:8]) | 1
}

func (a *applier) put(bucket []byte, id uint64, v []byte) error {
	if a.b.Journal != nil {
		a.b.Journal.note(a.tx, bucket, kv.Key(id))
	}
	return a.tx.Bucket(bucket).Put(kv.Key(id), v)
}

func (a *applier) putKey(bucket, key, v []byte) error {
	if a.b.Journal != nil {
		a.b.Journal.note(a.tx, bucket, key)
	}
	return a.tx.Bucket(bucket).Put(key, v)
}

// Reverted reports whether block's projection was taken back by Revert.
func Reverted(tx *bolt.Tx, block uint64) (bool, error) {
	p, ok, err := getProjected(tx, block)
	return ok && p.Reverted, err
}

func getProjected(tx *bolt.Tx, block uint64) (projected, bool, error) {
	var p projected
	v := tx.Bucket(kv.BucketGraphBatches).Get(kv.Key(block))
	if v == nil {
		return p, false, nil
	}
	if _, err := kv.Decode(v, &p, projectedVersion); err != nil {
		return p, true, fmt.Errorf("projection of block %d: %w", block, err)
	}
	return p, true, nil
}

// Revert takes back the journaled projection of block, whose events are
// the set gone: every record it created is deleted and every record it
// changed gets its earlier value back — unless a later projection changed
// that record too, in which case the record stays and only loses its
// references to gone (the later state is kept, without the reverted
// events). Node index documents follow. A block not yet projected gets a
// reverted record, so that its pending project job applies nothing. It
// is idempotent.
func Revert(tx *bolt.Tx, ix *index.Index, block uint64, gone map[uint64]bool) error {
	p, ok, err := getProjected(tx, block)
	if err != nil {
		return err
	}
	if ok && p.Reverted {
		return nil
	}
	if ok && p.Events != nil && p.Journal == nil && len(gone) > 0 && p.Accepted > 0 {
		return fmt.Errorf("%w: projection of block %d kept no journal", ErrNotRevertible, block)
	}
	r := reverter{tx: tx, gone: gone, deleted: map[string]map[uint64]bool{}, restored: map[uint64]bool{}, touched: map[uint64]bool{}}
	for _, b := range [][]byte{kv.BucketGraphNodes, kv.BucketGraphFacts, kv.BucketGraphEdges} {
		r.deleted[string(b)] = map[uint64]bool{}
	}
	// Records first (newest write last in the journal, so walk backwards),
	// then the name and link keys, whose fate follows their records'.
	for i := len(p.Journal) - 1; i >= 0; i-- {
		if err := r.record(&p.Journal[i]); err != nil {
			return err
		}
	}
	for i := len(p.Journal) - 1; i >= 0; i-- {
		if err := r.key(&p.Journal[i]); err != nil {
			return err
		}
	}
	for id := range r.deleted[string(kv.BucketGraphNodes)] {
		delete(r.touched, id)
		if err := ix.Delete(tx, id); err != nil && !errors.Is(err, kv.ErrNotFound) {
			return err
		}
	}
	ids := make([]uint64, 0, len(r.touched))
	for id := range r.touched {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if err := Reindex(tx, ix, ids); err != nil {
		return err
	}
	p.Reverted, p.Journal = true, nil
	v, err := kv.Encode(projectedVersion, &p)
	if err != nil {
		return err
	}
	return tx.Bucket(kv.BucketGraphBatches).Put(kv.Key(block), v)
}

// ErrNotRevertible is returned by Revert for a projection that kept no
// journal (a conversation block's).
var ErrNotRevertible = errors.New("sg: graph projection cannot be reverted")

type reverter struct {
	tx       *bolt.Tx
	gone     map[uint64]bool
	deleted  map[string]map[uint64]bool // bucket → record ids deleted
	restored map[uint64]bool            // nodes given their before-image
	touched  map[uint64]bool            // nodes to reindex
}

func (r *reverter) record(e *JournalEntry) error {
	del, isRecord := r.deleted[e.Bucket]
	if !isRecord || len(e.Key) != 8 {
		return nil
	}
	b := r.tx.Bucket([]byte(e.Bucket))
	id := kv.ID(e.Key)
	cur := b.Get(e.Key)
	if cur == nil {
		return nil
	}
	// Which nodes does this record concern (before and after)?
	nodes, err := recordNodes(e.Bucket, cur)
	if err != nil {
		return err
	}
	if e.Had {
		prev, err := recordNodes(e.Bucket, e.Before)
		if err != nil {
			return err
		}
		nodes = append(nodes, prev...)
	}
	for _, n := range nodes {
		r.touched[n] = true
	}
	if valueHash(cur) == e.After {
		if e.Bucket == string(kv.BucketGraphNodes) {
			r.restored[id] = true
		}
		if !e.Had {
			del[id] = true
			return b.Delete(e.Key)
		}
		return b.Put(e.Key, e.Before)
	}
	return r.strip(e.Bucket, id, cur)
}

// strip removes the reverted events from a record's sources, keeping the
// rest of a later projection's state.
func (r *reverter) strip(bucket string, id uint64, cur []byte) error {
	keep := func(s []uint64) []uint64 { return slices.DeleteFunc(s, func(e uint64) bool { return r.gone[e] }) }
	b := r.tx.Bucket([]byte(bucket))
	switch bucket {
	case string(kv.BucketGraphNodes):
		n, err := decodeNode(cur, true)
		if err != nil {
			return fmt.Errorf("graph node %d: %w", id, err)
		}
		n.Sources = keep(n.Sources)
		return b.Put(kv.Key(id), n.encode())
	case string(kv.BucketGraphFacts):
		f, err := decodeFact(cur, true)
		if err != nil {
			return fmt.Errorf("graph fact %d: %w", id, err)
		}
		f.Sources = keep(f.Sources)
		return b.Put(kv.Key(id), f.encode())
	default:
		ed, err := decodeEdge(cur, true)
		if err != nil {
			return fmt.Errorf("graph edge %d: %w", id, err)
		}
		ed.Sources = keep(ed.Sources)
		return b.Put(kv.Key(id), ed.encode())
	}
}

func recordNodes(bucket string, v []byte) ([]uint64, error) {
	switch bucket {
	case string(kv.BucketGraphNodes):
		n, err := decodeNode(v, false)
		return []uint64{n.ID}, err
	case string(kv.BucketGraphFacts):
		f, err := decodeFact(v, false)
		return []uint64{f.Node}, err
	default:
		e, err := decodeEdge(v, false)
		if err != nil {
			return nil, err
		}
		if e.To != 0 {
			return []uint64{e.From, e.To}, nil
		}
		return []uint64{e.From}, nil
	}
}

// key reverts a name or link key. A name follows its node: it goes back
// to its earlier state only when the node did. A link the projection
// added goes when its fact or edge (or node) was deleted, and an event
// link goes with its reverted event.
func (r *reverter) key(e *JournalEntry) error {
	b := r.tx.Bucket([]byte(e.Bucket))
	cur := b.Get(e.Key)
	switch e.Bucket {
	case string(kv.BucketGraphNames):
		if cur == nil || len(cur) != 8 || !r.restored[kv.ID(cur)] || valueHash(cur) != e.After {
			return nil
		}
		if !e.Had {
			return b.Delete(e.Key)
		}
		return b.Put(e.Key, e.Before)
	case string(kv.BucketGraphLinks):
		if e.Had || cur == nil || len(e.Key) != 17 {
			return nil
		}
		owner, kind, id := kv.ID(e.Key[:8]), e.Key[8], kv.ID(e.Key[9:])
		var gone bool
		switch kind {
		case linkEvent:
			gone = r.gone[owner] || r.deleted[string(kv.BucketGraphNodes)][id]
		case linkFact:
			gone = r.deleted[string(kv.BucketGraphFacts)][id] || r.deleted[string(kv.BucketGraphNodes)][owner]
		default:
			gone = r.deleted[string(kv.BucketGraphEdges)][id] || r.deleted[string(kv.BucketGraphNodes)][owner]
		}
		if gone {
			return b.Delete(e.Key)
		}
	}
	return nil
}
