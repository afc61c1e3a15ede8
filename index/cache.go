package index

import (
	"bytes"
	"cmp"
	"container/list"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/stratagate/stratagate/kv"
)

// posting is a term's posting list as cached: its blocks' headers (the
// bounds block-max pruning reads) and their encoded postings, copied out
// of the transaction, each block decoded on first use. It is shared by
// concurrent queries: everything but the decoded blocks is immutable once
// cached, and a decoded block is published atomically (two queries may
// decode the same block at once; both get equal chunks).
type posting struct {
	df    uint32
	maxTF uint16
	last  uint32 // the term's newest doc
	// front is the Pareto frontier of the points of every block header:
	// the term's highest score on any of its documents is at one of them
	// (exact while no header merged points), the per-term upper bound
	// MaxScore prunes with.
	front  []tfLen
	blocks []pblock
	raw    []byte // every block's postings, concatenated
	dec    []atomic.Pointer[chunk]
	flat   atomic.Pointer[chunk] // all postings at once (multi-field queries)
	// union memoizes the docs of a multi-field term in any field, on the
	// posting of its first field that has it (see unionOf).
	union atomic.Pointer[unionMemo]
	// prevUnion is the union memo of the posting this one replaced in the
	// cache (the same term before a write), kept until this posting's
	// union is built from it (see extendUnion) and charged to its entry
	// meanwhile (prevUnits, set before the posting is shared).
	prevUnion atomic.Pointer[unionMemo]
	prevUnits int
	// prevList is the posting this one replaced, when it had all its
	// postings decoded at once, kept until this one's are (see all): its
	// unchanged leading blocks are copied, not decoded again. Charged
	// like prevUnion; the posting it replaced lets go of its own, so no
	// chain of old lists is kept.
	prevList      atomic.Pointer[posting]
	prevListUnits int
	// owner is the cache holding the posting (nil if none; set before it
	// is shared), ent its entry there, guarded by owner.mu: decoding a
	// block charges the entry for the decoded copy (see charge).
	owner *cache
	ent   *entry
}

// unitBytes is the cache's unit of size: about what one decoded posting
// takes (doc u32, tf u16, length u32).
const unitBytes = 10

// encodedSize is the cache size of a loaded posting before any block is
// decoded: its encoded postings and block headers.
func (p *posting) encodedSize() int {
	return (len(p.raw)+int(unsafe.Sizeof(pblock{})+8)*len(p.blocks))/unitBytes + 16
}

// charge adds n decoded postings to the size of the posting's cache
// entry, if it is still cached, evicting others as needed.
func (p *posting) charge(n int) {
	c := p.owner
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := p.ent; e != nil && c.m[e.key] == e {
		e.size += n
		c.size += n
		c.evict()
	}
}

// reserve charges n decoded postings to the posting's cache entry if the
// cache has room for them without evicting anything, and reports whether
// it did. Decoded blocks only fill spare room: they never push encoded
// lists out (a list costs a quarter of its decoded size, and an evicted
// list costs a read from the file).
func (p *posting) reserve(n int) bool {
	c := p.owner
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := p.ent; e != nil && c.m[e.key] == e && c.size+n <= c.limit {
		e.size += n
		c.size += n
		return true
	}
	return false
}

// release undoes reserve(n).
func (p *posting) release(n int) {
	c := p.owner
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := p.ent; e != nil && c.m[e.key] == e {
		e.size -= n
		c.size -= n
	}
}

// pblock is one posting block of a cached posting list.
type pblock struct {
	first    uint32 // its first doc (the block's key)
	off, end uint32 // its postings in posting.raw
	head     blockHead
}

// block returns block i decoded: shared if already decoded, else decoded
// into a new chunk, cached and charged to the cache.
func (p *posting) block(i int) (*chunk, error) {
	if c := p.dec[i].Load(); c != nil {
		return c, nil
	}
	return p.decodeBlock(i, false)
}

// blockIfRoom returns block i decoded if it is, or if the cache has room
// to keep it decoded (reserve); nil otherwise (the caller reads it with a
// postingReader).
func (p *posting) blockIfRoom(i int) (*chunk, error) {
	if c := p.dec[i].Load(); c != nil {
		return c, nil
	}
	if !p.reserve(int(p.blocks[i].head.n)) {
		return nil, nil
	}
	return p.decodeBlock(i, true)
}

// decodeBlock decodes block i into a new chunk and publishes it, charging
// the cache unless reserved (already charged).
func (p *posting) decodeBlock(i int, reserved bool) (*chunk, error) {
	n := int(p.blocks[i].head.n)
	c := &chunk{docs: make([]uint32, 0, n), tfs: make([]uint16, 0, n), lens: make([]uint32, 0, n)}
	if err := p.decodeInto(i, c); err != nil {
		if reserved {
			p.release(n)
		}
		return nil, err
	}
	if !p.dec[i].CompareAndSwap(nil, c) {
		if reserved {
			p.release(n)
		}
		return p.dec[i].Load(), nil // another query decoded it first
	}
	if !reserved {
		p.charge(n)
	}
	return c, nil
}

