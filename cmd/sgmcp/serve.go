package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model/heuristic"
	"github.com/stratagate/stratagate/viewer"
)

// scopeFlags collects repeated -scope flags.
type scopeFlags []string

func (f *scopeFlags) String() string { return strings.Join(*f, ",") }

func (f *scopeFlags) Set(v string) error {
	*f = append(*f, v)
	return nil
}

// serveConfig is what serve's flags say.
type serveConfig struct {
	db     string
	scopes []string
	// explicitScopes is set when -scope flags gave the scopes.
	explicitScopes bool
	http           string
	token          string
	// ui, when set, is the address of the web viewer served beside MCP
	// by the process that owns the store; uiWrite enables its imports.
	ui      string
	uiWrite bool
	// lockTimeout bounds the wait for a store held by a process that does
	// not answer on the socket (default stratagate.DefaultLockTimeout).
	lockTimeout time.Duration
	// ready, when set, receives the socket path once the owner listens
	// (tests).
	ready chan<- string
}

func parseServe(args []string, stderr io.Writer) (serveConfig, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg serveConfig
	var scopes scopeFlags
	fs.StringVar(&cfg.db, "db", "", "memory file (created if missing); required")
	fs.Var(&scopes, "scope", "scope to serve, repeatable; the first takes captures (default: project:<hash of the working directory>, then global)")
	fs.StringVar(&cfg.http, "http", "", "serve streamable HTTP on this address (e.g. 127.0.0.1:8765) instead of stdio")
	fs.StringVar(&cfg.token, "token", "", "bearer token every HTTP request must carry (required for a non-loopback -http address)")
	fs.StringVar(&cfg.ui, "ui", "", "also serve the web viewer on this address (e.g. 127.0.0.1:7070); -token guards it too")
	fs.BoolVar(&cfg.uiWrite, "ui-write", false, "let the viewer's import pages preview, commit and undo (needs -ui)")
	if err := fs.Parse(args); err != nil {
		return cfg, errUsage
	}
	if cfg.db == "" || fs.NArg() > 0 || cfg.uiWrite && cfg.ui == "" {
		fmt.Fprintln(stderr, "usage: sgmcp serve -db FILE [-scope SCOPE]... [-http ADDR] [-token T] [-ui ADDR [-ui-write]]")
		return cfg, errUsage
	}
	cfg.scopes = scopes
	cfg.explicitScopes = len(scopes) > 0
	if len(cfg.scopes) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return cfg, err
		}
		p, err := projectScope(wd)
		if err != nil {
			return cfg, err
		}
		cfg.scopes = []string{p, "global"}
	}
	if cfg.http != "" {
		if err := checkBind(cfg.http, cfg.token); err != nil {
			return cfg, err
		}
	}
	if cfg.ui != "" {
		if err := viewer.CheckAddr(cfg.ui, cfg.token); err != nil {
			return cfg, fmt.Errorf("-ui: %w", err)
		}
	}
	return cfg, nil
}

// checkBind refuses a non-loopback listen address without a token: anyone
// who can reach the port could read every memory.
func checkBind(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-http %q: %w (want HOST:PORT, e.g. 127.0.0.1:8765)", addr, err)
	}
	if isLoopback(host) || token != "" {
		return nil
	}
	return fmt.Errorf("-http %q listens beyond loopback: set -token (clients send Authorization: Bearer TOKEN), or bind 127.0.0.1", addr)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseServe(args, stderr)
	if err != nil {
		return err
	}
	return serve(ctx, cfg, os.Stdin, stdout, stderr)
}

// attachStep is how long one attempt to lock the store waits before the
// socket is tried again: an owner that has just locked the file listens
// a moment later.
const attachStep = 200 * time.Millisecond

