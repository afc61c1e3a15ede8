package layers_test

import (
	"errors"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/layers"
)

var errRollback = errors.New("rollback")

// BenchmarkSeal seals a 12-turn, 24-message open tail into a block inside a
// transaction that is rolled back, so that the file does not grow.
func BenchmarkSeal(b *testing.B) {
	db := openDB(b)
	var ids []uint64
	if err := db.Update(func(tx *bolt.Tx) error {
		for k := 1; k <= 12; k++ {
			res, err := layers.AppendTurn(tx, "bench", "global", "", turnMsgs(k), 1000, sealNow)
			if err != nil {
				return err
			}
			ids = append(ids, res.MessageIDs...)
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	if len(ids) != 24 {
		b.Fatalf("%d messages", len(ids))
	}
	b.ReportAllocs()
	for b.Loop() {
		err := db.Update(func(tx *bolt.Tx) error {
			th := layers.Thread{Name: "bench", Scope: "global", Turns: 12, OpenTail: append([]uint64(nil), ids...), OpenTurns: 12}
			if _, err := layers.Seal(tx, &th, sealNow); err != nil {
				return err
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderL4(b *testing.B) {
	var msgs []layers.Message
	for k := 1; k <= 12; k++ {
		msgs = append(msgs, turnMsgs(k)...)
	}
	msgs = append(msgs, renderMsgs()...)
	b.ReportAllocs()
	for b.Loop() {
		_ = layers.RenderL4(msgs)
	}
}

func BenchmarkRenderL3(b *testing.B) {
	var msgs []layers.Message
	for k := 1; k <= 12; k++ {
		msgs = append(msgs, turnMsgs(k)...)
	}
	msgs = append(msgs, renderMsgs()...)
	b.ReportAllocs()
	for b.Loop() {
		_ = layers.RenderL3(msgs)
	}
}
