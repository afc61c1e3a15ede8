package index

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// Errors.
var (
	// ErrDuplicate is returned by Add for a record id already indexed.
	ErrDuplicate = errors.New("sg: record already indexed")
	// ErrFull is returned when the index would exceed 2^32-1 documents.
	ErrFull = errors.New("sg: index full")
	// ErrSchema is returned for a document or query that does not fit the
	// index's fields.
	ErrSchema = errors.New("sg: document does not match index fields")
	// ErrLayout is returned when the stored index was written in an older
	// on-disk layout: it must be rebuilt from its source records (Drop, then
	// Add everything; StrataGate's Open does this itself).
	ErrLayout = errors.New("sg: index written in an older layout; rebuild it")
)

// Reserved keyword prefixes. Callers' keywords must not start with 0x00.
const (
	scopePrefix = "\x00s:"
	tombKeyword = "\x00tomb"
)

// Field describes one indexed text field and its BM25F parameters.
type Field struct {
	Name   string
	Weight float64 // BM25F weight; 1 for plain BM25
	B      float64 // length normalisation; 0.75 by default (use -1 for none)
}

// Options configure an Index.
type Options struct {
	// CacheEntries bounds the postings cache, in units of about 10 bytes:
	// a decoded posting (one document of one term) is one unit, an encoded
	// posting list about a quarter of a unit per posting. Default 4M (~40
	// MB); negative disables.
	CacheEntries int
}

// Index is a persisted inverted index stored in the bucket "idx.NAME" of a
// kv file. All reads and writes happen inside the caller's bbolt
// transaction, so a record and its index entries commit together. An Index
// is safe for concurrent use; its only in-memory state is a cache of
// postings, validated against the transaction on every use.
type Index struct {
	name   []byte
	fields []Field
	cache  *cache

	// stats is the last stats record decoded by a query, with its raw
	// bytes: a query whose transaction holds the same bytes reuses it.
	stats atomic.Pointer[statsEntry]
	// rids maps doc numbers to record ids for one incarnation of the index
	// (see recordIDs); ridMu serialises its growth.
	rids  atomic.Pointer[ridTable]
	ridMu sync.Mutex
}

// New returns the index NAME with the given fields (at most 255). The same
// name must always be opened with the same fields.
func New(name string, fields []Field, o Options) *Index {
	limit := o.CacheEntries
	if limit == 0 {
		limit = 4 << 20
	}
	fs := slices.Clone(fields)
	for i := range fs {
		if fs[i].Weight == 0 {
			fs[i].Weight = 1
		}
		if fs[i].B == 0 {
			fs[i].B = 0.75
		} else if fs[i].B < 0 {
			fs[i].B = 0
		}
	}
	return &Index{name: []byte("idx." + name), fields: fs, cache: newCache(limit)}
}

// Name returns the index's bucket name.
func (ix *Index) Name() string { return string(ix.name) }

// Fields returns the index's fields.
func (ix *Index) Fields() []Field { return ix.fields }

// Doc is one document to index: a record id, its scope, its terms per field
// (already tokenized, in Fields order), exact-match keywords and an
// optional time interval.
type Doc struct {
	ID       uint64
	Scope    string
	Fields   [][]string
	Keywords []string
	Start    time.Time // zero = no time
	End      time.Time // zero = Start
}

