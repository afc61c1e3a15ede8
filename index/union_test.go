package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/kv"
)

// A multi-field term's union of docs is merged once per set of lists and
// reused; a write to any of its fields' lists makes the next query merge
// again, so a new doc is never missed.
func TestUnionMemo(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "u.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	ix := New("u", []Field{{Name: "title"}, {Name: "body"}}, Options{})
	add := func(id uint64, title, body string) {
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			_, err := ix.Add(tx, Doc{ID: id, Scope: "s", Fields: [][]string{{title}, {body}}})
			return err
		}))
	}
	search := func() []uint64 {
		var ids []uint64
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			rs, err := ix.Search(tx, Query{Terms: []string{"x"}, Scopes: []string{"s"}, K: 10})
			for _, r := range rs {
				ids = append(ids, r.ID)
			}
			return err
		}))
		return ids
	}
	memo := func() *unionMemo {
		var m *unionMemo
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			b, err := ix.buckets(tx)
			require.NoError(t, err)
			p, err := ix.term(b, 0, "x")
			require.NoError(t, err)
			m = p.union.Load()
			return nil
		}))
		return m
	}
	add(1, "x", "y")
	add(2, "y", "x")
	require.ElementsMatch(t, []uint64{1, 2}, search())
	first := memo()
	require.NotNil(t, first)
	require.Equal(t, []uint32{1, 2}, first.docs)
	require.ElementsMatch(t, []uint64{1, 2}, search())
	require.Same(t, first, memo(), "the second query reuses the merge")

	add(3, "y", "x") // only the body field's list changes
	require.ElementsMatch(t, []uint64{1, 2, 3}, search())
	require.NotSame(t, first, memo())
	require.Equal(t, []uint32{1, 2, 3}, memo().docs)
}

// The union records which fields hold each doc, and pruning by those
// fields' bounds stays exact: fields of very different weights, a term
// mostly in the light ones, pruned equals exhaustive.
func TestUnionMasks(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "m.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	fields := []Field{{Name: "title", Weight: 6}, {Name: "body"}, {Name: "tags", Weight: 0.5, B: -1}}
	ix := New("m", fields, Options{})
	r := rand.New(rand.NewPCG(3, 4))
	const n = 3000
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for i := range n {
			doc := Doc{ID: uint64(i + 1), Scope: "s"}
			for f := range fields {
				var text []string
				for range 1 + r.IntN(12) {
					text = append(text, fmt.Sprint("w", r.IntN(30)))
				}
				if f == 0 && r.IntN(10) != 0 { // the heavy field rarely holds the common terms
					text = []string{fmt.Sprint("r", r.IntN(500))}
				}
				doc.Fields = append(doc.Fields, text)
			}
			if _, err := ix.Add(tx, doc); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for i := range 200 {
			q := Query{K: 1 + r.IntN(20), Scopes: []string{"s"}}
			for range 1 + r.IntN(3) {
				q.Terms = append(q.Terms, fmt.Sprint("w", r.IntN(30)))
			}
			got, err := ix.Search(tx, q)
			require.NoError(t, err)
			want, err := ix.SearchExhaustive(tx, q)
			require.NoError(t, err)
			require.Equal(t, want, got, "query %d: %+v", i, q)
		}
		// The masks of a term's union say which fields hold each doc.
		b, err := ix.buckets(tx)
		require.NoError(t, err)
		var parts []*chunk
		var host *posting
		for f := range fields {
			p, err := ix.term(b, uint8(f), "w7")
			require.NoError(t, err)
			var c *chunk
			if p != nil {
				c, err = p.all()
				require.NoError(t, err)
				if host == nil {
					host = p
				}
			}
			parts = append(parts, c)
		}
		m := host.unionOf(parts)
		require.NotNil(t, m.mask)
		for i, d := range m.docs {
			for k, f := range m.fields {
				has := slices.Contains(parts[f].docs, d)
				require.Equal(t, has, m.mask[i]&(1<<k) != 0, "doc %d field %d", d, f)
			}
		}
		return nil
	}))
}

