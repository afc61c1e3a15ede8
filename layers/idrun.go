package layers

import (
	"encoding/binary"
	"errors"
)

// An id run is how span and receipt records list message ids: a block id,
// the count, the first id, then each next id as its (positive) distance
// from the one before, all uvarints. A turn's or a block's ids are close
// together, so most take a byte.

var errIDRun = errors.New("truncated or inconsistent id run")

// appendIDRun appends block and the id run of ids (increasing, not empty:
// callers check) to v.
func appendIDRun(v []byte, block uint64, ids []uint64) []byte {
	v = binary.AppendUvarint(v, block)
	v = binary.AppendUvarint(v, uint64(len(ids)))
	v = binary.AppendUvarint(v, ids[0])
	for i := 1; i < len(ids); i++ {
		v = binary.AppendUvarint(v, ids[i]-ids[i-1])
	}
	return v
}

// increasing reports whether ids is non-empty and strictly increasing.
func increasing(ids []uint64) bool {
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] {
			return false
		}
	}
	return len(ids) > 0
}

// parseIDRun decodes what appendIDRun wrote, which must be all of p: ids
// are non-zero and strictly increasing, and a count larger than the bytes
// left is refused before anything is allocated.
func parseIDRun(p []byte) (block uint64, ids []uint64, err error) {
	next := func() (uint64, bool) {
		x, n := binary.Uvarint(p)
		if n <= 0 {
			return 0, false
		}
		p = p[n:]
		return x, true
	}
	block, ok1 := next()
	count, ok2 := next()
	first, ok3 := next()
	if !ok1 || !ok2 || !ok3 || first == 0 || count == 0 || count-1 > uint64(len(p)) {
		return 0, nil, errIDRun
	}
	ids = make([]uint64, 1, count)
	ids[0] = first
	for n := uint64(1); n < count; n++ {
		d, ok := next()
		prev := ids[n-1]
		if !ok || d == 0 || prev+d < prev {
			return 0, nil, errIDRun
		}
		ids = append(ids, prev+d)
	}
	if len(p) != 0 {
		return 0, nil, errIDRun
	}
	return block, ids, nil
}
