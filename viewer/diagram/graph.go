package diagram

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxGraphNodes is the most nodes LayoutGraph places: the force simulation
// is quadratic in the node count, and beyond a few hundred nodes a picture
// stops being readable anyway. Extra nodes are dropped deterministically
// (the lowest degree first, then the highest ID) and counted in
// GraphLayout.Truncated.
const MaxGraphNodes = 400

// MaxLabelRunes is the longest label the layout reserves room for; longer
// labels are shortened (see PlacedNode.Short) so that they fit the viewport.
const MaxLabelRunes = 28

// LabelFontSize is the font size, in pixels, that the layout reserves label
// room for; templates should draw labels at this size (or smaller).
const LabelFontSize = 11.0

const (
	defaultGraphWidth  = 960.0
	defaultGraphHeight = 640.0
	// A viewport smaller than this could not hold one node and its label.
	minGraphWidth  = 240.0
	minGraphHeight = 200.0
	maxSide        = 100000.0
	maxIterations  = 1000
	// iterationWork caps the default iterations·n² of the force simulation
	// (100 iterations at MaxGraphNodes).
	iterationWork     = 16e6
	minRadius         = 10.0
	maxRadius         = 24.0
	minLength         = 40.0  // shortest ideal edge length in pixels, before any scaling down
	maxLength         = 130.0 // longest: a small graph is not blown up to fill the page
	crowding          = 0.1   // the share of the viewport that circles may cover
	gravity           = 0.1   // pull to a component's centroid, per unit of distance
	edgeMargin        = 6.0
	labelGap          = 3.0
	charWidth         = 0.6 * LabelFontSize // average glyph width estimate
	parallelGap       = 22.0                // distance between parallel edges at their middle
	maxParallelSpread = 110.0               // the most distance between the outermost two
	loopSpread        = 0.45                // half the angle (radians) between a loop's ends
	loopLength        = 1.5                 // loop apex beyond the border, in radii
	loopTurn          = 0.9                 // angle between two loops on one node
	minSeparation     = 4.0                 // gap kept between circles by the overlap pass
)

// Node is a vertex of the graph to draw.
type Node struct {
	ID    uint64
	Label string
	Kind  string // person, project, organization, tool, place, topic, ...; opaque here
}

// Edge is a directed relation From → To. Active is opaque here (the
// template styles inactive edges).
type Edge struct {
	ID       uint64
	From, To uint64
	Label    string
	Active   bool
}

// GraphOptions sizes a graph layout. The zero value is usable.
type GraphOptions struct {
	// Width and Height of the viewport in pixels; 0 (or any non-finite or
	// negative value) means 960×640. Sizes below 240×200 are raised to
	// that, above 100000 lowered to it.
	Width, Height float64
	// Iterations of the force simulation; 0 means a default of up to 300,
	// fewer for large components so that iterations·n² stays bounded.
	// At most 1000.
	Iterations int
}

// PlacedNode is a node with its circle and label position.
type PlacedNode struct {
	Node
	X, Y, R float64
	// LX, LY is the centre of the label text, below the circle (draw with
	// text-anchor middle, dominant-baseline middle).
	LX, LY float64
	// Short is Label cut to MaxLabelRunes runes (with "…"): the text the
	// layout reserved room for.
	Short string
}

// PlacedEdge is an edge with its geometry. An ordinary edge is the
// quadratic curve from (X1,Y1) to (X2,Y2) with control point (CX,CY),
// straight when it is alone between its two nodes. A self-loop (Self) is a
// loop from (X1,Y1) out to its apex (CX,CY) and back to (X2,Y2); Path
// gives the SVG path of either.
type PlacedEdge struct {
	Edge
	// X1,Y1 and X2,Y2 lie on the From and To circles' borders.
	X1, Y1, X2, Y2 float64
	// CX, CY is the control point of a curve or the apex of a loop.
	CX, CY float64
	// LX, LY is the centre of the label: the curve's midpoint, so edges
	// between the same pair (either direction) get distinct positions.
	LX, LY float64
	Self   bool
	// Short is Label cut to MaxLabelRunes runes.
	Short string
}

// GraphLayout is the computed picture: every circle and label lies inside
// [0,Width]×[0,Height]. Nodes are sorted by ID, edges by ID (then From,
// To, Label, Active).
type GraphLayout struct {
	Width, Height float64
	Nodes         []PlacedNode
	Edges         []PlacedEdge
	// Truncated counts the distinct nodes dropped beyond MaxGraphNodes.
	Truncated int
}

