package events

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/kv"
)

func TestRankRoundTrip(t *testing.T) {
	at := time.Date(2024, 5, 4, 10, 30, 0, 7, time.FixedZone("", -7*3600))
	for _, tc := range []struct {
		name  string
		c     Card
		other bool // lifecycle or criticality outside the known sets
	}{
		{"no times", Card{ID: 3, Thread: "t", Lifecycle: LifecycleActive, Criticality: CriticalityRoutine}, false},
		{"all times", Card{ID: 1 << 40, Thread: "a thread", Lifecycle: LifecycleSuperseded, SupersededBy: 9, Criticality: CriticalitySafety,
			Temporal: Temporal{MentionedAt: at, HappenedStart: at.Add(-time.Hour), HappenedEnd: at}}, false},
		{"forgotten, mentioned only", Card{ID: 2, Lifecycle: LifecycleForgotten, Criticality: CriticalityIdentity, Temporal: Temporal{MentionedAt: at}}, false},
		{"undone, start only", Card{ID: 4, Thread: "线程", Lifecycle: LifecycleUndone, Criticality: CriticalityPreference, Temporal: Temporal{HappenedStart: at}}, false},
		{"unknown words", Card{ID: 6, Lifecycle: "paused", Criticality: "urgent"}, true},
		{"before 1970", Card{ID: 5, Lifecycle: LifecycleActive, Criticality: CriticalityRoutine, Temporal: Temporal{HappenedStart: time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.c.record("")
			rr := r.rank()
			var v rankView
			require.NoError(t, decodeRank(tc.c.ID, appendRank(nil, &rr), &v))
			if !tc.other {
				assert.Equal(t, viewOf(&rr), v, "the table and the card record give the same view")
			}
			got := v.card()
			u := Use{Adoptions: 2, LastTurn: 1}
			assert.Equal(t, WeightFor(&tc.c, u, true, 9), WeightFor(&got, u, true, 9), "the same weight")
			assert.Equal(t, WeightFor(&tc.c, u, false, 9), WeightFor(&got, u, false, 9), "the same floor")
			assert.Equal(t, tc.c.ID, got.ID)
			assert.Equal(t, tc.c.Thread, got.Thread)
			if !tc.other {
				assert.Equal(t, tc.c.Lifecycle, got.Lifecycle)
				assert.Equal(t, tc.c.Criticality, got.Criticality)
			}
			assert.Equal(t, tc.c.SupersededBy, got.SupersededBy)
			for _, p := range [][2]time.Time{
				{tc.c.Temporal.MentionedAt, got.Temporal.MentionedAt},
				{tc.c.Temporal.HappenedStart, got.Temporal.HappenedStart},
				{tc.c.Temporal.HappenedEnd, got.Temporal.HappenedEnd},
			} {
				assert.True(t, p[0].Equal(p[1]), "%v = %v", p[0], p[1])
				assert.Equal(t, p[0].IsZero(), p[1].IsZero())
			}
		})
	}
}

func TestDecodeRankRejects(t *testing.T) {
	good := func() []byte {
		r := rankRecord{ID: 1, Thread: "t", Lifecycle: string(LifecycleActive)}
		return appendRank(nil, &r)
	}
	for _, tc := range []struct {
		name string
		edit func([]byte) []byte
		err  error
	}{
		{"empty", func([]byte) []byte { return nil }, kv.ErrCorrupt},
		{"version", func(b []byte) []byte { b[0] = 2; return b }, kv.ErrVersionMismatch},
		{"short", func(b []byte) []byte { return b[:rankFixed-1] }, kv.ErrCorrupt},
		{"lifecycle", func(b []byte) []byte { b[1] = 9; return b }, kv.ErrCorrupt},
		{"criticality", func(b []byte) []byte { b[2] = 4; return b }, kv.ErrCorrupt},
		{"flags", func(b []byte) []byte { b[3] = 8; return b }, kv.ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v rankView
			assert.ErrorIs(t, decodeRank(1, tc.edit(good()), &v), tc.err)
		})
	}
}

