package viewer

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/viewer/diagram"
)

type graphNodeRow struct {
	Node  graph.Node
	Facts []graph.Fact
	Out   int
	In    int
}

type graphData struct {
	AsOf    time.Time
	Date    string // the date control's value ("" = now)
	Scope   string
	Scopes  []string
	Layout  diagram.GraphLayout
	Rows    []graphNodeRow // the drawn nodes, by name
	Dormant []graph.Node   // nodes with nothing true as of the date
	Edges   []graph.Edge
	Names   map[uint64]string
	Kinds   []string // the kinds drawn, for the legend
}

func (h *Handler) graph(r *http.Request) (view, error) {
	date, err := formText(r, "asof", 32)
	if err != nil {
		return view{}, err
	}
	asOf, err := parseDate(date)
	if err != nil {
		return view{}, err
	}
	scope, err := formText(r, "scope", 256)
	if err != nil {
		return view{}, err
	}
	var scopes []string
	if scope != "" {
		scopes = []string{scope}
	}
	g, err := h.mem.GraphAsOf(r.Context(), asOf, scopes)
	if err != nil {
		return view{}, err
	}
	d := graphData{AsOf: g.AsOf, Date: date, Scope: scope, Names: map[uint64]string{}, Edges: g.Edges}
	if d.Scopes, err = h.scopes(r); err != nil {
		return view{}, err
	}
	rows := map[uint64]*graphNodeRow{}
	for _, n := range g.Nodes {
		d.Names[n.ID] = n.Name
		rows[n.ID] = &graphNodeRow{Node: n}
	}
	for _, f := range g.Facts {
		if row := rows[f.Node]; row != nil {
			row.Facts = append(row.Facts, f)
		}
	}
	var edges []diagram.Edge
	for _, e := range g.Edges {
		from, to := rows[e.From], rows[e.To]
		if from == nil || to == nil {
			continue // an edge to a node of another scope: listed, not drawn
		}
		from.Out++
		to.In++
		edges = append(edges, diagram.Edge{ID: e.ID, From: e.From, To: e.To, Label: e.Relation, Active: e.Active})
	}
	var nodes []diagram.Node
	for _, n := range g.Nodes {
		row := rows[n.ID]
		if len(row.Facts) == 0 && row.Out == 0 && row.In == 0 {
			d.Dormant = append(d.Dormant, n)
			continue
		}
		d.Rows = append(d.Rows, *row)
		if !slices.Contains(d.Kinds, string(n.Kind)) {
			d.Kinds = append(d.Kinds, string(n.Kind))
		}
		nodes = append(nodes, diagram.Node{ID: n.ID, Label: n.Name, Kind: string(n.Kind)})
	}
	slices.SortFunc(d.Rows, func(a, b graphNodeRow) int {
		return cmp.Or(cmp.Compare(a.Node.Name, b.Node.Name), cmp.Compare(a.Node.ID, b.Node.ID))
	})
	slices.Sort(d.Kinds)
	d.Layout = diagram.LayoutGraph(nodes, edges, diagram.GraphOptions{Width: 1200, Height: 680})
	return view{page: "graph", title: "Graph", nav: "graph", data: d}, nil
}

// scopes lists the scopes of the store's threads, for scope controls.
func (h *Handler) scopes(r *http.Request) ([]string, error) {
	ths, err := h.mem.Threads(r.Context())
	if err != nil {
		return nil, err
	}
	var out []string
	for _, th := range ths {
		if !slices.Contains(out, th.Scope) {
			out = append(out, th.Scope)
		}
	}
	slices.Sort(out)
	return out, nil
}

type nodeData struct {
	Date    string
	Now     stratagate.NodeDetail // as of the date
	History stratagate.NodeDetail // everything, closed and inactive included
	Names   map[uint64]string
}

func (h *Handler) node(r *http.Request) (view, error) {
	ctx := r.Context()
	id, err := pathID(r, "id")
	if err != nil {
		return view{}, err
	}
	date, err := formText(r, "asof", 32)
	if err != nil {
		return view{}, err
	}
	asOf, err := parseDate(date)
	if err != nil {
		return view{}, err
	}
	d := nodeData{Date: date}
	if d.Now, err = h.mem.ExpandGraphNode(ctx, id, asOf); err != nil {
		return view{}, err
	}
	if d.History, err = h.mem.GraphNodeHistory(ctx, id); err != nil {
		return view{}, err
	}
	if d.Names, err = h.nodeNames(r); err != nil {
		return view{}, err
	}
	return view{page: "node", title: "Node " + d.Now.Node.Name, nav: "graph", data: d}, nil
}

// nodeNames maps every node id to its name, for edge endpoints.
func (h *Handler) nodeNames(r *http.Request) (map[uint64]string, error) {
	g, err := h.mem.GraphAsOf(r.Context(), time.Time{}, nil)
	if err != nil {
		return nil, err
	}
	names := make(map[uint64]string, len(g.Nodes))
	for _, n := range g.Nodes {
		names[n.ID] = n.Name
	}
	return names, nil
}

func idString(id uint64) string { return strconv.FormatUint(id, 10) }
