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

// queryScopes is the scope control's value, or every scope of the store's
// threads: a person looking searches everything unless told otherwise.
func (h *Handler) queryScopes(r *http.Request) (scope string, scopes, all []string, err error) {
	if scope, err = formText(r, "scope", 256); err != nil {
		return "", nil, nil, err
	}
	if all, err = h.scopes(r); err != nil {
		return "", nil, nil, err
	}
	if scope != "" {
		return scope, []string{scope}, all, nil
	}
	return "", all, all, nil
}

func (h *Handler) search(r *http.Request) (view, error) {
	ctx := r.Context()
	q, err := formText(r, "q", maxQueryBytes)
	if err != nil {
		return view{}, err
	}
	thread, err := formText(r, "thread", 1024)
	if err != nil {
		return view{}, err
	}
	d := searchData{Q: q, Thread: thread}
	var scopes []string
	if d.Scope, scopes, d.Scopes, err = h.queryScopes(r); err != nil {
		return view{}, err
	}
	if q != "" && len(scopes) > 0 {
		query := stratagate.Query{Text: q, Scopes: scopes, Thread: thread}
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
	q, err := formText(r, "q", maxQueryBytes)
	if err != nil {
		return view{}, err
	}
	thread, err := formText(r, "thread", 1024)
	if err != nil {
		return view{}, err
	}
	d := askData{Q: q, Thread: thread}
	var scopes []string
	if d.Scope, scopes, d.Scopes, err = h.queryScopes(r); err != nil {
		return view{}, err
	}
	if q != "" && len(scopes) > 0 {
		d.Asked = true
		if d.Answer, err = h.mem.Ask(r.Context(), q, stratagate.AskOptions{Scopes: scopes, Thread: thread, NoRecord: true}); err != nil {
			return view{}, err
		}
	}
	return view{page: "ask", title: "Ask", nav: "ask", data: d}, nil
}