// Create makes the index's buckets in tx if they do not exist.
func (ix *Index) Create(tx *bolt.Tx) error {
	root, err := tx.CreateBucketIfNotExists(ix.name)
	if err != nil {
		return err
	}
	for _, name := range subBuckets {
		if _, err := root.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

// Drop deletes the whole index in tx (Rebuild starts from here).
func (ix *Index) Drop(tx *bolt.Tx) error {
	ix.cache.reset()
	ix.stats.Store(nil)
	ix.ridMu.Lock()
	ix.rids.Store(nil)
	ix.ridMu.Unlock()
	b, err := ix.buckets(tx)
	if err != nil || b == nil {
		return err
	}
	st, err := ix.loadStats(b)
	if err != nil && !errors.Is(err, ErrLayout) {
		return err
	}
	if err := tx.DeleteBucket(ix.name); err != nil {
		return err
	}
	// Generations stay monotonic across a drop: a reader still open on the
	// old snapshot may refill the cache, and its entries must never match
	// the new index's generations.
	if err := ix.Create(tx); err != nil {
		return err
	}
	nb, err := ix.buckets(tx)
	if err != nil {
		return err
	}
	// Base marks the new incarnation: doc numbers restart at 1, and the doc
	// number → record id table must not mix them with the old ones.
	return ix.saveStats(nb, &stats{Gen: st.Gen + 1, Base: st.Gen + 1, TotalLen: make([]uint64, len(ix.fields)), Layout: layout})
}

// buckets is the index's sub-buckets in one transaction. Write paths open
// them all (Index.buckets); read paths open the root only (Index.open) and
// each sub-bucket on first use (sub), so a query pays only for what it
// reads.
type buckets struct {
	name []byte // the index's bucket name, for errors
	root *bolt.Bucket

	meta, docs, ids, terms, post, kwmeta, kw, time *bolt.Bucket
	// cacheable is false inside a writable transaction: what it reads may
	// be rolled back, and its generation numbers reused by another commit.
	cacheable bool
	// snap is the stats generation + 1 of the transaction once readStats
	// has read it (0 = unknown; always 0 with the cache disabled): cache
	// entries confirmed at this snapshot are used without reading their
	// term or keyword record (see entry).
	snap uint64
	// Cursors reused for point lookups (read-only transactions only: a
	// write would invalidate them), and scratch space for keys: rkey for
	// record keys, ckey for cache keys.
	termsCur, kwmetaCur *bolt.Cursor
	rkey, ckey          []byte
}

// confirm is the snapshot at which what b reads may be recorded in the
// cache as current: only a read-only transaction's, whose state is
// committed (a writable one may roll back and its generation be reused).
func (b *buckets) confirm() uint64 {
	if b.cacheable {
		return b.snap
	}
	return 0
}

// open sets b to the index's root bucket in tx, sub-buckets unopened, and
// reports whether the index exists. b's scratch buffers are kept.
func (ix *Index) open(tx *bolt.Tx, b *buckets) bool {
	*b = buckets{name: ix.name, root: tx.Bucket(ix.name), cacheable: !tx.Writable(), rkey: b.rkey[:0], ckey: b.ckey[:0]}
	return b.root != nil
}

// buckets opens every sub-bucket; nil if the index does not exist.
func (ix *Index) buckets(tx *bolt.Tx) (*buckets, error) {
	b := &buckets{}
	if !ix.open(tx, b) {
		return nil, nil
	}
	// In subBuckets order.
	subs := [...]**bolt.Bucket{&b.meta, &b.docs, &b.ids, &b.terms, &b.post, &b.kwmeta, &b.kw, &b.time}
	for i, p := range subs {
		if _, err := b.sub(p, subBuckets[i]); err != nil {
			return nil, err
		}
	}
	if tx.Writable() {
		// bbolt splits pages at FillPercent when it writes them at commit.
		// Doc numbers only grow, so only the last docs chunk is written to;
		// record ids and times mostly grow too (messages, cards). Posting
		// and term records are added all over the key space and keep
		// bbolt's default (fuller pages there split more often and end
		// emptier: measured).
		b.docs.FillPercent = 1
		b.ids.FillPercent, b.time.FillPercent = 0.95, 0.95
	}
	return b, nil
}

// sub returns the sub-bucket *p, opening it (as name) on first use.
func (b *buckets) sub(p **bolt.Bucket, name []byte) (*bolt.Bucket, error) {
	if *p == nil {
		if *p = b.root.Bucket(name); *p == nil {
			return nil, fmt.Errorf("index %s: %w: missing sub-bucket %s", b.name, kv.ErrCorrupt, name)
		}
	}
	return *p, nil
}

// lookup is bk.Get(key), through the reusable cursor *cur in a read-only
// transaction (a fresh Get allocates a cursor and its stack every time).
func (b *buckets) lookup(bk *bolt.Bucket, cur **bolt.Cursor, key []byte) []byte {
	if !b.cacheable {
		return bk.Get(key)
	}
	if *cur == nil {
		*cur = bk.Cursor()
	}
	k, v := (*cur).Seek(key)
	if !bytes.Equal(k, key) {
		return nil
	}
	return v
}

// loadStats decodes the stats record into a fresh value the caller may
// modify (write paths).
func (ix *Index) loadStats(b *buckets) (stats, error) {
	meta, err := b.sub(&b.meta, bMeta)
	if err != nil {
		return stats{}, err
	}
	return ix.decodeStats(meta.Get(kStats))
}

func (ix *Index) decodeStats(v []byte) (stats, error) {
	var st stats
	if v == nil {
		st.TotalLen = make([]uint64, len(ix.fields))
		st.Layout = layout
		return st, nil
	}
	if _, err := kv.Decode(v, &st, statsVersion); err != nil {
		return st, fmt.Errorf("index %s: stats: %w", ix.name, err)
	}
	if st.Layout != layout {
		// st is returned too: Drop keeps its generation.
		return st, fmt.Errorf("index %s: %w (layout %d, current %d)", ix.name, ErrLayout, st.Layout, layout)
	}
	if len(st.TotalLen) != len(ix.fields) {
		return st, fmt.Errorf("index %s: %w: stats for %d fields, index has %d", ix.name, ErrSchema, len(st.TotalLen), len(ix.fields))
	}
	return st, nil
}

// statsEntry is a decoded stats record and the bytes it was decoded from.
// Both are immutable once published.
type statsEntry struct {
	raw []byte
	st  stats
}

// readStats returns the stats of b's transaction for reading only: the
// result may be shared with concurrent queries and must not be modified.
// The decoded record is reused as long as the stored bytes are unchanged,
// which makes the check independent of generations and transactions.
func (ix *Index) readStats(b *buckets) (*stats, error) {
	meta, err := b.sub(&b.meta, bMeta)
	if err != nil {
		return nil, err
	}
	v := meta.Get(kStats)
	caching := ix.cache.limit > 0 && v != nil
	if caching {
		if e := ix.stats.Load(); e != nil && bytes.Equal(e.raw, v) {
			b.snap = e.st.Gen + 1
			return &e.st, nil
		}
	}
	st, err := ix.decodeStats(v)
	if err != nil {
		return nil, err
	}
	if caching {
		e := &statsEntry{raw: bytes.Clone(v), st: st}
		ix.stats.Store(e)
		b.snap = e.st.Gen + 1
		return &e.st, nil
	}
	return &st, nil
}

func (ix *Index) saveStats(b *buckets, st *stats) error {
	v, err := kv.Encode(statsVersion, st)
	if err != nil {
		return err
	}
	return b.meta.Put(kStats, v)
}

// Add indexes doc inside tx and returns its doc number. Doc numbers are
// assigned densely in Add order.
func (ix *Index) Add(tx *bolt.Tx, doc Doc) (uint32, error) {
	if err := ix.checkDoc(&doc); err != nil {
		return 0, err
	}
	if err := ix.Create(tx); err != nil {
		return 0, err
	}
	b, err := ix.buckets(tx)
	if err != nil {
		return 0, err
	}
	if _, ok, err := lookupID(b.ids, doc.ID); err != nil {
		return 0, fmt.Errorf("index %s: %w", ix.name, err)
	} else if ok {
		return 0, fmt.Errorf("index %s: %w: record %d", ix.name, ErrDuplicate, doc.ID)
	}
	st, err := ix.loadStats(b)
	if err != nil {
		return 0, err
	}
	if st.Docs == ^uint32(0)-1 {
		return 0, fmt.Errorf("index %s: %w", ix.name, ErrFull)
	}
	st.Docs++
	st.Live++
	st.Gen++
	d := st.Docs // doc numbers start at 1
	var key []byte
	for f, terms := range doc.Fields {
		st.TotalLen[f] += uint64(len(terms))
		tfs := countTerms(terms)
		for _, tt := range tfs {
			key = termKey(key, uint8(f), tt.term)
			if err := ix.addPosting(b, key, uint8(f), tt.term, d, tt.tf, uint32(len(terms)), st.Gen); err != nil {
				return 0, err
			}
		}
	}
	for _, kw := range docKeywords(nil, &doc) {
		if err := ix.addKeyword(b, kw, d, st.Gen); err != nil {
			return 0, err
		}
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
	if err := appendDoc(b.docs, d, doc.ID); err != nil {
		return 0, fmt.Errorf("index %s: %w", ix.name, err)
	}
	if err := putID(b.ids, doc.ID, d); err != nil {
		return 0, fmt.Errorf("index %s: %w", ix.name, err)
	}
	return d, ix.saveStats(b, &st)
}

type termTF struct {
	term string
	tf   uint16
}

// countTerms returns each distinct term with its frequency, sorted by term
// so that writes happen in a deterministic order.
func countTerms(terms []string) []termTF {
	return appendCounts(nil, slices.Clone(terms))
}

// appendCounts is countTerms into dst, sorting terms in place.
func appendCounts(out []termTF, sorted []string) []termTF {
	slices.Sort(sorted)
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		out = append(out, termTF{sorted[i], uint16(min(j-i, 65535))})
		i = j
	}
	return out
}

func (ix *Index) addPosting(b *buckets, tkey []byte, field uint8, term string, d uint32, tf uint16, l uint32, gen uint64) error {
	var tr termRecord
	if v := b.terms.Get(tkey); v != nil {
		var err error
		if tr, err = decodeTermRecord(v); err != nil {
			return err
		}
	}
	var v []byte
	if tr.DF > 0 {
		if d <= tr.Last {
			return fmt.Errorf("index %s: %w: doc %d not after %d", ix.name, kv.ErrCorrupt, d, tr.Last)
		}
		old := b.post.Get(postKey(nil, field, term, tr.Block))
		if old == nil {
			return fmt.Errorf("index %s: %w: term %q: last posting block %d missing", ix.name, kv.ErrCorrupt, term, tr.Block)
		}
		if len(old) < blockBytes {
			var err error
			if v, err = extendBlock(old, d-tr.Last, tf, l); err != nil {
				return fmt.Errorf("index %s: term %q: last posting block %d: %w", ix.name, term, tr.Block, err)
			}
		}
	}
	if v == nil {
		tr.Block = d
		v = newBlock(tf, l)
	}
	tr.DF++
	tr.MaxTF = max(tr.MaxTF, tf)
	tr.Last = d
	tr.Gen = gen
	if err := b.terms.Put(tkey, tr.encode()); err != nil {
		return err
	}
	return b.post.Put(postKey(nil, field, term, tr.Block), v)
}

func (ix *Index) addKeyword(b *buckets, kw string, d uint32, gen uint64) error {
	var kr kwRecord
	if v := b.kwmeta.Get([]byte(kw)); v != nil {
		var err error
		if kr, err = decodeKWRecord(v); err != nil {
			return err
		}
	}
	kr.Count++
	kr.Gen = gen
	if err := b.kwmeta.Put([]byte(kw), kr.encode()); err != nil {
		return err
	}
	k := kwKey(nil, kw, d>>chunkShift)
	bm := roaring.New()
	if v := b.kw.Get(k); v != nil {
		var err error
		if bm, err = decodeBitmap(v); err != nil {
			return err
		}
	}
	bm.Add(d)
	v, err := encodeBitmap(bm)
	if err != nil {
		return err
	}
	return b.kw.Put(k, v)
}

// Delete tombstones record id: it is never returned again. Its postings
// stay (and keep counting in document frequencies) until Rebuild.
func (ix *Index) Delete(tx *bolt.Tx, id uint64) error {
	b, err := ix.buckets(tx)
	if err != nil {
		return err
	}
	if b == nil {
		return fmt.Errorf("index %s: record %d: %w", ix.name, id, kv.ErrNotFound)
	}
	d, ok, err := lookupID(b.ids, id)
	if err != nil {
		return fmt.Errorf("index %s: %w", ix.name, err)
	}
	if !ok {
		return fmt.Errorf("index %s: record %d: %w", ix.name, id, kv.ErrNotFound)
	}
	tomb, err := ix.keyword(b, tombKeyword)
	if err != nil {
		return err
	}
	if tomb != nil && tomb.Contains(d) {
		return nil
	}
	st, err := ix.loadStats(b)
	if err != nil {
		return err
	}
	st.Live--
	st.Gen++
	if err := ix.addKeyword(b, tombKeyword, d, st.Gen); err != nil {
		return err
	}
	return ix.saveStats(b, &st)
}

// Len returns the number of live documents.
func (ix *Index) Len(tx *bolt.Tx) (int, error) {
	var b buckets
	if !ix.open(tx, &b) {
		return 0, nil
	}
	st, err := ix.readStats(&b)
	if err != nil {
		return 0, err
	}
	return int(st.Live), nil
}

// Lookup returns the doc number of record id, or false.
func (ix *Index) Lookup(tx *bolt.Tx, id uint64) (uint32, bool) {
	var b buckets
	if !ix.open(tx, &b) {
		return 0, false
	}
	ids, err := b.sub(&b.ids, bIDs)
	if err != nil {
		return 0, false
	}
	d, ok, err := lookupID(ids, id)
	return d, ok && err == nil
}

// ForEachID calls fn with every record id in the index and its current doc
// number, in id order (auditing: every indexed id must be a stored
// record). A corrupt ids chunk stops the walk with an error wrapping
// kv.ErrCorrupt.
func (ix *Index) ForEachID(tx *bolt.Tx, fn func(id uint64, doc uint32) error) error {
	var b buckets
	if !ix.open(tx, &b) {
		return nil
	}
	ids, err := b.sub(&b.ids, bIDs)
	if err != nil {
		return err
	}
	if err := forEachID(ids, fn); err != nil {
		return fmt.Errorf("index %s: %w", ix.name, err)
	}
	return nil
}

// DocFreq returns how many documents hold term in field f (tombstoned
// included) and how many documents the index holds, from the term and
// stats records only (no posting is read).
func (ix *Index) DocFreq(tx *bolt.Tx, f int, term string) (df, docs int, err error) {
	var b buckets
	if !ix.open(tx, &b) || f < 0 || f >= len(ix.fields) {
		return 0, 0, nil
	}
	st, err := ix.readStats(&b)
	if err != nil {
		return 0, 0, err
	}
	terms, err := b.sub(&b.terms, bTerms)
	if err != nil {
		return 0, 0, err
	}
	v := terms.Get(termKey(nil, uint8(f), term))
	if v == nil {
		return 0, int(st.Docs), nil
	}
	tr, err := decodeTermRecord(v)
	if err != nil {
		return 0, 0, fmt.Errorf("index %s: %w", ix.name, err)
	}
	return int(tr.DF), int(st.Docs), nil
}

// Count returns the number of documents ever added (tombstoned included).
func (ix *Index) Count(tx *bolt.Tx) (int, error) {
	var b buckets
	if !ix.open(tx, &b) {
		return 0, nil
	}
	st, err := ix.readStats(&b)
	if err != nil {
		return 0, err
	}
	return int(st.Docs), nil
}

// Replace indexes doc as the new version of its record: the previous
// version (if any) is tombstoned and the record id points at a new doc
// number. Used for records whose text changes (graph nodes gain facts);
// Rebuild compacts the tombstoned versions away, so for such an index a
// rebuild is equal in content but not byte for byte.
func (ix *Index) Replace(tx *bolt.Tx, doc Doc) (uint32, error) {
	if err := ix.Create(tx); err != nil {
		return 0, err
	}
	b, err := ix.buckets(tx)
	if err != nil {
		return 0, err
	}
	d, ok, err := lookupID(b.ids, doc.ID)
	if err != nil {
		return 0, fmt.Errorf("index %s: %w", ix.name, err)
	}
	if ok {
		tomb, err := ix.keyword(b, tombKeyword)
		if err != nil {
			return 0, err
		}
		st, err := ix.loadStats(b)
		if err != nil {
			return 0, err
		}
		st.Gen++
		if tomb == nil || !tomb.Contains(d) {
			st.Live--
			if err := ix.addKeyword(b, tombKeyword, d, st.Gen); err != nil {
				return 0, err
			}
		}
		if err := ix.saveStats(b, &st); err != nil {
			return 0, err
		}
		if err := putID(b.ids, doc.ID, 0); err != nil {
			return 0, err
		}
	}
	return ix.Add(tx, doc)
}
