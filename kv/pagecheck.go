package kv

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
)

// bbolt page flags and element sizes (bbolt v1's on-disk layout).
const (
	boltBranchPage   = 0x01
	boltLeafPage     = 0x02
	boltFreelistPage = 0x10
	boltBucketLeaf   = 0x01 // leaf element flag: the value is a bucket
	boltElemSize     = 16   // branch and leaf element headers are both 16 bytes
	boltBucketHeader = 16   // a bucket value: root page id, sequence
	boltMaxDepth     = 64   // B+tree levels plus nested buckets; far beyond any real file
)

// pageWalker checks the page structure of a bbolt file through ReadAt: it
// never touches a mapping, so a damaged page cannot fault it.
type pageWalker struct {
	f     io.ReaderAt
	ps    uint64   // page size
	hwm   uint64   // pages in use (the file holds them all: checked before)
	seen  []bool   // by page id: reached
	freed []bool   // by page id: on the freelist
	bufs  [][]byte // one page buffer per tree depth, reused
}

// checkPages walks every page reachable from meta m — the freelist, the
// root bucket, every nested bucket (inline ones included) — and checks what
// bbolt trusts without checking: page ids below the high-water mark and
// matching their position, page types, element headers, keys and values
// inside their page, keys in order within a page and within the range its
// parent branch gives it, each page referenced once and never both
// reachable and free. A writable Open runs it before bbolt maps the file:
// bbolt writes through the structures it reads, and on a damaged tree it
// can corrupt Go memory (a fatal error no recover can catch) rather than
// panic. Read-only opens skip it: a damaged page there only panics or
// faults, which the read guards turn into ErrCorrupt.
//
// The key ranges matter beyond bbolt's writes: a writable Open of a file
// without a stored freelist (NoFreelistSync) has bbolt rebuild it by
// walking the tree with its own consistency check, on a goroutine of its
// own, and bbolt panics at the first violation it reports while that
// goroutine walks on through a transaction it has closed: a nil
// dereference no recover can catch. So this walk refuses every file that
// check would find fault with (bbolt's tx_check.go: a key below the
// previous subtree's last key or the parent's key, or not below the
// parent's next key).
func checkPages(f io.ReaderAt, m boltMeta) error {
	w := &pageWalker{f: f, ps: uint64(m.pageSize), hwm: m.pgid, seen: make([]bool, m.pgid), freed: make([]bool, m.pgid)}
	w.seen[0], w.seen[1] = true, true
	if m.freelist != boltNoFreelist {
		if err := w.freelist(m.freelist); err != nil {
			return fmt.Errorf("%w: freelist: %v", ErrCorrupt, err)
		}
	}
	if _, err := w.tree(m.root, 0, nil, nil); err != nil {
		return fmt.Errorf("%w: page structure: %v", ErrCorrupt, err)
	}
	return nil
}

// page reads page id with its overflow pages into the buffer of depth,
// after checking that it is in range, unvisited and self-identifying.
func (w *pageWalker) page(id uint64, depth int) ([]byte, error) {
	if id < 2 || id >= w.hwm {
		return nil, fmt.Errorf("page %d: out of range (2–%d)", id, w.hwm-1)
	}
	var hdr [boltPageHeader]byte
	if _, err := w.f.ReadAt(hdr[:], int64(id*w.ps)); err != nil {
		return nil, fmt.Errorf("page %d: %v", id, err)
	}
	le := binary.LittleEndian
	if got := le.Uint64(hdr[0:]); got != id {
		return nil, fmt.Errorf("page %d: identifies as page %d", id, got)
	}
	overflow := uint64(le.Uint32(hdr[12:]))
	if overflow >= w.hwm-id {
		return nil, fmt.Errorf("page %d: %d overflow pages run past the last page %d", id, overflow, w.hwm-1)
	}
	for i := id; i <= id+overflow; i++ {
		if w.seen[i] {
			return nil, fmt.Errorf("page %d: referenced twice", i)
		}
		if w.freed[i] {
			return nil, fmt.Errorf("page %d: both reachable and free", i)
		}
		w.seen[i] = true
	}
	for len(w.bufs) <= depth {
		w.bufs = append(w.bufs, nil)
	}
	n := (overflow + 1) * w.ps
	if uint64(cap(w.bufs[depth])) < n {
		w.bufs[depth] = make([]byte, n)
	}
	buf := w.bufs[depth][:n]
	if _, err := w.f.ReadAt(buf, int64(id*w.ps)); err != nil {
		return nil, fmt.Errorf("page %d: %v", id, err)
	}
	return buf, nil
}

