package kv

import (
	"bytes"
	"encoding/binary"
	"hash/fnv"
	"testing"
)

// FuzzCheckFileSize feeds arbitrary file heads to the pre-open check of
// bbolt's meta pages: it may not panic, and it refuses (ErrCorrupt) every
// file whose chosen meta claims more pages than the file holds.
func FuzzCheckFileSize(f *testing.F) {
	f.Add(metaPages(4096, 10, 3, 2, 5), int64(10*4096))
	f.Add(metaPages(4096, 10, 3, 2, 5), int64(5*4096))
	f.Add(metaPages(512, 1<<40, 3, 2, 5), int64(1<<20))
	f.Add([]byte{}, int64(0))
	f.Fuzz(func(t *testing.T, head []byte, size int64) {
		if size < int64(len(head)) || size > 1<<40 {
			size = int64(len(head))
		}
		err := checkFileSize(bytes.NewReader(head), size)
		m0, ok0 := parseBoltMeta(head)
		if ok0 && err == nil && validPageSize(m0.pageSize) {
			m1, ok1 := parseBoltMeta(head[min(len(head), int(m0.pageSize)):])
			if !ok1 || m1.txid <= m0.txid {
				if m0.pgid*uint64(m0.pageSize) > uint64(size) && m0.pgid < 1<<40 {
					t.Fatalf("meta claims %d pages of %d bytes, file has %d bytes: accepted", m0.pgid, m0.pageSize, size)
				}
			}
		}
	})
}

// metaPages returns two meta pages (txids 1 and 2) of pageSize bytes each
// claiming pgid pages, root page root and freelist page free.
func metaPages(pageSize uint32, pgid, root, free, _ uint64) []byte {
	out := make([]byte, 2*pageSize)
	for i := range 2 {
		p := out[i*int(pageSize):]
		m := p[boltPageHeader:]
		le := binary.LittleEndian
		le.PutUint32(m[0:], boltMagic)
		le.PutUint32(m[4:], boltVersion)
		le.PutUint32(m[8:], pageSize)
		le.PutUint64(m[16:], root)
		le.PutUint64(m[32:], free)
		le.PutUint64(m[40:], pgid)
		le.PutUint64(m[48:], uint64(i+1))
		h := fnv.New64a()
		_, _ = h.Write(m[:56])
		le.PutUint64(m[56:], h.Sum64())
	}
	return out
}
