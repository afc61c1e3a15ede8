package index

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/stratagate/stratagate/kv"
)

// term returns the posting list of term in field, or nil if the term does
// not occur.
func (ix *Index) term(b *buckets, field uint8, term string) (*posting, error) {
	b.ckey = append(append(append(b.ckey[:0], 'p'), field), term...)
	if e := ix.cache.getAt(b.ckey, b.snap); e != nil {
		return e.post, nil // nil if absent
	}
	terms, err := b.sub(&b.terms, bTerms)
	if err != nil {
		return nil, err
	}
	b.rkey = termKey(b.rkey, field, term)
	v := b.lookup(terms, &b.termsCur, b.rkey)
	if v == nil {
		if at := b.confirm(); at != 0 {
			ix.cache.put(&entry{key: string(b.ckey), absent: true, at: at, size: 16})
		}
		return nil, nil
	}
	tr, err := decodeTermRecord(v)
	if err != nil {
		return nil, err
	}
	if e := ix.cache.get(b.ckey, tr.Gen, b.confirm()); e != nil {
		return e.post, nil
	}
	post, err := b.sub(&b.post, bPost)
	if err != nil {
		return nil, err
	}
	// Read the blocks' headers and copy their postings; a block is decoded
	// when a query first reads one of its documents. DF comes from disk:
	// never trust it for an allocation beyond a bound.
	p := &posting{df: tr.DF, maxTF: tr.MaxTF, last: tr.Last}
	p.raw = make([]byte, 0, min(int(tr.DF)*3, 1<<20))
	p.blocks = make([]pblock, 0, min(int(tr.DF)/128+1, 1<<12))
	var total uint64
	var tfs []uint16
	var lens []uint32
	prefix := postKey(nil, field, term, 0)
	prefix = prefix[:len(prefix)-4]
	cur := post.Cursor()
	for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
		if len(k) != len(prefix)+4 {
			continue // another term that extends this one with 0x00 bytes
		}
		first := binary.BigEndian.Uint32(k[len(prefix):])
		h, off, err := parseBlockHead(v)
		if err != nil {
			return nil, fmt.Errorf("index %s: term block %d: %w", ix.name, first, err)
		}
		if first == 0 || first > tr.Last || len(v)-off > 1<<20 {
			return nil, fmt.Errorf("index %s: %w: posting block %d of %d bytes (term's last doc %d)", ix.name, kv.ErrCorrupt, first, len(v), tr.Last)
		}
		start := len(p.raw)
		p.raw = append(p.raw, v[off:]...)
		p.blocks = append(p.blocks, pblock{first: first, off: uint32(start), end: uint32(len(p.raw)), head: h})
		total += uint64(h.n)
		for _, q := range h.front[:h.nf] {
			tfs, lens = append(tfs, q.tf), append(lens, q.len)
		}
	}
	if total != uint64(tr.DF) {
		return nil, fmt.Errorf("index %s: %w: term has %d postings, its record says %d", ix.name, kv.ErrCorrupt, total, tr.DF)
	}
	p.dec = make([]atomic.Pointer[chunk], len(p.blocks))
	p.front = frontier(tfs, lens)
	if b.cacheable {
		var units int
		if old := ix.cache.stale(b.ckey); old != nil && old.post != nil {
			units = p.inherit(old.post, len(ix.fields) > 1)
		}
		ix.cache.put(&entry{key: string(b.ckey), gen: tr.Gen, at: b.confirm(), post: p, size: p.encodedSize()})
		if units > 0 {
			p.charge(units)
		}
	}
	return p, nil
}

// keyword returns the bitmap of docs carrying kw, or nil if none does.
func (ix *Index) keyword(b *buckets, kw string) (*roaring.Bitmap, error) {
	b.rkey = append(b.rkey[:0], kw...)
	return ix.keywordKey(b)
}

