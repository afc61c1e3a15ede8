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
	http   string
	token  string
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
	if err := fs.Parse(args); err != nil {
		return cfg, errUsage
	}
	if cfg.db == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: sgmcp serve -db FILE [-scope SCOPE]... [-http ADDR] [-token T]")
		return cfg, errUsage
	}
	cfg.scopes = scopes
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
	model, err := stratagate.ModelFromSpec("", nil)
	if err != nil {
		return err
	}
	for _, sc := range cfg.scopes {
		if err := layers.ValidateScope(sc); err != nil {
			return fmt.Errorf("-scope: %w", err)
		}
	}
	mem, err := stratagate.Open(cfg.db, &stratagate.Options{Model: model, GateModel: model.Name() != heuristic.Name,
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return err
	}
	defer mem.Close()
	srv := NewServer(mem, Config{Scopes: cfg.scopes})
	if cfg.http == "" {
		err := srv.MCP().Run(ctx, &mcp.StdioTransport{})
		if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
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
