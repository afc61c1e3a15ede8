package graph

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

// FuzzDecodeGraphRecords feeds arbitrary bytes to the decoders of the node,
// fact, edge and projection records: none may panic, and whatever decodes
// must convert and encode again.
func FuzzDecodeGraphRecords(f *testing.F) {
	at := kv.ToStamp(time.Date(2024, 3, 5, 19, 30, 0, 0, time.FixedZone("", 3600)))
	for _, v := range []any{
		&nodeRecord{ID: 1, Scope: "global", Kind: "person", Name: "Ann", Aliases: []string{"annie"}, Sources: []uint64{3}, Created: at},
		&factRecord{ID: 2, Node: 1, Key: "lives_in", Value: "Lisbon", From: at, Recorded: at, Sources: []uint64{3}},
		&edgeRecord{ID: 3, From: 1, To: 4, ToName: "Bo", Relation: "friend_of", VFrom: at, Recorded: at, Sources: []uint64{3}},
		&projected{Accepted: 2, Rejected: 1, Events: []uint64{3}},
	} {
		b, err := kv.Encode(1, v)
		require.NoError(f, err)
		f.Add(b)
		f.Add(b[:len(b)-1])
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, v []byte) {
		var n nodeRecord
		if _, err := kv.Decode(v, &n, nodeVersion); err == nil {
			_ = n.node()
			_, err := kv.Encode(nodeVersion, &n)
			require.NoError(t, err)
		}
		var fr factRecord
		if _, err := kv.Decode(v, &fr, factVersion); err == nil {
			_ = fr.fact()
			_, err := kv.Encode(factVersion, &fr)
			require.NoError(t, err)
		}
		var e edgeRecord
		if _, err := kv.Decode(v, &e, edgeVersion); err == nil {
			_ = e.edge()
			_, err := kv.Encode(edgeVersion, &e)
			require.NoError(t, err)
		}
		var p projected
		_, _ = kv.Decode(v, &p, projectedVersion)
	})
}
