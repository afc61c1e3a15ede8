package stratagate_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// blockRecordV1 is a block record as format 1 files hold it: the current
// fields (less the renderer version and hash, which it did not have) plus
// the stored L3 and L4 text.
type blockRecordV1 struct {
	layers.Block
	L3 string `msgpack:"l3"`
	L4 string `msgpack:"l4"`
}

// toFormat3Layout rewrites thread_spans as the two maps format 3 and
// before kept instead, message_block and thread_messages, inside tx.
func toFormat3Layout(t *testing.T, tx *bolt.Tx) {
	t.Helper()
	mb, err := tx.CreateBucket(kv.BucketMessageBlock)
	require.NoError(t, err)
	tm, err := tx.CreateBucket(kv.BucketThreadMsgs)
	require.NoError(t, err)
	require.NoError(t, tx.Bucket(kv.BucketThreadSpans).ForEach(func(k, v []byte) error {
		sp, err := layers.DecodeSpan(k, v)
		require.NoError(t, err)
		for _, id := range sp.MessageIDs {
			require.NoError(t, mb.Put(kv.Key(id), kv.Key(sp.BlockID)))
			require.NoError(t, tm.Put(append([]byte(sp.Thread+"\x00"), kv.Key(id)...), nil))
		}
		return nil
	}))
	require.NoError(t, tx.DeleteBucket(kv.BucketThreadSpans))
}

func setFormat(tx *bolt.Tx, format uint32) error {
	var f [4]byte
	binary.BigEndian.PutUint32(f[:], format)
	return tx.Bucket(kv.BucketMeta).Put([]byte("format"), f[:])
}

// downgradeToV1 rewrites a file's block records as version 1, with the
// renderings edit returns for each (fresh renderings unless edited), and
// sets the file format back to 1, with the format 3 layout of the
// message maps: what a build before block record version 2 wrote.
func downgradeToV1(t *testing.T, src string, edit func(b *layers.Block)) string {
	return v1Records(t, src, 1, edit)
}

// v1Records rewrites a file's block records as version 1 (see
// downgradeToV1) and sets its format: 1, with the format 3 layout, or the
// current one, where a version 1 record is damage Verify must describe.
func v1Records(t *testing.T, src string, format uint32, edit func(b *layers.Block)) string {
	t.Helper()
	return damagedCopy(t, src, func(tx *bolt.Tx) error {
		bb := tx.Bucket(kv.BucketBlocks)
		var blocks []layers.Block
		require.NoError(t, bb.ForEach(func(k, v []byte) error {
			b, err := layers.DecodeBlock(v)
			require.NoError(t, err)
			require.NoError(t, layers.LoadRenderings(tx, &b))
			blocks = append(blocks, b)
			return nil
		}))
		for _, b := range blocks {
			if edit != nil {
				edit(&b)
			}
			rec := blockRecordV1{Block: b, L3: b.L3, L4: b.L4}
			rec.RenderVersion, rec.RenderHash = 0, nil
			v, err := kv.Encode(1, &rec)
			require.NoError(t, err)
			require.NoError(t, bb.Put(kv.Key(b.ID), v))
		}
		if format == 1 {
			toFormat3Layout(t, tx)
		}
		return setFormat(tx, format)
	})
}

// blockViews reads every block of every thread at every level it has.
func blockViews(t *testing.T, mem *stratagate.Memory) map[uint64][]stratagate.BlockView {
	t.Helper()
	ths, err := mem.Threads(ctx)
	require.NoError(t, err)
	out := map[uint64][]stratagate.BlockView{}
	for _, th := range ths {
		bs, err := mem.Blocks(ctx, th.Name)
		require.NoError(t, err)
		for _, b := range bs {
			for level := range 6 {
				v, err := mem.ExpandBlock(ctx, b.ID, level)
				require.NoError(t, err)
				out[b.ID] = append(out[b.ID], v)
			}
			// Blocks fills L3 and L4 as ExpandBlock renders them.
			assert.Equal(t, out[b.ID][3].Text, b.L3)
			assert.Equal(t, out[b.ID][4].Text, b.L4)
		}
	}
	require.NotEmpty(t, out)
	return out
}

