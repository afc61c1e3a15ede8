package stratagate_test

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// A file whose indexes were written in an older layout (stats without a
// layout number, posting blocks in the old format) is rebuilt by a
// writable Open; a read-only Open cannot rebuild and reports it.
func TestOpenRebuildsOldIndexLayout(t *testing.T) {
	src := sampleFile(t)
	path := damagedCopy(t, src, func(tx *bolt.Tx) error {
		for _, name := range []string{"idx.raw", "idx.events", "idx.graph"} {
			root := tx.Bucket([]byte(name))
			require.NotNil(t, root, name)
			setLayout(t, root.Bucket([]byte("meta")), nil)
			// An old-format posting chunk (version 1) where a block was.
			post := root.Bucket([]byte("post"))
			k, _ := post.Cursor().First()
			require.NotNil(t, k)
			require.NoError(t, post.Put(k, []byte{1, 0, 1, 0, 0, 0, 0}))
		}
		return nil
	})

	requireRebuiltOnWritableOpen(t, path, "a read-only open serves no search from an old layout")
}

// A file written under layout 2 (a raw index of one field, the text, with
// no speaker terms) is rebuilt by a writable Open into the current raw
// index: a question naming a speaker then matches that speaker's turns,
// and the rebuilt indexes equal a fresh rebuild.
func TestOpenRebuildsLayout2RawIndexWithSpeakers(t *testing.T) {
	mem, src := openMem(t, &stratagate.Options{NoSync: true})
	ids := appendLines(t, mem, "chat", []line{
		{"Ana", "I think the move to the new flat will happen in June."},
		{"Ben", "Our move last year took three days."},
		{"Ana", "I bought a red bike yesterday."},
	})
	waitIdle(t, mem)
	require.NoError(t, mem.Close())

	path := damagedCopy(t, src, func(tx *bolt.Tx) error {
		// The raw index as layout 2 wrote it: text terms only.
		require.NoError(t, tx.DeleteBucket([]byte("idx.raw")))
		old := index.New("raw", []index.Field{{Name: "text"}}, index.Options{CacheEntries: -1})
		require.NoError(t, tx.Bucket(kv.BucketMessages).ForEach(func(_, v []byte) error {
			msg, err := layers.DecodeMessage(v)
			require.NoError(t, err)
			_, err = old.Add(tx, index.Doc{
				ID: msg.ID, Scope: "global", Fields: [][]string{bm25.AppendTerms(nil, msg.Content)},
				Keywords: []string{"thread:" + msg.Thread, "role:" + msg.Role, "speaker:" + strings.ToLower(msg.Speaker)}, Start: msg.At,
			})
			return err
		}))
		for _, name := range []string{"idx.raw", "idx.events", "idx.graph"} {
			meta := tx.Bucket([]byte(name)).Bucket([]byte("meta"))
			if meta.Get([]byte("stats")) == nil {
				continue // nothing indexed yet (no block sealed: no cards)
			}
			setLayout(t, meta, 2)
		}
		return nil
	})

	ro, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	_, err = ro.SearchRaw(ctx, stratagate.Query{Text: "move"})
	assert.ErrorIs(t, err, index.ErrLayout, "a layout-2 index is not served")
	require.NoError(t, ro.Close())

	mem, err = stratagate.Open(path, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: "What did Ana say about the move?"})
	require.NoError(t, err)
	assert.Equal(t, []uint64{ids[0], ids[1], ids[2]}, rank(hits), "Ana on the move, the move, then Ana (by her name alone)")
	require.NoError(t, mem.CheckIndexes(ctx))
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
}

// A file written under layout 3 (posting blocks of version 2: the
// postings without the header that carries a block's count and bound) is
// rebuilt by a writable Open into layout 4; a read-only Open reports it.
func TestOpenRebuildsLayout3PostingBlocks(t *testing.T) {
	src := sampleFile(t)
	blocks := 0
	path := damagedCopy(t, src, func(tx *bolt.Tx) error {
		for _, name := range []string{"idx.raw", "idx.events", "idx.graph"} {
			root := tx.Bucket([]byte(name))
			require.NotNil(t, root, name)
			post := root.Bucket([]byte("post"))
			type kvPair struct{ k, v []byte }
			var old []kvPair
			require.NoError(t, post.ForEach(func(k, v []byte) error {
				// Version 3: version, count, points, (tf, length) per
				// point, then the postings version 2 held alone.
				require.Equal(t, byte(3), v[0])
				_, n := binary.Uvarint(v[1:])
				p := 1 + n
				points := int(v[p])
				p++
				for range 2 * points {
					_, n := binary.Uvarint(v[p:])
					p += n
				}
				old = append(old, kvPair{slices.Clone(k), append([]byte{2}, v[p:]...)})
				return nil
			}))
			for _, e := range old {
				require.NoError(t, post.Put(e.k, e.v))
			}
			blocks += len(old)
			setLayout(t, root.Bucket([]byte("meta")), 3)
		}
		return nil
	})
	require.Positive(t, blocks)

	requireRebuiltOnWritableOpen(t, path, "a layout-3 index is not served")
}

// setLayout sets the layout number of an index's stats record (nil: drops
// it, as files written before it was recorded have none).
func setLayout(t *testing.T, meta *bolt.Bucket, layout any) {
	t.Helper()
	var st map[string]any
	_, err := kv.Decode(meta.Get([]byte("stats")), &st, 1)
	require.NoError(t, err)
	require.Contains(t, st, "f", "current stats carry the layout")
	if layout == nil {
		delete(st, "f")
	} else {
		st["f"] = layout
	}
	v, err := kv.Encode(1, st)
	require.NoError(t, err)
	require.NoError(t, meta.Put([]byte("stats"), v))
}

// requireRebuiltOnWritableOpen checks that the sample file at path,
// whose indexes are of an older layout, serves no search read-only (why
// says what the old layout is), and that a writable Open rebuilds them:
// searches answer, the indexes equal a rebuild, Verify is clean.
func requireRebuiltOnWritableOpen(t *testing.T, path, why string) {
	t.Helper()
	ro, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	_, err = ro.SearchRaw(ctx, stratagate.Query{Text: "pnpm", Scopes: []string{"project:atlas", "global"}})
	assert.ErrorIs(t, err, index.ErrLayout, why)
	require.NoError(t, ro.Close())

	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	hits, err := mem.SearchRaw(ctx, stratagate.Query{Text: "pnpm", Scopes: []string{"project:atlas", "global"}})
	require.NoError(t, err)
	assert.NotEmpty(t, hits)
	require.NoError(t, mem.CheckIndexes(ctx))
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
}
