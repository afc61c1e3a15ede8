package events

import (
	"math"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// Use-only reinforcement. A card's weight is
//
//	w(t, n) = max(floor, exp(-λ(n)·t)),  λ(n) = 0.15 / (1 + 1.5·ln n)
//
// where n is the number of adoptions (uses in an answer, never search
// hits), t the turns of the card's thread since the last adoption, and the
// floor depends on criticality (routine 0, preference 0.3, identity 0.9,
// safety 1.0). A never-adopted card sits at its floor. Superseded cards are
// capped at 0.1; forgotten cards weigh 0. Only Adopt writes the use
// bucket, and only RecordMemoryUse calls Adopt.

const useVersion byte = 1

// SupersededCap is the most a superseded card may weigh.
const SupersededCap = 0.1

// Floor returns the weight floor of a criticality.
func Floor(c Criticality) float64 {
	switch c {
	case CriticalityPreference:
		return 0.3
	case CriticalityIdentity:
		return 0.9
	case CriticalitySafety:
		return 1.0
	}
	return 0
}

// Use is a card's adoption record.
type Use struct {
	Adoptions int       `msgpack:"n"`
	LastTurn  uint64    `msgpack:"t"` // the thread's turn count at the last adoption
	LastAt    time.Time `msgpack:"a"`
}

// GetUse reads the adoption record of card id; ok is false if it was
// never adopted.
func GetUse(tx *bolt.Tx, id uint64) (u Use, ok bool, err error) {
	v := tx.Bucket(kv.BucketUse).Get(kv.Key(id))
	if v == nil {
		return Use{}, false, nil
	}
	if u, err = decodeUse(v); err != nil {
		return Use{}, false, err
	}
	return u, true, nil
}

func decodeUse(v []byte) (Use, error) {
	var u Use
	if _, err := kv.Decode(v, &u, useVersion); err != nil {
		return Use{}, err
	}
	u.LastAt = u.LastAt.UTC()
	return u, nil
}

// Adopt records one use of card id in an answer at the thread's current
// turn.
func Adopt(tx *bolt.Tx, id uint64, at time.Time) error {
	c, err := Get(tx, id)
	if err != nil {
		return err
	}
	th, _, err := layers.GetThread(tx, c.Thread)
	if err != nil {
		return err
	}
	u, _, err := GetUse(tx, id)
	if err != nil {
		return err
	}
	u.Adoptions++
	u.LastTurn, u.LastAt = th.Turns, at.UTC()
	v, err := kv.Encode(useVersion, &u)
	if err != nil {
		return err
	}
	return tx.Bucket(kv.BucketUse).Put(kv.Key(id), v)
}

// WeightFor computes a card's weight from its adoption record (ok false =
// never adopted) and its thread's current turn count.
func WeightFor(c *Card, u Use, ok bool, turnsNow uint64) float64 {
	if Hidden(c.Lifecycle) {
		return 0
	}
	floor := Floor(c.Criticality)
	w := floor
	if ok && u.Adoptions > 0 {
		lambda := 0.15 / (1 + 1.5*math.Log(float64(u.Adoptions)))
		t := float64(0)
		if turnsNow > u.LastTurn {
			t = float64(turnsNow - u.LastTurn)
		}
		w = math.Max(floor, math.Exp(-lambda*t))
	}
	if c.Lifecycle == LifecycleSuperseded || c.SupersededBy != 0 {
		w = math.Min(w, SupersededCap)
	}
	return w
}

// Weight returns card c's current weight.
func Weight(tx *bolt.Tx, c *Card) (float64, error) {
	u, ok, err := GetUse(tx, c.ID)
	if err != nil {
		return 0, err
	}
	th, _, err := layers.GetThread(tx, c.Thread)
	if err != nil {
		return 0, err
	}
	return WeightFor(c, u, ok, th.Turns), nil
}
