package graph

import (
	"path/filepath"
	"testing"

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
