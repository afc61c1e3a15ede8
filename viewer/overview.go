package viewer

import (
	"cmp"
	"net/http"
	"slices"

	"github.com/stratagate/stratagate"
)

// recentMessages is how many of the newest messages the overview shows.
const recentMessages = 8

type scopeRow struct {
	Scope   string
	Threads int
	Turns   uint64
}

type overviewData struct {
	Path     string
	Stats    stratagate.Stats
	Threads  []stratagate.Thread // newest activity first
	Scopes   []scopeRow
	Jobs     []stratagate.Job // pending, running and failed
	Recent   []stratagate.Message
	Cards    int
	Nodes    int
	Imports  int
	Readonly bool
}

func (h *Handler) overview(r *http.Request) (view, error) {
	ctx := r.Context()
	st, err := h.mem.Stats(ctx)
	if err != nil {
		return view{}, err
	}
	ths, err := h.mem.Threads(ctx)
	if err != nil {
		return view{}, err
	}
	slices.SortStableFunc(ths, func(a, b stratagate.Thread) int { return b.LastAt.Compare(a.LastAt) })
	byScope := map[string]*scopeRow{}
	for _, th := range ths {
		s := byScope[th.Scope]
		if s == nil {
			s = &scopeRow{Scope: th.Scope}
			byScope[th.Scope] = s
		}
		s.Threads++
		s.Turns += th.Turns
	}
	d := overviewData{Path: h.mem.Path(), Stats: st, Threads: ths, Cards: st.Buckets["events"], Nodes: st.Buckets["graph.nodes"],
		Imports: st.Buckets["imports"], Readonly: !h.opts.Write}
	for _, s := range byScope {
		d.Scopes = append(d.Scopes, *s)
	}
	slices.SortFunc(d.Scopes, func(a, b scopeRow) int { return cmp.Compare(a.Scope, b.Scope) })
	for _, state := range []string{"running", "pending", "failed"} {
		js, err := h.mem.Jobs(ctx, state)
		if err != nil {
			return view{}, err
		}
		d.Jobs = append(d.Jobs, js...)
	}
	d.Recent, err = h.recent(r, ths)
	if err != nil {
		return view{}, err
	}
	return view{page: "overview", title: "Overview", nav: "overview", data: d}, nil
}

// recent returns the newest messages: the tails of the most recently
// active threads, newest first.
func (h *Handler) recent(r *http.Request, ths []stratagate.Thread) ([]stratagate.Message, error) {
	var ids []uint64
	for _, th := range ths {
		if len(ids) >= recentMessages {
			break
		}
		tail := th.OpenTail
		if len(tail) == 0 {
			bs, err := h.mem.Blocks(r.Context(), th.Name)
			if err != nil {
				return nil, err
			}
			if len(bs) > 0 {
				tail = bs[len(bs)-1].MessageIDs
			}
		}
		for i := len(tail) - 1; i >= 0 && len(ids) < recentMessages; i-- {
			ids = append(ids, tail[i])
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	msgs, err := h.mem.Messages(r.Context(), ids...)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(msgs, func(a, b stratagate.Message) int { return cmp.Compare(b.ID, a.ID) })
	return msgs, nil
}
