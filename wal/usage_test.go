package wal_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/wal"
)

// tokenModel reports fixed token usage for each call, as a remote client
// does, and fails while fail returns an error.
type tokenModel struct {
	fail func(call int) error
	call int
}

func (m *tokenModel) Name() string { return "tokens" }

func (m *tokenModel) Complete(ctx context.Context, _ model.Request) (string, error) {
	m.call++
	model.MeterOf(ctx).Add(model.Usage{PromptTokens: 100, CompletionTokens: 10, CachedTokens: 40})
	if m.fail != nil {
		if err := m.fail(m.call); err != nil {
			return "", err
		}
	}
	return "{}", nil
}

func usages(t *testing.T, db *kv.DB) map[string]model.Usage {
	t.Helper()
	var u map[string]model.Usage
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var err error
		u, err = wal.Usages(tx)
		return err
	}))
	return u
}

func TestRunnerChargesModelUsage(t *testing.T) {
	permanent := fmt.Errorf("status 401: %w", model.ErrPermanent)
	tests := []struct {
		name         string
		fail         func(call int) error
		wantState    wal.State
		wantAttempts int
	}{
		{"one call", nil, wal.StateDone, 1},
		{"retried attempts are charged too", func(c int) error {
			if c < 3 {
				return errors.New("503")
			}
			return nil
		}, wal.StateDone, 3},
		{"a refused request fails at once", func(int) error { return permanent }, wal.StateFailed, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openDB(t)
			m := &tokenModel{fail: tt.fail}
			j := enqueue(t, db, kindTest, 7)
			r := startRunner(t, db, wal.RunnerOptions{Backoff: time.Millisecond, MaxAttempts: 4}, wal.Handler{
				Run: func(ctx context.Context, _ wal.Job) (wal.Apply, error) {
					if _, err := model.Call(ctx, m, model.Request{Task: model.TaskDeriveBlock, PromptID: "derive_block/1/abcd0123"}); err != nil {
						return nil, err
					}
					return putOut("ok", "1"), nil
				},
			})
			waitIdle(t, r)
			got := getJob(t, db, j.ID)
			assert.Equal(t, tt.wantState, got.State)
			assert.Equal(t, tt.wantAttempts, got.Attempts)
			n := int64(tt.wantAttempts)
			assert.Equal(t, n, got.Usage.Calls)
			assert.Equal(t, 100*n, got.Usage.PromptTokens)
			assert.Equal(t, 10*n, got.Usage.CompletionTokens)
			assert.Equal(t, 40*n, got.Usage.CachedTokens)
			assert.Equal(t, "derive_block/1/abcd0123", got.Prompt)
			total := usages(t, db)[string(kindTest)]
			total.Latency, got.Usage.Latency = 0, 0
			assert.Equal(t, got.Usage, total, "the kind's total equals the job's usage")
		})
	}
}

func TestUsageTotalsAddUp(t *testing.T) {
	db := openDB(t)
	update(t, db, func(tx *bolt.Tx) error {
		for range 3 {
			if err := wal.AddUsage(tx, "ask", model.Usage{Calls: 2, PromptTokens: 5}); err != nil {
				return err
			}
		}
		return wal.AddUsage(tx, "ask", model.Usage{}) // nothing to add: no write
	})
	assert.Equal(t, map[string]model.Usage{"ask": {Calls: 6, PromptTokens: 15}}, usages(t, db))

	update(t, db, func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketMeta).Put([]byte("usage/ask"), []byte{0xff})
	})
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		_, err := wal.Usages(tx)
		assert.ErrorIs(t, err, kv.ErrCorrupt)
		return nil
	}))
}
