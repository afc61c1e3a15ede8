package stratagate

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
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

// busy holds while any foreground write waits, however many overlap.
func TestForegroundBusy(t *testing.T) {
	f := newForeground()
	require.False(t, f.busy())
	f.begin()
	f.begin()
	require.True(t, f.busy())
	f.end()
	require.True(t, f.busy(), "one write still waits")
	f.end()
	require.False(t, f.busy())
}

// Memory runs the jobs of an in-process model inline, and those of any
// other model (one that may call out over a network) one transaction per
// job, since an inline job holds the single writer through its model call.
func TestInlineJobsOnlyForInProcessModels(t *testing.T) {
	for _, tc := range []struct {
		name  string
		model model.Model
		want  bool
	}{
		{"heuristic", heuristic.New(), true},
		{"remote", remoteLike{heuristic.New()}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, model.IsInProcess(tc.model))
			m, err := Open(filepath.Join(t.TempDir(), "m.sg"), &Options{Model: tc.model, NoSync: true})
			require.NoError(t, err)
			defer m.Close()
			require.Equal(t, tc.want, m.runner.Inline())
		})
	}
}

// remoteLike is a model that does not declare itself in-process.
type remoteLike struct{ m model.Model }

func (r remoteLike) Name() string { return "remote-like" }
func (r remoteLike) Complete(ctx context.Context, req model.Request) (string, error) {
	return r.m.Complete(ctx, req)
}