// openEquiv opens a file with the randomised corpus of the equivalence
// test.
func openEquiv(t *testing.T, seed uint64, n int) (*kv.DB, *Index) {
	t.Helper()
	db, err := kv.Open(filepath.Join(t.TempDir(), "e.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	ix := NewIndex()
	equivCorpus(t, rand.New(rand.NewPCG(seed, 99)), db, ix, n)
	return db, ix
}

// The table the writers keep (insert, supersede, conflict, forget,
// restore, retract, adopt) equals a rebuild from the card records.
func TestRanksIncrementalEqualsRebuild(t *testing.T) {
	db, _ := openEquiv(t, 5, 500)
	other, err := kv.Open(filepath.Join(t.TempDir(), "fresh.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	defer other.Close()
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		assert.True(t, CurrentRanks(tx))
		require.NoError(t, other.Update(func(otx *bolt.Tx) error { return RebuildRanks(tx, otx) }))
		return other.View(func(otx *bolt.Tx) error { return CompareRanks(tx, otx) })
	}))
	// A damaged entry, a missing one and a stale sequence are reported.
	for _, tc := range []struct {
		name string
		harm func(b *bolt.Bucket) error
	}{
		{"value", func(b *bolt.Bucket) error { return b.Put(kv.Key(7), []byte{rankVersion, 1, 0, 0}) }},
		{"missing", func(b *bolt.Bucket) error { return b.Delete(kv.Key(7)) }},
		{"extra", func(b *bolt.Bucket) error {
			r := rankRecord{ID: 1 << 30}
			return b.Put(kv.Key(1<<30), appendRank(nil, &r))
		}},
		{"sequence", func(b *bolt.Bucket) error { return b.SetSequence(3) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errHarm := assert.AnError
			err := db.Update(func(tx *bolt.Tx) error {
				require.NoError(t, tc.harm(tx.Bucket(kv.BucketEventRank)))
				assert.ErrorIs(t, other.View(func(otx *bolt.Tx) error { return CompareRanks(tx, otx) }), ErrRankMismatch)
				return errHarm // roll back
			})
			require.ErrorIs(t, err, errHarm)
		})
	}
}

// A table that lacks some cards (left behind by a build without it)
// still gives exactly the reference ranking: those cards are read from
// their records; RebuildRanks makes it current again.
func TestSearchWithoutRankEntries(t *testing.T) {
	db, ix := openEquiv(t, 6, 300)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(kv.BucketEventRank)
		for id := uint64(1); id <= 300; id += 2 {
			require.NoError(t, b.Delete(kv.Key(id)))
		}
		return b.SetSequence(150)
	}))
	rng := rand.New(rand.NewPCG(6, 7))
	now := time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC)
	check := func() {
		for range 200 {
			q := equivQuery(rng, now)
			require.NoError(t, db.View(func(tx *bolt.Tx) error {
				want, err := refSearch(tx, ix, q)
				require.NoError(t, err)
				got, err := Search(tx, ix, q)
				require.NoError(t, err)
				require.Equal(t, want, got, "%+v", q)
				return nil
			}))
		}
	}
	check()
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		assert.False(t, CurrentRanks(tx))
		require.NoError(t, RebuildRanks(tx, tx))
		assert.True(t, CurrentRanks(tx))
		return nil
	}))
	check()
}

// Search reads no card record: with the events bucket emptied it ranks
// exactly as before (within a transaction that is then rolled back).
func TestSearchDecodesNoCard(t *testing.T) {
	db, ix := openEquiv(t, 8, 300)
	q := "Ana decided on the garden trip first"
	query := Query{Text: q, Terms: bm25.AppendTerms(nil, q), Scopes: []string{"global", "project:a"}, Limit: 10,
		Now: time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC), From: time.Date(2022, 3, 1, 0, 0, 0, 0, time.UTC)}
	err := db.Update(func(tx *bolt.Tx) error {
		want, err := Search(tx, ix, query)
		require.NoError(t, err)
		require.NotEmpty(t, want)
		require.NoError(t, tx.DeleteBucket(kv.BucketEvents))
		_, err = tx.CreateBucket(kv.BucketEvents)
		require.NoError(t, err)
		got, err := Search(tx, ix, query)
		require.NoError(t, err)
		assert.Equal(t, want, got)
		return assert.AnError // roll back
	})
	require.ErrorIs(t, err, assert.AnError)
}
