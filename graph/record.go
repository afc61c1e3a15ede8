package graph

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// Graph record versions. Version 1 is nodeRecord, factRecord or
// edgeRecord in msgpack; version 2 (written from file format 6) is a
// binary layout of the same fields (kv.Writer), the sources last:
//
//	node  02 | id | scope | kind | name | aliases | tags | created | sources
//	fact  02 | id | node | key | value | valid from | valid to | recorded |
//	         closed | sources
//	edge  02 | id | from | to | to name | relation | valid from | valid to |
//	         recorded | closed | sources
//
// ids are uvarints, sources an id list (zigzag differences, in the order
// they were added). A node's sources are every event that named it, so a
// hub node's record grows with the store, and projection rewrote and
// reread it through msgpack's reflection for every batch that touched the
// node (a third of a hub batch's time at 100k turns). Version 2 decodes a
// few times faster, lets a reader stop before the sources (the index
// document of a node, the edges projection filters by relation) and
// stores an id in one or two bytes instead of three to five.
const (
	recordVersionV1 byte = 1
	recordVersion   byte = 2
)

func (r *nodeRecord) encode() []byte {
	w := kv.Writer{B: make([]byte, 0, 32+len(r.Scope)+len(r.Kind)+len(r.Name)+2*len(r.Sources))}
	w.Byte(recordVersion)
	w.Uvarint(r.ID)
	w.Str(r.Scope)
	w.Str(r.Kind)
	w.Str(r.Name)
	w.Strs(r.Aliases)
	w.Strs(r.Tags)
	w.Stamp(r.Created)
	w.IDs(r.Sources)
	return w.B
}

func (r *factRecord) encode() []byte {
	w := kv.Writer{B: make([]byte, 0, 64+len(r.Key)+len(r.Value)+2*len(r.Sources))}
	w.Byte(recordVersion)
	w.Uvarint(r.ID)
	w.Uvarint(r.Node)
	w.Str(r.Key)
	w.Str(r.Value)
	for _, s := range [...]kv.Stamp{r.From, r.To, r.Recorded, r.Closed} {
		w.Stamp(s)
	}
	w.IDs(r.Sources)
	return w.B
}

func (r *edgeRecord) encode() []byte {
	w := kv.Writer{B: make([]byte, 0, 64+len(r.ToName)+len(r.Relation)+2*len(r.Sources))}
	w.Byte(recordVersion)
	w.Uvarint(r.ID)
	w.Uvarint(r.From)
	w.Uvarint(r.To)
	w.Str(r.ToName)
	w.Str(r.Relation)
	for _, s := range [...]kv.Stamp{r.VFrom, r.VTo, r.Recorded, r.Closed} {
		w.Stamp(s)
	}
	w.IDs(r.Sources)
	return w.B
}

// sources finishes a version 2 decode: the id list, or (sources false) a
// walk past it that allocates nothing, then the end of the record.
func sources(r *kv.Reader, want bool) ([]uint64, error) {
	var ids []uint64
	if want {
		ids = r.IDs()
	} else {
		r.SkipIDs()
	}
	return ids, r.End()
}

// v2 reports whether v is a version 2 record; otherwise it must be version
// 1 (kv.Decode checks).
func v2(v []byte) bool { return len(v) > 0 && v[0] == recordVersion }

func corrupt(what string, err error) error {
	return fmt.Errorf("%w: version 2 %s record: %v", kv.ErrCorrupt, what, err)
}

// decodeNode decodes a node record of either version; without want, its
// sources are left nil.
func decodeNode(v []byte, want bool) (nodeRecord, error) {
	if !v2(v) {
		var r nodeRecord
		if !want {
			var h nodeHead
			_, err := kv.Decode(v, &h, recordVersionV1)
			return nodeRecord{ID: h.ID, Scope: h.Scope, Kind: h.Kind, Name: h.Name, Aliases: orNil(h.Aliases), Tags: orNil(h.Tags), Created: h.Created}, err
		}
		_, err := kv.Decode(v, &r, recordVersionV1)
		r.Aliases, r.Tags, r.Sources = orNil(r.Aliases), orNil(r.Tags), orNil(r.Sources)
		return r, err
	}
	rd := kv.Reader{Rest: v[1:]}
	r := nodeRecord{ID: rd.Uvarint(), Scope: rd.Str(), Kind: rd.Str(), Name: rd.Str(), Aliases: rd.Strs(), Tags: rd.Strs(), Created: rd.Stamp()}
	var err error
	if r.Sources, err = sources(&rd, want); err != nil {
		return nodeRecord{}, corrupt("node", err)
	}
	return r, nil
}

