package heuristic

import "sync"

// textCache memoises a pure function of a text: the model reduces the same
// texts again and again (a message is read as its block, as the block
// before the next one and as the block after the previous one; an earlier
// card's texts for each block after it), and an answer that depends on the
// text alone is the same answer cached. It is bounded: when full it starts
// over. The zero value is ready; safe for concurrent use. Cached values
// are shared: callers only read them.
type textCache[V any] struct {
	mu sync.Mutex
	m  map[string]V
}

// maxCachedTexts bounds each textCache's entries, and maxCachedTextBytes
// the texts it keeps: a key holds its text in memory, and a message may
// be a megabyte of tool output (8,192 of those would be 8 GB). Longer texts
// are rare and computed every time.
const (
	maxCachedTexts     = 1 << 13
	maxCachedTextBytes = 2048
)

// get returns f(s), from the cache when there.
func (c *textCache[V]) get(s string, f func(string) V) V {
	if len(s) > maxCachedTextBytes {
		return f(s)
	}
	c.mu.Lock()
	v, ok := c.m[s]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = f(s)
	c.mu.Lock()
	if len(c.m) >= maxCachedTexts || c.m == nil {
		c.m = make(map[string]V)
	}
	c.m[s] = v
	c.mu.Unlock()
	return v
}
