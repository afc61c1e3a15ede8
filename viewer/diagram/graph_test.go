package diagram_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/viewer/diagram"
)

// nodesN returns nodes 1..n with labels of varying lengths.
func nodesN(n int) []diagram.Node {
	kinds := []string{"person", "project", "tool", "place", "topic"}
	out := make([]diagram.Node, n)
	for i := range out {
		out[i] = diagram.Node{ID: uint64(i + 1), Label: fmt.Sprintf("node %d%s", i+1, strings.Repeat("x", i%9)), Kind: kinds[i%len(kinds)]}
	}
	return out
}

// chain links consecutive IDs lo..hi.
func chain(lo, hi, firstID uint64) []diagram.Edge {
	var es []diagram.Edge
	for v := lo; v < hi; v++ {
		es = append(es, diagram.Edge{ID: firstID + v - lo, From: v, To: v + 1, Label: "next", Active: true})
	}
	return es
}

func star(hub, lo, hi, firstID uint64) []diagram.Edge {
	var es []diagram.Edge
	for v := lo; v <= hi; v++ {
		es = append(es, diagram.Edge{ID: firstID + v - lo, From: hub, To: v, Label: "has"})
	}
	return es
}

// requireSane checks that every number is finite and that every circle,
// label and edge end lies inside the viewport.
func requireSane(t testing.TB, l diagram.GraphLayout) {
	t.Helper()
	const eps = 1e-6
	in := func(what string, x, y float64) {
		t.Helper()
		require.False(t, math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0), "%s: %v,%v", what, x, y)
		require.True(t, x >= -eps && x <= l.Width+eps && y >= -eps && y <= l.Height+eps, "%s: %v,%v outside %vx%v", what, x, y, l.Width, l.Height)
	}
	for _, n := range l.Nodes {
		in("circle left/top", n.X-n.R, n.Y-n.R)
		in("circle right/bottom", n.X+n.R, n.Y+n.R)
		hw := float64(utf8.RuneCountInString(n.Short)) * 0.6 * diagram.LabelFontSize / 2
		in("label left/top", n.LX-hw, n.LY-diagram.LabelFontSize/2)
		in("label right/bottom", n.LX+hw, n.LY+diagram.LabelFontSize/2)
		require.LessOrEqual(t, utf8.RuneCountInString(n.Short), diagram.MaxLabelRunes)
	}
	for _, e := range l.Edges {
		in("edge start", e.X1, e.Y1)
		in("edge end", e.X2, e.Y2)
		in("edge label", e.LX, e.LY)
		require.False(t, math.IsNaN(e.CX) || math.IsInf(e.CX, 0) || math.IsNaN(e.CY) || math.IsInf(e.CY, 0))
		if e.Self {
			in("loop apex", e.CX, e.CY)
		}
		require.NotContains(t, e.Path()+e.Arrow(0), "NaN")
	}
}

func byID(l diagram.GraphLayout) map[uint64]diagram.PlacedNode {
	m := map[uint64]diagram.PlacedNode{}
	for _, n := range l.Nodes {
		m[n.ID] = n
	}
	return m
}

func TestLayoutGraphSmall(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes []diagram.Node
		edges []diagram.Edge
		want  int
	}{
		{"no nodes", nil, nil, 0},
		{"no nodes, dangling edge", nil, []diagram.Edge{{ID: 1, From: 1, To: 2}}, 0},
		{"one node", nodesN(1), nil, 1},
		{"one node with a loop", nodesN(1), []diagram.Edge{{ID: 1, From: 1, To: 1, Label: "self"}}, 1},
		{"two nodes apart", nodesN(2), nil, 2},
		{"two nodes linked", nodesN(2), chain(1, 2, 1), 2},
		{"two nodes, same ID", []diagram.Node{{ID: 5, Label: "b"}, {ID: 5, Label: "a"}}, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := diagram.LayoutGraph(tc.nodes, tc.edges, diagram.GraphOptions{})
			assert.Equal(t, 960.0, l.Width)
			assert.Equal(t, 640.0, l.Height)
			require.Len(t, l.Nodes, tc.want)
			assert.Zero(t, l.Truncated)
			requireSane(t, l)
		})
	}
	l := diagram.LayoutGraph([]diagram.Node{{ID: 5, Label: "b"}, {ID: 5, Label: "a"}}, nil, diagram.GraphOptions{})
	assert.Equal(t, "a", l.Nodes[0].Label, "a duplicate ID keeps the smallest label")
}

