package openai_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/openai"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		value string
		want  time.Duration
	}{
		{"seconds", "2", 2 * time.Second},
		{"fractional seconds", "0.5", 500 * time.Millisecond},
		{"capped", "3600", 60 * time.Second},
		{"http date", now.Add(7 * time.Second).Format(http.TimeFormat), 7 * time.Second},
		{"date in the past", now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"date far ahead", now.Add(time.Hour).Format(http.TimeFormat), 60 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rp := newReplay(t,
				exchange{status: 429, header: map[string]string{"Retry-After": tt.value}, body: `{"error":{"message":"slow down"}}`},
				exchange{body: completion(`{"title":"ok"}`, "stop", "")})
			c := rp.client(openai.Options{})
			openai.SetNow(c, func() time.Time { return now })
			var s sleeps
			s.install(c)
			_, err := c.Complete(t.Context(), deriveRequest())
			require.NoError(t, err)
			assert.Equal(t, []time.Duration{tt.want}, s.all())
		})
	}

	t.Run("unparseable falls back to backoff", func(t *testing.T) {
		for _, v := range []string{"soon", "-3", "NaN"} {
			rp := newReplay(t,
				exchange{status: 503, header: map[string]string{"Retry-After": v}, body: "busy"},
				exchange{body: completion(`{"title":"ok"}`, "stop", "")})
			c := rp.client(openai.Options{Backoff: time.Second})
			var s sleeps
			s.install(c)
			_, err := c.Complete(t.Context(), deriveRequest())
			require.NoError(t, err)
			got := s.all()
			require.Len(t, got, 1)
			assert.Less(t, got[0], time.Second, v)
		}
	})
}

func TestBackoffGrows(t *testing.T) {
	rp := newReplay(t, exchange{status: 502, body: "bad gateway"})
	c := rp.client(openai.Options{MaxRetries: 8, Backoff: 10 * time.Second})
	var s sleeps
	s.install(c)
	_, err := c.Complete(t.Context(), deriveRequest())
	require.Error(t, err)
	assert.NotErrorIs(t, err, model.ErrPermanent)
	got := s.all()
	require.Len(t, got, 8)
	for i, d := range got {
		ceil := min(10*time.Second<<i, 30*time.Second)
		assert.GreaterOrEqual(t, d, time.Duration(0))
		assert.Less(t, d, ceil, "retry %d", i)
	}
	assert.Len(t, rp.requests(), 9)
}

func TestTimeout(t *testing.T) {
	rp := newReplay(t, exchange{hang: true})
	c := rp.client(openai.Options{Timeout: 20 * time.Millisecond, MaxRetries: 1})
	_, err := c.Complete(t.Context(), deriveRequest())
	require.ErrorIs(t, err, openai.ErrTimeout)
	assert.NotErrorIs(t, err, context.DeadlineExceeded)
	assert.NotErrorIs(t, err, model.ErrPermanent)
	assert.Len(t, rp.requests(), 2)

	t.Run("then an answer", func(t *testing.T) {
		rp := newReplay(t, exchange{hang: true}, exchange{body: completion(`{"title":"late"}`, "stop", "")})
		c := rp.client(openai.Options{Timeout: 20 * time.Millisecond})
		out, err := c.Complete(t.Context(), deriveRequest())
		require.NoError(t, err)
		assert.Equal(t, `{"title":"late"}`, out)
	})
}

func TestTransportErrors(t *testing.T) {
	rp := newReplay(t, exchange{body: "unused"})
	c := rp.client(openai.Options{MaxRetries: 2, APIKey: "sk-transport"})
	rp.srv.Close() // connection refused from now on
	var s sleeps
	s.install(c)
	_, err := c.Complete(t.Context(), deriveRequest())
	require.ErrorIs(t, err, openai.ErrRequest)
	assert.Contains(t, err.Error(), "after 3 attempts")
	assert.NotContains(t, err.Error(), "sk-transport")
	assert.Len(t, s.all(), 2)
}

func TestCancellation(t *testing.T) {
	t.Run("mid-backoff", func(t *testing.T) {
		rp := newReplay(t, exchange{status: 503, body: "busy"})
		c := rp.client(openai.Options{Backoff: time.Hour})
		ctx, cancel := context.WithCancel(t.Context())
		openai.SetSleep(c, func(sctx context.Context, d time.Duration) error {
			cancel() // the caller gives up while the client waits
			<-sctx.Done()
			return sctx.Err()
		})
		_, err := c.Complete(ctx, deriveRequest())
		require.ErrorIs(t, err, context.Canceled)
		assert.NotErrorIs(t, err, openai.ErrTimeout)
		assert.Len(t, rp.requests(), 1)
	})

	t.Run("real sleep ends with the context", func(t *testing.T) {
		rp := newReplay(t, exchange{status: 503, body: "busy"})
		c := rp.client(openai.Options{Backoff: time.Hour, MaxRetries: 1})
		ctx, cancel := context.WithCancelCause(t.Context())
		done := make(chan error, 1)
		go func() {
			_, err := c.Complete(ctx, deriveRequest())
			done <- err
		}()
		for len(rp.requests()) == 0 {
			time.Sleep(time.Millisecond) // wait for the first attempt; not a timed assertion
		}
		cancel(nil)
		assert.ErrorIs(t, <-done, context.Canceled)
	})

	t.Run("mid-request", func(t *testing.T) {
		rp := newReplay(t, exchange{hang: true})
		c := rp.client(openai.Options{})
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			for len(rp.requests()) == 0 {
				time.Sleep(time.Millisecond)
			}
			cancel()
		}()
		_, err := c.Complete(ctx, deriveRequest())
		require.ErrorIs(t, err, context.Canceled)
		assert.NotErrorIs(t, err, openai.ErrTimeout)
	})

	t.Run("caller deadline is not ErrTimeout", func(t *testing.T) {
		rp := newReplay(t, exchange{hang: true})
		c := rp.client(openai.Options{})
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
		defer cancel()
		_, err := c.Complete(ctx, deriveRequest())
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.NotErrorIs(t, err, openai.ErrTimeout)
	})

	t.Run("already done", func(t *testing.T) {
		rp := newReplay(t, exchange{body: completion(`{}`, "stop", "")})
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := rp.client(openai.Options{}).Complete(ctx, deriveRequest())
		require.ErrorIs(t, err, context.Canceled)
		assert.Empty(t, rp.requests())
	})
}
