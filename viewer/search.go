package viewer

import (
	"net/http"

	"github.com/stratagate/stratagate"
)

// maxQueryBytes bounds a query or question typed into the viewer.
const maxQueryBytes = 4096

type searchData struct {
	Q      string
	Scope  string
	Thread string
	Scopes []string
	Raw    []stratagate.Hit
	Events []stratagate.EventHit
	Nodes  []stratagate.NodeHit
}

// queryForm is what the search and ask forms send.
type queryForm struct {
	q, thread string
	scope     string   // the scope control's value ("" = every scope)
	scopes    []string // the scopes to query
	all       []string // every scope of the store's threads, for the control
}

// queryForm reads the query, thread and scope controls. Without a scope a
// person looking searches every scope of the store's threads.
func (h *Handler) queryForm(r *http.Request) (f queryForm, err error) {
	if f.q, err = formText(r, "q", maxQueryBytes); err != nil {
		return f, err
	}
	if f.thread, err = formText(r, "thread", 1024); err != nil {
		return f, err
	}
	if f.scope, err = formText(r, "scope", 256); err != nil {
		return f, err
	}
	if f.all, err = h.scopes(r); err != nil {
		return f, err
	}
	f.scopes = f.all
	if f.scope != "" {
		f.scopes = []string{f.scope}
	}
	return f, nil
}

func (h *Handler) search(r *http.Request) (view, error) {
	ctx := r.Context()
	f, err := h.queryForm(r)
	if err != nil {
		return view{}, err
	}
	d := searchData{Q: f.q, Thread: f.thread, Scope: f.scope, Scopes: f.all}
	if f.q != "" && len(f.scopes) > 0 {
		query := stratagate.Query{Text: f.q, Scopes: f.scopes, Thread: f.thread}
		if d.Raw, err = h.mem.SearchRaw(ctx, query); err != nil {
			return view{}, err
		}
		if d.Events, err = h.mem.SearchEvents(ctx, query); err != nil {
			return view{}, err
		}
		if d.Nodes, err = h.mem.SearchGraphNodes(ctx, query); err != nil {
			return view{}, err
		}
	}
	return view{page: "search", title: "Search", nav: "search", data: d}, nil
}

type askData struct {
	Q      string
	Scope  string
	Thread string
	Scopes []string
	Asked  bool
	Answer stratagate.Answer
}

// ask runs Ask without recording use: a person looking is not an answer
// the agent gave, so no memory gains weight from it.
func (h *Handler) ask(r *http.Request) (view, error) {
	f, err := h.queryForm(r)
	if err != nil {
		return view{}, err
	}
	d := askData{Q: f.q, Thread: f.thread, Scope: f.scope, Scopes: f.all}
	if f.q != "" && len(f.scopes) > 0 {
		d.Asked = true
		if d.Answer, err = h.mem.Ask(r.Context(), f.q, stratagate.AskOptions{Scopes: f.scopes, Thread: f.thread, NoRecord: true}); err != nil {
			return view{}, err
		}
	}
	return view{page: "ask", title: "Ask", nav: "ask", data: d}, nil
}
