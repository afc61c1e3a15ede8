package events

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// equivCorpus fills db with a randomised card corpus that exercises every
// structured ranking: a small vocabulary (many lexical ties), few names
// (participant and entity lists longer than a list holds), every type, a
// spread of happened intervals, times in several UTC offsets, cards
// without a time, supersessions, conflicts, forgotten, restored and
// retracted cards, and adoptions in threads with turns.
func equivCorpus(t *testing.T, rng *rand.Rand, db *kv.DB, ix *Index, n int) {
	t.Helper()
	vocab := []string{"kayak", "lake", "garden", "postgres", "launch", "coffee", "tea", "parrot", "seattle",
		"bakery", "piano", "deploy", "budget", "trip", "decided", "meeting", "moved", "plan", "bug", "migration"}
	names := []string{"Ana Lima", "Ben Okafor", "Chen", "Dara Quinn", "Eli"}
	entities := []string{"Atlas", "Fly.io", "Cascadia Labs", "Kiwi"}
	threads := []string{"t0", "t1", "t2", "t3"}
	zones := []*time.Location{time.UTC, time.FixedZone("", -7*3600), time.FixedZone("", 5*3600+1800)}
	words := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = vocab[rng.IntN(len(vocab))]
		}
		return strings.Join(ws, " ")
	}
	base := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	var ids []uint64
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		require.NoError(t, ix.Create(tx))
		for i := range n {
			day := base.AddDate(0, 0, rng.IntN(900)).Add(time.Duration(rng.IntN(86400)) * time.Second).In(zones[rng.IntN(len(zones))])
			c := Card{
				Scope: []string{"global", "project:a"}[rng.IntN(2)], Thread: threads[rng.IntN(len(threads))],
				SourceBlockID: uint64(1 + i/4), SourceMessageIDs: []uint64{uint64(1 + i)},
				Title: words(1 + rng.IntN(4)), Summary: words(3 + rng.IntN(8)), Quotes: []string{words(3)},
				EventType: Types[rng.IntN(len(Types))], Status: []Status{StatusCompleted, StatusPlanned, StatusCancelled}[rng.IntN(3)],
				Criticality: []Criticality{CriticalityRoutine, CriticalityPreference, CriticalityIdentity, CriticalitySafety}[rng.IntN(4)],
				Lifecycle:   LifecycleActive, CreatedAt: day,
			}
			for range rng.IntN(3) {
				c.Participants = append(c.Participants, names[rng.IntN(len(names))])
			}
			if rng.IntN(3) == 0 {
				c.Entities = append(c.Entities, entities[rng.IntN(len(entities))])
			}
			switch rng.IntN(6) {
			case 0: // no time at all
			case 1: // mentioned only
				c.Temporal.MentionedAt = day
			default:
				c.Temporal.MentionedAt = day.Add(time.Duration(rng.IntN(72)) * time.Hour)
				start := day.Truncate(24 * time.Hour)
				c.Temporal.HappenedStart = start
				c.Temporal.HappenedEnd = start.AddDate(0, 0, []int{1, 1, 7, 30, 365}[rng.IntN(5)])
				c.Temporal.Precision = "day"
			}
			if len(ids) > 0 && rng.IntN(8) == 0 {
				c.SupersedesEventIDs = []uint64{ids[rng.IntN(len(ids))]}
			}
			if len(ids) > 0 && rng.IntN(10) == 0 {
				c.ConflictsWithEventIDs = []uint64{ids[rng.IntN(len(ids))]}
			}
			if err := Insert(tx, ix, &c); err != nil {
				return err
			}
			ids = append(ids, c.ID)
		}
		for _, th := range threads {
			if err := layers.PutThread(tx, &layers.Thread{Name: th, Scope: "global", Created: base, Turns: uint64(rng.IntN(5))}); err != nil {
				return err
			}
		}
		// Adoptions, then more turns, so that weights differ.
		for range n / 5 {
			if err := Adopt(tx, ids[rng.IntN(len(ids))], base); err != nil {
				return err
			}
			th, _, err := layers.GetThread(tx, threads[rng.IntN(len(threads))])
			if err != nil {
				return err
			}
			th.Turns += uint64(rng.IntN(4))
			if err := layers.PutThread(tx, &th); err != nil {
				return err
			}
		}
		// Forget (and sometimes restore) and retract some cards.
		for range n / 10 {
			id := ids[rng.IntN(len(ids))]
			if rng.IntN(4) == 0 {
				if err := Retract(tx, ix, id); err != nil {
					return err
				}
				continue
			}
			changed, err := SetForgotten(tx, id, true)
			if err == nil && changed {
				err = ix.Delete(tx, id)
			}
			if err == nil && changed && rng.IntN(2) == 0 {
				if changed, err = SetForgotten(tx, id, false); err == nil && changed {
					err = ix.Undelete(tx, id)
				}
			}
			if err != nil && err != ErrUndone && !strings.Contains(err.Error(), ErrUndone.Error()) {
				return err
			}
		}
		return nil
	}))
}