// scope returns the bitmap of docs of scope sc, or nil if there are none.
func (ix *Index) scope(b *buckets, sc string) (*roaring.Bitmap, error) {
	b.rkey = append(append(b.rkey[:0], scopePrefix...), sc...)
	return ix.keywordKey(b)
}

// keywordKey is keyword for the keyword in b.rkey (no allocation when the
// bitmap is cached).
func (ix *Index) keywordKey(b *buckets) (*roaring.Bitmap, error) {
	kw := b.rkey
	b.ckey = append(append(b.ckey[:0], 'k'), kw...)
	if e := ix.cache.getAt(b.ckey, b.snap); e != nil {
		return e.bm, nil // nil if absent
	}
	kwmeta, err := b.sub(&b.kwmeta, bKWMeta)
	if err != nil {
		return nil, err
	}
	v := b.lookup(kwmeta, &b.kwmetaCur, kw)
	if v == nil {
		if at := b.confirm(); at != 0 {
			ix.cache.put(&entry{key: string(b.ckey), absent: true, at: at, size: 16})
		}
		return nil, nil
	}
	kr, err := decodeKWRecord(v)
	if err != nil {
		return nil, err
	}
	if e := ix.cache.get(b.ckey, kr.Gen, b.confirm()); e != nil {
		return e.bm, nil
	}
	kwb, err := b.sub(&b.kw, bKW)
	if err != nil {
		return nil, err
	}
	bm, sums, err := buildKeyword(kwb, kw, ix.cache.stale(b.ckey))
	if err != nil {
		return nil, err
	}
	if b.cacheable {
		ix.cache.put(&entry{key: string(b.ckey), gen: kr.Gen, at: b.confirm(), bm: bm, chunks: sums, size: int(kr.Count/8) + 16 + len(sums)*int(unsafe.Sizeof(kwChunk{}))/unitBytes})
	}
	return bm, nil
}

// timeRange returns the docs whose [start, end] overlaps [from, to] (Unix
// ns). It scans starts from from-MaxSpan to to.
func timeRange(b *buckets, st *stats, from, to int64) (*roaring.Bitmap, error) {
	tb, err := b.sub(&b.time, bTime)
	if err != nil {
		return nil, err
	}
	bm := roaring.New()
	lo := from
	if from > -1<<62 {
		lo = from - st.MaxSpan
	}
	last := timeWindow(to)
	var bad error
	cur := tb.Cursor()
	for k, v := cur.Seek(timeBlockKey(timeWindow(lo), 0)); k != nil; k, v = cur.Next() {
		if len(k) != 12 {
			return nil, fmt.Errorf("%w: time block key %x", kv.ErrCorrupt, k)
		}
		w := binary.BigEndian.Uint64(k)
		if w > last {
			break
		}
		err := decodeTimes(w, v, func(d uint32, start, end int64) {
			if start <= to && end >= from {
				bm.Add(d)
			}
		})
		if err != nil {
			bad = err
			break
		}
	}
	if bad != nil {
		return nil, bad
	}
	return bm, nil
}

// docID maps a doc number back to its record id by reading its docs
// chunk.
func docID(b *buckets, d uint32) (uint64, error) {
	docs, err := b.sub(&b.docs, bDocs)
	if err != nil {
		return 0, err
	}
	v := docs.Get(docsKey(d))
	if v == nil {
		return 0, fmt.Errorf("%w: doc %d has no record", kv.ErrCorrupt, d)
	}
	var buf [1 << docShift]uint64
	ids, err := decodeDocs(v, buf[:0])
	if err != nil {
		return 0, fmt.Errorf("doc %d: %w", d, err)
	}
	pos := int((d - 1) & (1<<docShift - 1))
	if pos >= len(ids) {
		return 0, fmt.Errorf("%w: doc %d has no record", kv.ErrCorrupt, d)
	}
	return ids[pos], nil
}

