package graph

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// LookupAnyKind (one cursor for its six keys) finds what Lookup finds
// kind by kind: names that prefix other names, other scopes and a
// damaged value do not leak into the answer.
func TestLookupAnyKindEqualsLookup(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "g.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	kinds := []Kind{KindPerson, KindProject, KindOrganization, KindTool, KindPlace, KindTopic}
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(kv.BucketGraphNames)
		id := uint64(1)
		for _, scope := range []string{"global", "project:a"} {
			for i, k := range kinds {
				for _, name := range []string{"ada", "ada lovelace", "bo"} {
					if (i+len(name))%3 == 0 {
						continue // not every kind has every name
					}
					require.NoError(t, b.Put(nameKey(scope, k, name), kv.Key(id)))
					id++
				}
			}
		}
		return b.Put(nameKey("global", KindTool, "cy"), []byte{1, 2}) // damaged
	}))
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for _, scope := range []string{"global", "project:a", "project:b"} {
			for _, name := range []string{"ada", "Ada  Lovelace", "ada l", "bo", "b", "cy", ""} {
				var want []uint64
				for _, k := range kinds {
					if id, ok := Lookup(tx, scope, k, name); ok {
						want = append(want, id)
					}
				}
				assert.Equal(t, want, LookupAnyKind(tx, scope, name), "%s %q", scope, name)
			}
		}
		return nil
	}))
}

// getNodeHead reads what GetNode reads but the sources, from records of
// either version; a damaged record is an error for both.
func TestGetNodeHead(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "g.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	at := time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC)
	recs := []nodeRecord{
		{ID: 1, Scope: "global", Kind: "person", Name: "Ada", Sources: []uint64{1, 2, 3}, Created: kv.ToStamp(at)},
		{ID: 2, Scope: "project:a", Kind: "tool", Name: "make", Aliases: []string{"gnu make"}, Tags: []string{"build"}, Sources: make([]uint64, 5000), Created: kv.ToStamp(at)},
		{ID: 3, Scope: "global", Kind: "place", Name: "Oslo"},
	}
	const v1 = 10 // the version 1 record of recs[i] is under recs[i].ID+v1
	cut := recs[1].encode()
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(kv.BucketGraphNodes)
		for i := range recs {
			old, err := kv.Encode(recordVersionV1, &recs[i])
			require.NoError(t, err)
			require.NoError(t, b.Put(kv.Key(recs[i].ID), recs[i].encode()))
			require.NoError(t, b.Put(kv.Key(recs[i].ID+v1), old))
		}
		require.NoError(t, b.Put(kv.Key(4), []byte{recordVersionV1, 0xc1}))
		require.NoError(t, b.Put(kv.Key(5), cut[:len(cut)-1]))
		return b.Put(kv.Key(6), append(cut, 0))
	}))
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for _, r := range recs {
			for _, id := range []uint64{r.ID, r.ID + v1} {
				full, err := GetNode(tx, id)
				require.NoError(t, err)
				assert.Equal(t, len(r.Sources), len(full.SourceEventIDs))
				head, err := getNodeHead(tx, id)
				require.NoError(t, err)
				full.SourceEventIDs = nil
				assert.Equal(t, full, head)
			}
		}
		for _, id := range []uint64{4, 5, 6} {
			_, err := getNodeHead(tx, id)
			assert.ErrorIs(t, err, kv.ErrCorrupt, "head of %d", id)
			_, err = GetNode(tx, id)
			assert.ErrorIs(t, err, kv.ErrCorrupt, "node %d", id)
		}
		_, err := getNodeHead(tx, 7)
		assert.ErrorIs(t, err, ErrNotFound)
		return nil
	}))
}

// Version 1 records are msgpack, which decodes an empty list as an empty
// slice; version 2 and every encoder write none. Both read as nil, so a
// record reads the same before and after it is rewritten in version 2.
func TestVersion1EmptyListsReadAsNil(t *testing.T) {
	node, err := kv.Encode(recordVersionV1, &nodeRecord{ID: 1, Name: "Ann", Aliases: []string{}, Tags: []string{}, Sources: []uint64{}})
	require.NoError(t, err)
	fact, err := kv.Encode(recordVersionV1, &factRecord{ID: 2, Node: 1, Key: "k", Value: "v", Sources: []uint64{}})
	require.NoError(t, err)
	edge, err := kv.Encode(recordVersionV1, &edgeRecord{ID: 3, From: 1, To: 2, Relation: "r", Sources: []uint64{}})
	require.NoError(t, err)
	for _, want := range []bool{true, false} {
		n, err := decodeNode(node, want)
		require.NoError(t, err)
		assert.Nil(t, n.Aliases)
		assert.Nil(t, n.Tags)
		assert.Nil(t, n.Sources)
		again, err := decodeNode(n.encode(), want)
		require.NoError(t, err)
		assert.Equal(t, n, again)
		f, err := decodeFact(fact, want)
		require.NoError(t, err)
		assert.Nil(t, f.Sources)
		e, err := decodeEdge(edge, want)
		require.NoError(t, err)
		assert.Nil(t, e.Sources)
	}
}