// A masked union's table bounds, for each doc, the pseudo-frequency
// whose saturation is bm25.BM25F's score over the doc's fields, tightly
// (within a float32 step); it is reused while the averages stand and
// recomputed when a write moves them, and scans filtered by it find what
// exhaustive search finds.
func TestUnionPseudoTable(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "p.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	fields := []Field{{Name: "title", Weight: 4}, {Name: "body", B: 0.3}, {Name: "tags", Weight: 0.5, B: -1}}
	ix := New("p", fields, Options{})
	r := rand.New(rand.NewPCG(5, 6))
	next := uint64(1)
	add := func(n int, word string) {
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			for range n {
				doc := Doc{ID: next, Scope: "s"}
				next++
				for range fields {
					var text []string
					for range 1 + r.IntN(9) {
						text = append(text, fmt.Sprint(word, r.IntN(12)))
					}
					doc.Fields = append(doc.Fields, text)
				}
				if _, err := ix.Add(tx, doc); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	table := func() (*pseudoTab, *unionMemo) {
		var tab *pseudoTab
		var m *unionMemo
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			q := Query{Terms: []string{"w3"}, Scopes: []string{"s"}, K: 3}
			got, err := ix.Search(tx, q)
			require.NoError(t, err)
			want, err := ix.SearchExhaustive(tx, q)
			require.NoError(t, err)
			require.Equal(t, want, got)
			b, err := ix.buckets(tx)
			require.NoError(t, err)
			p, err := ix.term(b, 0, "w3")
			require.NoError(t, err)
			m = p.union.Load()
			require.NotNil(t, m)
			tab = m.pseudo.Load()
			return nil
		}))
		return tab, m
	}
	add(800, "w")
	tab, m := table()
	require.NotNil(t, tab, "a scan of the union builds the table")
	require.Len(t, tab.ub, len(m.docs))
	for i, d := range m.docs {
		tfs, lens := make([]float64, len(fields)), make([]float64, len(fields))
		for f, c := range m.parts {
			lens[f] = 1
			if j := slices.Index(c.docs, d); j >= 0 {
				tfs[f], lens[f] = float64(c.tfs[j]), float64(c.lens[j])
			}
		}
		var exact float64
		for f := range fields {
			if tfs[f] > 0 {
				exact += bm25.FieldPart(tab.bfields[f], tfs[f], lens[f], tab.avgs[f])
			}
		}
		require.Equal(t, bm25.BM25F(params, tab.bfields, tfs, lens, tab.avgs, 1.5), params.Saturate(exact, 1.5), "doc %d", d)
		ub := float64(tab.ub[i])
		require.GreaterOrEqual(t, ub, exact, "doc %d", d)
		require.Less(t, float64(math.Nextafter32(tab.ub[i], 0)), exact, "doc %d: the least float32 bound", d)
	}
	again, _ := table()
	require.Same(t, tab, again, "unchanged averages reuse the table")

	add(1, "z") // a doc without the term: same union, averages moved a little
	kept, m2 := table()
	require.Same(t, m, m2)
	require.Same(t, tab, kept, "a table holds while the averages stay within its slack")

	// Longer docs without the term move the averages past the slack: the
	// table is built again, and still bounds every doc.
	for range 40 {
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			doc := Doc{ID: next, Scope: "s"}
			next++
			for range fields {
				doc.Fields = append(doc.Fields, strings.Fields(strings.Repeat("long ", 60)))
			}
			_, err := ix.Add(tx, doc)
			return err
		}))
	}
	moved, m3 := table()
	require.Same(t, m, m3)
	require.NotSame(t, tab, moved, "averages moved past the slack")
	require.NotEqual(t, tab.avgs, moved.avgs)
}