// LayoutGraph places nodes and edges in the viewport. It is a pure,
// deterministic function: the same nodes and edges in any order give the
// same layout. Duplicate node IDs keep one node (the smallest Label, then
// Kind); edges with an endpoint that is not a placed node are dropped.
func LayoutGraph(nodes []Node, edges []Edge, o GraphOptions) GraphLayout {
	w := side(o.Width, defaultGraphWidth, minGraphWidth)
	h := side(o.Height, defaultGraphHeight, minGraphHeight)
	ns := uniqueNodes(nodes)
	es := sortedEdges(edges)
	es = keepEdges(es, ns)
	ns, truncated := truncateNodes(ns, es)
	es = keepEdges(es, ns)
	if len(ns) == 0 {
		return GraphLayout{Width: w, Height: h, Truncated: truncated}
	}

	g := newGraph(ns, es)
	g.place(w, h, o.Iterations)
	return GraphLayout{Width: w, Height: h, Nodes: g.placedNodes(), Edges: g.placedEdges(w, h), Truncated: truncated}
}

// side resolves one viewport dimension.
func side(v, def, lo float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return def
	}
	return min(max(v, lo), maxSide)
}

func uniqueNodes(nodes []Node) []Node {
	ns := slices.Clone(nodes)
	slices.SortFunc(ns, func(a, b Node) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), strings.Compare(a.Label, b.Label), strings.Compare(a.Kind, b.Kind))
	})
	return slices.CompactFunc(ns, func(a, b Node) bool { return a.ID == b.ID })
}

func sortedEdges(edges []Edge) []Edge {
	es := slices.Clone(edges)
	slices.SortFunc(es, func(a, b Edge) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To),
			strings.Compare(a.Label, b.Label), cmpBool(a.Active, b.Active))
	})
	return es
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// keepEdges drops the edges with an endpoint outside ns (sorted by ID).
func keepEdges(es []Edge, ns []Node) []Edge {
	has := func(id uint64) bool {
		_, ok := slices.BinarySearchFunc(ns, id, func(n Node, id uint64) int { return cmp.Compare(n.ID, id) })
		return ok
	}
	return slices.DeleteFunc(es, func(e Edge) bool { return !has(e.From) || !has(e.To) })
}

// truncateNodes keeps the MaxGraphNodes best-connected nodes: they carry
// the structure a reader looks for, where the lowest IDs might all be
// isolated.
func truncateNodes(ns []Node, es []Edge) ([]Node, int) {
	if len(ns) <= MaxGraphNodes {
		return ns, 0
	}
	deg := make(map[uint64]int, len(ns))
	for _, e := range es {
		deg[e.From]++
		if e.To != e.From {
			deg[e.To]++
		}
	}
	keep := slices.Clone(ns)
	slices.SortStableFunc(keep, func(a, b Node) int { return cmp.Compare(deg[b.ID], deg[a.ID]) })
	keep = keep[:MaxGraphNodes]
	slices.SortFunc(keep, func(a, b Node) int { return cmp.Compare(a.ID, b.ID) })
	return keep, len(ns) - MaxGraphNodes
}

// graph is the working state of one layout; nodes are indexed in ID order.
type graph struct {
	nodes   []Node
	edges   []Edge
	from    []int // edge endpoints as node indexes
	to      []int
	adj     [][]int // distinct neighbours (no self), ascending
	x, y, r []float64
	ext     []extents
}

func newGraph(ns []Node, es []Edge) *graph {
	g := &graph{nodes: ns, edges: es, adj: make([][]int, len(ns))}
	index := make(map[uint64]int, len(ns))
	for i, n := range ns {
		index[n.ID] = i
	}
	deg := make([]int, len(ns))
	for _, e := range es {
		a, b := index[e.From], index[e.To]
		g.from, g.to = append(g.from, a), append(g.to, b)
		deg[a]++
		if a != b {
			deg[b]++
			g.adj[a], g.adj[b] = append(g.adj[a], b), append(g.adj[b], a)
		}
	}
	g.r = make([]float64, len(ns))
	for i := range g.adj {
		slices.Sort(g.adj[i])
		g.adj[i] = slices.Compact(g.adj[i])
		// Gentle growth: a hub is visibly bigger, never huge.
		g.r[i] = min(maxRadius, minRadius+3*math.Sqrt(float64(deg[i])))
	}
	g.x, g.y = make([]float64, len(ns)), make([]float64, len(ns))
	return g
}

// extents are the room a node needs around its centre: its circle, its
// label below, and its self-loops in any direction.
type extents struct{ side, top, bottom float64 }