// serve runs the server of cfg. When another sgmcp serve holds the store it
// attaches to it over the store's socket (stdio) or refuses (-http);
// otherwise it opens the store, becomes its owner and listens on the
// socket beside serving stdio or HTTP.
func serve(ctx context.Context, cfg serveConfig, stdin io.Reader, stdout, stderr io.Writer) error {
	model, err := stratagate.ModelFromSpec("", nil)
	if err != nil {
		return err
	}
	for _, sc := range cfg.scopes {
		if err := layers.ValidateScope(sc); err != nil {
			return fmt.Errorf("-scope: %w", err)
		}
	}
	sock, sockErr := socketPath(cfg.db)
	wait := cfg.lockTimeout
	if wait == 0 {
		wait = stratagate.DefaultLockTimeout
	}
	deadline := time.Now().Add(wait)
	opts := &stratagate.Options{Model: model, GateModel: model.Name() != heuristic.Name,
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	var mem *stratagate.Memory
	for mem == nil {
		if sockErr == nil {
			conn, err := dialSocket(ctx, sock)
			if err == nil {
				if cfg.http != "" {
					_ = conn.Close()
					return fmt.Errorf("%w: another sgmcp serve holds %s (socket %s); -http cannot attach to it: stop that server, or connect the HTTP clients' agents through stdio", errOwnerRunning, cfg.db, sock)
				}
				if cfg.ui != "" {
					fmt.Fprintf(stderr, "sgmcp: warning: -ui ignored: the viewer runs in the process that owns %s (socket %s)\n", cfg.db, sock)
				}
				return attach(ctx, cfg, sock, conn, stdin, stdout, stderr)
			}
			if ctx.Err() != nil {
				return nil // stopped while waiting: nothing to report
			}
			if !errors.Is(err, errNoOwner) {
				return err
			}
		}
		opts.LockTimeout = min(attachStep, max(time.Until(deadline), time.Millisecond))
		mem, err = stratagate.Open(cfg.db, opts)
		if err == nil {
			break
		}
		if !errors.Is(err, stratagate.ErrLocked) {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s is held by another process that does not answer on the socket %s (not an sgmcp server?): stop it and retry: %w", cfg.db, sock, err)
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	defer mem.Close()
	srv := NewServer(mem, Config{Scopes: cfg.scopes})
	if cfg.ui != "" {
		stop, err := serveViewer(cfg, mem, stderr)
		if err != nil {
			return err
		}
		defer stop()
	}

	if sockErr == nil {
		var ln *net.UnixListener
		ln, sockErr = listenSocket(sock)
		if sockErr == nil {
			so := newSocketServer(srv, ln)
			defer so.Close()
			if cfg.ready != nil {
				cfg.ready <- sock
			}
			if cfg.http == "" {
				return serveStdio(ctx, srv, so, stdin, stdout, stderr)
			}
			return serveHTTP(ctx, cfg, srv, stderr)
		}
	}
	// Serving alone is better than not serving: only attaching fails.
	fmt.Fprintf(stderr, "sgmcp: warning: no socket, other processes cannot attach: %v\n", sockErr)
	if cfg.http == "" {
		return serveStdio(ctx, srv, nil, stdin, stdout, stderr)
	}
	return serveHTTP(ctx, cfg, srv, stderr)
}

// errOwnerRunning is returned by serve -http when another server holds
// the store.
var errOwnerRunning = errors.New("sgmcp: the store has an owner")

// serveStdio serves the agent on stdin/stdout until stdin ends or ctx is
// done. When stdin ends while other processes are attached through the
// socket, it keeps serving them until the last one leaves: the agent that
// started first must not cut off the others.
func serveStdio(ctx context.Context, srv *Server, so *socketServer, stdin io.Reader, stdout, stderr io.Writer) error {
	err := srv.MCP().Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopClose{stdout}})
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		err = nil
	}
	if err != nil || ctx.Err() != nil || so == nil {
		return err
	}
	if n := so.active(); n > 0 {
		fmt.Fprintf(stderr, "sgmcp: stdin closed; serving %d attached session(s) until they end\n", n)
	}
	if err := so.drain(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// serveHTTP serves streamable HTTP on cfg.http until ctx is done.
func serveHTTP(ctx context.Context, cfg serveConfig, srv *Server, stderr io.Writer) error {
	ln, err := net.Listen("tcp", cfg.http)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "sgmcp: serving %s on http://%s/mcp (scopes %s)\n", cfg.db, ln.Addr(), strings.Join(cfg.scopes, ", "))
	hs := &http.Server{Handler: srv.HTTPHandler(cfg.token), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