// ridTable maps doc numbers to record ids (ids[d-1] is doc d's) for the
// incarnation of the index whose stats carry base. Doc numbers are
// assigned densely and a doc record is never rewritten, so within one
// incarnation the mapping only grows; a Drop starts a new incarnation
// (higher base) whose doc numbers restart at 1. A published table is
// immutable: growth appends past its length (which no reader of it looks
// at) and publishes a new table.
type ridTable struct {
	base uint64
	ids  []uint64
}

// recordIDs sets out[i].ID to the record id of doc out[i].Doc. It reads
// the in-memory table, growing it from the doc records of a read-only
// transaction when a doc number is past its end; a writable transaction
// (whose records may be rolled back), a transaction of another incarnation
// or a disabled cache read the doc records directly.
func (ix *Index) recordIDs(b *buckets, st *stats, out []Result) error {
	use := st != nil && b.cacheable && ix.cache.limit > 0
	var t *ridTable
	if use {
		t = ix.rids.Load()
		need := uint32(0)
		for _, r := range out {
			if t == nil || t.base != st.Base || int(r.Doc) > len(t.ids) {
				need = max(need, r.Doc)
			}
		}
		if need > 0 {
			t = ix.growRIDs(b, st, need)
		}
		if t != nil && t.base != st.Base {
			t = nil
		}
	}
	for i := range out {
		d := out[i].Doc
		if t != nil && d >= 1 && int(d) <= len(t.ids) {
			out[i].ID = t.ids[d-1]
			continue
		}
		id, err := docID(b, d)
		if err != nil {
			return fmt.Errorf("index %s: %w", ix.name, err)
		}
		out[i].ID = id
	}
	return nil
}

// ridGrowStep bounds the doc records one query decodes to grow the table,
// so that the first queries over a large index share the cost.
const ridGrowStep = 8192

// growRIDs extends the table to cover doc numbers up to need (at most
// st.Docs, and ridGrowStep more than it had), reading the doc records of
// b's read-only transaction, and returns the current table. It stops
// early, leaving the rest to direct reads (which report any error), at a
// missing or undecodable record.
func (ix *Index) growRIDs(b *buckets, st *stats, need uint32) *ridTable {
	need = min(need, st.Docs)
	ix.ridMu.Lock()
	defer ix.ridMu.Unlock()
	t := ix.rids.Load()
	var ids []uint64
	if t != nil {
		switch {
		case t.base > st.Base:
			return t // an older incarnation: leave the newer table alone
		case t.base == st.Base:
			ids = t.ids
		}
	}
	n := uint32(len(ids))
	need = uint32(min(uint64(need), uint64(n)+ridGrowStep))
	if n >= need {
		return t
	}
	docs, err := b.sub(&b.docs, bDocs)
	if err != nil {
		return t
	}
	// Entries of the chunk holding doc n+1 that the table already has are
	// skipped; a short chunk (the last) or a bad one ends the growth.
	cur := docs.Cursor()
	for k, v := cur.Seek(docsKey(n + 1)); k != nil && n < need; k, v = cur.Next() {
		if len(k) != 4 || binary.BigEndian.Uint32(k) != n>>docShift {
			break
		}
		skip := int(n & (1<<docShift - 1))
		var buf [1 << docShift]uint64
		chunk, err := decodeDocs(v, buf[:0])
		if err != nil || len(chunk) <= skip {
			break
		}
		chunk = chunk[skip:]
		chunk = chunk[:min(len(chunk), int(need-n))]
		ids = append(ids, chunk...)
		n += uint32(len(chunk))
		if n&(1<<docShift-1) != 0 {
			break // a partial chunk: the newest docs
		}
	}
	if t != nil && t.base == st.Base && len(ids) == len(t.ids) {
		return t // no progress (a missing or corrupt record)
	}
	nt := &ridTable{base: st.Base, ids: ids}
	ix.rids.Store(nt)
	return nt
}