// mixedGraph has a big component, a small one, a pair with edges both
// ways, self-loops, isolated nodes and dangling edges.
func mixedGraph() ([]diagram.Node, []diagram.Edge) {
	ns := nodesN(40)
	es := chain(1, 15, 100)
	es = append(es, star(1, 16, 22, 200)...)
	es = append(es, chain(23, 26, 300)...)
	es = append(es,
		diagram.Edge{ID: 400, From: 27, To: 28, Label: "likes"},
		diagram.Edge{ID: 401, From: 28, To: 27, Label: "likes back"},
		diagram.Edge{ID: 402, From: 27, To: 28, Label: "works with"},
		diagram.Edge{ID: 403, From: 3, To: 3, Label: "self"},
		diagram.Edge{ID: 404, From: 3, To: 3, Label: "self again"},
		diagram.Edge{ID: 405, From: 3, To: 99, Label: "dangling"},
		diagram.Edge{ID: 406, From: 98, To: 99, Label: "dangling"},
	)
	return ns, es
}

func TestLayoutGraphDeterministic(t *testing.T) {
	ns, es := mixedGraph()
	want, err := json.Marshal(diagram.LayoutGraph(ns, es, diagram.GraphOptions{}))
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 5 {
		rng.Shuffle(len(ns), func(a, b int) { ns[a], ns[b] = ns[b], ns[a] })
		rng.Shuffle(len(es), func(a, b int) { es[a], es[b] = es[b], es[a] })
		got, err := json.Marshal(diagram.LayoutGraph(ns, es, diagram.GraphOptions{}))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "permutation %d", i)
	}
}

func TestLayoutGraphNoOverlap(t *testing.T) {
	complete := func(n uint64) []diagram.Edge {
		var es []diagram.Edge
		for a := uint64(1); a <= n; a++ {
			for b := a + 1; b <= n; b++ {
				es = append(es, diagram.Edge{ID: a*100 + b, From: a, To: b})
			}
		}
		return es
	}
	tree := func(n uint64) []diagram.Edge {
		var es []diagram.Edge
		for v := uint64(2); v <= n; v++ {
			es = append(es, diagram.Edge{ID: v, From: v / 2, To: v})
		}
		return es
	}
	mixedNodes, mixedEdges := mixedGraph()
	for _, tc := range []struct {
		name  string
		nodes []diagram.Node
		edges []diagram.Edge
	}{
		{"star of 12", nodesN(13), star(1, 2, 13, 1)},
		{"path of 20", nodesN(20), chain(1, 20, 1)},
		{"complete 8", nodesN(8), complete(8)},
		{"binary tree of 30", nodesN(30), tree(30)},
		{"30 isolated", nodesN(30), nil},
		{"two components and isolated", nodesN(25), append(chain(1, 8, 1), star(9, 10, 18, 50)...)},
		{"mixed, small viewport", mixedNodes[:30], mixedEdges},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := diagram.GraphOptions{}
			if strings.Contains(tc.name, "small") {
				o = diagram.GraphOptions{Width: 600, Height: 400}
			}
			l := diagram.LayoutGraph(tc.nodes, tc.edges, o)
			requireSane(t, l)
			for i, a := range l.Nodes {
				for _, b := range l.Nodes[i+1:] {
					d := math.Hypot(a.X-b.X, a.Y-b.Y)
					assert.GreaterOrEqual(t, d, a.R+b.R, "nodes %d and %d overlap", a.ID, b.ID)
				}
			}
		})
	}
}

