package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/viewer"
)

// serveViewer serves the web viewer of mem on cfg.ui beside the MCP server:
// only one process can hold a store, so the viewer of a store an agent is
// using must run in that process. stop shuts it down (before mem closes).
func serveViewer(cfg serveConfig, mem *stratagate.Memory, stderr io.Writer) (stop func(), err error) {
	h, err := viewer.New(mem, viewer.Options{Write: cfg.uiWrite, Token: cfg.token,
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return nil, fmt.Errorf("-ui: %w", err)
	}
	ln, err := net.Listen("tcp", cfg.ui)
	if err != nil {
		return nil, fmt.Errorf("-ui: %w", err)
	}
	mode := "read-only"
	if cfg.uiWrite {
		mode = "imports enabled"
	}
	fmt.Fprintf(stderr, "sgmcp: viewer (%s) at %s\n", mode, viewer.URL(ln.Addr().String(), cfg.token))
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "sgmcp: viewer stopped: %v\n", err)
		}
	}()
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx)
		<-done
	}, nil
}
