package index

import (
	"container/list"
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
}

// entry is a cached posting list or keyword bitmap with the generation of
// its term/keyword record when it was loaded. A lookup inside a transaction
// reuses the entry only if that transaction sees the same generation: a
// commit that changes the list bumps it, so a stale entry is never used.
type entry struct {
	key  string
	gen  uint64
	post *posting
	bm   *roaring.Bitmap
	size int
	elem *list.Element
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

// get returns the entry for key if it was loaded at generation gen.
func (c *cache) get(key []byte, gen uint64) *entry {
	if c.limit <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[string(key)] // no allocation for the conversion
	if e == nil || e.gen != gen {
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
		if old.gen > e.gen {
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
