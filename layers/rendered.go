package layers

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// RendererVersion names the output of RenderL3 and RenderL4. Bump it in
// the same change as anything that alters a byte either renders for the
// same messages: blocks keep the version and a hash of what was rendered
// at sealing (Block.RenderVersion, Block.RenderHash), and Verify reports
// blocks whose hash no longer matches a fresh rendering. Version 1 is the
// renderer of block record version 1, whose text records stored.
const RendererVersion uint32 = 1

// renderSumSize is the length of RenderSum: 128 bits detect any changed
// rendering, and a block record pays for them once.
const renderSumSize = 16

// RenderSum returns the hash kept for a block's renderings: the first 16
// bytes of the SHA-256 over l3 and l4, each prefixed with its length
// (uint64 BE).
func RenderSum(l3, l4 string) []byte {
	h := sha256.New()
	for _, s := range []string{l3, l4} {
		sumPart(h, []byte(s))
	}
	return h.Sum(nil)[:renderSumSize]
}

func sumPart(h hash.Hash, s []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write(s)
}

// renderSumOf is RenderSum(RenderL3(msgs), RenderL4(msgs)), rendered into
// one scratch buffer: sealing keeps only the hash, and rendering both
// texts as strings for it was 4% of the bytes a bulk ingest allocated.
func renderSumOf(msgs []Message) []byte {
	h := sha256.New()
	buf := appendL3(make([]byte, 0, renderCap(msgs)), msgs)
	sumPart(h, buf)
	sumPart(h, appendL4(buf[:0], msgs))
	return h.Sum(nil)[:renderSumSize]
}

// SetRenderings fills b.L3 and b.L4 by rendering msgs, b's messages in
// order.
func (b *Block) SetRenderings(msgs []Message) {
	b.L3, b.L4 = RenderL3(msgs), RenderL4(msgs)
}

// LoadRenderings reads b's messages in tx and fills b.L3 and b.L4 from
// them: the blocks' L3 and L4 are not stored (block record version 2).
func LoadRenderings(tx *bolt.Tx, b *Block) error {
	msgs, err := GetMessages(tx, b.MessageIDs)
	if err != nil {
		return err
	}
	b.SetRenderings(msgs)
	return nil
}

// LoadContextRenderings fills L3 and L4 of the blocks BuildContext(…,
// coef) may show at those levels: pending and failed blocks, and ready
// blocks whose decayed level is L3 or deeper. The rest are left as they
// are, so that a context over a long thread reads only its recent
// messages. Like LoadAllRenderings it leaves a damaged block's empty.
func LoadContextRenderings(tx *bolt.Tx, blocks []Block, coef float64) error {
	ages := Ages(blocks)
	for i := range blocks {
		b := &blocks[i]
		if b.State == StateReady && LevelForWeight(Weight(ages[i], coef)) < 3 {
			continue
		}
		if err := loadIfIntact(tx, b); err != nil {
			return err
		}
	}
	return nil
}

// LoadAllRenderings fills L3 and L4 of every block. A block whose
// messages cannot all be read (missing or undecodable: a damaged file,
// which Verify reports) keeps empty L3 and L4 instead of failing the
// whole list, so that tools can still show the rest.
func LoadAllRenderings(tx *bolt.Tx, blocks []Block) error {
	for i := range blocks {
		if err := loadIfIntact(tx, &blocks[i]); err != nil {
			return err
		}
	}
	return nil
}

func loadIfIntact(tx *bolt.Tx, b *Block) error {
	err := LoadRenderings(tx, b)
	if errors.Is(err, kv.ErrNotFound) || errors.Is(err, kv.ErrCorrupt) {
		b.L3, b.L4 = "", ""
		return nil
	}
	return err
}
