package graph

import (
	"bytes"
	"errors"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// ErrNotFound is returned for an unknown node, fact or edge.
var ErrNotFound = kv.ErrNotFound

// ErrInvalidOp marks a proposed graph operation that failed validation.
var ErrInvalidOp = errors.New("sg: invalid graph operation")

const (
	linkFact = 'f'
	linkOut  = 'o'
	linkIn   = 'i'
)

type nodeRecord struct {
	ID      uint64   `msgpack:"i"`
	Scope   string   `msgpack:"sc"`
	Kind    string   `msgpack:"k"`
	Name    string   `msgpack:"n"`
	Aliases []string `msgpack:"a,omitempty"`
	Tags    []string `msgpack:"t,omitempty"`
	Sources []uint64 `msgpack:"s"`
	Created kv.Stamp `msgpack:"c"`
}

type factRecord struct {
	ID       uint64   `msgpack:"i"`
	Node     uint64   `msgpack:"n"`
	Key      string   `msgpack:"k"`
	Value    string   `msgpack:"v"`
	From     kv.Stamp `msgpack:"f"`
	To       kv.Stamp `msgpack:"t"`
	Recorded kv.Stamp `msgpack:"r"`
	Closed   kv.Stamp `msgpack:"c"`
	Sources  []uint64 `msgpack:"s"`
}

type edgeRecord struct {
	ID       uint64   `msgpack:"i"`
	From     uint64   `msgpack:"a"`
	To       uint64   `msgpack:"b,omitempty"`
	ToName   string   `msgpack:"bn"`
	Relation string   `msgpack:"rel"`
	VFrom    kv.Stamp `msgpack:"f"`
	VTo      kv.Stamp `msgpack:"t"`
	Recorded kv.Stamp `msgpack:"r"`
	Closed   kv.Stamp `msgpack:"c"`
	Sources  []uint64 `msgpack:"s"`
}

func (r *nodeRecord) node() Node {
	return Node{ID: r.ID, Scope: r.Scope, Kind: Kind(r.Kind), Name: r.Name, Aliases: r.Aliases, Tags: r.Tags,
		SourceEventIDs: r.Sources, CreatedAt: r.Created.Time()}
}

func (r *factRecord) fact() Fact {
	return Fact{ID: r.ID, Node: r.Node, Key: r.Key, Value: r.Value, ValidFrom: r.From.Time(), ValidTo: r.To.Time(),
		RecordedAt: r.Recorded.Time(), ClosedAt: r.Closed.Time(), SourceEventIDs: r.Sources}
}

func (r *edgeRecord) edge() Edge {
	return Edge{ID: r.ID, From: r.From, To: r.To, ToName: r.ToName, Relation: r.Relation, ValidFrom: r.VFrom.Time(),
		ValidTo: r.VTo.Time(), RecordedAt: r.Recorded.Time(), ClosedAt: r.Closed.Time(), SourceEventIDs: r.Sources}
}

// nodeHead is a version 1 node record without its sources, which its
// decoding skips without allocating: a node's sources are every event
// that named it, a list that grows with the store (2 KB at 20k turns, 11
// KB at 100k for the most-named node), and the index document of a node,
// the names of its neighbours and the nodes shown to projection need none
// of it.
type nodeHead struct {
	ID      uint64   `msgpack:"i"`
	Scope   string   `msgpack:"sc"`
	Kind    string   `msgpack:"k"`
	Name    string   `msgpack:"n"`
	Aliases []string `msgpack:"a,omitempty"`
	Tags    []string `msgpack:"t,omitempty"`
	Created kv.Stamp `msgpack:"c"`
}

// getNodeHead is GetNode without the node's SourceEventIDs.
func getNodeHead(tx *bolt.Tx, id uint64) (Node, error) {
	r, err := getNodeRecord(tx, id, false)
	return r.node(), err
}

// GetNode reads node id.
func GetNode(tx *bolt.Tx, id uint64) (Node, error) {
	r, err := getNodeRecord(tx, id, true)
	return r.node(), err
}

// GetFact reads fact id (Active is not computed here; see View).
func GetFact(tx *bolt.Tx, id uint64) (Fact, error) {
	r, err := getFactRecord(tx, id, true)
	return r.fact(), err
}

// GetEdge reads edge id (Active is not computed here; see View).
func GetEdge(tx *bolt.Tx, id uint64) (Edge, error) {
	r, err := getEdgeRecord(tx, id, true)
	return r.edge(), err
}

// NameKey normalises a node name or alias for exact matching.
func NameKey(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

func nameKey(scope string, k Kind, name string) []byte {
	return []byte(scope + "\x00" + string(k) + "\x00" + NameKey(name))
}

// Lookup finds the node of kind k named (or aliased) name in scope.
func Lookup(tx *bolt.Tx, scope string, k Kind, name string) (uint64, bool) {
	v := tx.Bucket(kv.BucketGraphNames).Get(nameKey(scope, k, name))
	if len(v) != 8 {
		return 0, false
	}
	return kv.ID(v), true
}

// LookupAnyKind finds nodes of any kind named (or aliased) name in scope.
func LookupAnyKind(tx *bolt.Tx, scope, name string) []uint64 {
	var out []uint64
	// One cursor for the six keys: a Get allocates one per call, and
	// projection looks up every name of every card.
	c := tx.Bucket(kv.BucketGraphNames).Cursor()
	for _, k := range []Kind{KindPerson, KindProject, KindOrganization, KindTool, KindPlace, KindTopic} {
		key := nameKey(scope, k, name)
		if got, v := c.Seek(key); bytes.Equal(got, key) && len(v) == 8 {
			out = append(out, kv.ID(v))
		}
	}
	return out
}

func linkKey(node uint64, kind byte, id uint64) []byte {
	k := make([]byte, 0, 17)
	k = append(k, kv.Key(node)...)
	k = append(k, kind)
	return append(k, kv.Key(id)...)
}

// links returns the ids linked to node under kind, in id order.
func links(tx *bolt.Tx, node uint64, kind byte) []uint64 {
	prefix := append(kv.Key(node), kind)
	var out []uint64
	c := tx.Bucket(kv.BucketGraphLinks).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(k) == 17; k, _ = c.Next() {
		out = append(out, kv.ID(k[9:]))
	}
	return out
}

// NodeFacts returns every fact of node (open and closed), in id order.
func NodeFacts(tx *bolt.Tx, node uint64) ([]Fact, error) {
	var out []Fact
	rs := factRecords(tx)
	for _, id := range links(tx, node, linkFact) {
		r, err := rs.fact(id, true)
		if err != nil {
			return nil, err
		}
		out = append(out, r.fact())
	}
	return out, nil
}

// NodeEdges returns the edges leaving (out) or entering node.
func NodeEdges(tx *bolt.Tx, node uint64, out bool) ([]Edge, error) {
	kind := byte(linkIn)
	if out {
		kind = linkOut
	}
	var res []Edge
	rs := edgeRecords(tx)
	for _, id := range links(tx, node, kind) {
		r, err := rs.edge(id, true)
		if err != nil {
			return nil, err
		}
		res = append(res, r.edge())
	}
	return res, nil
}

// ForEachNode calls fn for every node in id order.
func ForEachNode(tx *bolt.Tx, fn func(Node) error) error {
	return tx.Bucket(kv.BucketGraphNodes).ForEach(func(_, v []byte) error {
		r, err := decodeNode(v, true)
		if err != nil {
			return err
		}
		return fn(r.node())
	})
}

// ForEachFact calls fn for every fact in id order.
func ForEachFact(tx *bolt.Tx, fn func(Fact) error) error {
	return tx.Bucket(kv.BucketGraphFacts).ForEach(func(_, v []byte) error {
		r, err := decodeFact(v, true)
		if err != nil {
			return err
		}
		return fn(r.fact())
	})
}

// ForEachEdge calls fn for every edge in id order.
func ForEachEdge(tx *bolt.Tx, fn func(Edge) error) error {
	return tx.Bucket(kv.BucketGraphEdges).ForEach(func(_, v []byte) error {
		r, err := decodeEdge(v, true)
		if err != nil {
			return err
		}
		return fn(r.edge())
	})
}

func addSource(srcs []uint64, ids ...uint64) []uint64 {
	for _, id := range ids {
		found := false
		for _, s := range srcs {
			found = found || s == id
		}
		if !found {
			srcs = append(srcs, id)
		}
	}
	return srcs
}

func now0(t time.Time) kv.Stamp { return kv.ToStamp(t) }