// all returns every posting of the list decoded into one chunk.
func (p *posting) all() (*chunk, error) {
	if c := p.flat.Load(); c != nil {
		return c, nil
	}
	if len(p.blocks) == 1 {
		c, err := p.block(0)
		if err != nil {
			return nil, err
		}
		p.flat.Store(c)
		return c, nil
	}
	// df was checked against the headers' counts, which parseBlockHead
	// bounds by the bytes read: it can size the allocation.
	c := &chunk{docs: make([]uint32, 0, p.df), tfs: make([]uint16, 0, p.df), lens: make([]uint32, 0, p.df)}
	from := 0
	if old := p.prevList.Swap(nil); old != nil {
		p.charge(-p.prevListUnits)
		var err error
		if from, err = p.copyPrefix(old, c); err != nil {
			return nil, err
		}
	}
	for i := from; i < len(p.blocks); i++ {
		if err := p.decodeInto(i, c); err != nil {
			return nil, err
		}
	}
	if !p.flat.CompareAndSwap(nil, c) {
		return p.flat.Load(), nil
	}
	p.charge(len(c.docs))
	return c, nil
}

// copyPrefix appends to dst (empty) the decoded postings of p's leading
// blocks that hold the same bytes as old's, from old's decoded list, and
// returns how many blocks it copied. A write appends to a term's last
// block or adds blocks after it: every block but the last is copied.
func (p *posting) copyPrefix(old *posting, dst *chunk) (int, error) {
	of := old.flat.Load()
	if of == nil {
		return 0, nil
	}
	k, n := 0, 0
	for k < len(p.blocks) && k < len(old.blocks) {
		b, o := &p.blocks[k], &old.blocks[k]
		if b.first != o.first || b.head.n != o.head.n || !bytes.Equal(p.raw[b.off:b.end], old.raw[o.off:o.end]) {
			break
		}
		n += int(b.head.n)
		k++
	}
	if k == 0 || n > len(of.docs) {
		return 0, nil
	}
	dst.docs = append(dst.docs, of.docs[:n]...)
	dst.tfs = append(dst.tfs, of.tfs[:n]...)
	dst.lens = append(dst.lens, of.lens[:n]...)
	// What decodeInto checks of the last copied block, against this list.
	last := dst.docs[n-1]
	if k < len(p.blocks) && last >= p.blocks[k].first || k == len(p.blocks) && last != p.last {
		return 0, fmt.Errorf("index: %w: posting block %d: ends at doc %d, past the next block or the term's last doc", kv.ErrCorrupt, p.blocks[k-1].first, last)
	}
	return k, nil
}

// decodeInto appends block i's postings to dst, checking that they end
// before the next block's first doc (the last block: at the term's newest
// doc).
func (p *posting) decodeInto(i int, dst *chunk) error {
	b := &p.blocks[i]
	if err := decodePostings(b.first, &b.head, p.raw[b.off:b.end], dst); err != nil {
		return err
	}
	last := dst.docs[len(dst.docs)-1]
	if i+1 < len(p.blocks) && last >= p.blocks[i+1].first || i+1 == len(p.blocks) && last != p.last {
		return fmt.Errorf("index: %w: posting block %d: ends at doc %d, past the next block or the term's last doc", kv.ErrCorrupt, b.first, last)
	}
	return nil
}

// has reports whether the list holds doc d.
func (p *posting) has(d uint32) (bool, error) {
	i := sort.Search(len(p.blocks), func(i int) bool { return p.blocks[i].first > d }) - 1
	if i < 0 {
		return false, nil
	}
	c, err := p.block(i)
	if err != nil {
		return false, err
	}
	j := seek(c.docs, 0, d)
	return j < len(c.docs) && c.docs[j] == d, nil
}

type tfLen struct {
	tf  uint16
	len uint32
}

// frontier returns the Pareto frontier of the (tfs[i], lens[i]) pairs,
// by decreasing tf (and so decreasing length: a point with a higher tf and
// no longer length would dominate). It runs on the header points of every
// posting list loaded, so it avoids maps: almost every tf is small, and
// the shortest length per small tf is kept in an array; the few larger
// tfs are collected and sorted.
func frontier(tfs []uint16, lens []uint32) []tfLen {
	const small = 64
	var best [small]uint64 // tf → shortest length + 1 (0: tf not seen)
	var big []tfLen
	for i, tf := range tfs {
		if tf < small {
			if l := uint64(lens[i]) + 1; best[tf] == 0 || l < best[tf] {
				best[tf] = l
			}
			continue
		}
		big = append(big, tfLen{tf, lens[i]})
	}
	// Larger tfs by decreasing tf, then increasing length: add keeps the
	// first of each tf (its shortest) and drops the rest.
	slices.SortFunc(big, func(a, b tfLen) int {
		if a.tf != b.tf {
			return int(b.tf) - int(a.tf)
		}
		return cmp.Compare(a.len, b.len)
	})
	var out []tfLen
	add := func(p tfLen) {
		if len(out) == 0 || p.len < out[len(out)-1].len {
			out = append(out, p)
		}
	}
	for _, p := range big {
		add(p)
	}
	for tf := small - 1; tf >= 0; tf-- {
		if best[tf] != 0 {
			add(tfLen{uint16(tf), uint32(best[tf] - 1)})
		}
	}
	return slices.Clip(out)
}

