package layers_test

import (
	"errors"
	"math"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// FuzzMessageTime drives the time path of a message: any instant and any
// UTC offset either is refused with ErrTimeRange and leaves nothing
// stored, or is stored and read back as the same instant with the same
// offset and a hash that verifies. Nothing wraps into another instant.
func FuzzMessageTime(f *testing.F) {
	for _, s := range []struct {
		sec, nsec int64
		off       int32
	}{
		{0, 0, 0},
		{1719853200, 123456789, -4 * 3600},
		{9224318015, 0, -4800 * 3600}, // 2262 local -4800h: past the UTC range
		{-9223372036, 0, 0},           // int64 nanosecond floor
		{9223372036, 854775807, 0},    // int64 nanosecond ceiling
		{1719853200, 0, math.MaxInt32},
		{1719853200, 0, layers.MaxOffset},
		{1719853200, 0, layers.MaxOffset + 1},
		{1719853200, -1, -layers.MaxOffset},
	} {
		f.Add(s.sec, s.nsec, s.off)
	}
	db := openDB(f)
	var id uint64
	f.Fuzz(func(t *testing.T, sec, nsec int64, off int32) {
		at := time.Unix(sec, nsec).In(time.FixedZone("", int(off)))
		id++
		m := layers.Message{ID: id, Thread: "t", Turn: 1, Role: layers.RoleUser, Content: "x", At: at}
		checkErr := layers.CheckTime(at)
		err := db.Update(func(tx *bolt.Tx) error { return layers.PutMessage(tx, &m) })
		if (checkErr == nil) != (err == nil) {
			t.Fatalf("CheckTime %v but PutMessage %v", checkErr, err)
		}
		var got layers.Message
		readErr := db.View(func(tx *bolt.Tx) error {
			var err error
			got, err = layers.GetMessage(tx, id)
			return err
		})
		if err != nil {
			if !errors.Is(err, layers.ErrTimeRange) {
				t.Fatalf("refusal %v does not wrap ErrTimeRange", err)
			}
			if !errors.Is(readErr, kv.ErrNotFound) {
				t.Fatalf("refused message stored: %v", readErr)
			}
			return
		}
		if readErr != nil {
			t.Fatalf("reading back: %v", readErr)
		}
		if !got.At.Equal(at) {
			t.Fatalf("instant %v stored as %v", at, got.At)
		}
		if _, o := got.At.Zone(); o != int(off) {
			t.Fatalf("offset %d stored as %d", off, o)
		}
		if y := at.UTC().Year(); y < layers.MinYear || y > layers.MaxYear {
			t.Fatalf("UTC year %d accepted", y)
		}
		if got.Hash() != got.SHA256 {
			t.Fatalf("hash of %v does not verify after reading", at)
		}
	})
}