func TestLayoutGraphEdgesTrimmed(t *testing.T) {
	ns, es := mixedGraph()
	l := diagram.LayoutGraph(ns, es, diagram.GraphOptions{})
	nodes := byID(l)
	for _, e := range l.Edges {
		from, to := nodes[e.From], nodes[e.To]
		assert.InDelta(t, from.R, math.Hypot(e.X1-from.X, e.Y1-from.Y), 1e-6, "edge %d start", e.ID)
		assert.InDelta(t, to.R, math.Hypot(e.X2-to.X, e.Y2-to.Y), 1e-6, "edge %d end", e.ID)
		if !e.Self {
			// A lone edge is straight: its control point on the chord.
			cross := (e.X2-e.X1)*(e.CY-e.Y1) - (e.Y2-e.Y1)*(e.CX-e.X1)
			if e.From != 27 && e.From != 28 {
				assert.InDelta(t, 0, cross, 1e-6, "edge %d is straight", e.ID)
			}
			assert.True(t, strings.HasPrefix(e.Path(), "M ") && strings.Contains(e.Path(), " Q "), e.Path())
		}
	}
}

func TestLayoutGraphDropsDanglingEdges(t *testing.T) {
	ns, es := mixedGraph()
	l := diagram.LayoutGraph(ns, es, diagram.GraphOptions{})
	assert.Len(t, l.Edges, len(es)-2)
	for _, e := range l.Edges {
		assert.NotEqual(t, "dangling", e.Label)
	}
	for i := 1; i < len(l.Edges); i++ {
		assert.Less(t, l.Edges[i-1].ID, l.Edges[i].ID, "edges sorted by ID")
	}
}

func TestLayoutGraphSelfLoops(t *testing.T) {
	ns, es := mixedGraph()
	l := diagram.LayoutGraph(ns, es, diagram.GraphOptions{})
	n := byID(l)[3]
	var loops []diagram.PlacedEdge
	for _, e := range l.Edges {
		if e.From == e.To {
			require.True(t, e.Self)
			loops = append(loops, e)
		} else {
			require.False(t, e.Self)
		}
	}
	require.Len(t, loops, 2)
	for _, e := range loops {
		assert.Greater(t, math.Hypot(e.CX-n.X, e.CY-n.Y), 2*n.R, "the apex stands off the node")
		assert.Contains(t, e.Path(), " C ")
		assert.True(t, strings.HasPrefix(e.Arrow(6), "M ") && strings.HasSuffix(e.Arrow(6), " Z"))
	}
	assert.NotEqual(t, [2]float64{loops[0].LX, loops[0].LY}, [2]float64{loops[1].LX, loops[1].LY})
}

func TestLayoutGraphParallelEdgesHaveDistinctLabels(t *testing.T) {
	ns, es := mixedGraph()
	l := diagram.LayoutGraph(ns, es, diagram.GraphOptions{})
	seen := map[[2]float64]uint64{}
	for _, e := range l.Edges {
		if e.From == 27 || e.From == 28 {
			p := [2]float64{math.Round(e.LX), math.Round(e.LY)}
			assert.NotContains(t, seen, p, "edge %d shares its label position with %d", e.ID, seen[p])
			seen[p] = e.ID
		}
	}
	assert.Len(t, seen, 3)
}

func TestLayoutGraphRadiusGrowsWithDegree(t *testing.T) {
	l := diagram.LayoutGraph(nodesN(20), star(1, 2, 20, 1), diagram.GraphOptions{})
	nodes := byID(l)
	assert.Greater(t, nodes[1].R, nodes[2].R)
	assert.LessOrEqual(t, nodes[1].R, 24.0)
	assert.GreaterOrEqual(t, nodes[2].R, 10.0)
}