// recordVersions counts the block records of the closed file at path by
// record version, and returns its format.
func recordVersions(t *testing.T, path string) (map[byte]int, uint32) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	n := map[byte]int{}
	var format uint32
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		format = binary.BigEndian.Uint32(tx.Bucket(kv.BucketMeta).Get([]byte("format")))
		return tx.Bucket(kv.BucketBlocks).ForEach(func(_, v []byte) error {
			n[v[0]]++
			return nil
		})
	}))
	return n, format
}

func TestMigrateBlockRecordsV1(t *testing.T) {
	src := sampleFile(t)
	cur, err := stratagate.Open(src, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	want := blockViews(t, cur)
	require.NoError(t, cur.Close())
	versions, format := recordVersions(t, src)
	assert.Equal(t, map[byte]int{3: len(want)}, versions, "new files hold version 3 records")
	assert.Equal(t, kv.FormatVersion, format)

	path := downgradeToV1(t, src, nil)
	versions, format = recordVersions(t, path)
	require.Equal(t, map[byte]int{1: len(want)}, versions)
	require.Equal(t, uint32(1), format)

	t.Run("read-only Open refuses it and changes nothing", func(t *testing.T) {
		_, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
		require.ErrorIs(t, err, stratagate.ErrVersionMismatch)
		assert.ErrorContains(t, err, "open it read-write once to upgrade")
		versions, format := recordVersions(t, path)
		assert.Equal(t, map[byte]int{1: len(want)}, versions, "nothing rewritten")
		assert.Equal(t, uint32(1), format)
	})

	t.Run("writable Open rewrites them as version 3", func(t *testing.T) {
		defer stratagate.SetMigrateBatch(2)() // 5 blocks: three transactions
		var logs bytes.Buffer
		mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		require.NoError(t, err)
		assert.Contains(t, logs.String(), "migrated version 1 block records")
		assert.Contains(t, logs.String(), fmt.Sprintf("rewritten=%d", len(want)))
		assert.Contains(t, logs.String(), "transactions=3")
		assert.Equal(t, want, blockViews(t, mem))
		rep, err := mem.Verify(ctx)
		require.NoError(t, err)
		assert.True(t, rep.OK, "%v", rep.Violations)
		require.NoError(t, mem.Close())
		versions, format := recordVersions(t, path)
		assert.Equal(t, map[byte]int{3: len(want)}, versions)
		assert.Equal(t, kv.FormatVersion, format)

		// A second Open has nothing to do.
		logs.Reset()
		mem, err = stratagate.Open(path, &stratagate.Options{NoSync: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		require.NoError(t, err)
		assert.NotContains(t, logs.String(), "migrat")
		require.NoError(t, mem.Close())
	})

	t.Run("a damaged version 1 rendering still fails Verify after migration", func(t *testing.T) {
		const blockID = 2
		edit := func(b *layers.Block) {
			if b.ID == blockID {
				b.L4 = strings.Replace(b.L4, "Leo", "Lee", 1)
			}
		}
		// Verify compares a version 1 record's stored text (here in a
		// current file, where only damage can leave one).
		rep := verifyFile(t, v1Records(t, src, kv.FormatVersion, edit))
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "block.l4")
		assert.Equal(t, uint64(blockID), v.ID)
		assert.Contains(t, v.Detail, "stored")
		for _, x := range rep.Violations {
			assert.NotEqual(t, "block.l3", x.Check, "only L4 was changed")
		}

		path := downgradeToV1(t, src, edit)
		mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
		require.NoError(t, err)
		require.NoError(t, mem.Close())
		rep = verifyFile(t, path)
		assert.False(t, rep.OK)
		assert.Equal(t, uint64(blockID), findViolation(t, rep, "block.render_hash").ID)
	})
}

// downgradeToV2 rewrites a file as a format 2 build left it: every open
// tail also listed in thread_messages and the receipts of its turns in the
// receipts bucket, not in the thread record.
func downgradeToV2(t *testing.T, src string) string {
	t.Helper()
	return damagedCopy(t, src, func(tx *bolt.Tx) error {
		toFormat3Layout(t, tx)
		ths, err := layers.ListThreads(tx)
		require.NoError(t, err)
		for _, th := range ths {
			for _, id := range th.OpenTail {
				require.NoError(t, tx.Bucket(kv.BucketThreadMsgs).Put(append([]byte(th.Name+"\x00"), kv.Key(id)...), nil))
			}
			for _, r := range th.Receipts {
				v, err := kv.Encode(layers.ReceiptVersionV1, &layers.Receipt{Thread: th.Name, Turn: r.Turn, MessageIDs: r.MessageIDs})
				require.NoError(t, err)
				require.NoError(t, tx.Bucket(kv.BucketReceipts).Put([]byte(r.ID), v))
			}
			th.Receipts = nil
			require.NoError(t, layers.PutThread(tx, &th))
		}
		return setFormat(tx, 2)
	})
}

// TestMigrateFormat2OpenTails: a format 2 file is valid as it is; a
// writable Open raises it to format 3 without rewriting a record, its open
// turns' receipts (in the bucket) still make retries duplicates, and
// sealing those tails leaves a file that verifies.
func TestMigrateFormat2OpenTails(t *testing.T) {
	src := sampleFile(t)
	path := downgradeToV2(t, src)
	_, format := recordVersions(t, path)
	require.Equal(t, uint32(2), format)

	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer mem.Close()
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	require.True(t, rep.OK, "%v", rep.Violations)
	before, err := mem.Stats(ctx)
	require.NoError(t, err)

	ths, err := mem.Threads(ctx)
	require.NoError(t, err)
	open := 0
	f := loadSample(t)
	for _, tr := range f.Turns() {
		ref, err := mem.Append(ctx, tr)
		require.NoError(t, err)
		require.True(t, ref.Duplicate, "turn %s", tr.ReceiptID)
		if ref.SealedBlockID == 0 && slices.Contains(openTails(ths), ref.MessageIDs[0]) {
			open++
		}
	}
	require.NotZero(t, open, "some retried turns were in open tails")
	after, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, before.Receipts, after.Receipts)
	assert.Equal(t, before.Messages, after.Messages)

	// Seal every open tail with new turns, then check the file.
	for _, th := range ths {
		for i := range stratagate.DefaultBlockTurns {
			tr := turn(th.Name, 1000+i)
			tr.Scope = th.Scope
			_, err := mem.Append(ctx, tr)
			require.NoError(t, err)
		}
	}
	waitIdle(t, mem)
	rep, err = mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
	require.NoError(t, mem.Close())
	_, format = recordVersions(t, path)
	assert.Equal(t, kv.FormatVersion, format)
}

func openTails(ths []stratagate.Thread) []uint64 {
	var ids []uint64
	for _, th := range ths {
		ids = append(ids, th.OpenTail...)
	}
	return ids
}

// TestMigrateFormat3Spans: a format 3 file (message_block and
// thread_messages, no thread_spans) is refused read-only; a writable Open
// replaces the two maps with thread_spans in one transaction, after which
// searches place every hit in the same block between the same neighbours,
// and the file verifies.
func TestMigrateFormat3Spans(t *testing.T) {
	src := sampleFile(t)
	queries := []string{"postgres migration", "deadline", "Leo", "staging database", "budget review"}
	scopes := []string{"project:atlas", "global"}
	hits := func(mem *stratagate.Memory) []stratagate.Hit {
		var all []stratagate.Hit
		for _, q := range queries {
			h, err := mem.SearchRaw(ctx, stratagate.Query{Text: q, Scopes: scopes, Limit: 50})
			require.NoError(t, err)
			all = append(all, h...)
		}
		return all
	}
	cur, err := stratagate.Open(src, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	want := hits(cur)
	require.NoError(t, cur.Close())
	require.True(t, slices.ContainsFunc(want, func(h stratagate.Hit) bool { return h.BlockID != 0 }), "some hits are sealed")
	// Every message's block and neighbours, open tails included.
	places := func(path string) map[uint64][3]uint64 {
		db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
		require.NoError(t, err)
		defer db.Close()
		out := map[uint64][3]uint64{}
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			return tx.Bucket(kv.BucketMessages).ForEach(func(k, v []byte) error {
				m, err := layers.DecodeMessage(v)
				require.NoError(t, err)
				b, p, n := layers.Locate(tx, m.Thread, m.ID)
				out[m.ID] = [3]uint64{b, p, n}
				return nil
			})
		}))
		return out
	}
	wantPlaces := places(src)
	var tail, across int
	for _, p := range wantPlaces {
		if p[0] == 0 && p[1] != 0 {
			tail++
		}
		if p[0] != 0 && p[2] != 0 && wantPlaces[p[2]][0] != p[0] {
			across++ // the next message is in another block or the tail
		}
	}
	require.NotZero(t, tail, "open tails with neighbours")
	require.NotZero(t, across, "neighbours across a block boundary")

	path := damagedCopy(t, src, func(tx *bolt.Tx) error {
		toFormat3Layout(t, tx)
		return setFormat(tx, 3)
	})
	_, err = stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.ErrorIs(t, err, stratagate.ErrVersionMismatch)

	var logs bytes.Buffer
	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.NoError(t, err)
	assert.Contains(t, logs.String(), "replaced message_block and thread_messages with thread_spans")
	assert.Contains(t, logs.String(), "blocks_skipped=0")
	assert.Equal(t, want, hits(mem))
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
	st, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, st.Blocks, rep.Checked["thread_spans"], "one span per block")
	require.NoError(t, mem.Close())
	assert.Equal(t, wantPlaces, places(path))

	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		assert.Nil(t, tx.Bucket(kv.BucketMessageBlock))
		assert.Nil(t, tx.Bucket(kv.BucketThreadMsgs))
		assert.Equal(t, kv.FormatVersion, binary.BigEndian.Uint32(tx.Bucket(kv.BucketMeta).Get([]byte("format"))))
		return nil
	}))
}

