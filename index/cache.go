package index

import (
	"cmp"
	"container/list"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
)

// posting is a decoded, immutable term posting list: sorted doc numbers and,
// aligned with them, term frequencies and field lengths. It is shared by
// concurrent queries and never modified after it is cached.
type posting struct {
	docs  []uint32
	tfs   []uint16
	lens  []uint32
	df    uint32
	maxTF uint16
	// front is the Pareto frontier of the postings' (tf, length) pairs:
	// no posting has both a tf ≥ and a length ≤ a point's with one of them
	// strictly better. BM25 grows with tf and falls with length, so a
	// term's highest score on any of its documents is at one of these
	// points: the exact per-term upper bound MaxScore prunes with.
	front []tfLen
}

type tfLen struct {
	tf  uint16
	len uint32
}

// frontier returns the Pareto frontier of the (tfs[i], lens[i]) pairs,
// by decreasing tf (and so increasing length). It runs on every decoded
// posting list, so it avoids maps: almost every tf is small, and the
// shortest length per small tf is kept in an array; the few larger tfs
// are collected and sorted.
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
	size   int
	elem   *list.Element
}

// cache is a bounded LRU of decoded postings and bitmaps, safe for
// concurrent use. Its size is counted in postings entries (doc numbers).
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
