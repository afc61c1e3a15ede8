package kv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// bbolt's on-disk meta page, as bbolt v1 writes it (native byte order,
// little-endian on every platform we build for): a 16-byte page header,
// then magic, version, page size, flags (uint32 each), the root bucket
// (root page id, sequence), the freelist page id, the high-water mark (the
// number of pages in use), the transaction id and an FNV-64a checksum of
// everything before it.
const (
	boltPageHeader  = 16
	boltMagic       = 0xED0CDAED
	boltVersion     = 2
	boltMetaSize    = 64 // bytes of meta covered by the checksum, plus the checksum
	boltNoFreelist  = ^uint64(0)
	boltDefaultPage = 4096
)

// boltMeta is the part of a meta page that file checks need.
type boltMeta struct {
	pageSize uint32
	root     uint64
	freelist uint64
	pgid     uint64 // high-water mark: pages 0..pgid-1 are in use
	txid     uint64
}

// parseBoltMeta decodes the meta page that starts at page, returning false
// when its magic, version or checksum is wrong (bbolt then tries the other
// meta page, and so do we).
func parseBoltMeta(page []byte) (boltMeta, bool) {
	if len(page) < boltPageHeader+boltMetaSize {
		return boltMeta{}, false
	}
	m := page[boltPageHeader : boltPageHeader+boltMetaSize]
	le := binary.LittleEndian
	if le.Uint32(m[0:]) != boltMagic || le.Uint32(m[4:]) != boltVersion {
		return boltMeta{}, false
	}
	h := fnv.New64a()
	_, _ = h.Write(m[:56])
	if h.Sum64() != le.Uint64(m[56:]) {
		return boltMeta{}, false
	}
	return boltMeta{
		pageSize: le.Uint32(m[8:]),
		root:     le.Uint64(m[16:]),
		freelist: le.Uint64(m[32:]),
		pgid:     le.Uint64(m[40:]),
		txid:     le.Uint64(m[48:]),
	}, true
}

// checkFileSize reads the meta pages of the existing file f (of size
// bytes) and refuses a file shorter than the high-water mark of the meta
// page bbolt would use, or whose root or freelist page lies beyond it.
// bbolt maps such a file and then dereferences pages past its end (an
// assertion panic or a SIGBUS); a file truncated by a copy or a full disk
// must be reported, not crash the process. A file without a valid meta page
// is left to bbolt, which rejects it (ErrCorrupt then).
func checkFileSize(f io.ReaderAt, size int64) error {
	_, _, err := chooseMeta(f, size)
	return err
}

// chooseMeta returns the meta page bbolt will use (ok false when neither
// is valid, which bbolt reports itself) after the checks of checkFileSize.
func chooseMeta(f io.ReaderAt, size int64) (boltMeta, bool, error) {
	var buf [boltPageHeader + boltMetaSize]byte
	read := func(off int64) (boltMeta, bool) {
		if off+int64(len(buf)) > size {
			return boltMeta{}, false
		}
		if _, err := f.ReadAt(buf[:], off); err != nil {
			return boltMeta{}, false
		}
		return parseBoltMeta(buf[:])
	}
	m0, ok0 := read(0)
	// Page 1 starts one page in: the page size of meta 0 when it is valid,
	// else bbolt's default (which is what bbolt itself assumes).
	off1 := int64(boltDefaultPage)
	if ok0 && validPageSize(m0.pageSize) {
		off1 = int64(m0.pageSize)
	}
	m1, ok1 := read(off1)
	var m boltMeta
	switch {
	case ok0 && ok1:
		m = m0
		if m1.txid > m0.txid {
			m = m1
		}
	case ok0:
		m = m0
	case ok1:
		m = m1
	default:
		return boltMeta{}, false, nil
	}
	if !validPageSize(m.pageSize) {
		return m, true, fmt.Errorf("%w: meta page (txid %d) has page size %d", ErrCorrupt, m.txid, m.pageSize)
	}
	if m.pgid < 2 || m.root >= m.pgid || (m.freelist >= m.pgid && m.freelist != boltNoFreelist) {
		return m, true, fmt.Errorf("%w: meta page (txid %d) has root page %d and freelist page %d for %d pages in use",
			ErrCorrupt, m.txid, m.root, m.freelist, m.pgid)
	}
	if need := m.pgid * uint64(m.pageSize); need/uint64(m.pageSize) != m.pgid || uint64(size) < need {
		return m, true, fmt.Errorf("%w: file is %d bytes but its meta page (txid %d) uses %d pages of %d bytes: truncated",
			ErrCorrupt, size, m.txid, m.pgid, m.pageSize)
	}
	return m, true, nil
}

func validPageSize(n uint32) bool { return n >= 512 && n <= 1<<20 && n&(n-1) == 0 }

// absentFile reports whether nothing exists at path (so that a writable
// Open creates the file).
func absentFile(path string) (bool, error) {
	_, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return true, nil
	}
	return false, err
}

// checkOpenFile inspects an existing file before bbolt reads it, holding
// the file's lock (so that a writer in another process cannot change it
// meanwhile). It refuses, with ErrCorrupt, a zero-length file (bbolt would
// silently initialise it when writable and fail with a write error when
// read-only: either way it is not a StrataGate store, and adopting it could
// hide a lost file), a file shorter than its meta page says and, when
// writable, a file whose page structure is damaged (checkPages).
func checkOpenFile(f *os.File, writable bool) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%w: not a regular file (%v)", ErrCorrupt, st.Mode().Type())
	}
	if st.Size() == 0 {
		return fmt.Errorf("%w: zero-length file: not a StrataGate file (remove it to create a new store there)", ErrCorrupt)
	}
	m, ok, err := chooseMeta(f, st.Size())
	if err != nil || !ok || !writable {
		return err
	}
	if err := checkPages(f, m); err != nil {
		return fmt.Errorf("%w (open it read-only to inspect it, or restore a copy)", err)
	}
	return nil
}