// The first table of an extended union keeps the bounds of the table it
// extends (where the averages still fit it) and computes the new docs'
// under the same averages: what a table built whole under them holds.
func TestExtendedUnionTable(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 8))
	bfields := []bm25.Field{{Weight: 3, B: 0.75}, {Weight: 1, B: 0.3}, {Weight: 2, B: 0.5}}
	list := func(lo, n uint32) *chunk {
		c := &chunk{}
		for d := lo; d < lo+n; d++ {
			if r.IntN(2) == 0 {
				c.docs, c.tfs, c.lens = append(c.docs, d), append(c.tfs, uint16(1+r.IntN(4))), append(c.lens, uint32(1+r.IntN(30)))
			}
		}
		return c
	}
	fresh := func(parts []*chunk) *unionMemo {
		m := &unionMemo{parts: parts, host: &posting{}}
		for f, c := range parts {
			if c != nil && len(c.docs) > 0 {
				m.fields = append(m.fields, uint8(f))
			}
		}
		m.docs, m.mask = unionMasks(parts, m.fields)
		return m
	}
	grow := func(c *chunk, t *chunk) *chunk {
		return &chunk{docs: append(slices.Clone(c.docs), t.docs...), tfs: append(slices.Clone(c.tfs), t.tfs...), lens: append(slices.Clone(c.lens), t.lens...)}
	}
	for trial := range 50 {
		old := []*chunk{list(1, 500), list(1, 500), list(1, 500)}
		om := fresh(old)
		avgs := []float64{8, 12, 5}
		om.pseudoFor(bfields, avgs)
		last := om.docs[len(om.docs)-1]
		cur := []*chunk{grow(old[0], list(last+1, 40)), old[1], grow(old[2], list(last+1, 40))}
		m := &unionMemo{parts: cur, fields: om.fields, host: &posting{}}
		require.True(t, extendUnion(m, om), "trial %d", trial)
		moved := []float64{8.01, 12.02, 5.01} // a few writes later: within the slack
		got := m.pseudoFor(bfields, moved)
		tab := m.pseudo.Load()
		require.Equal(t, om.pseudo.Load().avgs, tab.avgs, "trial %d: the extended table keeps its base's averages", trial)
		whole := fresh(cur)
		want := whole.pseudoFor(bfields, []float64{8, 12, 5}) // the same averages, so the same slack
		require.Equal(t, want, got, "trial %d", trial)
	}
}

func TestRoundUp32(t *testing.T) {
	for _, v := range []float64{0, 1, 0.1, 1.0 / 3, 1e-40, math.MaxFloat32, math.MaxFloat64, math.Inf(1), math.NaN()} {
		f := roundUp32(v)
		if v != v {
			require.True(t, math.IsInf(float64(f), 1))
			continue
		}
		require.GreaterOrEqual(t, float64(f), v, "%v", v)
		if v > 0 && v <= math.MaxFloat32 {
			require.Less(t, float64(math.Nextafter32(f, 0)), v, "%v", v)
		}
	}
}

// unionMasks gives the docs and masks a plain merge gives, on dense lists
// (the byte-per-doc path) and sparse ones (the merge), with fields
// overlapping in every way.
func TestUnionMasksPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := range 300 {
		nf := 2 + r.IntN(7)
		span := 1 + r.IntN(2000)
		base := uint32(1 + r.IntN(1<<20))
		density := []float64{0.001, 0.01, 0.2, 0.9}[r.IntN(4)]
		parts := make([]*chunk, nf+1) // the last field lacks the term
		var fields []uint8
		for f := range nf {
			c := &chunk{}
			for d := range uint32(span) {
				if r.Float64() < density {
					c.docs = append(c.docs, base+d)
				}
			}
			if len(c.docs) == 0 {
				c.docs = []uint32{base + uint32(r.IntN(span))}
			}
			parts[f] = c
			fields = append(fields, uint8(f))
		}
		docs, mask := unionMasks(parts, fields)
		want := unionDocs(parts)
		require.Equal(t, want, docs, "trial %d", trial)
		require.Len(t, mask, len(docs))
		for i, d := range docs {
			for k, f := range fields {
				require.Equal(t, slices.Contains(parts[f].docs, d), mask[i]&(1<<k) != 0, "trial %d doc %d field %d", trial, d, f)
			}
		}
	}
}

