package layers

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

// FuzzDecodeLayerRecords feeds arbitrary bytes to the decoders of the
// message (versions 1 and 2), block (versions 1 to 3) and thread records:
// none may panic, whatever decodes must be usable (hash, rendering) and
// must encode again; a block re-encoded as version 3 decodes to the same
// block.
func FuzzDecodeLayerRecords(f *testing.F) {
	at := time.Date(2024, 3, 5, 19, 30, 0, 0, time.FixedZone("", -5*3600))
	m := Message{ID: 3, Thread: "t", Turn: 2, Role: "user", Speaker: "Ann", Content: "we moved to Lisbon", At: at}
	m.SHA256 = m.Hash()
	seeds := [][]byte{mustEncode(f, messageVersionV1, recordOf(&m)), encodeMessage(&m)}
	tool := Message{ID: 1 << 40, Thread: "t", Turn: 1, Role: "tool", ToolName: "grep", ToolCallID: "c1", Content: "", At: at.UTC()}
	tool.SHA256 = tool.Hash()
	seeds = append(seeds, encodeMessage(&tool))
	blk := Block{ID: 1, Thread: "t", Seq: 1, MessageIDs: []uint64{3}, Title: "x",
		Tags: []string{"a"}, Facts: []Fact{{Text: "f", MessageIDs: []uint64{3}}}, FirstAt: at, LastAt: at,
		RenderVersion: RendererVersion, RenderHash: RenderSum("l3", "l4")}
	seeds = append(seeds, mustEncode(f, blockVersionV2, &blk), encodeBlock(&blk))
	ready := blk
	ready.State, ready.ReadyAt, ready.CreatedAt, ready.L5Hash, ready.DerivedHash = StateReady, at.UTC(), at.UTC(), make([]byte, 32), []byte{7}
	seeds = append(seeds, encodeBlock(&ready))
	// A version 1 record: the same fields but the renderer's, and the text.
	v1 := struct {
		Block
		L3 string `msgpack:"l3"`
		L4 string `msgpack:"l4"`
	}{Block: blk, L3: "[x] Ann: hi\n", L4: "[x] Ann: hi\n"}
	v1.RenderVersion, v1.RenderHash = 0, nil
	seeds = append(seeds, mustEncode(f, blockVersionV1, &v1))
	seeds = append(seeds, mustEncode(f, threadVersionV1, &Thread{Name: "t", Scope: "global", Created: at, OpenTail: []uint64{4, 5}}))
	seeds = append(seeds, encodeThread(benchThread()))
	for _, s := range seeds {
		f.Add(s)
		f.Add(s[:len(s)/2])
		f.Add(append([]byte{s[0] + 1}, s[1:]...))
	}
	f.Add([]byte{})
	f.Add([]byte{1, 0xde, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, v []byte) {
		if msg, err := DecodeMessage(v); err == nil {
			_ = msg.Hash()
			_ = RenderL4([]Message{msg})
			_ = RenderL3([]Message{msg})
			_, err := kv.Encode(messageVersionV1, recordOf(&msg))
			require.NoError(t, err)
			// What a version 2 record holds survives its encoding (a
			// version 1 record's offset may lie outside ±MaxOffset,
			// which PutMessage refuses and version 2 cannot hold).
			if _, off := msg.At.Zone(); off >= -MaxOffset && off <= MaxOffset {
				again, err := DecodeMessage(encodeMessage(&msg))
				require.NoError(t, err)
				require.Equal(t, msg, again)
			}
		} else if !errors.Is(err, kv.ErrVersionMismatch) {
			require.ErrorIs(t, err, kv.ErrCorrupt)
		}
		if b, err := DecodeBlock(v); err == nil {
			if IsBlockV1(v) {
				require.Equal(t, uint32(1), b.RenderVersion)
				require.Equal(t, RenderSum(b.L3, b.L4), b.RenderHash, "a version 1 record is hashed as migration stores it")
			} else {
				require.Empty(t, b.L3+b.L4, "version 2 stores no renderings")
			}
			// What the migration (or derivation) writes decodes to the
			// same block, less the text.
			nv := encodeBlock(&b)
			again, err := DecodeBlock(nv)
			require.NoError(t, err)
			b.L3, b.L4 = "", ""
			require.Equal(t, withoutEmpty(b), withoutEmpty(again))
			require.Equal(t, nv, encodeBlock(&again))
		}
		if th, err := decodeThread(v); err == nil {
			_, err := kv.Encode(threadVersionV1, &th)
			require.NoError(t, err)
			// A version 2 record holds what either version decoded.
			again, err := decodeThread(encodeThread(&th))
			require.NoError(t, err)
			require.Equal(t, th, again)
		}
	})
}

// withoutEmpty makes b's empty lists and hashes nil: msgpack decodes an
// empty list as empty, version 3 as nil.
func withoutEmpty(b Block) Block {
	if len(b.MessageIDs) == 0 {
		b.MessageIDs = nil
	}
	if len(b.Tags) == 0 {
		b.Tags = nil
	}
	if len(b.Facts) == 0 {
		b.Facts = nil
	}
	for i := range b.Facts {
		if len(b.Facts[i].MessageIDs) == 0 {
			b.Facts[i].MessageIDs = nil
		}
	}
	for _, h := range []*[]byte{&b.RenderHash, &b.L5Hash, &b.DerivedHash} {
		if len(*h) == 0 {
			*h = nil
		}
	}
	return b
}

func mustEncode(f *testing.F, version byte, v any) []byte {
	b, err := kv.Encode(version, v)
	require.NoError(f, err)
	return b
}

func recordOf(m *Message) *messageRecord {
	_, off := m.At.Zone()
	return &messageRecord{ID: m.ID, Thread: m.Thread, Turn: m.Turn, Role: m.Role, Speaker: m.Speaker,
		Content: m.Content, ToolName: m.ToolName, ToolCallID: m.ToolCallID,
		AtNanos: m.At.UnixNano(), AtOffset: int32(off), SHA256: m.SHA256[:]}
}