// TestMigrateFormat4: a format 4 file (its cards version 2 or 3, which
// every reader decodes) opens read-only as it is, and a writable Open
// raises it to format 5 without rewriting a card.
func TestMigrateFormat4(t *testing.T) {
	src := sampleFile(t)
	cards := func(path string) map[string]string {
		db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
		require.NoError(t, err)
		defer db.Close()
		m := map[string]string{}
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			return tx.Bucket(kv.BucketEvents).ForEach(func(k, v []byte) error {
				m[string(k)] = string(v)
				return nil
			})
		}))
		return m
	}
	path := damagedCopy(t, src, func(tx *bolt.Tx) error { return setFormat(tx, 4) })
	before := cards(path)
	require.NotEmpty(t, before)

	hits := func(t *testing.T, mem *stratagate.Memory) int {
		got, err := mem.SearchEvents(ctx, stratagate.Query{Text: "Leo", Scopes: []string{"global", "project:atlas"}})
		require.NoError(t, err)
		return len(got)
	}
	cur, err := stratagate.Open(src, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	want := hits(t, cur)
	require.NoError(t, cur.Close())
	require.NotZero(t, want)
	checkFormatRaised(t, path, 4, want, hits)
	assert.Equal(t, before, cards(path), "no card is rewritten")
}

