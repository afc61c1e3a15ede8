package stratagate

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestForegroundYield(t *testing.T) {
	done := func(fn func()) bool {
		c := make(chan struct{})
		go func() { fn(); close(c) }()
		select {
		case <-c:
			return true
		case <-time.After(10 * yieldMax):
			return false
		}
	}
	t.Run("quiet: returns", func(t *testing.T) {
		f := newForeground()
		require.True(t, done(func() { f.yield(context.Background()) }))
	})
	t.Run("appends never pause: still returns, bounded by yieldMax", func(t *testing.T) {
		f := newForeground()
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
					f.touch()
					time.Sleep(100 * time.Microsecond)
				}
			}
		}()
		require.True(t, done(func() { f.yield(context.Background()) }))
	})
	t.Run("cancelled context: returns", func(t *testing.T) {
		f := newForeground()
		f.touch()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		require.True(t, done(func() { f.yield(ctx) }))
	})
}
