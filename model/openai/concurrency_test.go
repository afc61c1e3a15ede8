package openai_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model/openai"
)

// gate is a server that holds every request until released and counts the
// requests in flight.
type gate struct {
	arrived chan struct{}
	release chan struct{}

	mu            sync.Mutex
	inFlight, max int
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.inFlight++
	g.max = max(g.max, g.inFlight)
	g.mu.Unlock()
	g.arrived <- struct{}{}
	<-g.release
	g.mu.Lock()
	g.inFlight--
	g.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(completion(`{"title":"ok"}`, "stop", "")))
}

func TestConcurrencyLimit(t *testing.T) {
	const limit = 3
	g := &gate{arrived: make(chan struct{}), release: make(chan struct{})}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	c, err := openai.New(openai.Options{BaseURL: srv.URL, Model: "m", MaxConcurrency: limit})
	require.NoError(t, err)

	var wg sync.WaitGroup
	errs := make(chan error, limit+1)
	for range limit + 1 {
		wg.Go(func() {
			_, err := c.Complete(t.Context(), deriveRequest())
			errs <- err
		})
	}
	for range limit {
		<-g.arrived
	}
	// limit requests are held; the last call can only reach the server
	// once one of them is answered.
	g.release <- struct{}{}
	<-g.arrived
	for range limit {
		g.release <- struct{}{}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
	assert.Equal(t, limit, g.max)
}

func TestWaitingForASlotHonoursContext(t *testing.T) {
	g := &gate{arrived: make(chan struct{}), release: make(chan struct{})}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	c, err := openai.New(openai.Options{BaseURL: srv.URL, Model: "m", MaxConcurrency: 1})
	require.NoError(t, err)

	first := make(chan error, 1)
	go func() {
		_, err := c.Complete(t.Context(), deriveRequest())
		first <- err
	}()
	<-g.arrived

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = c.Complete(ctx, deriveRequest())
	require.ErrorIs(t, err, context.Canceled)

	ctx, cancel = context.WithCancel(t.Context())
	waiting := make(chan error, 1)
	go func() {
		_, err := c.Complete(ctx, deriveRequest())
		waiting <- err
	}()
	cancel()
	assert.ErrorIs(t, <-waiting, context.Canceled)

	g.release <- struct{}{}
	assert.NoError(t, <-first)
}
