package layers

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/stratagate/stratagate/kv"
)

// Message record versions. Version 1 was a msgpack map of every field,
// the id included; version 2 (written from file format 4) is a binary
// layout without field names:
//
//	version 2 message record
//	+----+-------+------------+-----------------+--------------+--------+
//	| 02 | flags | id uvarint | thread (len, b) | turn uvarint | [role] |
//	+----+-------+------------+-----------------+--------------+--------+
//	| [speaker] [tool name] [tool call id]   each (uvarint len, bytes)  |
//	| seconds zigzag varint | nanos uvarint | offset zigzag varint (s)  |
//	| SHA-256 (32 B) | content: every byte that is left                 |
//	+-------------------------------------------------------------------+
//	flags: bits 0–2 the role (1 user, 2 assistant, 3 tool, 4 system; 0:
//	the role follows as a string), bit 3 speaker, bit 4 tool name, bit 5
//	tool call id present; bits 6–7 zero.
//
// The id repeats the key, but it is what lets a reader see that a record
// was stored under another message's key (a misfiled record, which the
// hash alone would only catch when Verify recomputes it). At 20k bench
// turns a message went from 261 to ~221 bytes: msgpack's field names and
// the role string were 40 of them.
const (
	messageVersionV1 byte = 1
	messageVersion   byte = 2
)

const (
	flagSpeaker    = 1 << 3
	flagToolName   = 1 << 4
	flagToolCallID = 1 << 5
	flagsUnused    = 0xc0
	roleMask       = 0x07
)

var roleCodes = [...]string{1: RoleUser, 2: RoleAssistant, 3: RoleTool, 4: RoleSystem}

func roleCode(r string) byte {
	for i := 1; i < len(roleCodes); i++ {
		if roleCodes[i] == r {
			return byte(i)
		}
	}
	return 0
}

// encodeMessage returns m's version 2 record.
func encodeMessage(m *Message) []byte {
	_, off := m.At.Zone()
	v := make([]byte, 0, 2+3*binary.MaxVarintLen64+len(m.Thread)+len(m.Speaker)+len(m.Role)+
		len(m.ToolName)+len(m.ToolCallID)+4*binary.MaxVarintLen32+32+len(m.Content))
	flags := roleCode(m.Role)
	if m.Speaker != "" {
		flags |= flagSpeaker
	}
	if m.ToolName != "" {
		flags |= flagToolName
	}
	if m.ToolCallID != "" {
		flags |= flagToolCallID
	}
	str := func(s string) {
		v = binary.AppendUvarint(v, uint64(len(s)))
		v = append(v, s...)
	}
	v = append(v, messageVersion, flags)
	v = binary.AppendUvarint(v, m.ID)
	str(m.Thread)
	v = binary.AppendUvarint(v, m.Turn)
	if flags&roleMask == 0 {
		str(m.Role)
	}
	if m.Speaker != "" {
		str(m.Speaker)
	}
	if m.ToolName != "" {
		str(m.ToolName)
	}
	if m.ToolCallID != "" {
		str(m.ToolCallID)
	}
	v = binary.AppendVarint(v, m.At.Unix())
	v = binary.AppendUvarint(v, uint64(m.At.Nanosecond()))
	v = binary.AppendVarint(v, int64(off))
	v = append(v, m.SHA256[:]...)
	return append(v, m.Content...)
}

// decodeMessageV2 decodes a version 2 record. Strings are copied: a
// Message never aliases bbolt's pages.
func decodeMessageV2(v []byte) (Message, error) {
	bad := func(why string) (Message, error) {
		return Message{}, fmt.Errorf("layers: message: %w: version 2 record: %s", kv.ErrCorrupt, why)
	}
	if len(v) < 3 {
		return bad("too short")
	}
	flags := v[1]
	id, k := binary.Uvarint(v[2:])
	if k <= 0 {
		return bad("id")
	}
	p := v[2+k:]
	str := func() (string, bool) {
		n, k := binary.Uvarint(p)
		if k <= 0 || n > uint64(len(p)-k) {
			return "", false
		}
		s := string(p[k : k+int(n)])
		p = p[k+int(n):]
		return s, true
	}
	if flags&flagsUnused != 0 || int(flags&roleMask) >= len(roleCodes) {
		return bad(fmt.Sprintf("flags %#x", flags))
	}
	m := Message{ID: id, Role: roleCodes[flags&roleMask]}
	var ok bool
	if m.Thread, ok = str(); !ok {
		return bad("thread")
	}
	turn, k := binary.Uvarint(p)
	if k <= 0 {
		return bad("turn")
	}
	m.Turn, p = turn, p[k:]
	if flags&roleMask == 0 {
		if m.Role, ok = str(); !ok {
			return bad("role")
		}
	}
	for _, f := range []struct {
		bit byte
		dst *string
	}{{flagSpeaker, &m.Speaker}, {flagToolName, &m.ToolName}, {flagToolCallID, &m.ToolCallID}} {
		if flags&f.bit == 0 {
			continue
		}
		if *f.dst, ok = str(); !ok {
			return bad("speaker or tool field")
		}
	}
	sec, k := binary.Varint(p)
	if k <= 0 {
		return bad("time")
	}
	p = p[k:]
	nsec, k := binary.Uvarint(p)
	if k <= 0 || nsec >= 1e9 {
		return bad("time nanoseconds")
	}
	p = p[k:]
	off, k := binary.Varint(p)
	if k <= 0 || off < -MaxOffset || off > MaxOffset {
		return bad("UTC offset")
	}
	p = p[k:]
	if len(p) < 32 {
		return bad("hash")
	}
	copy(m.SHA256[:], p[:32])
	m.Content = string(p[32:])
	m.At = time.Unix(sec, int64(nsec)).In(zone(int32(off)))
	return m, nil
}