// setExtents computes every node's extents from its radius.
func (g *graph) setExtents() {
	g.ext = make([]extents, len(g.nodes))
	for k := range g.edges {
		if v := g.from[k]; v == g.to[k] {
			g.ext[v].side = -1 // marks a node with loops
		}
	}
	for i, n := range g.nodes {
		r := g.r[i]
		loops := g.ext[i].side < 0
		ex := extents{side: max(r, labelWidth(n.Label)/2), top: r, bottom: r + labelGap + LabelFontSize}
		if loops {
			reach := r*(1+loopLength) + LabelFontSize*1.2
			ex = extents{max(ex.side, reach), max(ex.top, reach), max(ex.bottom, reach)}
		}
		g.ext[i] = ex
	}
}

// maxExtents is the largest extent on each side among nodes.
func (g *graph) maxExtents(nodes []int) extents {
	var m extents
	for _, v := range nodes {
		e := g.ext[v]
		m = extents{max(m.side, e.side), max(m.top, e.top), max(m.bottom, e.bottom)}
	}
	return m
}

func short(s string) string {
	if utf8.RuneCountInString(s) <= MaxLabelRunes {
		return s
	}
	i, n := 0, 0
	for i = range s {
		if n == MaxLabelRunes-1 {
			break
		}
		n++
	}
	return s[:i] + "…"
}

func labelWidth(s string) float64 {
	return float64(utf8.RuneCountInString(short(s))) * charWidth
}

func (g *graph) placedNodes() []PlacedNode {
	out := make([]PlacedNode, len(g.nodes))
	for i, n := range g.nodes {
		out[i] = PlacedNode{Node: n, X: g.x[i], Y: g.y[i], R: g.r[i], LX: g.x[i],
			LY: g.y[i] + g.r[i] + labelGap + LabelFontSize/2, Short: short(n.Label)}
	}
	return out
}

// placedEdges computes each edge's curve. Edges between one pair of nodes
// (either direction) are spread symmetrically around the straight line;
// self-loops on one node fan out from the side facing away from its
// neighbours.
func (g *graph) placedEdges(w, h float64) []PlacedEdge {
	out := make([]PlacedEdge, len(g.edges))
	groups := map[pair][]int{}
	var order []pair
	for k := range g.edges {
		p := pair{min(g.from[k], g.to[k]), max(g.from[k], g.to[k])}
		if groups[p] == nil {
			order = append(order, p)
		}
		groups[p] = append(groups[p], k)
	}
	for _, p := range order {
		ks := groups[p]
		gap := parallelGap
		if len(ks) > 1 {
			// Many parallel edges share a bounded fan rather than bulging
			// off the page.
			gap = min(gap, maxParallelSpread/float64(len(ks)-1))
		}
		for i, k := range ks {
			e := PlacedEdge{Edge: g.edges[k], Short: short(g.edges[k].Label)}
			if p.a == p.b {
				g.loop(&e, p.a, i)
			} else {
				g.curve(&e, g.from[k], g.to[k], p, (float64(i)-float64(len(ks)-1)/2)*gap)
			}
			hw := labelWidth(e.Label)/2 + edgeMargin
			e.LX = clamp(e.LX, hw, w-hw)
			e.LY = clamp(e.LY, LabelFontSize/2+edgeMargin, h-LabelFontSize/2-edgeMargin)
			out[k] = e
		}
	}
	return out
}

// pair is an unordered node pair, lower index first.
type pair struct{ a, b int }

// curve sets a from → to edge offset by off pixels, measured along the
// normal of the pair's canonical direction (lower index to higher), so a
// reverse edge does not land on its twin.
func (g *graph) curve(e *PlacedEdge, from, to int, p pair, off float64) {
	ux, uy := unit(g.x[p.b]-g.x[p.a], g.y[p.b]-g.y[p.a], 1, 0)
	nx, ny := -uy, ux
	mx, my := (g.x[from]+g.x[to])/2, (g.y[from]+g.y[to])/2
	// A quadratic curve passes halfway to its control point.
	e.CX, e.CY = mx+2*off*nx, my+2*off*ny
	fx, fy := g.x[from], g.y[from]
	tx, ty := g.x[to], g.y[to]
	dx, dy := unit(tx-fx, ty-fy, ux, uy)
	ax, ay := unit(e.CX-fx, e.CY-fy, dx, dy)
	bx, by := unit(e.CX-tx, e.CY-ty, -dx, -dy)
	e.X1, e.Y1 = fx+ax*g.r[from], fy+ay*g.r[from]
	e.X2, e.Y2 = tx+bx*g.r[to], ty+by*g.r[to]
	e.LX, e.LY = 0.25*e.X1+0.5*e.CX+0.25*e.X2, 0.25*e.Y1+0.5*e.CY+0.25*e.Y2
}

