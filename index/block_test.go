package index

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// A block header bounds every posting added to it: some point has a tf ≥
// and a length ≤ the posting's. Its points stay a strictly decreasing
// staircase of at most maxBlockFront, and equal the postings' exact
// frontier while that is small enough to fit.
func TestBlockHeadBound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 300 {
		var h blockHead
		var tfs []uint16
		var lens []uint32
		merged := false
		for range 1 + r.IntN(120) {
			tf := uint16(1 + r.IntN(1+r.IntN(40)))
			if round%10 == 0 {
				tf = uint16(65535 - r.IntN(3)) // the extremes of the fields
			}
			l := uint32(r.IntN(1 + r.IntN(400)))
			if round%7 == 0 {
				l = ^uint32(0) - uint32(r.IntN(3))
			}
			h.add(tf, l)
			tfs, lens = append(tfs, tf), append(lens, l)
			exact := frontierRef(tfs, lens)
			merged = merged || len(exact) > maxBlockFront
			require.Equal(t, uint32(len(tfs)), h.n)
			require.True(t, h.nf >= 1 && h.nf <= maxBlockFront)
			for i := 1; i < int(h.nf); i++ {
				require.Greater(t, h.front[i-1].tf, h.front[i].tf)
				require.Greater(t, h.front[i-1].len, h.front[i].len)
			}
			for i := range tfs {
				require.True(t, h.covers(tfs[i], lens[i]), "posting (%d, %d) outside %v", tfs[i], lens[i], h.front[:h.nf])
			}
			if !merged {
				require.Equal(t, exact, h.front[:h.nf:h.nf])
			}
			// The encoding round-trips.
			enc := h.appendTo(nil)
			require.Len(t, enc, h.size())
			got, off, err := parseBlockHead(append(enc, make([]byte, 2*h.n)...))
			require.NoError(t, err)
			require.Equal(t, len(enc), off)
			require.Equal(t, h, got)
		}
	}
}

// Add (extendBlock, one posting at a time) and AddBatch (blockWriter)
// write a block's bytes identically, which a rebuild comparison relies on.
func TestBlockWritersAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		tf, l := uint16(1+r.IntN(9)), uint32(r.IntN(90))
		one := newBlock(tf, l)
		var w blockWriter
		w.add(0, tf, l)
		for range r.IntN(200) {
			delta, tf, l := uint32(1+r.IntN(1000)), uint16(1+r.IntN(1+r.IntN(300))), uint32(r.IntN(1+r.IntN(3000)))
			var err error
			one, err = extendBlock(one, delta, tf, l)
			require.NoError(t, err)
			w.add(delta, tf, l)
			require.Equal(t, w.encode(), one)
			require.Equal(t, len(one), w.size())
		}
		var w2 blockWriter
		require.NoError(t, w2.load(one))
		require.Equal(t, one, w2.encode())
	}
}

// blockIndex returns an index of n docs (single field) in a fresh file:
// every doc holds "common" once in a text of 20 to 200 terms, except that
// one in 100 of the first 2000 is short (3 terms): the best docs for
// "common" come early, and every later block's bound is below theirs. One
// doc in 1000 also holds "rare".
func blockIndex(t *testing.T, n int) (*kv.DB, *Index) {
	t.Helper()
	db, err := kv.Open(filepath.Join(t.TempDir(), "b.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	ix := New("b", []Field{{Name: "text"}}, Options{})
	r := rand.New(rand.NewPCG(8, 9))
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for i := range n {
			l := 20 + r.IntN(180)
			if i < 2000 && i%100 == 50 {
				l = 3
			}
			text := append([]string{"common"}, strings.Fields(strings.Repeat("filler ", l-1))...)
			if i%1000 == 7 {
				text[1] = "rare"
			}
			if _, err := ix.Add(tx, Doc{ID: uint64(i + 1), Scope: "s", Fields: [][]string{text}}); err != nil {
				return err
			}
		}
		return nil
	}))
	return db, ix
}

// decodedBlocks returns how many of term's blocks the cache holds decoded,
// and how many it has.
func decodedBlocks(t *testing.T, db *kv.DB, ix *Index, term string) (dec, all int) {
	t.Helper()
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var b buckets
		require.True(t, ix.open(tx, &b))
		p, err := ix.term(&b, 0, term)
		require.NoError(t, err)
		for i := range p.blocks {
			if p.dec[i].Load() != nil {
				dec++
			}
		}
		all = len(p.blocks)
		return nil
	}))
	return dec, all
}

// Block-max pruning decodes only the blocks whose bound can enter the top
// k: the shortest docs holding a frequent term are found without decoding
// most of its list, and the results are still exactly the exhaustive
// ones.
func TestBlockMaxSkipsBlocks(t *testing.T) {
	for _, terms := range [][]string{{"common"}, {"common", "rare"}} {
		t.Run(strings.Join(terms, "+"), func(t *testing.T) {
			db, ix := blockIndex(t, 30000)
			q := Query{Terms: terms, Scopes: []string{"s"}, K: 10}
			var got, want []Result
			require.NoError(t, db.View(func(tx *bolt.Tx) (err error) {
				got, err = ix.Search(tx, q)
				return err
			}))
			dec, all := decodedBlocks(t, db, ix, "common")
			require.Greater(t, all, 100)
			require.Less(t, dec, all/4, "decoded %d of %d blocks", dec, all)
			t.Logf("decoded %d of %d blocks", dec, all)
			require.NoError(t, db.View(func(tx *bolt.Tx) (err error) {
				want, err = ix.SearchExhaustive(tx, q)
				return err
			}))
			require.Equal(t, want, got)
			require.Len(t, got, 10)
		})
	}
}

