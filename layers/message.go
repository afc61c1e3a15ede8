package layers

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// Message roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
	RoleSystem    = "system"
)

// ValidRole reports whether r is one of the four message roles.
func ValidRole(r string) bool {
	return r == RoleUser || r == RoleAssistant || r == RoleTool || r == RoleSystem
}

// Message is one original message (L5). Once stored it is never rewritten.
type Message struct {
	ID         uint64 // assigned by Append
	Thread     string
	Turn       uint64 // 1-based turn number within the thread
	Role       string // user, assistant, tool, system
	Speaker    string
	Content    string
	ToolName   string
	ToolCallID string
	At         time.Time // the original instant and UTC offset
	SHA256     [32]byte  // over the canonical encoding, see Hash
}

// Message times are stored as int64 Unix nanoseconds, which cover
// 1678–2262; PutMessage refuses anything outside MinYear–MaxYear.
const (
	MinYear = 1678
	MaxYear = 2261
)

// MaxOffset bounds a time's UTC offset, in seconds either side of UTC.
// Real zones lie within −12:00…+14:00; ±18:00 is the range ISO 8601 and
// most time libraries accept. Beyond it an offset is a bug, and the stored
// offset (int32 seconds) could not hold every value time.Time can.
const MaxOffset = 18 * 3600

// ErrTimeRange is returned for a message time outside MinYear–MaxYear (as
// a UTC year) or with a UTC offset beyond ±MaxOffset.
var ErrTimeRange = errors.New("sg: time out of range")

// CheckTime reports whether t can be stored as a message time: its UTC
// year within MinYear–MaxYear (the local year would let an absurd offset
// carry an instant past the int64 nanosecond range) and its offset within
// ±MaxOffset. The error wraps ErrTimeRange.
func CheckTime(t time.Time) error {
	if _, off := t.Zone(); off < -MaxOffset || off > MaxOffset {
		return fmt.Errorf("%w: %v: UTC offset %+ds beyond ±%dh", ErrTimeRange, t, off, MaxOffset/3600)
	}
	if y := t.UTC().Year(); y < MinYear || y > MaxYear {
		return fmt.Errorf("%w: %v: UTC year %d outside %d–%d", ErrTimeRange, t, y, MinYear, MaxYear)
	}
	return nil
}

// messageRecord is a version 1 message record (see message_record.go):
// the instant in UTC nanoseconds plus the original offset, because
// msgpack's time encoding drops the offset and StrataGate never
// normalises times to one zone.
type messageRecord struct {
	ID         uint64 `msgpack:"i"`
	Thread     string `msgpack:"th"`
	Turn       uint64 `msgpack:"tu"`
	Role       string `msgpack:"r"`
	Speaker    string `msgpack:"sp,omitempty"`
	Content    string `msgpack:"c"`
	ToolName   string `msgpack:"tn,omitempty"`
	ToolCallID string `msgpack:"tc,omitempty"`
	AtNanos    int64  `msgpack:"at"`
	AtOffset   int32  `msgpack:"o"`
	SHA256     []byte `msgpack:"h"`
}

// Hash returns the SHA-256 of m's canonical encoding: every field but the
// hash itself, each length-prefixed, the time as UTC nanoseconds plus the
// offset in seconds. It is what sgdump and verify recompute.
func (m *Message) Hash() [32]byte {
	h := sha256.New()
	var n [8]byte
	num := func(v uint64) {
		binary.BigEndian.PutUint64(n[:], v)
		h.Write(n[:])
	}
	str := func(s string) {
		num(uint64(len(s)))
		h.Write([]byte(s))
	}
	num(m.ID)
	str(m.Thread)
	num(m.Turn)
	str(m.Role)
	str(m.Speaker)
	str(m.Content)
	str(m.ToolName)
	str(m.ToolCallID)
	_, off := m.At.Zone()
	num(uint64(m.At.UnixNano()))
	num(uint64(int64(off)))
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// PutMessage stores m under m.ID, computing its hash. It refuses to
// overwrite: L5 is append-only.
func PutMessage(tx *bolt.Tx, m *Message) error {
	b := tx.Bucket(kv.BucketMessages)
	k := kv.Key(m.ID)
	if b.Get(k) != nil {
		return fmt.Errorf("layers: message %d: %w: already stored", m.ID, kv.ErrCorrupt)
	}
	if err := CheckTime(m.At); err != nil {
		return fmt.Errorf("layers: message %d: %w", m.ID, err)
	}
	m.SHA256 = m.Hash()
	return b.Put(k, encodeMessage(m))
}

// GetMessage reads message id.
func GetMessage(tx *bolt.Tx, id uint64) (Message, error) {
	v := tx.Bucket(kv.BucketMessages).Get(kv.Key(id))
	if v == nil {
		return Message{}, fmt.Errorf("layers: message %d: %w", id, kv.ErrNotFound)
	}
	return DecodeMessage(v)
}

// DecodeMessage decodes a stored message record (either version). The id
// it returns is the one the record holds, for callers to check against
// the key it was read under.
func DecodeMessage(v []byte) (Message, error) {
	if len(v) > 0 && v[0] == messageVersion {
		return decodeMessageV2(v)
	}
	var rec messageRecord
	if _, err := kv.Decode(v, &rec, messageVersionV1); err != nil {
		return Message{}, fmt.Errorf("layers: message: %w", err)
	}
	if len(rec.SHA256) != 32 {
		return Message{}, fmt.Errorf("layers: message %d: %w: hash of %d bytes", rec.ID, kv.ErrCorrupt, len(rec.SHA256))
	}
	m := Message{
		ID: rec.ID, Thread: rec.Thread, Turn: rec.Turn, Role: rec.Role, Speaker: rec.Speaker,
		Content: rec.Content, ToolName: rec.ToolName, ToolCallID: rec.ToolCallID,
		At: time.Unix(0, rec.AtNanos).In(zone(rec.AtOffset)),
	}
	copy(m.SHA256[:], rec.SHA256)
	return m, nil
}

func zone(off int32) *time.Location {
	if off == 0 {
		return time.UTC
	}
	// One Location per offset, shared: a message read is on every search
	// hit, and real stores hold a handful of offsets.
	if z, ok := zones.Load(off); ok {
		return z.(*time.Location)
	}
	z, _ := zones.LoadOrStore(off, time.FixedZone("", int(off)))
	return z.(*time.Location)
}

var zones sync.Map // int32 offset → *time.Location

// GetMessages reads the messages ids in order.
func GetMessages(tx *bolt.Tx, ids []uint64) ([]Message, error) {
	out := make([]Message, 0, len(ids))
	// One cursor for all: a Get allocates one per call. A block's
	// messages are often consecutive, and a step is cheaper than a seek.
	c := tx.Bucket(kv.BucketMessages).Cursor()
	var k, v []byte
	for i, id := range ids {
		key := kv.Key(id)
		if i > 0 && id == ids[i-1]+1 {
			k, v = c.Next()
		} else {
			k, v = c.Seek(key)
		}
		if !bytes.Equal(k, key) || v == nil {
			return nil, fmt.Errorf("layers: message %d: %w", id, kv.ErrNotFound)
		}
		m, err := DecodeMessage(v)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}
