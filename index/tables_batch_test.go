package index

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// dumpTables returns every key and value of buckets docs and ids.
func dumpTables(t *testing.T, tx *bolt.Tx, docs, ids string) [][2][]byte {
	t.Helper()
	var out [][2][]byte
	for _, name := range []string{docs, ids} {
		require.NoError(t, tx.Bucket([]byte(name)).ForEach(func(k, v []byte) error {
			out = append(out, [2][]byte{append([]byte(name+"/"), k...), bytes.Clone(v)})
			return nil
		}))
	}
	return out
}

// The batch writers store exactly what appendDoc and putID store one
// document at a time: batches that start anywhere in a docs chunk, span
// several, and carry record ids in any order, sparse or dense.
func TestBatchTablesEqualOneByOne(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "t.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 200 {
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			for _, n := range []string{"d1", "i1", "d2", "i2"} {
				if tx.Bucket([]byte(n)) != nil {
					require.NoError(t, tx.DeleteBucket([]byte(n)))
				}
				_, err := tx.CreateBucket([]byte(n))
				require.NoError(t, err)
			}
			used := map[uint64]bool{}
			newID := func() uint64 {
				for {
					var id uint64
					switch round % 3 {
					case 0:
						id = 1 + r.Uint64N(1000) // dense: many per ids chunk
					case 1:
						id = 1 + r.Uint64N(1<<40)
					default:
						id = 1 + r.Uint64N(5000)
					}
					if !used[id] {
						used[id] = true
						return id
					}
				}
			}
			d := uint32(1)
			for range r.IntN(4) { // batches before, some mid-chunk
				n := r.IntN(150)
				var pairs []idDoc
				var recs []uint64
				for i := range n {
					id := newID()
					pairs = append(pairs, idDoc{id, d + uint32(i)})
					recs = append(recs, id)
					require.NoError(t, appendDoc(tx.Bucket([]byte("d1")), d+uint32(i), id))
					require.NoError(t, putID(tx.Bucket([]byte("i1")), id, d+uint32(i)))
				}
				require.NoError(t, checkNewIDs(tx.Bucket([]byte("i2")), pairs))
				require.NoError(t, appendDocs(tx.Bucket([]byte("d2")), d, recs))
				require.NoError(t, putNewIDs(tx.Bucket([]byte("i2")), pairs))
				d += uint32(n)
			}
			a := dumpTables(t, tx, "d1", "i1")
			b := dumpTables(t, tx, "d2", "i2")
			require.Equal(t, len(a), len(b), "round %d", round)
			for i := range a {
				require.Equal(t, a[i][1], b[i][1], "round %d key %q", round, a[i][0][3:])
			}

			// A record id already stored, or twice in the batch, refuses
			// the batch before anything is written.
			if len(used) > 0 {
				var old uint64
				for id := range used {
					old = id
					break
				}
				fresh := newID()
				for _, pairs := range [][]idDoc{{{fresh, d}, {old, d + 1}}, {{fresh, d}, {fresh, d + 1}}} {
					before := dumpTables(t, tx, "d2", "i2")
					err := checkNewIDs(tx.Bucket([]byte("i2")), pairs)
					assert.True(t, errors.Is(err, ErrDuplicate), "round %d: %v", round, err)
					assert.Equal(t, before, dumpTables(t, tx, "d2", "i2"))
				}
			}
			return nil
		}))
	}
}

// A damaged chunk is ErrCorrupt, not a panic or a silent overwrite.
func TestBatchTablesDamage(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "t.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		docs, err := tx.CreateBucket([]byte("docs"))
		require.NoError(t, err)
		ids, err := tx.CreateBucket([]byte("ids"))
		require.NoError(t, err)
		require.NoError(t, appendDocs(docs, 1, []uint64{10, 11, 12}))
		// Doc 2 starts mid-chunk but the chunk holds three docs.
		assert.ErrorIs(t, appendDocs(docs, 2, []uint64{13}), kv.ErrCorrupt)
		// Doc 1 would start a chunk that exists.
		assert.ErrorIs(t, appendDocs(docs, 1, []uint64{13}), kv.ErrCorrupt)
		require.NoError(t, docs.Put(docsKey(65), []byte{docsVersion}))
		assert.ErrorIs(t, appendDocs(docs, 66, []uint64{13}), kv.ErrCorrupt)

		require.NoError(t, ids.Put(idsKey(7), []byte{9, 9, 9}))
		assert.ErrorIs(t, checkNewIDs(ids, []idDoc{{7, 1}}), kv.ErrCorrupt)
		assert.ErrorIs(t, putNewIDs(ids, []idDoc{{7, 1}}), kv.ErrCorrupt)
		return nil
	}))
}
