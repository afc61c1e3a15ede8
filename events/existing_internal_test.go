package events

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
)

// What an extraction shows of an earlier card, read by getExisting's
// partial decode, is exactly what the whole card holds, lifecycle
// included, with or without the optional fields.
func TestGetExistingEqualsGet(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "x.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	day := time.Date(2025, 4, 2, 0, 0, 0, 0, time.UTC)
	full := Card{
		Scope: "global", Thread: "t", SourceBlockID: 3, SourceMessageIDs: []uint64{7, 8},
		Title: "Moved the standup", Summary: "The team moved its standup to nine.", Tags: []string{"meeting"},
		Quotes: []string{"let's meet at nine"}, EventType: Types[0], Status: StatusCompleted,
		Participants: []string{"Ana", "Bo"}, Entities: []string{"standup"}, Criticality: CriticalityRoutine,
		Temporal:  Temporal{MentionedAt: day, HappenedStart: day, HappenedEnd: day.AddDate(0, 0, 1), OriginalText: "today", Precision: "day", Basis: "explicit"},
		Lifecycle: LifecycleActive, CreatedAt: day,
	}
	bare := Card{Scope: "global", Thread: "t", SourceBlockID: 4, Title: "Bare", Summary: "Nothing optional.",
		EventType: Types[0], Status: StatusCompleted, Criticality: CriticalityRoutine, Lifecycle: LifecycleSuperseded, CreatedAt: day}
	cards := []*Card{&full, &bare}
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for _, c := range cards {
			if err := insert(tx, c); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		cur := tx.Bucket(kv.BucketEvents).Cursor()
		for _, c := range cards {
			got, lc, err := getExisting(cur, c.ID)
			require.NoError(t, err)
			want, err := Get(tx, c.ID)
			require.NoError(t, err)
			assert.Equal(t, want.Lifecycle, lc)
			assert.Equal(t, model.ExistingEvent{
				ID: want.ID, Title: want.Title, Summary: want.Summary, EventType: string(want.EventType),
				Participants: want.Participants, Entities: want.Entities, Quotes: want.Quotes,
			}, got)
		}
		_, _, err := getExisting(cur, 99)
		assert.ErrorIs(t, err, ErrNotFound)
		return nil
	}))
}

// A file written before card records version 3 holds version 2 ones:
// every reader gives the same card from them, and the next change to a
// card (forgetting it) writes it as version 3.
func TestVersion2CardsRead(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "x.sg"), kv.Options{NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	day := time.Date(2025, 4, 2, 0, 0, 0, 0, time.UTC)
	c := Card{Scope: "global", Thread: "t", SourceBlockID: 3, SourceMessageIDs: []uint64{7},
		Title: "Noah said the garden work is blocked", Summary: "Ana: Noah said the garden work is blocked.",
		Quotes: []string{"Noah said the garden work is blocked."}, Tags: []string{"garden"}, EventType: Types[0],
		Status: StatusCompleted, Participants: []string{"Ana"}, Entities: []string{"Noah"}, Criticality: CriticalityRoutine,
		Temporal:  Temporal{MentionedAt: day, Precision: "day", Basis: "explicit"},
		Lifecycle: LifecycleActive, CreatedAt: day}
	var want Card
	var wantExisting model.ExistingEvent
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		require.NoError(t, insert(tx, &c))
		var err error
		want, err = Get(tx, c.ID)
		require.NoError(t, err)
		wantExisting, _, err = getExisting(tx.Bucket(kv.BucketEvents).Cursor(), c.ID)
		require.NoError(t, err)
		b := tx.Bucket(kv.BucketEvents)
		require.Equal(t, cardVersion, b.Get(kv.Key(c.ID))[0])
		r, err := decodeCard(b.Get(kv.Key(c.ID)))
		require.NoError(t, err)
		return b.Put(kv.Key(c.ID), encodeCardV2(&r))
	}))
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		require.Equal(t, cardVersionV2, tx.Bucket(kv.BucketEvents).Get(kv.Key(c.ID))[0])
		got, err := Get(tx, c.ID)
		require.NoError(t, err)
		assert.Equal(t, want, got)
		ex, lc, err := getExisting(tx.Bucket(kv.BucketEvents).Cursor(), c.ID)
		require.NoError(t, err)
		assert.Equal(t, wantExisting, ex)
		assert.Equal(t, LifecycleActive, lc)
		changed, err := SetForgotten(tx, c.ID, true)
		require.NoError(t, err)
		require.True(t, changed)
		assert.Equal(t, cardVersion, tx.Bucket(kv.BucketEvents).Get(kv.Key(c.ID))[0])
		got, err = Get(tx, c.ID)
		require.NoError(t, err)
		assert.Equal(t, LifecycleForgotten, got.Lifecycle)
		assert.Equal(t, want.Quotes, got.Quotes)
		return nil
	}))
}
