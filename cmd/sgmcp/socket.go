package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxSocketPath bounds a unix socket's path: sun_path holds 108 bytes on
// Linux and 104 on the BSDs and macOS, NUL included; 100 leaves a margin.
const maxSocketPath = 100

var (
	// errNoOwner is returned by dialOwner when no server listens on the
	// store's socket: the caller may open the file itself.
	errNoOwner = errors.New("sgmcp: no server holds the store")
	// errSocket is returned when the socket cannot be used: a file that is
	// not a socket at its path, a foreign private directory, a path too
	// long even in the fallback directory.
	errSocket = errors.New("sgmcp: store socket unusable")
)

// socketPath returns where the owner of db listens: "<db>.sock" beside the
// canonical path of the store, or, when that is too long for a unix
// socket, "sgmcp-<uid>/<hash>.sock" in os.TempDir(), the hash being the
// first 24 hex digits of the SHA-256 of the canonical db path. Every
// process that names the same file, however spelt, gets the same path.
func socketPath(db string) (string, error) {
	p, err := canonicalPath(db)
	if err != nil {
		return "", err
	}
	if s := p + ".sock"; len(s) <= maxSocketPath {
		return s, nil
	}
	sum := sha256.Sum256([]byte(p))
	s := filepath.Join(fallbackDir(), hex.EncodeToString(sum[:])[:24]+".sock")
	if len(s) > maxSocketPath {
		return "", fmt.Errorf("%w: %s is over %d bytes (set TMPDIR to a shorter directory)", errSocket, s, maxSocketPath)
	}
	return s, nil
}

// fallbackDir is the per-user directory of fallback sockets: private
// (0700), so that no other user can plant a socket where ours is looked for.
func fallbackDir() string {
	return filepath.Join(os.TempDir(), "sgmcp-"+strconv.Itoa(os.Getuid()))
}

// canonicalPath is db made absolute with its directory's symlinks
// resolved (the file itself may not exist yet).
func canonicalPath(db string) (string, error) {
	p, err := filepath.Abs(db)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r, nil
	}
	dir, base := filepath.Split(p)
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.Join(r, base), nil
	}
	return filepath.Clean(p), nil
}

// dialSocket connects to the owner listening on path. Nothing there, or
// a socket nobody listens on (a stale file left by a killed owner), is
// errNoOwner: the file is left for the next owner to remove, since only
// the holder of the store's lock knows that no owner is binding it.
func dialSocket(ctx context.Context, path string) (*net.UnixConn, error) {
	if filepath.Dir(path) == fallbackDir() {
		if err := checkPrivateDir(filepath.Dir(path)); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("%w (%s)", errNoOwner, path)
			}
			return nil, err
		}
	}
	if err := checkSocketOwner(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w (%s)", errNoOwner, path)
		}
		return nil, err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w (%s: %w)", errNoOwner, path, err)
	}
	return c.(*net.UnixConn), nil
}

// listenSocket listens on path as the store's owner, mode 0600. The caller
// holds the store's lock, so a socket file there that refuses connections
// is stale and is removed; one that answers is another process's (an
// error); anything that is not a socket is left alone (an error).
func listenSocket(path string) (*net.UnixListener, error) {
	if filepath.Dir(path) == fallbackDir() {
		if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		if err := checkPrivateDir(filepath.Dir(path)); err != nil {
			return nil, err
		}
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("%w: %s exists and is not a socket; move it away", errSocket, path)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, derr := (&net.Dialer{}).DialContext(ctx, "unix", path)
		cancel()
		if derr == nil {
			_ = c.Close()
			return nil, fmt.Errorf("%w: another process answers on %s while this one holds the store", errSocket, path)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("removing stale socket: %w", err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	// Under the usual umask the socket is already closed to others (connect
	// needs write permission); chmod makes it 0600 whatever the umask.
	if err := os.Chmod(path, 0o600); err != nil {
		_ = ln.Close()
		return nil, err
	}
	return ln, nil
}

// socketServer serves one MCP session per connection on the owner's
// socket, with the owner's Server: the same tools and the same scopes.
// Its methods are safe for concurrent use.
type socketServer struct {
	srv  *Server
	ln   *net.UnixListener
	done chan struct{} // closed when the accept loop has returned
	wg   sync.WaitGroup
	mu   struct {
		sync.Mutex
		conns   map[net.Conn]struct{}
		closed  bool
		changed chan struct{} // closed and replaced when conns changes
	}
}

// newSocketServer starts accepting on ln. Close stops it.
func newSocketServer(srv *Server, ln *net.UnixListener) *socketServer {
	o := &socketServer{srv: srv, ln: ln, done: make(chan struct{})}
	o.mu.conns = map[net.Conn]struct{}{}
	o.mu.changed = make(chan struct{})
	go o.accept()
	return o
}

func (o *socketServer) accept() {
	defer close(o.done)
	for {
		c, err := o.ln.Accept()
		if err != nil {
			return // closed by Close or drain
		}
		if !o.track(c) {
			_ = c.Close()
			continue
		}
		o.wg.Add(1)
		go func() {
			defer o.wg.Done()
			defer o.untrack(c)
			o.session(c)
		}()
	}
}

// session serves one connection until either side closes it.
func (o *socketServer) session(c net.Conn) {
	ss, err := o.srv.MCP().Connect(context.Background(), &mcp.IOTransport{Reader: c, Writer: nopClose{c}}, nil)
	if err != nil {
		_ = c.Close()
		return
	}
	_ = ss.Wait()
	_ = c.Close()
}

// nopClose is a writer whose Close does nothing: the connection is
// closed once, through the transport's reader.
type nopClose struct{ io.Writer }

func (nopClose) Close() error { return nil }

func (o *socketServer) track(c net.Conn) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.mu.closed {
		return false
	}
	o.mu.conns[c] = struct{}{}
	o.changedLocked()
	return true
}

func (o *socketServer) untrack(c net.Conn) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.mu.conns, c)
	o.changedLocked()
}

func (o *socketServer) changedLocked() {
	close(o.mu.changed)
	o.mu.changed = make(chan struct{})
}

// active returns the number of attached sessions.
func (o *socketServer) active() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.mu.conns)
}

// drain waits until no session is attached, then stops accepting, in one
// step under the lock so that no connection slips in between; it returns
// early, still accepting, when ctx is done.
func (o *socketServer) drain(ctx context.Context) error {
	for {
		o.mu.Lock()
		if len(o.mu.conns) == 0 {
			o.closeLocked()
			o.mu.Unlock()
			return nil
		}
		ch := o.mu.changed
		o.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (o *socketServer) closeLocked() {
	if o.mu.closed {
		return
	}
	o.mu.closed = true
	// Closing the listener also unlinks the socket file.
	_ = o.ln.Close()
}

// Close stops accepting, removes the socket file, ends every attached
// session and waits for them. It is idempotent.
func (o *socketServer) Close() error {
	o.mu.Lock()
	o.closeLocked()
	for c := range o.mu.conns {
		_ = c.Close()
	}
	o.mu.Unlock()
	<-o.done
	o.wg.Wait()
	return nil
}
