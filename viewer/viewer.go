package viewer

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/stratagate/stratagate"
)

// Options configure a Handler. The zero value is a read-only viewer that
// answers loopback requests only.
type Options struct {
	// Write enables the import pages' writing actions (preview, commit,
	// undo). The Memory must be writable.
	Write bool
	// Token, if set, is required on every request: as the cookie the
	// handler sets after a request with ?token=TOKEN, or as an
	// "Authorization: Bearer TOKEN" header. Without it only requests to a
	// loopback host name are served.
	Token string
	// Logger receives one line per failed request (nil = slog.Default()).
	Logger *slog.Logger
}

// ErrConfig is returned by New and CheckAddr for an unusable set-up.
var ErrConfig = errors.New("viewer: bad configuration")

// tokenCookie carries Options.Token once a browser has presented it.
const tokenCookie = "sg_viewer_token"

// Handler serves the viewer's pages over one Memory.
type Handler struct {
	mem  *stratagate.Memory
	opts Options
	log  *slog.Logger
	mux  *http.ServeMux
	// csrf is this handler's form token: a forged cross-site POST cannot
	// read it from a page, so it cannot send it back.
	csrf string
	tpl  *templates
}

// New returns the viewer of mem. With Options.Write on a read-only Memory
// the writing actions answer 403 (ErrReadOnly).
func New(mem *stratagate.Memory, o Options) (*Handler, error) {
	if mem == nil {
		return nil, fmt.Errorf("%w: no Memory", ErrConfig)
	}
	if o.Token != "" && len(o.Token) < 16 {
		return nil, fmt.Errorf("%w: a token needs at least 16 characters", ErrConfig)
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("viewer: csrf token: %w", err)
	}
	tpl, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	h := &Handler{mem: mem, opts: o, log: o.Logger, csrf: hex.EncodeToString(b[:]), tpl: tpl}
	if h.log == nil {
		h.log = slog.Default()
	}
	h.routes()
	return h, nil
}

func (h *Handler) routes() {
	m := http.NewServeMux()
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(staticFS())))
	m.HandleFunc("GET /{$}", h.page(h.overview))
	m.HandleFunc("GET /thread", h.page(h.thread))
	m.HandleFunc("GET /block/{id}", h.page(h.block))
	m.HandleFunc("GET /events", h.page(h.events))
	m.HandleFunc("GET /event/{id}", h.page(h.event))
	m.HandleFunc("GET /graph", h.page(h.graph))
	m.HandleFunc("GET /node/{id}", h.page(h.node))
	m.HandleFunc("GET /trace/{kind}/{id}", h.page(h.trace))
	m.HandleFunc("GET /search", h.page(h.search))
	m.HandleFunc("GET /ask", h.page(h.ask))
	m.HandleFunc("GET /imports", h.page(h.imports))
	m.HandleFunc("GET /import/{id}", h.page(h.importPage))
	m.HandleFunc("POST /imports", h.write(h.importPreview))
	m.HandleFunc("POST /import/{id}/commit", h.write(h.importCommit))
	m.HandleFunc("POST /import/{id}/undo", h.write(h.importUndo))
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, errNotFound("page", r.URL.Path))
	})
	h.mux = m
}

// ServeHTTP checks who is asking, then serves the page.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	// Everything is served from here: no inline script, no framing, no
	// referrer carrying ids or queries elsewhere.
	hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	if h.opts.Token == "" {
		if !loopbackHost(r.Host) {
			http.Error(w, "viewer: this viewer answers loopback host names only (start it with -token to serve others)", http.StatusForbidden)
			return
		}
	} else if !h.authorized(w, r) {
		return
	}
	h.mux.ServeHTTP(w, r)
}

// authorized checks the token, turning a ?token= link into a cookie (and a
// redirect that drops the token from the address bar).
func (h *Handler) authorized(w http.ResponseWriter, r *http.Request) bool {
	want := []byte(h.opts.Token)
	if t := r.URL.Query().Get("token"); t != "" {
		if subtle.ConstantTimeCompare([]byte(t), want) != 1 {
			http.Error(w, "viewer: wrong token", http.StatusUnauthorized)
			return false
		}
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: t, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		u := *r.URL
		q := u.Query()
		q.Del("token")
		u.RawQuery = q.Encode()
		http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
		return false
	}
	if a, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && subtle.ConstantTimeCompare([]byte(a), want) == 1 {
		return true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && subtle.ConstantTimeCompare([]byte(c.Value), want) == 1 {
		return true
	}
	http.Error(w, "viewer: a token is required (open the address with ?token=TOKEN)", http.StatusUnauthorized)
	return false
}

// loopbackHost reports whether a Host header names this machine: localhost
// or a loopback address, with or without a port.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckAddr refuses a listen address that is not loopback unless a token
// guards it: the viewer shows every stored message.
func CheckAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%w: listen address %q: %v", ErrConfig, addr, err)
	}
	if token != "" {
		return nil
	}
	if host == "" || !loopbackHost(host) {
		return fmt.Errorf("%w: %q is not a loopback address: pass -token to serve beyond this machine", ErrConfig, addr)
	}
	return nil
}

// URL is the address to open for a viewer listening on addr (with the
// token, when one is set).
func URL(addr, token string) string {
	u := url.URL{Scheme: "http", Host: addr, Path: "/"}
	if token != "" {
		u.RawQuery = url.Values{"token": {token}}.Encode()
	}
	return u.String()
}
