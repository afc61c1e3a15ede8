package index

import (
	"math"
	"slices"
	"sync/atomic"

	"github.com/stratagate/stratagate/bm25"
)

// unionMemo is the union of the docs of parts, a multi-field term's
// lists by field (nil where a field lacks the term), and for each doc
// which of the fields that have the term (fields) hold it: mask[i] bit k
// is set when fields[k] holds docs[i] (nil with one field or more than
// eight). A doc's score is bounded by its fields' bounds alone (see
// search.maskBound): a doc holding the term only in a light field cannot
// score like one holding it in the title.
type unionMemo struct {
	parts  []*chunk
	docs   []uint32
	fields []uint8
	mask   []uint8
	// pseudo is a table bounding each doc's BM25F pseudo-frequency under
	// the field parameters and average lengths of the last query that
	// asked (see pseudoFor); nil until one does (only with masks). host is
	// the posting the memo is cached on, charged for the table.
	pseudo atomic.Pointer[pseudoTab]
	host   *posting
	// base is the table of the union this one extends (extendUnion), and
	// basePos each field's place in its list after the old union's docs:
	// the first table of an extended union copies base's bounds where
	// they still hold and computes only the new docs'.
	base    atomic.Pointer[pseudoTab]
	basePos [8]int
}

// pseudoTab bounds a union's BM25F pseudo-frequencies: ub[i] is at
// least that of docs[i] under bfields and avgs. Half the size of the
// exact float64s: the table only filters (a scan checks the docs that
// pass it exactly), and the postings cache holds it beside the lists.
type pseudoTab struct {
	bfields []bm25.Field
	// avgs are the averages the bounds were computed under: a little
	// above those of the query that built the table (avgSlack), since a
	// field's part only grows with its average, so that the table bounds
	// the docs' pseudo-frequencies under any averages from
	// avgs/(1+2·avgSlack) up to avgs, across the writes that move them.
	avgs []float64
	ub   []float32
}

// avgSlack is how far above the current averages a table's bounds are
// computed: each write moves the averages a little, and a table stays
// valid until they drift by about this fraction (a card of 100k moves
// them by ~1e-5), at the cost of bounds this much looser.
const avgSlack = 1.0 / 256

// fits reports whether t bounds the pseudo-frequencies under bfields
// and avgs: the same fields, and each positive average at most the
// table's and not far below it (one that is not positive, which gets no
// slack: equal to it).
func (t *pseudoTab) fits(bfields []bm25.Field, avgs []float64) bool {
	if !slices.Equal(t.bfields, bfields) || len(t.avgs) != len(avgs) {
		return false
	}
	for f, a := range avgs {
		if !(a > 0) {
			if a != t.avgs[f] {
				return false
			}
		} else if a > t.avgs[f] || a*(1+2*avgSlack) < t.avgs[f] {
			return false
		}
	}
	return true
}

// pseudoFor returns the table bounding the pseudo-frequency of every doc
// of the union under bfields and avgs (the memo must have masks: at most
// eight fields hold the term). It is computed once per set of
// averages rather than per query and doc. The averages move with every
// write, so the first scan after a write pays one pass over the union
// (about what every scan paid before), later ones a compare per doc.
func (m *unionMemo) pseudoFor(bfields []bm25.Field, avgs []float64) []float32 {
	old := m.pseudo.Load()
	if old != nil && old.fits(bfields, avgs) {
		return old.ub
	}
	t := &pseudoTab{bfields: slices.Clone(bfields), avgs: slices.Clone(avgs), ub: make([]float32, len(m.docs))}
	var pos [8]int // each field's position in its list (the mask says which hold the doc)
	from := 0
	if base := m.base.Swap(nil); base != nil && base.fits(bfields, avgs) && len(base.ub) <= len(m.docs) {
		// The docs of the union extended keep their bounds.
		t.avgs = base.avgs
		copy(t.ub, base.ub)
		from, pos = len(base.ub), m.basePos
	} else {
		for f, a := range avgs {
			if a > 0 {
				t.avgs[f] = a * (1 + avgSlack)
			}
		}
	}
	avgs = t.avgs
	for i := from; i < len(m.docs); i++ {
		var v float64
		for k, f := range m.fields {
			if m.mask[i]&(1<<k) == 0 {
				continue
			}
			c, j := m.parts[f], pos[k]
			pos[k]++
			if tf := c.tfs[j]; tf > 0 && bfields[f].Weight > 0 {
				v += bm25.FieldPart(bfields[f], float64(tf), float64(c.lens[j]), avgs[f])
			}
		}
		t.ub[i] = roundUp32(v)
	}
	// Charge the table once: a later one replaces it at the same size.
	if m.pseudo.CompareAndSwap(old, t) && old == nil {
		m.host.charge(len(t.ub) * 4 / unitBytes)
	}
	return t.ub
}

