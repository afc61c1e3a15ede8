package viewer

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/extmem"
)

// maxFormBytes bounds a POST body: the largest export the parser accepts
// plus room for the other fields.
const maxFormBytes = extmem.MaxDocumentBytes + 64<<10

type importsData struct {
	Batches []stratagate.ImportBatch // newest first
	Prompt  string
	Scopes  []string
}

func (h *Handler) imports(r *http.Request) (view, error) {
	bs, err := h.mem.Imports(r.Context())
	if err != nil {
		return view{}, err
	}
	slices.Reverse(bs)
	d := importsData{Batches: bs, Prompt: stratagate.ExportPrompt()}
	if d.Scopes, err = h.scopes(r); err != nil {
		return view{}, err
	}
	return view{page: "imports", title: "Imports", nav: "imports", data: d}, nil
}

type importData struct {
	Batch   stratagate.ImportBatch
	Pending int // candidates awaiting a confirmation
	Done    string
}

func (h *Handler) importPage(r *http.Request) (view, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return view{}, err
	}
	b, err := h.mem.Import(r.Context(), id)
	if err != nil {
		return view{}, err
	}
	d := importData{Batch: b, Done: r.FormValue("done")}
	for _, c := range b.Preview.Candidates {
		if !c.Automatic && c.Decision.Action != extmem.ActionIgnore {
			d.Pending++
		}
	}
	return view{page: "import", title: fmt.Sprintf("Import %d", id), nav: "imports", data: d}, nil
}

// write adapts a writing action: it refuses unless the viewer was started
// to write, the body is small enough and the form carries the handler's
// CSRF token; the action answers with a redirect (POST, redirect, GET).
func (h *Handler) write(fn func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !h.opts.Write {
			h.fail(w, r, &httpError{http.StatusForbidden, "this viewer is read-only: start it with -write to import"})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		if err := r.ParseForm(); err != nil {
			h.fail(w, r, errBadRequest("reading the form: %v", err))
			return
		}
		if subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(h.csrf)) != 1 {
			h.fail(w, r, &httpError{http.StatusForbidden, "the form's CSRF token is missing or stale: reload the page and try again"})
			return
		}
		if err := fn(w, r); err != nil {
			h.fail(w, r, err)
		}
	}
}

func (h *Handler) importPreview(w http.ResponseWriter, r *http.Request) error {
	text := r.PostForm.Get("text")
	scope, err := formText(r, "scope", 256)
	if err != nil {
		return err
	}
	p, err := h.mem.ImportPreview(r.Context(), text, stratagate.ImportOptions{Scope: scope})
	if err != nil {
		return err
	}
	http.Redirect(w, r, "/import/"+idString(p.ID), http.StatusSeeOther)
	return nil
}

func (h *Handler) importCommit(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	b, err := h.mem.Import(r.Context(), id)
	if err != nil {
		return err
	}
	var c stratagate.Confirmations
	c.AcceptAll = r.PostForm.Get("all") == "accept"
	for _, cand := range b.Preview.Candidates {
		switch v := r.PostForm.Get("c" + strconv.Itoa(cand.Index)); v {
		case "", "pending":
		case "accept":
			if !cand.Automatic {
				c.Accept = append(c.Accept, cand.Index)
			}
		case "reject":
			c.Reject = append(c.Reject, cand.Index)
		default:
			return errBadRequest("candidate %d: choice %q (want accept, reject or pending)", cand.Index, v)
		}
	}
	res, err := h.mem.ImportCommit(r.Context(), id, c)
	if err != nil {
		return err
	}
	done := fmt.Sprintf("committed: %d applied, %d created, %d changed, %d left pending",
		res.Applied, len(res.Created), len(res.Changed), len(res.Pending))
	http.Redirect(w, r, "/import/"+idString(id)+"?"+url.Values{"done": {done}}.Encode(), http.StatusSeeOther)
	return nil
}

func (h *Handler) importUndo(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := h.mem.ImportUndo(r.Context(), id); err != nil {
		return err
	}
	http.Redirect(w, r, "/import/"+idString(id)+"?"+url.Values{"done": {"undone"}}.Encode(), http.StatusSeeOther)
	return nil
}