// orNil returns nil for an empty s: msgpack decodes an empty array as an
// empty slice, version 2 and the encoders as nil, and a record must read
// the same after it is rewritten in version 2.
func orNil[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// decodeFact decodes a fact record of either version; without want, its
// sources are left nil.
func decodeFact(v []byte, want bool) (factRecord, error) {
	if !v2(v) {
		var r factRecord
		_, err := kv.Decode(v, &r, recordVersionV1)
		if r.Sources = orNil(r.Sources); !want {
			r.Sources = nil
		}
		return r, err
	}
	rd := kv.Reader{Rest: v[1:]}
	r := factRecord{ID: rd.Uvarint(), Node: rd.Uvarint(), Key: rd.Str(), Value: rd.Str(),
		From: rd.Stamp(), To: rd.Stamp(), Recorded: rd.Stamp(), Closed: rd.Stamp()}
	var err error
	if r.Sources, err = sources(&rd, want); err != nil {
		return factRecord{}, corrupt("fact", err)
	}
	return r, nil
}

// decodeEdge decodes an edge record of either version; without want, its
// sources are left nil.
func decodeEdge(v []byte, want bool) (edgeRecord, error) {
	if !v2(v) {
		var r edgeRecord
		_, err := kv.Decode(v, &r, recordVersionV1)
		if r.Sources = orNil(r.Sources); !want {
			r.Sources = nil
		}
		return r, err
	}
	rd := kv.Reader{Rest: v[1:]}
	r := edgeRecord{ID: rd.Uvarint(), From: rd.Uvarint(), To: rd.Uvarint(), ToName: rd.Str(), Relation: rd.Str(),
		VFrom: rd.Stamp(), VTo: rd.Stamp(), Recorded: rd.Stamp(), Closed: rd.Stamp()}
	var err error
	if r.Sources, err = sources(&rd, want); err != nil {
		return edgeRecord{}, corrupt("edge", err)
	}
	return r, nil
}

// records reads the records of one bucket by id through one cursor (a
// Get allocates a cursor per call; a node's facts and edges are read in a
// loop).
type records struct {
	c    *bolt.Cursor
	what string
	key  [8]byte
}

func newRecords(tx *bolt.Tx, bucket []byte, what string) records {
	return records{c: tx.Bucket(bucket).Cursor(), what: what}
}

// raw returns record id, or ErrNotFound.
func (rs *records) raw(id uint64) ([]byte, error) {
	binary.BigEndian.PutUint64(rs.key[:], id)
	v := kv.SeekGet(rs.c, rs.key[:])
	if v == nil {
		return nil, fmt.Errorf("graph %s %d: %w", rs.what, id, ErrNotFound)
	}
	return v, nil
}

// decoded reads record id and decodes it with decode (want: with its
// sources).
func decoded[T any](rs *records, id uint64, want bool, decode func([]byte, bool) (T, error)) (T, error) {
	var zero T
	v, err := rs.raw(id)
	if err != nil {
		return zero, err
	}
	r, err := decode(v, want)
	if err != nil {
		return zero, fmt.Errorf("graph %s %d: %w", rs.what, id, err)
	}
	return r, nil
}

func (rs *records) node(id uint64, want bool) (nodeRecord, error) {
	return decoded(rs, id, want, decodeNode)
}

func (rs *records) fact(id uint64, want bool) (factRecord, error) {
	return decoded(rs, id, want, decodeFact)
}

func (rs *records) edge(id uint64, want bool) (edgeRecord, error) {
	return decoded(rs, id, want, decodeEdge)
}

func nodeRecords(tx *bolt.Tx) records { return newRecords(tx, kv.BucketGraphNodes, "node") }
func factRecords(tx *bolt.Tx) records { return newRecords(tx, kv.BucketGraphFacts, "fact") }
func edgeRecords(tx *bolt.Tx) records { return newRecords(tx, kv.BucketGraphEdges, "edge") }

func getNodeRecord(tx *bolt.Tx, id uint64, want bool) (nodeRecord, error) {
	rs := nodeRecords(tx)
	return rs.node(id, want)
}

func getFactRecord(tx *bolt.Tx, id uint64, want bool) (factRecord, error) {
	rs := factRecords(tx)
	return rs.fact(id, want)
}

func getEdgeRecord(tx *bolt.Tx, id uint64, want bool) (edgeRecord, error) {
	rs := edgeRecords(tx)
	return rs.edge(id, want)
}
