package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// The portable roaring serialization (RoaringFormatSpec), as roaring's
// WriteTo writes it: a cookie, then per container a key and cardinality-1,
// offsets (omitted for small bitmaps with runs), and the containers: run
// (a count and start/length-1 pairs), array (sorted uint16 values) or
// bitmap (8 KiB of bits).
const (
	cookieRuns   = 12347 // low 16 bits; the high 16 are containers-1
	cookieNoRuns = 12346 // followed by a uint32 container count
	// noOffsetThreshold is the container count from which a bitmap with
	// run containers also stores offsets.
	noOffsetThreshold = 4
	arrayMax          = 4096 // larger containers are bitmaps
	bitmapBytes       = 8192
)

var errBitmap = errors.New("malformed roaring bitmap")

// checkBitmap verifies, in one linear pass, that b is a well-formed
// serialized roaring bitmap with the invariants roaring's Validate checks:
// keys strictly increasing; array containers non-empty, at most 4096
// values, strictly increasing; bitmap containers with as many bits set as
// their header claims; run containers non-empty, within 16 bits, sorted,
// neither overlapping nor touching. And that nothing follows it.
//
// It replaces Validate, whose run-container check compares every pair of
// runs: a keyword chunk with thousands of runs (a thread's cards
// interleaved with other threads') took milliseconds to validate on every
// write that touched it.
func checkBitmap(b []byte) error {
	bad := func(what string) error { return fmt.Errorf("%w: %s", errBitmap, what) }
	if len(b) < 4 {
		return bad("short cookie")
	}
	cookie := binary.LittleEndian.Uint32(b)
	p := 4
	var size int
	var runs []byte
	switch {
	case cookie&0xFFFF == cookieRuns:
		size = int(cookie>>16) + 1
		n := (size + 7) / 8
		if len(b)-p < n {
			return bad("short run flags")
		}
		runs, p = b[p:p+n], p+n
	case cookie == cookieNoRuns:
		if len(b)-p < 4 {
			return bad("short size")
		}
		n := binary.LittleEndian.Uint32(b[p:])
		if n > 1<<16 {
			return bad("too many containers")
		}
		size, p = int(n), p+4
	default:
		return bad("unknown cookie")
	}
	if len(b)-p < 4*size {
		return bad("short header")
	}
	header := b[p : p+4*size]
	p += 4 * size
	if runs == nil || size >= noOffsetThreshold {
		if len(b)-p < 4*size {
			return bad("short offsets")
		}
		p += 4 * size
	}
	prevKey := -1
	for i := range size {
		key := int(binary.LittleEndian.Uint16(header[4*i:]))
		card := int(binary.LittleEndian.Uint16(header[4*i+2:])) + 1
		if key <= prevKey {
			return bad("keys out of order")
		}
		prevKey = key
		switch {
		case runs != nil && runs[i/8]&(1<<(i%8)) != 0:
			if len(b)-p < 2 {
				return bad("short run count")
			}
			nr := int(binary.LittleEndian.Uint16(b[p:]))
			p += 2
			if nr == 0 {
				return bad("empty run container")
			}
			if len(b)-p < 4*nr {
				return bad("short runs")
			}
			end := -2 // last value of the previous run
			for j := range nr {
				start := int(binary.LittleEndian.Uint16(b[p+4*j:]))
				length := int(binary.LittleEndian.Uint16(b[p+4*j+2:]))
				if start+length > 0xFFFF {
					return bad("run past 16 bits")
				}
				if start <= end+1 {
					return bad("runs out of order, overlapping or touching")
				}
				end = start + length
			}
			p += 4 * nr
		case card > arrayMax:
			if len(b)-p < bitmapBytes {
				return bad("short bitmap container")
			}
			n := 0
			for j := 0; j < bitmapBytes; j += 8 {
				n += bits.OnesCount64(binary.LittleEndian.Uint64(b[p+j:]))
			}
			if n != card {
				return bad("bitmap cardinality")
			}
			p += bitmapBytes
		default:
			if len(b)-p < 2*card {
				return bad("short array container")
			}
			prev := -1
			for j := range card {
				v := int(binary.LittleEndian.Uint16(b[p+2*j:]))
				if v <= prev {
					return bad("array out of order")
				}
				prev = v
			}
			p += 2 * card
		}
	}
	if p != len(b) {
		return bad("trailing bytes")
	}
	return nil
}
