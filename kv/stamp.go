package kv

import (
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

// Stamp is a time as records store it: UTC nanoseconds plus the original
// UTC offset in seconds. msgpack's own time encoding drops the offset, and
// StrataGate never normalises times to one zone.
type Stamp struct {
	N   int64 `msgpack:"n"`
	Off int32 `msgpack:"o,omitempty"`
	Set bool  `msgpack:"s,omitempty"` // false = the zero time
}

// ToStamp converts t (the zero time stays unset).
func ToStamp(t time.Time) Stamp {
	if t.IsZero() {
		return Stamp{}
	}
	_, off := t.Zone()
	return Stamp{N: t.UnixNano(), Off: int32(off), Set: true}
}

// DecodeMsgpack decodes a stamp of a version 1 (msgpack) record. An unset
// stamp decodes as the zero Stamp: such a record may carry an instant or
// an offset in it, which no reader uses and a binary record does not keep,
// so a record decoded from either version compares equal.
func (s *Stamp) DecodeMsgpack(dec *msgpack.Decoder) error {
	type plain Stamp // without this method
	var p plain
	if err := dec.Decode(&p); err != nil {
		return err
	}
	if *s = Stamp(p); !s.Set {
		*s = Stamp{}
	}
	return nil
}

// Time returns the stamp in its original offset (UTC when none).
func (s Stamp) Time() time.Time {
	if !s.Set {
		return time.Time{}
	}
	loc := time.UTC
	if s.Off != 0 {
		loc = time.FixedZone("", int(s.Off))
	}
	return time.Unix(0, s.N).In(loc)
}