// Version 1 graph records, as files before format 6 hold them: msgpack
// under these field names (what the graph package wrote then). They repeat
// the package's structs on purpose: frozen here, a later change to those
// cannot change what this test writes as an old file.
type nodeRecordV1 struct {
	ID      uint64   `msgpack:"i"`
	Scope   string   `msgpack:"sc"`
	Kind    string   `msgpack:"k"`
	Name    string   `msgpack:"n"`
	Aliases []string `msgpack:"a,omitempty"`
	Tags    []string `msgpack:"t,omitempty"`
	Sources []uint64 `msgpack:"s"`
	Created kv.Stamp `msgpack:"c"`
}

type factRecordV1 struct {
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

type edgeRecordV1 struct {
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

// toGraphV1 rewrites every graph record of a file as version 1 and sets
// format 5.
func toGraphV1(t *testing.T, src string) string {
	t.Helper()
	return damagedCopy(t, src, func(tx *bolt.Tx) error {
		nodes := map[uint64]graph.Node{}
		facts := map[uint64]graph.Fact{}
		edges := map[uint64]graph.Edge{}
		require.NoError(t, graph.ForEachNode(tx, func(n graph.Node) error { nodes[n.ID] = n; return nil }))
		require.NoError(t, graph.ForEachFact(tx, func(f graph.Fact) error { facts[f.ID] = f; return nil }))
		require.NoError(t, graph.ForEachEdge(tx, func(e graph.Edge) error { edges[e.ID] = e; return nil }))
		require.NotEmpty(t, nodes)
		require.NotEmpty(t, facts)
		require.NotEmpty(t, edges)
		put := func(bucket []byte, id uint64, r any) {
			v, err := kv.Encode(1, r)
			require.NoError(t, err)
			require.NoError(t, tx.Bucket(bucket).Put(kv.Key(id), v))
		}
		for id, n := range nodes {
			put(kv.BucketGraphNodes, id, &nodeRecordV1{ID: n.ID, Scope: n.Scope, Kind: string(n.Kind), Name: n.Name, Aliases: n.Aliases,
				Tags: n.Tags, Sources: n.SourceEventIDs, Created: kv.ToStamp(n.CreatedAt)})
		}
		for id, f := range facts {
			put(kv.BucketGraphFacts, id, &factRecordV1{ID: f.ID, Node: f.Node, Key: f.Key, Value: f.Value, From: kv.ToStamp(f.ValidFrom),
				To: kv.ToStamp(f.ValidTo), Recorded: kv.ToStamp(f.RecordedAt), Closed: kv.ToStamp(f.ClosedAt), Sources: f.SourceEventIDs})
		}
		for id, e := range edges {
			put(kv.BucketGraphEdges, id, &edgeRecordV1{ID: e.ID, From: e.From, To: e.To, ToName: e.ToName, Relation: e.Relation,
				VFrom: kv.ToStamp(e.ValidFrom), VTo: kv.ToStamp(e.ValidTo), Recorded: kv.ToStamp(e.RecordedAt), Closed: kv.ToStamp(e.ClosedAt),
				Sources: e.SourceEventIDs})
		}
		return setFormat(tx, 5)
	})
}

// graphVersions counts the graph records of a file by version.
func graphVersions(t *testing.T, path string) map[byte]int {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	require.NoError(t, err)
	defer db.Close()
	n := map[byte]int{}
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{kv.BucketGraphNodes, kv.BucketGraphFacts, kv.BucketGraphEdges} {
			require.NoError(t, tx.Bucket(b).ForEach(func(_, v []byte) error {
				n[v[0]]++
				return nil
			}))
		}
		return nil
	}))
	return n
}