// entry is a cached posting list or keyword bitmap with the generation of
// its term/keyword record when it was loaded. A lookup inside a transaction
// reuses the entry only if that transaction sees the same generation: a
// commit that changes the list bumps it, so a stale entry is never used.
//
// An entry may also record the absence of the term or keyword (absent),
// and at, the stats generation + 1 of the latest committed snapshot known
// to hold exactly this entry (0 = none). Every commit that changes the
// index bumps the stats generation, so a committed state of the index is
// identified by it: a transaction whose stats generation + 1 equals at may
// use the entry without reading the term/keyword record at all (getAt).
type entry struct {
	key    string
	gen    uint64
	at     uint64 // guarded by cache.mu once the entry is cached
	absent bool
	post   *posting
	bm     *roaring.Bitmap
	chunks []kwChunk // a keyword bitmap's chunks, as bm was built from them
	size   int
	elem   *list.Element
}

// cache is a bounded LRU of decoded postings and bitmaps, safe for
// concurrent use. Its size is counted in units of about unitBytes bytes:
// a decoded posting is one, a posting list's encoded bytes a tenth of
// their count (see posting.encodedSize and charge).
type cache struct {
	mu    sync.Mutex
	limit int
	size  int
	m     map[string]*entry
	lru   list.List
}

func newCache(limit int) *cache {
	return &cache{limit: limit, m: make(map[string]*entry)}
}

// get returns the entry for key if it was loaded at generation gen. A
// non-zero confirm (the stats generation + 1 of the read-only snapshot
// that read gen) is recorded as the entry's at if it is newer.
func (c *cache) get(key []byte, gen, confirm uint64) *entry {
	if c.limit <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[string(key)] // no allocation for the conversion
	if e == nil || e.absent || e.gen != gen {
		return nil
	}
	e.at = max(e.at, confirm)
	c.lru.MoveToFront(e.elem)
	return e
}

// stale returns the entry cached for key whatever its generation, or
// nil: what a load after a write starts from (see buildKeyword and
// posting.inherit).
func (c *cache) stale(key []byte) *entry {
	if c.limit <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[string(key)]
}

// inherit keeps what old (the same term's list before a write) had
// built that p's own will mostly be: its union (a multi-field index's)
// and its decoded list (p of several blocks). It returns what that holds
// in cache units, to charge to p's entry once cached; unionOf and all
// let go of it and discharge it. old lets go of its own, so no chain of
// old lists is kept.
func (p *posting) inherit(old *posting, multiField bool) int {
	if multiField {
		if um := old.union.Load(); um != nil {
			p.prevUnion.Store(um)
			p.prevUnits = um.units()
		}
	}
	if len(p.blocks) > 1 {
		if of := old.flat.Load(); of != nil {
			old.prevList.Store(nil)
			p.prevList.Store(old)
			p.prevListUnits = old.encodedSize() + len(of.docs)
		}
	}
	return p.prevUnits + p.prevListUnits
}

// getAt returns the entry for key if it is known to be current in the
// committed snapshot whose stats generation + 1 is at (non-zero). The
// entry may be absent.
func (c *cache) getAt(key []byte, at uint64) *entry {
	if c.limit <= 0 || at == 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[string(key)]
	if e == nil || e.at != at {
		return nil
	}
	c.lru.MoveToFront(e.elem)
	return e
}

func (c *cache) put(e *entry) {
	if c.limit <= 0 || e.size > c.limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.m[e.key]; old != nil {
		if old.gen > e.gen && old.at >= e.at {
			return // a newer load won the race
		}
		c.size -= old.size
		c.lru.Remove(old.elem)
	}
	e.elem = c.lru.PushFront(e)
	c.m[e.key] = e
	c.size += e.size
	if e.post != nil && e.post.owner == nil {
		e.post.owner, e.post.ent = c, e
	}
	c.evict()
}

// evict drops least recently used entries until the cache fits its limit.
func (c *cache) evict() {
	for c.size > c.limit {
		last := c.lru.Back()
		old := last.Value.(*entry)
		c.lru.Remove(last)
		delete(c.m, old.key)
		c.size -= old.size
	}
}

func (c *cache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = make(map[string]*entry)
	c.lru.Init()
	c.size = 0
}
