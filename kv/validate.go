package kv

import (
	"encoding/binary"
	"fmt"
)

// checkMsgpack walks one msgpack value in b without decoding it and checks
// that every declared length fits in the bytes that remain. The msgpack
// library allocates what a length header declares before reading the
// data, so a few corrupt bytes could otherwise demand gigabytes.
func checkMsgpack(b []byte) error {
	pos := 0
	pending := 1 // values still to read
	need := func(n int) error {
		if n < 0 || n > len(b)-pos {
			return fmt.Errorf("%w: msgpack length %d exceeds the %d bytes left", ErrCorrupt, n, len(b)-pos)
		}
		return nil
	}
	for pending > 0 {
		if err := need(1); err != nil {
			return err
		}
		c := b[pos]
		pos++
		pending--
		var (
			skip  int // payload bytes to skip
			items int // nested values to read
			lenSz int // size of a big-endian length header
			extra int // bytes after the length header before the payload (ext type)
			isMap bool
		)
		switch {
		case c <= 0x7f || c >= 0xe0, c == 0xc0, c == 0xc2, c == 0xc3:
		case c >= 0x80 && c <= 0x8f:
			items, isMap = int(c&0x0f), true
		case c >= 0x90 && c <= 0x9f:
			items = int(c & 0x0f)
		case c >= 0xa0 && c <= 0xbf:
			skip = int(c & 0x1f)
		case c == 0xc4 || c == 0xd9:
			lenSz = 1
		case c == 0xc5 || c == 0xda:
			lenSz = 2
		case c == 0xc6 || c == 0xdb:
			lenSz = 4
		case c == 0xc7:
			lenSz, extra = 1, 1
		case c == 0xc8:
			lenSz, extra = 2, 1
		case c == 0xc9:
			lenSz, extra = 4, 1
		case c == 0xca || c == 0xce || c == 0xd2:
			skip = 4
		case c == 0xcb || c == 0xcf || c == 0xd3:
			skip = 8
		case c == 0xcc || c == 0xd0:
			skip = 1
		case c == 0xcd || c == 0xd1:
			skip = 2
		case c >= 0xd4 && c <= 0xd8:
			skip = 1 + 1<<(c-0xd4)
		case c == 0xdc || c == 0xde:
			lenSz, isMap = 2, c == 0xde
		case c == 0xdd || c == 0xdf:
			lenSz, isMap = 4, c == 0xdf
		default: // 0xc1 is never used
			return fmt.Errorf("%w: msgpack code 0x%02x", ErrCorrupt, c)
		}
		if lenSz > 0 {
			if err := need(lenSz); err != nil {
				return err
			}
			var n uint64
			switch lenSz {
			case 1:
				n = uint64(b[pos])
			case 2:
				n = uint64(binary.BigEndian.Uint16(b[pos:]))
			case 4:
				n = uint64(binary.BigEndian.Uint32(b[pos:]))
			}
			pos += lenSz
			if n > uint64(len(b)) {
				return fmt.Errorf("%w: msgpack length %d exceeds the record", ErrCorrupt, n)
			}
			if c == 0xdc || c == 0xdd || c == 0xde || c == 0xdf {
				items = int(n)
			} else {
				skip = int(n) + extra
			}
		}
		if isMap {
			items *= 2
		}
		if items > 0 {
			// Every nested value takes at least one byte.
			if err := need(items); err != nil {
				return err
			}
			pending += items
		}
		if err := need(skip); err != nil {
			return err
		}
		pos += skip
	}
	return nil
}
