package layers

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// State is a block's derivation state.
type State string

// Block states. A block is born pending (L3–L5 sealed, L0–L2 not yet
// derived), becomes ready when its derive job stores validated L0–L2, or
// failed when that job exhausts its attempts.
const (
	StatePending State = "pending"
	StateReady   State = "ready"
	StateFailed  State = "failed"
)

// ErrNotReady is returned when a model-derived level (L0–L2) of a block is
// requested before its derivation completed.
var ErrNotReady = errors.New("sg: block level not derived yet")

// Fact is one L2 key fact and the block messages it rests on.
type Fact struct {
	Text       string   `msgpack:"t"`
	MessageIDs []uint64 `msgpack:"m"`
}

// Block is a sealed run of BlockTurns complete turns of one thread and its
// six levels: L0 Title+Tags, L1 Summary, L2 Facts (model-derived, filled
// once), L3 and L4 (deterministic renderings of L5, not stored: see
// LoadRenderings), L5 (the messages themselves, bound by L5Hash).
type Block struct {
	ID         uint64    `msgpack:"i"`
	Thread     string    `msgpack:"th"`
	Scope      string    `msgpack:"sc"`
	Seq        uint64    `msgpack:"q"` // 1-based position in its thread
	State      State     `msgpack:"s"`
	MessageIDs []uint64  `msgpack:"m"`
	TurnFirst  uint64    `msgpack:"tf"`
	TurnLast   uint64    `msgpack:"tl"`
	FirstAt    time.Time `msgpack:"fa"` // first message's time, in its original offset
	LastAt     time.Time `msgpack:"la"` // last message's time, in its original offset
	// FirstOffset and LastOffset keep FirstAt's and LastAt's UTC offsets in
	// seconds (msgpack stores times in UTC only).
	FirstOffset int32    `msgpack:"fo"`
	LastOffset  int32    `msgpack:"lo"`
	Title       string   `msgpack:"ti,omitempty"`
	Tags        []string `msgpack:"tg,omitempty"`
	Summary     string   `msgpack:"su,omitempty"`
	Facts       []Fact   `msgpack:"f,omitempty"`
	// L3 and L4 are the renderings RenderL3 and RenderL4 of the block's
	// messages. They are not part of the record: GetBlock, ThreadBlocks
	// and DecodeBlock leave them empty (except on a version 1 record, which
	// stored them: they hold its stored text), and LoadRenderings or
	// SetRenderings fill them. Memory.Blocks returns them filled.
	L3 string `msgpack:"-"`
	L4 string `msgpack:"-"`
	// RenderVersion is the RendererVersion that rendered L3 and L4 when
	// RenderHash was taken (1 for version 1 records).
	RenderVersion uint32 `msgpack:"rv,omitempty"`
	// RenderHash is RenderSum of L3 and L4 as rendered at sealing (for a
	// version 1 record, of its stored text), so that Verify catches a
	// changed message or a renderer whose output changed without a new
	// RendererVersion.
	RenderHash []byte `msgpack:"rh,omitempty"`
	L5Hash     []byte `msgpack:"h"` // SHA-256 over the messages' canonical encodings
	// DerivedHash is DerivedSum of L0–L2 as the derive job stored them, so
	// that Verify catches a changed byte in a title, tag, summary or fact
	// (they are model output: nothing else could recompute them). Absent
	// on blocks derived by builds before it was kept; older builds ignore
	// it (msgpack skips unknown fields), so the record version stays 1.
	DerivedHash []byte    `msgpack:"dh,omitempty"`
	CreatedAt   time.Time `msgpack:"c"`
	ReadyAt     time.Time `msgpack:"r,omitempty"`
	Err         string    `msgpack:"e,omitempty"` // why derivation failed
}

// GetBlock reads block id. L3 and L4 are not rendered (LoadRenderings
// does that): most readers need neither.
func GetBlock(tx *bolt.Tx, id uint64) (Block, error) {
	v := tx.Bucket(kv.BucketBlocks).Get(kv.Key(id))
	if v == nil {
		return Block{}, fmt.Errorf("layers: block %d: %w", id, kv.ErrNotFound)
	}
	return DecodeBlock(v)
}

