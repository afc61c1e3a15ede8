package graph

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

// FuzzDecodeGraphRecords feeds arbitrary bytes to the decoders of the node,
// fact, edge and projection records: none may panic, a decode without
// sources agrees with the full one, and whatever decodes encodes (as
// version 2) to a record that decodes to the same.
func FuzzDecodeGraphRecords(f *testing.F) {
	at := kv.ToStamp(time.Date(2024, 3, 5, 19, 30, 0, 0, time.FixedZone("", 3600)))
	n := nodeRecord{ID: 1, Scope: "global", Kind: "person", Name: "Ann", Aliases: []string{"annie"}, Sources: []uint64{3, 1}, Created: at}
	fr := factRecord{ID: 2, Node: 1, Key: "lives_in", Value: "Lisbon", From: at, Recorded: at, Sources: []uint64{3}}
	e := edgeRecord{ID: 3, From: 1, To: 4, ToName: "Bo", Relation: "friend_of", VFrom: at, Recorded: at, Sources: []uint64{3}}
	for _, v := range []any{&n, &fr, &e, &projected{Accepted: 2, Rejected: 1, Events: []uint64{3}}} {
		b, err := kv.Encode(recordVersionV1, v)
		require.NoError(f, err)
		f.Add(b)
		f.Add(b[:len(b)-1])
	}
	for _, b := range [][]byte{n.encode(), fr.encode(), e.encode()} {
		f.Add(b)
		f.Add(b[:len(b)-1])
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, v []byte) {
		if r, err := decodeNode(v, true); err == nil {
			_ = r.node()
			h, err := decodeNode(v, false)
			require.NoError(t, err)
			r.Sources = nil
			assert.Equal(t, r, h)
			again, err := decodeNode(r.encode(), true)
			require.NoError(t, err)
			assert.Equal(t, r, again)
		}
		if r, err := decodeFact(v, true); err == nil {
			_ = r.fact()
			again, err := decodeFact(r.encode(), true)
			require.NoError(t, err)
			assert.Equal(t, r.fact(), again.fact())
		}
		if r, err := decodeEdge(v, true); err == nil {
			_ = r.edge()
			again, err := decodeEdge(r.encode(), true)
			require.NoError(t, err)
			assert.Equal(t, r.edge(), again.edge())
		}
		var p projected
		_, _ = kv.Decode(v, &p, projectedVersion)
	})
}
