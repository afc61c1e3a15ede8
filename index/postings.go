package index

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/stratagate/stratagate/kv"
)

// term returns the posting list of term in field, or nil if the term does
// not occur. keyBuf is scratch space for building keys.
func (ix *Index) term(b *buckets, field uint8, term string, keyBuf *[]byte) (*posting, error) {
	*keyBuf = termKey(*keyBuf, field, term)
	v := b.terms.Get(*keyBuf)
	if v == nil {
		return nil, nil
	}
	tr, err := decodeTermRecord(v)
	if err != nil {
		return nil, err
	}
	ck := append((*keyBuf)[:0], 'p')
	ck = append(ck, field)
	ck = append(ck, term...)
	*keyBuf = ck
	if e := ix.cache.get(ck, tr.Gen); e != nil {
		return e.post, nil
	}
	p := &posting{df: tr.DF, maxTF: tr.MaxTF}
	var c chunk
	n := min(int(tr.DF), 1<<16) // DF comes from disk: never trust it for an allocation
	c.docs = make([]uint32, 0, n)
	c.tfs = make([]uint16, 0, n)
	c.lens = make([]uint32, 0, n)
	prefix := postKey(nil, field, term, 0)
	prefix = prefix[:len(prefix)-4]
	cur := b.post.Cursor()
	for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
		if len(k) != len(prefix)+4 {
			continue // another term that extends this one with 0x00 bytes
		}
		if err := decodeChunk(v, &c); err != nil {
			return nil, err
		}
	}
	if len(c.docs) != int(tr.DF) {
		return nil, fmt.Errorf("index %s: %w: term has %d postings, its record says %d", ix.name, kv.ErrCorrupt, len(c.docs), tr.DF)
	}
	p.docs, p.tfs, p.lens = c.docs, c.tfs, c.lens
	if b.cacheable {
		ix.cache.put(&entry{key: string(ck), gen: tr.Gen, post: p, size: len(p.docs) + 16})
	}
	return p, nil
}

// keyword returns the bitmap of docs carrying kw, or nil if none does.
func (ix *Index) keyword(b *buckets, kw string) (*roaring.Bitmap, error) {
	v := b.kwmeta.Get([]byte(kw))
	if v == nil {
		return nil, nil
	}
	kr, err := decodeKWRecord(v)
	if err != nil {
		return nil, err
	}
	ck := "k" + kw
	if e := ix.cache.get([]byte(ck), kr.Gen); e != nil {
		return e.bm, nil
	}
	bm := roaring.New()
	prefix := append([]byte(kw), 0)
	cur := b.kw.Cursor()
	for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
		if len(k) != len(prefix)+4 {
			continue // another keyword that extends this one with 0x00 bytes
		}
		part, err := decodeBitmap(v)
		if err != nil {
			return nil, err
		}
		bm.Or(part)
	}
	if b.cacheable {
		ix.cache.put(&entry{key: ck, gen: kr.Gen, bm: bm, size: int(kr.Count/8) + 16})
	}
	return bm, nil
}

// timeRange returns the docs whose [start, end] overlaps [from, to] (Unix
// ns). It scans starts from from-MaxSpan to to.
func timeRange(b *buckets, st *stats, from, to int64) *roaring.Bitmap {
	bm := roaring.New()
	lo := from
	if from > -1<<62 {
		lo = from - st.MaxSpan
	}
	cur := b.time.Cursor()
	for k, v := cur.Seek(timeKey(lo, 0)); k != nil && len(k) == 12; k, v = cur.Next() {
		start := timeKeyStart(k)
		if start > to {
			break
		}
		if len(v) == 8 && int64(binary.BigEndian.Uint64(v)) >= from {
			bm.Add(binary.BigEndian.Uint32(k[8:]))
		}
	}
	return bm
}

// docID maps a doc number back to its record id.
func docID(b *buckets, d uint32) (uint64, string, error) {
	v := b.docs.Get(docKey(d))
	if v == nil {
		return 0, "", fmt.Errorf("%w: doc %d has no record", kv.ErrCorrupt, d)
	}
	var rec docRecord
	if err := decodeDocRecord(v, &rec); err != nil {
		return 0, "", fmt.Errorf("doc %d: %w", d, err)
	}
	return rec.ID, rec.Scope, nil
}
