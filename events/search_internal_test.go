package events

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/kv"
)

// A person with more cards than a structured list holds keeps their older
// cards that match the question: the named-person list puts the lexical
// matches first whether or not they are among the newest cards.
func TestSearchNamedPersonOlderMatch(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "e.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	ix := NewIndex()
	base := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)
	put := func(tx *bolt.Tx, who, text string, at time.Time) uint64 {
		c := Card{Scope: "global", Thread: "t", SourceBlockID: 1, SourceMessageIDs: []uint64{1},
			Title: text, Summary: who + ": " + text, Quotes: []string{text}, EventType: TypeActivity, Status: StatusCompleted,
			Participants: []string{who}, Criticality: CriticalityRoutine, Lifecycle: LifecycleActive,
			Temporal: Temporal{MentionedAt: at}, CreatedAt: at}
		require.NoError(t, insert(tx, &c))
		_, err := ix.Add(tx, Doc(&c))
		require.NoError(t, err)
		return c.ID
	}
	var want uint64
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		require.NoError(t, ix.Create(tx))
		want = put(tx, "Ana Lima", "I went kayaking on the lake with my brother.", base)
		for i := range 2 * structuredCandidates {
			put(tx, "Ana Lima", fmt.Sprintf("I repotted plant number %d on the balcony.", i), base.Add(time.Duration(i+1)*time.Hour))
		}
		// Another person's card matches the question's words better.
		put(tx, "Ben Okafor", "Kayaking, kayaking, kayaking: my kayaking club meets weekly.", base.Add(time.Hour))
		return nil
	}))
	q := "Who did Ana go kayaking with?"
	var got []uint64
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		rs, err := Search(tx, ix, Query{Text: q, Terms: bm25.AppendTerms(nil, q), Scopes: []string{"global"}, Limit: 10, Now: base.AddDate(0, 1, 0)})
		for _, r := range rs {
			got = append(got, r.ID)
		}
		return err
	}))
	require.NotEmpty(t, got)
	assert.Equal(t, want, got[0], "Ana's kayaking card first, though it is her oldest")
}