// Pruned equals exhaustive on lists of many blocks whose bounds differ:
// skewed lengths and term frequencies, deletions, filters, and k from 1
// to 30, so that block bounds, merged header points and run skipping all
// decide; with one field (BM25) and with two (BM25F, a second field of
// another weight and length normalisation).
func TestBlockMaxEqualsExhaustive(t *testing.T) {
	for _, fields := range [][]Field{
		{{Name: "text", B: 0.75}},
		{{Name: "text", B: 0.75}, {Name: "title", Weight: 2, B: 0.3}},
	} {
		t.Run(fmt.Sprintf("%d fields", len(fields)), func(t *testing.T) {
			testBlockMaxEqualsExhaustive(t, fields)
		})
	}
}

func testBlockMaxEqualsExhaustive(t *testing.T, fields []Field) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 2))
	z := rand.NewZipf(r, 1.2, 2, 300)
	db, err := kv.Open(filepath.Join(t.TempDir(), "e.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	ix := New("e", fields, Options{})
	const n = 6000
	scopeOf := map[uint64]string{}
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for i := range n {
			doc := Doc{ID: uint64(i + 1), Scope: []string{"a", "b"}[r.IntN(2)], Keywords: []string{fmt.Sprint("k", r.IntN(3))}}
			for f := range fields {
				l := 1 + r.IntN(1+r.IntN(150>>f))
				text := make([]string, l)
				for j := range text {
					text[j] = fmt.Sprintf("w%d", z.Uint64())
				}
				if r.IntN(20) == 0 { // a burst of one term: a high tf
					w := fmt.Sprintf("w%d", r.IntN(40))
					for range 1 + r.IntN(30) {
						text = append(text, w)
					}
				}
				doc.Fields = append(doc.Fields, text)
			}
			scopeOf[doc.ID] = doc.Scope
			if _, err := ix.Add(tx, doc); err != nil {
				return err
			}
		}
		for id := uint64(1); id <= n; id += 53 {
			if err := ix.Delete(tx, id); err != nil {
				return err
			}
		}
		return nil
	}))
	// The same index searched with a cache that keeps every block decoded,
	// with none (every block read lazily: postingReader) and with one
	// whose room runs out (some of each).
	searchers := []struct {
		name string
		ix   *Index
	}{
		{"cached", ix},
		{"no cache", New("e", fields, Options{CacheEntries: -1})},
		{"small cache", New("e", fields, Options{CacheEntries: 3000})},
	}
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for i := range 300 {
			q := Query{K: 1 + r.IntN(30), Scopes: [][]string{{"a"}, {"b"}, {"a", "b"}, {"b", "a", "b"}}[r.IntN(4)]}
			for range 1 + r.IntN(6) {
				q.Terms = append(q.Terms, fmt.Sprintf("w%d", z.Uint64()))
			}
			if i%4 == 0 {
				q.Keywords = []string{fmt.Sprint("k", r.IntN(3))}
			}
			want, err := ix.SearchExhaustive(tx, q)
			require.NoError(t, err)
			for _, s := range searchers {
				got, err := s.ix.Search(tx, q)
				require.NoError(t, err)
				require.Equal(t, want, got, "query %d, %s: %+v", i, s.name, q)
				for _, res := range got { // the filters hold (both use them)
					require.Contains(t, q.Scopes, scopeOf[res.ID])
					require.NotEqual(t, uint64(1), res.ID%53, "deleted")
				}
			}
		}
		return nil
	}))
}

// BenchmarkDecodeBlock: decoding posting blocks (the work a query does
// per block it cannot skip), into a reused chunk (scratch) and into fresh
// slices (the cost of keeping a block decoded in the cache), and skipping
// through them to their last doc (postingReader.skipTo: a seek into a
// block the cache cannot keep). The blocks are many and distinct, shaped
// like a frequent term's, so that the CPU cannot learn their branches:
// decoding one block over and over measured a third of the real cost.
func BenchmarkDecodeBlock(b *testing.B) {
	p, all := randomPosting(b, rand.New(rand.NewPCG(1, 1)), 3000, false)
	n := len(all.docs)
	for _, mode := range []string{"scratch", "fresh", "skip"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			c := &chunk{}
			var rd postingReader
			for range b.N {
				for i := range p.blocks {
					var err error
					switch mode {
					case "scratch":
						c.docs, c.tfs, c.lens = c.docs[:0], c.tfs[:0], c.lens[:0]
						err = p.decodeInto(i, c)
					case "fresh":
						k := int(p.blocks[i].head.n)
						c = &chunk{docs: make([]uint32, 0, k), tfs: make([]uint16, 0, k), lens: make([]uint32, 0, k)}
						err = p.decodeInto(i, c)
					case "skip":
						rd.start(p, i)
						_, err = rd.skipTo(endDoc-1, c)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/posting")
		})
	}
}