// graphDetails expands every node of the sample with its history.
func graphDetails(t *testing.T, mem *stratagate.Memory) []stratagate.NodeDetail {
	t.Helper()
	hits, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: "Leo Maya atlas", Scopes: atlasScopes, Limit: 50})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	var out []stratagate.NodeDetail
	for _, h := range hits {
		d, err := mem.GraphNodeHistory(ctx, h.ID)
		require.NoError(t, err)
		d.AsOf = time.Time{} // the time of the call
		out = append(out, d)
	}
	return out
}

// checkFormatRaised checks that the closed file at path, of format from,
// reads as want through view, read-only (which changes nothing) and after
// a writable Open, which leaves it passing Verify at kv.FormatVersion.
func checkFormatRaised[V any](t *testing.T, path string, from uint32, want V, view func(*testing.T, *stratagate.Memory) V) {
	t.Helper()
	ro, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	assert.Equal(t, want, view(t, ro))
	require.NoError(t, ro.Close())
	_, format := recordVersions(t, path)
	require.Equal(t, from, format, "a read-only Open changes nothing")

	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	assert.Equal(t, want, view(t, mem))
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
	require.NoError(t, mem.Close())
	_, format = recordVersions(t, path)
	assert.Equal(t, kv.FormatVersion, format)
}

