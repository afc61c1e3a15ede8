package viewer

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/extmem"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

//go:embed static
var staticDir embed.FS

func staticFS() fs.FS {
	sub, err := fs.Sub(staticDir, "static")
	if err != nil {
		panic(err) // the embed pattern above guarantees the folder
	}
	return sub
}

// templates holds one parsed set per page: the shared layout plus the page.
type templates struct {
	pages map[string]*template.Template
}

func parseTemplates() (*templates, error) {
	base, err := template.New("base").Funcs(funcs).ParseFS(templateFS, "templates/base.tmpl", "templates/parts.tmpl")
	if err != nil {
		return nil, fmt.Errorf("viewer: templates: %w", err)
	}
	names, err := fs.Glob(templateFS, "templates/page_*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("viewer: templates: %w", err)
	}
	t := &templates{pages: map[string]*template.Template{}}
	for _, n := range names {
		c, err := base.Clone()
		if err == nil {
			_, err = c.ParseFS(templateFS, n)
		}
		if err != nil {
			return nil, fmt.Errorf("viewer: template %s: %w", n, err)
		}
		name := strings.TrimSuffix(strings.TrimPrefix(n, "templates/page_"), ".tmpl")
		t.pages[name] = c
	}
	return t, nil
}

// view is what a page handler returns: the page template and its data.
type view struct {
	page  string // page_<page>.tmpl
	title string
	nav   string // the highlighted navigation entry
	data  any
}

// frame is what every template sees.
type frame struct {
	Title string
	Nav   string
	Write bool
	CSRF  string
	Data  any
}

// page adapts a page function: it renders into a buffer, so an error half
// way through becomes a clean error page instead of a truncated one.
func (h *Handler) page(fn func(r *http.Request) (view, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := fn(r)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		h.render(w, r, http.StatusOK, v)
	}
}

func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, v view) {
	t, ok := h.tpl.pages[v.page]
	if !ok {
		h.log.Error("viewer: no template", "page", v.page)
		http.Error(w, "viewer: internal error", http.StatusInternalServerError)
		return
	}
	var buf bytes.Buffer
	err := t.ExecuteTemplate(&buf, "base", frame{Title: v.title, Nav: v.nav, Write: h.opts.Write, CSRF: h.csrf, Data: v.data})
	if err != nil {
		h.log.Error("viewer: render", "page", v.page, "path", r.URL.Path, "err", err)
		http.Error(w, "viewer: internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// httpError is an error with the status it is answered with.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func errNotFound(what string, id any) error {
	return &httpError{http.StatusNotFound, fmt.Sprintf("no %s %v", what, id)}
}

func errBadRequest(format string, a ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, a...)}
}

// status maps an error to the HTTP status it is answered with: the store's
// typed errors say whose fault it was.
func status(err error) int {
	var he *httpError
	switch {
	case errors.As(err, &he):
		return he.status
	case errors.Is(err, stratagate.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, stratagate.ErrInvalidInput), errors.Is(err, stratagate.ErrScope),
		errors.Is(err, extmem.ErrInvalidDocument):
		return http.StatusBadRequest
	case errors.Is(err, stratagate.ErrImportStale), errors.Is(err, stratagate.ErrImportState):
		return http.StatusConflict
	case errors.Is(err, stratagate.ErrReadOnly):
		return http.StatusForbidden
	case errors.Is(err, stratagate.ErrClosed):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

type errorData struct {
	Status int
	Text   string
	Msg    string
}

func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	st := status(err)
	msg := err.Error()
	if st == http.StatusInternalServerError {
		h.log.Error("viewer: request failed", "path", r.URL.Path, "err", err)
	}
	h.render(w, r, st, view{page: "error", title: http.StatusText(st), data: errorData{st, http.StatusText(st), msg}})
}

// pathID is the uint64 path parameter name of r.
func pathID(r *http.Request, name string) (uint64, error) {
	s := r.PathValue(name)
	id, err := strconv.ParseUint(s, 10, 64)
	if err != nil || id == 0 {
		return 0, errBadRequest("%s %q is not a positive integer id", name, s)
	}
	return id, nil
}

// formText is a query or form value that must be valid UTF-8 of at most
// max bytes: anything else is the caller's error, not a search for it.
func formText(r *http.Request, name string, max int) (string, error) {
	v := r.FormValue(name)
	if !utf8.ValidString(v) {
		return "", errBadRequest("%s is not valid UTF-8", name)
	}
	if len(v) > max {
		return "", errBadRequest("%s is longer than %d bytes", name, max)
	}
	return strings.TrimSpace(v), nil
}

// parseDate reads a YYYY-MM-DD date control ("" = zero: now). The end of
// that day is meant: "as of 2024-03-01" includes what became true that day.
func parseDate(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, errBadRequest("date %q: want YYYY-MM-DD", s)
	}
	return t.Add(24*time.Hour - time.Nanosecond), nil
}

var levelNames = [...]string{"title and tags", "summary", "key facts", "pruned", "near-verbatim", "verbatim"}

var funcs = template.FuncMap{
	"stamp": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.Format("2006-01-02 15:04 -07:00")
	},
	"day": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.Format("2006-01-02")
	},
	"iso": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Format(time.RFC3339)
	},
	"levelName": func(l int) string {
		if l < 0 || l >= len(levelNames) {
			return "omitted"
		}
		return levelNames[l]
	},
	"levels": func() []int { return []int{0, 1, 2, 3, 4, 5} },
	"clip": func(s string, n int) string {
		if utf8.RuneCountInString(s) <= n {
			return s
		}
		r := []rune(s)
		return string(r[:n]) + "…"
	},
	"join": strings.Join,
	"ids": func(ids []uint64) string {
		s := make([]string, len(ids))
		for i, id := range ids {
			s[i] = strconv.FormatUint(id, 10)
		}
		return strings.Join(s, ", ")
	},
	"f2": func(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) },
	"f1": func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) },
	"bytes": func(n int64) string {
		switch {
		case n >= 1<<20:
			return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
		case n >= 1<<10:
			return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
		}
		return strconv.FormatInt(n, 10) + " B"
	},
	// q builds a query string from key/value pairs, skipping empty values.
	"q": func(kv ...string) template.URL {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] != "" {
				v.Set(kv[i], kv[i+1])
			}
		}
		return template.URL(v.Encode())
	},
	"u64":  func(id uint64) string { return strconv.FormatUint(id, 10) },
	"add":  func(a, b int) int { return a + b },
	"add1": func(a, b float64) float64 { return a + b },
	"sub1": func(a, b float64) float64 { return a - b },
}