// roundUp32 returns the least float32 not below v: +Inf past float32's
// range, and for NaN (which a bound must not filter out), +Inf.
func roundUp32(v float64) float32 {
	if v != v {
		return float32(math.Inf(1))
	}
	f := float32(v)
	if float64(f) < v {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// unionOf returns the union of the docs of parts (the term's lists by
// field, p's among them), merged once per set of lists rather than per
// query: decoded lists are never modified, so the same chunks have the
// same union. A term whose lists change is loaded into new postings and
// chunks, so a stale memo never matches.
func (p *posting) unionOf(parts []*chunk) *unionMemo {
	cur := p.union.Load()
	if cur != nil && slices.Equal(cur.parts, parts) {
		return cur
	}
	m := &unionMemo{parts: slices.Clone(parts), host: p}
	for f, c := range parts {
		if c != nil && len(c.docs) > 0 {
			m.fields = append(m.fields, uint8(f))
		}
	}
	// After a write, the union of the lists before it (on this posting,
	// or on the one this posting replaced) is most of this one.
	old := cur
	if prev := p.prevUnion.Swap(nil); prev != nil {
		p.charge(-p.prevUnits)
		if old == nil {
			old = prev
		}
	}
	switch np := len(m.fields); {
	case old != nil && np > 1 && extendUnion(m, old): // one list is its own union
	case np > 1 && np <= 8:
		m.docs, m.mask = unionMasks(parts, m.fields)
	default:
		m.docs = unionDocs(parts)
	}
	size := 0
	if len(m.fields) > 1 {
		size = len(m.docs) * 4 // a merged copy (one list is its own union)
	}
	if m.mask != nil {
		size += len(m.docs)
	}
	p.union.Store(m)
	if size > 0 {
		p.charge(size / unitBytes)
	}
	return m
}

// unionMasks returns the union of the docs of the lists of fields (two to
// eight, each non-empty) and each doc's mask: bit k set when
// parts[fields[k]] holds it. Where the docs span a range not much wider
// than their postings (a common word), each field ORs its bit into a
// byte per doc of the range, which is then compacted: no compare per
// posting that a merge could mispredict. Sparser lists are merged.
func unionMasks(parts []*chunk, fields []uint8) (docs []uint32, mask []uint8) {
	lo, hi, total := uint32(endDoc), uint32(0), 0
	for _, f := range fields {
		d := parts[f].docs
		lo, hi, total = min(lo, d[0]), max(hi, d[len(d)-1]), total+len(d)
	}
	if span := int(hi-lo) + 1; span <= 4*total {
		bits := make([]uint8, span)
		for k, f := range fields {
			for _, d := range parts[f].docs {
				bits[d-lo] |= 1 << k
			}
		}
		n := 0
		for _, b := range bits {
			if b != 0 {
				n++
			}
		}
		docs, mask = make([]uint32, n), make([]uint8, n)
		j := 0
		for i, b := range bits {
			if b != 0 {
				docs[j], mask[j] = lo+uint32(i), b
				j++
			}
		}
		return docs, mask
	}
	docs = unionDocs(parts)
	mask = make([]uint8, len(docs))
	for k, f := range fields {
		c, j := parts[f], 0
		for i, d := range docs {
			if j < len(c.docs) && c.docs[j] == d {
				mask[i] |= 1 << k
				j++
			}
		}
	}
	return docs, mask
}

// unionDocs merges the sorted doc lists of a term's fields (linear
// merges; a term usually occurs in one or two fields).
func unionDocs(cs []*chunk) []uint32 {
	var out []uint32
	for _, c := range cs {
		if c == nil || len(c.docs) == 0 {
			continue
		}
		if out == nil {
			out = c.docs // shared, never modified
			continue
		}
		merged := make([]uint32, 0, len(out)+len(c.docs))
		i, j := 0, 0
		for i < len(out) && j < len(c.docs) {
			switch a, b := out[i], c.docs[j]; {
			case a < b:
				merged = append(merged, a)
				i++
			case a > b:
				merged = append(merged, b)
				j++
			default:
				merged = append(merged, a)
				i++
				j++
			}
		}
		merged = append(merged, out[i:]...)
		out = append(merged, c.docs[j:]...)
	}
	return out
}

// units is what m holds in the cache's units: its docs and masks, and
// the decoded lists it keeps.
func (m *unionMemo) units() int {
	n := len(m.docs)*4 + len(m.mask)
	for _, c := range m.parts {
		if c != nil {
			n += len(c.docs) * unitBytes
		}
	}
	return n / unitBytes
}

// extendUnion fills m (parts and fields set) from old, the union of the
// same term's lists before documents were appended to some of them, and
// reports whether it could: each list of m must be the old one or start
// with all of its docs, the same fields must hold the term, and every
// added doc must follow the old union's last (documents are numbered in
// the order they are added, and a list only grows until a rebuild). The
// result is what a fresh merge gives (TestExtendUnion): the old docs and
// masks, then the merged tails.
func extendUnion(m, old *unionMemo) bool {
	if len(old.parts) != len(m.parts) || !slices.Equal(old.fields, m.fields) || len(old.docs) == 0 {
		return false
	}
	if (len(m.fields) > 1 && len(m.fields) <= 8) != (old.mask != nil) {
		return false
	}
	last := old.docs[len(old.docs)-1]
	tails := make([]*chunk, len(m.parts))
	grown := false
	for f, c := range m.parts {
		o := old.parts[f]
		switch {
		case c == nil || len(c.docs) == 0:
			if o != nil && len(o.docs) > 0 {
				return false
			}
			continue
		case o == nil || len(o.docs) == 0:
			return false // not in the old fields (checked above): unreachable
		case c == o:
			continue
		case len(c.docs) < len(o.docs) || !slices.Equal(c.docs[:len(o.docs)], o.docs):
			return false
		}
		if t := c.docs[len(o.docs):]; len(t) > 0 {
			if t[0] <= last {
				return false
			}
			tails[f] = &chunk{docs: t}
			grown = true
		}
	}
	if !grown {
		return false // other lists, same docs: a rebuild or a different term
	}
	var tdocs []uint32
	var tmask []uint8
	if old.mask != nil {
		tf := make([]uint8, 0, len(m.fields))
		for _, f := range m.fields {
			if tails[f] != nil {
				tf = append(tf, f)
			}
		}
		// unionMasks numbers fields by their place in tf; renumber to m's.
		var local []uint8
		tdocs, local = unionMasksOf(tails, tf)
		tmask = make([]uint8, len(local))
		for i, lm := range local {
			for k, f := range tf {
				if lm&(1<<k) != 0 {
					tmask[i] |= 1 << slices.Index(m.fields, f)
				}
			}
		}
	} else {
		tdocs = unionDocs(tails)
	}
	m.docs = append(append(make([]uint32, 0, len(old.docs)+len(tdocs)), old.docs...), tdocs...)
	if old.mask != nil {
		m.mask = append(append(make([]uint8, 0, len(old.mask)+len(tmask)), old.mask...), tmask...)
		if t := old.pseudo.Load(); t != nil && len(t.ub) == len(old.docs) {
			for k, f := range m.fields {
				m.basePos[k] = len(old.parts[f].docs)
			}
			m.base.Store(t)
		}
	}
	return true
}

// unionMasksOf is unionMasks for one or more fields (one field: its docs,
// each with mask 1).
func unionMasksOf(parts []*chunk, fields []uint8) ([]uint32, []uint8) {
	if len(fields) == 1 {
		d := parts[fields[0]].docs
		mask := make([]uint8, len(d))
		for i := range mask {
			mask[i] = 1
		}
		return d, mask
	}
	return unionMasks(parts, fields)
}