func (w *pageWalker) freelist(id uint64) error {
	p, err := w.page(id, 0)
	if err != nil {
		return err
	}
	le := binary.LittleEndian
	if le.Uint16(p[8:])&boltFreelistPage == 0 {
		return fmt.Errorf("page %d: flags %#x, not a freelist", id, le.Uint16(p[8:]))
	}
	n, off := uint64(le.Uint16(p[10:])), uint64(boltPageHeader)
	if n == 0xFFFF { // the real count is the first element
		if len(p) < boltPageHeader+8 {
			return fmt.Errorf("page %d: no room for the count", id)
		}
		n, off = le.Uint64(p[boltPageHeader:]), boltPageHeader+8
	}
	if n > (uint64(len(p))-off)/8 {
		return fmt.Errorf("page %d: %d free ids do not fit", id, n)
	}
	for i := range n {
		f := le.Uint64(p[off+8*i:])
		if f < 2 || f >= w.hwm {
			return fmt.Errorf("page %d: free page %d out of range", id, f)
		}
		if w.seen[f] {
			return fmt.Errorf("page %d: free page %d is in use", id, f)
		}
		w.freed[f] = true
	}
	return nil
}

// tree walks the B+tree whose root is page id; its keys must lie in
// [lo, hi) (nil: unbounded). It returns the last key of the tree.
func (w *pageWalker) tree(id uint64, depth int, lo, hi []byte) ([]byte, error) {
	if depth > boltMaxDepth {
		return nil, fmt.Errorf("page %d: nested deeper than %d", id, boltMaxDepth)
	}
	p, err := w.page(id, depth)
	if err != nil {
		return nil, err
	}
	return w.node(id, p, depth, lo, hi)
}

// node checks the branch or leaf page p (page id, or 0 for an inline
// bucket's page), whose keys must lie in [lo, hi), walks what it points
// to, and returns its last key (of its last subtree, for a branch; nil
// when it has none), copied.
func (w *pageWalker) node(id uint64, p []byte, depth int, lo, hi []byte) ([]byte, error) {
	le := binary.LittleEndian
	flags, count := le.Uint16(p[8:]), uint64(le.Uint16(p[10:]))
	if boltPageHeader+count*boltElemSize > uint64(len(p)) {
		return nil, fmt.Errorf("page %d: %d elements do not fit", id, count)
	}
	if flags != boltBranchPage && flags != boltLeafPage {
		return nil, fmt.Errorf("page %d: flags %#x, not a branch or leaf page", id, flags)
	}
	// key returns element i's key and its value (nil for a branch).
	key := func(i uint64) (k, v []byte, child uint64, bucket bool, err error) {
		e := boltPageHeader + i*boltElemSize
		var pos, ksize, vsize uint64
		if flags == boltBranchPage {
			pos, ksize, child = uint64(le.Uint32(p[e:])), uint64(le.Uint32(p[e+4:])), le.Uint64(p[e+8:])
		} else {
			bucket = le.Uint32(p[e:])&boltBucketLeaf != 0
			pos, ksize, vsize = uint64(le.Uint32(p[e+4:])), uint64(le.Uint32(p[e+8:])), uint64(le.Uint32(p[e+12:]))
		}
		start := e + pos
		if start < e || start+ksize+vsize > uint64(len(p)) {
			return nil, nil, 0, false, fmt.Errorf("page %d: element %d overruns its page", id, i)
		}
		return p[start : start+ksize], p[start+ksize : start+ksize+vsize], child, bucket, nil
	}
	// running is what the next key must exceed (the first may equal lo),
	// as bbolt's check has it: the previous key, or the last key of the
	// previous subtree.
	running := lo
	var last []byte
	for i := range count {
		k, v, child, bucket, err := key(i)
		if err != nil {
			return nil, err
		}
		if c := bytes.Compare(running, k); (i == 0 && running != nil && c > 0) || (i > 0 && c >= 0) {
			return nil, fmt.Errorf("page %d: keys out of order at element %d", id, i)
		}
		if hi != nil && bytes.Compare(k, hi) >= 0 {
			return nil, fmt.Errorf("page %d: element %d lies beyond its parent's next key", id, i)
		}
		if flags == boltBranchPage {
			next := hi
			if i+1 < count {
				if next, _, _, _, err = key(i + 1); err != nil {
					return nil, err
				}
			}
			// The child's keys come from the next depth's buffer: the
			// returned key is a copy, so this page's keys stay valid.
			last, err = w.tree(child, depth+1, k, next)
			if err != nil {
				return nil, err
			}
			running = last
			continue
		}
		running, last = k, k
		if !bucket {
			continue
		}
		if len(v) < boltBucketHeader {
			return nil, fmt.Errorf("page %d: bucket %q: value of %d bytes", id, k, len(v))
		}
		if root := le.Uint64(v); root != 0 {
			if _, err := w.tree(root, depth+1, nil, nil); err != nil {
				return nil, fmt.Errorf("bucket %q: %w", k, err)
			}
			continue
		}
		inline := v[boltBucketHeader:]
		if len(inline) < boltPageHeader || le.Uint16(inline[8:]) != boltLeafPage {
			return nil, fmt.Errorf("page %d: inline bucket %q: not a leaf page", id, k)
		}
		if depth+1 > boltMaxDepth {
			return nil, fmt.Errorf("page %d: nested deeper than %d", id, boltMaxDepth)
		}
		if _, err := w.node(0, inline, depth+1, nil, nil); err != nil {
			return nil, fmt.Errorf("inline bucket %q: %w", k, err)
		}
	}
	return bytes.Clone(last), nil
}