func TestLayoutGraphTruncates(t *testing.T) {
	ns := nodesN(500)
	// Node 500 is the hub: the best connected node is kept although its ID
	// is the highest.
	es := star(500, 1, 20, 1)
	l := diagram.LayoutGraph(ns, es, diagram.GraphOptions{})
	require.Len(t, l.Nodes, diagram.MaxGraphNodes)
	assert.Equal(t, 100, l.Truncated)
	assert.Contains(t, byID(l), uint64(500))
	assert.NotContains(t, byID(l), uint64(400), "isolated nodes beyond the cap go highest ID first")
	assert.Len(t, l.Edges, 20)
	requireSane(t, l)
}

func TestLayoutGraphViewportOptions(t *testing.T) {
	ns, es := mixedGraph()
	for _, tc := range []struct {
		name string
		o    diagram.GraphOptions
		w, h float64
	}{
		{"NaN and negative mean the default", diagram.GraphOptions{Width: math.NaN(), Height: -3}, 960, 640},
		{"infinite means the default", diagram.GraphOptions{Width: math.Inf(1), Height: math.Inf(-1)}, 960, 640},
		{"tiny is raised", diagram.GraphOptions{Width: 10, Height: 10}, 240, 200},
		{"wide and flat", diagram.GraphOptions{Width: 1600, Height: 300}, 1600, 300},
		{"one iteration", diagram.GraphOptions{Iterations: 1}, 960, 640},
		{"many iterations are capped", diagram.GraphOptions{Iterations: 1 << 30}, 960, 640},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := diagram.LayoutGraph(ns, es, tc.o)
			assert.Equal(t, tc.w, l.Width)
			assert.Equal(t, tc.h, l.Height)
			requireSane(t, l)
		})
	}
}

func TestLayoutGraphLongLabels(t *testing.T) {
	long := strings.Repeat("é", 200)
	l := diagram.LayoutGraph([]diagram.Node{{ID: 1, Label: long}, {ID: 2, Label: "\xff\xfe"}},
		[]diagram.Edge{{ID: 1, From: 1, To: 2, Label: long}}, diagram.GraphOptions{Width: 240, Height: 200})
	requireSane(t, l)
	assert.Equal(t, diagram.MaxLabelRunes, utf8.RuneCountInString(l.Nodes[0].Short))
	assert.True(t, strings.HasSuffix(l.Nodes[0].Short, "…"))
	assert.Equal(t, long, l.Nodes[0].Label, "the full label is kept")
}

func FuzzLayoutGraph(f *testing.F) {
	f.Add([]byte{5, 1, 2, 2, 3, 3, 3, 9, 1}, uint16(0), uint16(0))
	f.Add([]byte{40, 0, 0, 1, 1, 1, 2, 2, 1, 7, 7, 7}, uint16(300), uint16(50000))
	f.Add([]byte{}, uint16(1), uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, w, h uint16) {
		if len(data) == 0 {
			data = []byte{0}
		}
		// IDs are small so that duplicates, loops and dangling ends occur.
		var ns []diagram.Node
		for i := range int(data[0]) {
			ns = append(ns, diagram.Node{ID: uint64(i * 7 % 61), Label: strings.Repeat("w", i%40)})
		}
		var es []diagram.Edge
		for i := 1; i+1 < len(data); i += 2 {
			es = append(es, diagram.Edge{ID: uint64(i), From: uint64(data[i] % 64), To: uint64(data[i+1] % 64), Label: "r"})
		}
		l := diagram.LayoutGraph(ns, es, diagram.GraphOptions{Width: float64(w), Height: float64(h), Iterations: int(data[0] % 50)})
		requireSane(t, l)
	})
}

var sinkGraph diagram.GraphLayout

func BenchmarkLayoutGraph(b *testing.B) {
	ns := nodesN(diagram.MaxGraphNodes)
	rng := rand.New(rand.NewPCG(3, 5))
	var es []diagram.Edge
	for i := range 2 * len(ns) {
		es = append(es, diagram.Edge{ID: uint64(i), From: rng.Uint64N(400) + 1, To: rng.Uint64N(400) + 1})
	}
	b.ReportAllocs()
	for b.Loop() {
		sinkGraph = diagram.LayoutGraph(ns, es, diagram.GraphOptions{})
	}
}
