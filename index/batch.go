package index

import (
	"fmt"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// AddBatch indexes docs inside tx, in order, and returns the doc number of
// the first (the others follow densely). The stored index is the one that
// len(docs) calls of Add would leave — the same doc numbers, posting
// blocks, tables and bitmaps, byte for byte; only generation counters
// differ (one bump for the batch) — but each term record, posting block
// and keyword chunk is read and written once per batch instead of once per
// document, which is what makes bulk ingest and merging a Buffer cheap.
// Nothing is written if it returns an error (the caller's transaction
// rolls back).
func (ix *Index) AddBatch(tx *bolt.Tx, docs []Doc) (uint32, error) {
	if len(docs) == 0 {
		return 0, nil
	}
	seen := make(map[uint64]struct{}, len(docs))
	for i := range docs {
		if err := ix.checkDoc(&docs[i]); err != nil {
			return 0, err
		}
		if _, dup := seen[docs[i].ID]; dup {
			return 0, fmt.Errorf("index %s: %w: record %d twice in one batch", ix.name, ErrDuplicate, docs[i].ID)
		}
		seen[docs[i].ID] = struct{}{}
	}
	return ix.addBatch(tx, docs, nil)
}

// MergeBuffer writes every document of bf into the index inside tx and
// returns the first one's doc number: the index AddBatch(tx,
// bf.Docs(bf.Len())) would leave, byte for byte, from the postings bf
// grouped by term as documents were added (their terms are not counted
// again). bf must start at the index's next doc number. The caller keeps
// bf's writer (Add, Truncate) out until it returns; queries may go on.
func (ix *Index) MergeBuffer(tx *bolt.Tx, bf *Buffer) (uint32, error) {
	bf.mu.RLock()
	defer bf.mu.RUnlock()
	if len(bf.docs) == 0 {
		return 0, nil
	}
	docs := make([]Doc, len(bf.docs))
	seen := make(map[uint64]struct{}, len(docs))
	for i := range bf.docs {
		docs[i] = bf.docs[i].doc
		if _, dup := seen[docs[i].ID]; dup {
			return 0, fmt.Errorf("index %s: %w: record %d twice in one buffer", ix.name, ErrDuplicate, docs[i].ID)
		}
		seen[docs[i].ID] = struct{}{}
	}
	return ix.addBatch(tx, docs, bf)
}

// addBatch is AddBatch of validated docs; from bf (holding exactly docs,
// its read lock held) it takes the term postings, lengths and keywords
// instead of computing them.
func (ix *Index) addBatch(tx *bolt.Tx, docs []Doc, bf *Buffer) (uint32, error) {
	if err := ix.Create(tx); err != nil {
		return 0, err
	}
	b, err := ix.buckets(tx)
	if err != nil {
		return 0, err
	}
	st, err := ix.loadStats(b)
	if err != nil {
		return 0, err
	}
	if uint64(st.Docs)+uint64(len(docs)) >= uint64(^uint32(0)) {
		return 0, fmt.Errorf("index %s: %w", ix.name, ErrFull)
	}
	st.Gen++
	firstDoc := st.Docs + 1
	if bf != nil && bf.first != firstDoc {
		return 0, fmt.Errorf("index %s: %w: buffer starts at document %d, the index's next is %d", ix.name, kv.ErrCorrupt, bf.first, firstDoc)
	}

	// Postings and keyword members grouped by key, in doc order.
	type pend struct {
		d  uint32
		tf uint16
		l  uint32
	}
	postings := map[string][]pend{}
	members := map[string][]uint32{}
	var kws []string
	// Record ids are checked, all of them, before anything is written.
	pairs := make([]idDoc, len(docs))
	recs := make([]uint64, len(docs))
	for i := range docs {
		pairs[i] = idDoc{docs[i].ID, firstDoc + uint32(i)}
		recs[i] = docs[i].ID
	}
	if err := checkNewIDs(b.ids, pairs); err != nil {
		return 0, fmt.Errorf("index %s: %w", ix.name, err)
	}
	for i := range docs {
		doc := &docs[i]
		st.Docs++
		st.Live++
		d := st.Docs
		if bf != nil {
			bd := &bf.docs[i]
			for f, l := range bd.lens {
				st.TotalLen[f] += uint64(l)
			}
			kws = bd.kws
		} else {
			for f, terms := range doc.Fields {
				st.TotalLen[f] += uint64(len(terms))
				for _, tt := range countTerms(terms) {
					k := string(termKey(nil, uint8(f), tt.term))
					postings[k] = append(postings[k], pend{d, tt.tf, uint32(len(terms))})
				}
			}
			kws = docKeywords(kws[:0], doc)
		}
		for _, kw := range kws {
			members[kw] = append(members[kw], d)
		}
		if !doc.Start.IsZero() {
			end := doc.End
			if end.IsZero() || end.Before(doc.Start) {
				end = doc.Start
			}
			startNS, endNS := doc.Start.UnixNano(), end.UnixNano()
			st.MaxSpan = max(st.MaxSpan, endNS-startNS)
			if err := addTime(b.time, d, startNS, endNS); err != nil {
				return 0, fmt.Errorf("index %s: %w", ix.name, err)
			}
		}
	}
	if err := appendDocs(b.docs, firstDoc, recs); err != nil {
		return 0, fmt.Errorf("index %s: %w", ix.name, err)
	}
	if err := putNewIDs(b.ids, pairs); err != nil {
		return 0, fmt.Errorf("index %s: %w", ix.name, err)
	}

	// Terms in key order, so that writes happen in a deterministic order.
	var keys []string
	if bf != nil {
		keys = make([]string, 0, len(bf.post))
		for k := range bf.post {
			keys = append(keys, k)
		}
	} else {
		keys = make([]string, 0, len(postings))
		for k := range postings {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var (
		cur blockWriter
		ps  []pend
		// Reused cursors: a Bucket.Get allocates a cursor per call, and
		// the keys go in order.
		termsC, postC = b.terms.Cursor(), b.post.Cursor()
	)
	for _, k := range keys {
		field, term := k[0], k[1:]
		if bf != nil {
			ps = ps[:0]
			for _, p := range bf.post[k].ps {
				ps = append(ps, pend{p.d, p.tf, bf.docs[p.d-bf.first].lens[field]})
			}
		} else {
			ps = postings[k]
		}
		if len(ps) == 0 {
			continue // a Buffer keeps no empty list; nothing to write
		}
		var tr termRecord
		if v := kv.SeekGet(termsC, []byte(k)); v != nil {
			if tr, err = decodeTermRecord(v); err != nil {
				return 0, err
			}
		}
		// cur is the block postings go to, as Add would find it: the
		// term's last block while it is under blockBytes, else a new one.
		cur.reset()
		if tr.DF > 0 {
			if ps[0].d <= tr.Last {
				return 0, fmt.Errorf("index %s: %w: doc %d not after %d", ix.name, kv.ErrCorrupt, ps[0].d, tr.Last)
			}
			old := kv.SeekGet(postC, postKey(nil, field, term, tr.Block))
			if old == nil {
				return 0, fmt.Errorf("index %s: %w: term %q: last posting block %d missing", ix.name, kv.ErrCorrupt, term, tr.Block)
			}
			if err := cur.load(old); err != nil {
				return 0, fmt.Errorf("index %s: term %q: last posting block %d: %w", ix.name, term, tr.Block, err)
			}
		}
		for _, p := range ps {
			if tr.DF > 0 && cur.size() < blockBytes {
				cur.add(p.d-tr.Last, p.tf, p.l)
			} else {
				if tr.DF > 0 {
					if err := b.post.Put(postKey(nil, field, term, tr.Block), cur.encode()); err != nil {
						return 0, err
					}
				}
				tr.Block = p.d
				cur.reset()
				cur.add(0, p.tf, p.l)
			}
			tr.DF++
			tr.MaxTF = max(tr.MaxTF, p.tf)
			tr.Last = p.d
		}
		tr.Gen = st.Gen
		if err := b.post.Put(postKey(nil, field, term, tr.Block), cur.encode()); err != nil {
			return 0, err
		}
		if err := b.terms.Put([]byte(k), tr.encode()); err != nil {
			return 0, err
		}
	}

	kwKeys := make([]string, 0, len(members))
	for kw := range members {
		kwKeys = append(kwKeys, kw)
	}
	slices.Sort(kwKeys)
	for _, kw := range kwKeys {
		if err := ix.addKeywordDocs(b, kw, members[kw], st.Gen); err != nil {
			return 0, err
		}
	}
	return firstDoc, ix.saveStats(b, &st)
}

// checkDoc validates doc against the index's fields and keyword rules.
func (ix *Index) checkDoc(doc *Doc) error {
	if len(doc.Fields) != len(ix.fields) {
		return fmt.Errorf("index %s: %w: %d fields, want %d", ix.name, ErrSchema, len(doc.Fields), len(ix.fields))
	}
	for _, k := range doc.Keywords {
		if k == "" || strings.IndexByte(k, 0) >= 0 {
			return fmt.Errorf("index %s: %w: keyword %q", ix.name, ErrSchema, k)
		}
	}
	return nil
}

// docKeywords appends doc's keywords, its scope keyword included, sorted
// and without duplicates, to dst.
func docKeywords(dst []string, doc *Doc) []string {
	dst = append(dst, scopePrefix+doc.Scope)
	dst = append(dst, doc.Keywords...)
	slices.Sort(dst)
	return slices.Compact(dst)
}

// addKeywordDocs adds the doc numbers ds (ascending) to keyword kw: its
// record once, and each bitmap chunk they fall in once.
func (ix *Index) addKeywordDocs(b *buckets, kw string, ds []uint32, gen uint64) error {
	var kr kwRecord
	if v := b.kwmeta.Get([]byte(kw)); v != nil {
		var err error
		if kr, err = decodeKWRecord(v); err != nil {
			return err
		}
	}
	kr.Count += uint32(len(ds))
	kr.Gen = gen
	if err := b.kwmeta.Put([]byte(kw), kr.encode()); err != nil {
		return err
	}
	for i := 0; i < len(ds); {
		ch := ds[i] >> chunkShift
		j := i
		for j < len(ds) && ds[j]>>chunkShift == ch {
			j++
		}
		k := kwKey(nil, kw, ch)
		bm := roaring.New()
		if v := b.kw.Get(k); v != nil {
			var err error
			if bm, err = decodeBitmap(v); err != nil {
				return err
			}
		}
		bm.AddMany(ds[i:j])
		v, err := encodeBitmap(bm)
		if err != nil {
			return err
		}
		if err := b.kw.Put(k, v); err != nil {
			return err
		}
		i = j
	}
	return nil
}