// loop sets the i-th self-loop of node v: loops alternate either side of
// the direction away from v's neighbours (straight up without neighbours).
func (g *graph) loop(e *PlacedEdge, v, i int) {
	e.Self = true
	base := -math.Pi / 2
	if len(g.adj[v]) > 0 {
		var sx, sy float64
		for _, u := range g.adj[v] {
			sx, sy = sx+g.x[u], sy+g.y[u]
		}
		n := float64(len(g.adj[v]))
		if dx, dy := g.x[v]-sx/n, g.y[v]-sy/n; dx*dx+dy*dy > 1e-9 {
			base = math.Atan2(dy, dx)
		}
	}
	step := float64((i+1)/2) * loopTurn
	if i%2 == 1 {
		step = -step
	}
	th, r := base+step, g.r[v]
	cx, cy := g.x[v], g.y[v]
	e.X1, e.Y1 = cx+r*math.Cos(th-loopSpread), cy+r*math.Sin(th-loopSpread)
	e.X2, e.Y2 = cx+r*math.Cos(th+loopSpread), cy+r*math.Sin(th+loopSpread)
	e.CX, e.CY = cx+r*(1+loopLength)*math.Cos(th), cy+r*(1+loopLength)*math.Sin(th)
	d := r*(1+loopLength) + LabelFontSize*0.8
	e.LX, e.LY = cx+d*math.Cos(th), cy+d*math.Sin(th)
}

// unit returns (x,y) normalised, or the fallback direction (fx,fy) when
// (x,y) is too short to have one.
func unit(x, y, fx, fy float64) (float64, float64) {
	d := math.Hypot(x, y)
	if !(d > 1e-9) || math.IsInf(d, 0) {
		return fx, fy
	}
	return x / d, y / d
}

func clamp(v, lo, hi float64) float64 {
	if hi < lo {
		return (lo + hi) / 2
	}
	return min(max(v, lo), hi)
}

// controls returns a self-loop's cubic control points: the curve leaves
// (X1,Y1), passes through the apex (CX,CY) and returns to (X2,Y2).
func (e PlacedEdge) controls() (c1x, c1y, c2x, c2y float64) {
	mx, my := (e.X1+e.X2)/2, (e.Y1+e.Y2)/2
	// A cubic with controls P1+h and P2+h reaches mid+¾h at t=½.
	hx, hy := (e.CX-mx)*4/3, (e.CY-my)*4/3
	// Widening the controls apart (opposite amounts) keeps the apex and
	// rounds the loop.
	vx, vy := (e.X1-e.X2)*0.6, (e.Y1-e.Y2)*0.6
	return e.X1 + hx + vx, e.Y1 + hy + vy, e.X2 + hx - vx, e.Y2 + hy - vy
}

// Path returns the SVG path data ("d") of the edge: a quadratic curve, or
// a cubic loop for a self-loop. Coordinates have one decimal.
func (e PlacedEdge) Path() string {
	var b strings.Builder
	if e.Self {
		c1x, c1y, c2x, c2y := e.controls()
		writePath(&b, "M", e.X1, e.Y1, "C", c1x, c1y, "", c2x, c2y, "", e.X2, e.Y2)
	} else {
		writePath(&b, "M", e.X1, e.Y1, "Q", e.CX, e.CY, "", e.X2, e.Y2)
	}
	return b.String()
}

// Arrow returns the SVG path data of a closed triangular arrowhead of the
// given length (0 or less means 8) whose tip is (X2,Y2), pointing along the
// edge's end.
func (e PlacedEdge) Arrow(size float64) string {
	if !(size > 0) || math.IsInf(size, 0) {
		size = 8
	}
	px, py := e.CX, e.CY
	if e.Self {
		_, _, px, py = e.controls()
	}
	dx, dy := unit(e.X2-px, e.Y2-py, 1, 0)
	bx, by := e.X2-dx*size, e.Y2-dy*size
	hx, hy := -dy*size/2, dx*size/2
	var b strings.Builder
	writePath(&b, "M", e.X2, e.Y2, "L", bx+hx, by+hy, "L", bx-hx, by-hy, "Z")
	return b.String()
}

// writePath writes commands (strings) and coordinate pairs (float64s)
// separated by spaces.
func writePath(b *strings.Builder, parts ...any) {
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			if v == "" {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(v)
		case float64:
			b.WriteByte(' ')
			b.WriteString(strconv.FormatFloat(v, 'f', 1, 64))
		}
	}
}
