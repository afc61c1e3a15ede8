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
// inside their page, keys in order, each page referenced once and never
// both reachable and free. A writable Open runs it before bbolt maps the
// file: bbolt writes through the structures it reads, and on a damaged
// tree it can corrupt Go memory (a fatal error no recover can catch)
// rather than panic. Read-only opens skip it: a damaged page there only
// panics or faults, which the read guards turn into ErrCorrupt.
func checkPages(f io.ReaderAt, m boltMeta) error {
	w := &pageWalker{f: f, ps: uint64(m.pageSize), hwm: m.pgid, seen: make([]bool, m.pgid), freed: make([]bool, m.pgid)}
	w.seen[0], w.seen[1] = true, true
	if m.freelist != boltNoFreelist {
		if err := w.freelist(m.freelist); err != nil {
			return fmt.Errorf("%w: freelist: %v", ErrCorrupt, err)
		}
	}
	if err := w.tree(m.root, 0); err != nil {
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

// tree walks the B+tree whose root is page id.
func (w *pageWalker) tree(id uint64, depth int) error {
	if depth > boltMaxDepth {
		return fmt.Errorf("page %d: nested deeper than %d", id, boltMaxDepth)
	}
	p, err := w.page(id, depth)
	if err != nil {
		return err
	}
	return w.node(id, p, depth)
}

// node checks the branch or leaf page p (page id, or 0 for an inline
// bucket's page) and walks what it points to.
func (w *pageWalker) node(id uint64, p []byte, depth int) error {
	le := binary.LittleEndian
	flags, count := le.Uint16(p[8:]), uint64(le.Uint16(p[10:]))
	if boltPageHeader+count*boltElemSize > uint64(len(p)) {
		return fmt.Errorf("page %d: %d elements do not fit", id, count)
	}
	var prev []byte
	for i := range count {
		e := boltPageHeader + i*boltElemSize
		var pos, ksize, vsize uint64
		var child uint64
		var bucket bool
		switch flags {
		case boltBranchPage:
			pos, ksize, child = uint64(le.Uint32(p[e:])), uint64(le.Uint32(p[e+4:])), le.Uint64(p[e+8:])
		case boltLeafPage:
			bucket = le.Uint32(p[e:])&boltBucketLeaf != 0
			pos, ksize, vsize = uint64(le.Uint32(p[e+4:])), uint64(le.Uint32(p[e+8:])), uint64(le.Uint32(p[e+12:]))
		default:
			return fmt.Errorf("page %d: flags %#x, not a branch or leaf page", id, flags)
		}
		start := e + pos
		if start < e || start+ksize+vsize > uint64(len(p)) {
			return fmt.Errorf("page %d: element %d overruns its page", id, i)
		}
		key := p[start : start+ksize]
		if i > 0 && bytes.Compare(prev, key) >= 0 {
			return fmt.Errorf("page %d: keys out of order at element %d", id, i)
		}
		prev = key
		if flags == boltBranchPage {
			if err := w.tree(child, depth+1); err != nil {
				return err
			}
			continue
		}
		if !bucket {
			continue
		}
		v := p[start+ksize : start+ksize+vsize]
		if len(v) < boltBucketHeader {
			return fmt.Errorf("page %d: bucket %q: value of %d bytes", id, key, len(v))
		}
		if root := le.Uint64(v); root != 0 {
			if err := w.tree(root, depth+1); err != nil {
				return fmt.Errorf("bucket %q: %w", key, err)
			}
			continue
		}
		inline := v[boltBucketHeader:]
		if len(inline) < boltPageHeader || le.Uint16(inline[8:]) != boltLeafPage {
			return fmt.Errorf("page %d: inline bucket %q: not a leaf page", id, key)
		}
		if depth+1 > boltMaxDepth {
			return fmt.Errorf("page %d: nested deeper than %d", id, boltMaxDepth)
		}
		if err := w.node(0, inline, depth+1); err != nil {
			return fmt.Errorf("inline bucket %q: %w", key, err)
		}
	}
	return nil
}