// DecodeBlock decodes a stored block record of any version. A version
// 1 record's stored L3 and L4 are kept in b.L3 and b.L4, and b gets the
// RenderVersion and RenderHash a version 2 record of it would hold.
func DecodeBlock(v []byte) (Block, error) {
	if len(v) > 0 && v[0] == blockVersion {
		return decodeBlockV3(v)
	}
	var b Block
	ver, err := kv.Decode(v, &b, blockVersionV1, blockVersionV2)
	if err != nil {
		return Block{}, fmt.Errorf("layers: block: %w", err)
	}
	if ver == blockVersionV1 {
		// The text fields are skipped by the decode above (Block does not
		// store them); read them on their own.
		var text blockTextV1
		if _, err := kv.Decode(v, &text, blockVersionV1); err != nil {
			return Block{}, fmt.Errorf("layers: block: %w", err)
		}
		b.L3, b.L4 = text.L3, text.L4
		b.RenderVersion, b.RenderHash = 1, RenderSum(text.L3, text.L4)
	}
	b.FirstAt, b.LastAt = b.FirstAt.In(zone(b.FirstOffset)), b.LastAt.In(zone(b.LastOffset))
	b.CreatedAt = b.CreatedAt.UTC()
	if !b.ReadyAt.IsZero() {
		b.ReadyAt = b.ReadyAt.UTC()
	}
	return b, nil
}

// blockTextV1 is the part of a version 1 block record that version 2
// dropped: the L3 and L4 text.
type blockTextV1 struct {
	L3 string `msgpack:"l3"`
	L4 string `msgpack:"l4"`
}

// IsBlockV1 reports whether v is a version 1 block record, which a
// writable Open rewrites (see PutBlock).
func IsBlockV1(v []byte) bool { return len(v) > 0 && v[0] == blockVersionV1 }

// PutBlock stores b as a current-version record, without its L3 and L4
// text. The migration of version 1 records uses it; sealing and
// derivation store blocks themselves.
func PutBlock(tx *bolt.Tx, b *Block) error { return putBlock(tx, b) }

func putBlock(tx *bolt.Tx, b *Block) error {
	v := encodeBlock(b)
	bb := tx.Bucket(kv.BucketBlocks)
	// Keys only grow, and a block is rewritten once, soon after its seal
	// (its L0–L2 make the record ~3× larger), while it is still in the
	// last pages: split pages are packed full. bbolt reads FillPercent when
	// it splits pages at commit; at 20k turns 0.9 took 775 pages, 1 takes
	// 664 (records of ~1.3 KB: 0.9 fit two to a page).
	bb.FillPercent = 1
	return bb.Put(kv.Key(b.ID), v)
}

func threadBlockKey(thread string, seq uint64) []byte {
	k := make([]byte, 0, len(thread)+9)
	k = append(k, thread...)
	k = append(k, 0)
	return append(k, kv.Key(seq)...)
}

// ThreadBlocks returns the blocks of thread in Seq order, without L3 and L4
// (see LoadRenderings and LoadContextRenderings).
func ThreadBlocks(tx *bolt.Tx, thread string) ([]Block, error) {
	prefix := append([]byte(thread), 0)
	c := tx.Bucket(kv.BucketThreadBlocks).Cursor()
	var out []Block
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(k) == len(prefix)+8; k, v = c.Next() {
		b, err := GetBlock(tx, kv.ID(v))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// L5Hash returns the SHA-256 over the canonical encodings of msgs, in
// order: each message's own hash, concatenated, hashed again.
func L5Hash(msgs []Message) []byte {
	h := sha256.New()
	for i := range msgs {
		s := msgs[i].Hash()
		h.Write(s[:])
	}
	return h.Sum(nil)
}

// DerivedSum returns the SHA-256 over b's model-derived levels: title,
// tags, summary and each fact's text and cited message ids, every string
// and list length-prefixed (uint64 BE), in order.
func (b *Block) DerivedSum() []byte {
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
	str(b.Title)
	num(uint64(len(b.Tags)))
	for _, t := range b.Tags {
		str(t)
	}
	str(b.Summary)
	num(uint64(len(b.Facts)))
	for _, f := range b.Facts {
		str(f.Text)
		num(uint64(len(f.MessageIDs)))
		for _, id := range f.MessageIDs {
			num(id)
		}
	}
	return h.Sum(nil)
}