// A union extended from the union before documents were appended equals
// a fresh merge: tails in some fields only, lists that are the old ones
// or copies of them, up to nine fields (no masks past eight). Anything
// but appends after the old union's last doc is refused.
func TestExtendUnion(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	fresh := func(parts []*chunk) *unionMemo {
		m := &unionMemo{parts: parts}
		for f, c := range parts {
			if c != nil && len(c.docs) > 0 {
				m.fields = append(m.fields, uint8(f))
			}
		}
		if np := len(m.fields); np > 1 && np <= 8 {
			m.docs, m.mask = unionMasks(parts, m.fields)
		} else {
			m.docs = unionDocs(parts)
		}
		return m
	}
	list := func(lo, n uint32, density float64) *chunk {
		c := &chunk{}
		for d := lo; d < lo+n; d++ {
			if r.Float64() < density {
				c.docs = append(c.docs, d)
			}
		}
		if len(c.docs) == 0 {
			c.docs = []uint32{lo}
		}
		return c
	}
	extended := 0
	for trial := range 400 {
		nf := 2 + r.IntN(8)
		old := make([]*chunk, nf+1) // the last field lacks the term
		for f := range nf {
			old[f] = list(1, uint32(50+r.IntN(3000)), []float64{0.01, 0.3, 0.9}[r.IntN(3)])
		}
		om := fresh(old)
		last := om.docs[len(om.docs)-1]
		cur := slices.Clone(old)
		for f := range nf {
			switch r.IntN(3) {
			case 0: // unchanged, same chunk
			case 1: // unchanged, reloaded
				cur[f] = &chunk{docs: slices.Clone(old[f].docs)}
			default: // appended to
				t := list(last+1+uint32(r.IntN(50)), uint32(1+r.IntN(500)), 0.5)
				cur[f] = &chunk{docs: append(slices.Clone(old[f].docs), t.docs...)}
			}
		}
		want := fresh(cur)
		m := &unionMemo{parts: cur, fields: want.fields}
		if !extendUnion(m, om) {
			require.True(t, slices.EqualFunc(cur, old, func(a, b *chunk) bool { return a == b || (a != nil && b != nil && slices.Equal(a.docs, b.docs)) }),
				"trial %d: refused a union that only grew", trial)
			continue
		}
		extended++
		require.Equal(t, want.docs, m.docs, "trial %d", trial)
		require.Equal(t, want.mask, m.mask, "trial %d", trial)
	}
	assert.Greater(t, extended, 300)

	// Refusals: a doc at or before the old union's last, a list that lost
	// a doc, a field that gained the term.
	a := &chunk{docs: []uint32{1, 5, 9}}
	b := &chunk{docs: []uint32{2, 5, 7}}
	om := fresh([]*chunk{a, b, nil})
	for name, cur := range map[string][]*chunk{
		"tail inside":  {&chunk{docs: []uint32{1, 5, 9}}, &chunk{docs: []uint32{2, 5, 7, 8}}, nil},
		"lost a doc":   {&chunk{docs: []uint32{1, 9, 12}}, b, nil},
		"new field":    {a, b, &chunk{docs: []uint32{11}}},
		"field gone":   {a, nil, nil},
		"no change":    {a, b, nil},
		"longer, same": {&chunk{docs: []uint32{1, 5, 9, 10}}, b, nil},
	} {
		m := fresh(cur)
		got := &unionMemo{parts: cur, fields: m.fields}
		ok := extendUnion(got, om)
		if name == "longer, same" {
			require.True(t, ok, name)
			require.Equal(t, m.docs, got.docs, name)
			require.Equal(t, m.mask, got.mask, name)
			continue
		}
		assert.False(t, ok, name)
	}
}
