package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/viewer"
)

var serveCommand = &command{
	name: "serve", args: "[-addr HOST:PORT] [-token T] [-write]",
	summary: "the web viewer on this file (read-only unless -write)",
	define: func(fs *flag.FlagSet) runner {
		addr := fs.String("addr", "127.0.0.1:7070", "listen on `HOST:PORT` (loopback unless -token is set; port 0 picks one)")
		token := fs.String("token", "", "require `TOKEN` (16+ characters) on every request; needed to listen beyond loopback")
		write := fs.Bool("write", false, "open the file writable so that the import pages can preview, commit and undo")
		return func(e *env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected argument %q", args[0])
			}
			return runServe(e, *addr, *token, *write)
		}
	},
}

// runServe serves the viewer until the context ends (Ctrl-C). The file
// stays open, read-only (a shared lock: other readers may open it, a
// writer waits) unless -write, which takes the exclusive lock like any
// writer and runs the store's derivation jobs meanwhile.
func runServe(e *env, addr, token string, write bool) error {
	if err := viewer.CheckAddr(addr, token); err != nil {
		return usagef("%v", err)
	}
	var mem *stratagate.Memory
	var err error
	if write {
		m, merr := stratagate.ModelFromSpec("", os.Getenv) // STRATAGATE_MODEL, else heuristic
		if merr != nil {
			return usagef("%v", merr)
		}
		lt := e.timeout
		if lt <= 0 {
			lt = -1
		}
		mem, err = stratagate.Open(e.db, &stratagate.Options{LockTimeout: lt, Model: m})
		if err != nil {
			return openError(e, err)
		}
		e.mem = mem // closed by e.close
	} else if mem, err = e.memory(); err != nil {
		return err
	}
	h, err := viewer.New(mem, viewer.Options{Write: write, Token: token, Logger: slog.New(slog.NewTextHandler(e.stderr, nil))})
	if err != nil {
		return usagef("%v", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return failf("listen on %s: %v", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	mode := "read-only"
	if write {
		mode = "writable: imports enabled"
	}
	fmt.Fprintf(e.stdout, "Viewer of %s (%s) at %s\nPress Ctrl-C to stop.\n", e.db, mode, viewer.URL(ln.Addr().String(), token))
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return failf("serving: %v", err)
	case <-e.ctx.Done():
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return failf("stopping the viewer: %v", err)
	}
	return nil
}