// TestMigrateFormat5: a format 5 file (graph records version 1) reads as
// the same graph, read-only and after a writable Open raises it to format
// 6 without rewriting a record; what projection writes next is version 2.
func TestMigrateFormat5(t *testing.T) {
	src := sampleFile(t)
	assert.Zero(t, graphVersions(t, src)[1], "new files hold version 2 graph records")
	cur, err := stratagate.Open(src, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	want := graphDetails(t, cur)
	require.NoError(t, cur.Close())

	path := toGraphV1(t, src)
	old := graphVersions(t, path)
	require.Equal(t, 0, old[2])
	checkFormatRaised(t, path, 5, want, graphDetails)
	assert.Equal(t, old, graphVersions(t, path), "raising the format rewrites no record")

	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	for _, tr := range loadSample(t).Turns() { // projected again: the same names, so the same nodes
		tr.Thread, tr.ReceiptID = tr.Thread+"-again", ""
		_, err := mem.Append(ctx, tr)
		require.NoError(t, err)
	}
	waitIdle(t, mem)
	require.NoError(t, mem.Close())
	after := graphVersions(t, path)
	assert.Positive(t, after[2], "projection writes version 2")
	assert.Less(t, after[1], old[1])
}

// toBlocksV2 rewrites a file's block records as version 2 (msgpack) and
// sets its format to 6: what a build before binary block records wrote.
func toBlocksV2(t *testing.T, src string) string {
	t.Helper()
	return damagedCopy(t, src, func(tx *bolt.Tx) error {
		bb := tx.Bucket(kv.BucketBlocks)
		var blocks []layers.Block
		require.NoError(t, bb.ForEach(func(_, v []byte) error {
			b, err := layers.DecodeBlock(v)
			require.NoError(t, err)
			blocks = append(blocks, b)
			return nil
		}))
		for _, b := range blocks {
			v, err := kv.Encode(2, &b)
			require.NoError(t, err)
			require.NoError(t, bb.Put(kv.Key(b.ID), v))
		}
		return setFormat(tx, 6)
	})
}

// TestMigrateFormat6: a format 6 file (block records version 2, msgpack)
// reads as it did, read-only and after the writable Open, which raises
// the format and rewrites no record; blocks sealed and derived after it
// are version 3.
func TestMigrateFormat6(t *testing.T) {
	src := sampleFile(t)
	cur, err := stratagate.Open(src, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	want := blockViews(t, cur)
	require.NoError(t, cur.Close())

	path := toBlocksV2(t, src)
	old, format := recordVersions(t, path)
	require.Equal(t, map[byte]int{2: len(want)}, old)
	require.Equal(t, uint32(6), format)
	checkFormatRaised(t, path, 6, want, blockViews)
	versions, _ := recordVersions(t, path)
	assert.Equal(t, old, versions, "raising the format rewrites no record")

	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	for _, tr := range loadSample(t).Turns() {
		tr.Thread, tr.ReceiptID = tr.Thread+"-again", ""
		_, err := mem.Append(ctx, tr)
		require.NoError(t, err)
	}
	waitIdle(t, mem)
	again := blockViews(t, mem)
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
	require.NoError(t, mem.Close())
	versions, _ = recordVersions(t, path)
	assert.Equal(t, len(want), versions[2], "old blocks stay version 2")
	assert.Equal(t, len(again)-len(want), versions[3], "new blocks are version 3")
	for id, views := range want {
		assert.Equal(t, views, again[id])
	}
}