// equivQuery draws a query mixing words, names, type cues, time
// expressions, chronology cues and filters.
func equivQuery(rng *rand.Rand, now time.Time) Query {
	pool := []string{"kayak", "lake", "garden", "postgres", "launch", "coffee", "parrot", "budget", "unknownword",
		"ana", "Ana Lima", "ben", "chen", "dara quinn", "eli", "atlas", "fly.io", "cascadia labs", "kiwi",
		"decided", "meeting", "trip", "moved", "plan", "bug", "migrated", "prefer",
		"first", "latest", "recently", "in May 2023", "last week", "in 2022", "yesterday", "March 2024", "on 4 June 2023"}
	var ws []string
	for range 1 + rng.IntN(5) {
		ws = append(ws, pool[rng.IntN(len(pool))])
	}
	text := strings.Join(ws, " ")
	q := Query{Text: text, Terms: bm25.AppendTerms(nil, text), Scopes: []string{"global", "project:a"}, Now: now}
	if rng.IntN(4) == 0 {
		q.Scopes = q.Scopes[:1]
	}
	if rng.IntN(2) == 0 {
		q.Limit = 1 + rng.IntN(20)
	}
	if rng.IntN(5) == 0 {
		q.Thread = fmt.Sprintf("t%d", rng.IntN(5))
	}
	switch rng.IntN(6) {
	case 0:
		q.From = time.Date(2022, 6, 1, 0, 0, 0, 0, time.UTC).AddDate(0, rng.IntN(24), 0)
	case 1:
		q.To = time.Date(2022, 6, 1, 0, 0, 0, 0, time.UTC).AddDate(0, rng.IntN(24), 0)
	case 2:
		q.From = time.Date(2022, 6, 1, 0, 0, 0, 0, time.UTC).AddDate(0, rng.IntN(24), 0)
		q.To = q.From.AddDate(0, 0, rng.IntN(120))
	}
	return q
}

// Search returns exactly what the reference algorithm (which decodes the
// candidates' card records) returns: same ids, same order, same scores.
func TestSearchMatchesReference(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seed  uint64
		cards int
	}{
		{"small", 1, 60},
		{"medium", 2, 400},
		{"long lists", 3, 1500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Logf("seed %d", tc.seed)
			rng := rand.New(rand.NewPCG(tc.seed, 99))
			db, err := kv.Open(filepath.Join(t.TempDir(), "e.sg"), kv.Options{NoSync: true})
			require.NoError(t, err)
			defer db.Close()
			ix := NewIndex()
			equivCorpus(t, rng, db, ix, tc.cards)
			now := time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC)
			nonEmpty := 0
			for i := range 400 {
				q := equivQuery(rng, now)
				require.NoError(t, db.View(func(tx *bolt.Tx) error {
					want, err := refSearch(tx, ix, q)
					require.NoError(t, err)
					got, err := Search(tx, ix, q)
					require.NoError(t, err)
					require.Equal(t, want, got, "query %d: %+v", i, q)
					if len(got) > 0 {
						nonEmpty++
					}
					return nil
				}))
			}
			require.Greater(t, nonEmpty, 100, "the queries find cards")
		})
	}
}
