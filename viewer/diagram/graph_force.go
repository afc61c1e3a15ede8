package diagram

import (
	"cmp"
	"math"
	"slices"
)

// place sets every node's centre: each connected component is laid out by
// its own force simulation, isolated nodes go to a grid, and the blocks are
// packed in rows with the longest edge length (within bounds) that fits the
// w×h viewport, so that labels keep their room; only when even the
// shortest does not fit is the whole scaled down.
func (g *graph) place(w, h float64, iters int) {
	g.shrinkRadii(w, h)
	g.setExtents()
	var blocks []block
	var singles []int
	for _, c := range g.components() {
		if len(c) == 1 {
			singles = append(singles, c[0])
			continue
		}
		b := g.force(c, iters)
		b.ext = g.maxExtents(c)
		blocks = append(blocks, b)
	}
	if len(singles) > 0 {
		blocks = append(blocks, gridBlock(singles, g.maxExtents(singles), w/h))
	}
	// The shelf width is tried at a few multiples of the square one, for
	// the packing that allows the longest edges once fitted.
	best, bestLen, bestRow := 0.0, 0.0, 1.0
	for _, row := range []float64{1, 0.7, 1.4, 2} {
		fits := func(length float64) bool {
			packBlocks(blocks, length, row*w/h, g.x, g.y)
			return g.fits(1, w, h)
		}
		lo, hi := max(minLength, 2*slices.Max(g.r)+2*minSeparation), maxLength
		score := lo
		switch {
		case fits(hi):
			lo, score = hi, hi
		case fits(lo):
			for range 12 {
				if mid := (lo + hi) / 2; fits(mid) {
					lo = mid
				} else {
					hi = mid
				}
			}
			score = lo
		default:
			score = lo * g.fitScale(w, h) // fits(lo) left the packing at lo
		}
		if score > best {
			best, bestLen, bestRow = score, lo, row
		}
	}
	packBlocks(blocks, bestLen, bestRow*w/h, g.x, g.y)
	g.fit(w, h)
	g.separate(w, h)
}

// shrinkRadii scales the circles down (to 40% at most) when their area
// would crowd the viewport, as hundreds of nodes do.
func (g *graph) shrinkRadii(w, h float64) {
	var area float64
	for _, r := range g.r {
		area += math.Pi * r * r
	}
	s := min(1, max(0.4, math.Sqrt(crowding*w*h/area)))
	for i := range g.r {
		g.r[i] *= s
	}
}

// block is a group of nodes whose centres span [0,w]×[0,h], in units of
// the edge length when scaled is set, else in pixels; ext is the most room
// its nodes need around their centres.
type block struct {
	nodes  []int
	x, y   []float64
	w, h   float64
	scaled bool
	ext    extents
}

// components returns the connected components, biggest first (ties: the
// lowest node index first), each sorted by node index.
func (g *graph) components() [][]int {
	seen := make([]bool, len(g.nodes))
	var out [][]int
	for s := range g.nodes {
		if seen[s] {
			continue
		}
		seen[s] = true
		c := []int{s}
		for q := 0; q < len(c); q++ {
			for _, u := range g.adj[c[q]] {
				if !seen[u] {
					seen[u] = true
					c = append(c, u)
				}
			}
		}
		slices.Sort(c)
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b []int) int { return cmp.Compare(len(b), len(a)) })
	return out
}

// force runs Fruchterman–Reingold with an ideal edge length of 1 on one
// component. Start positions come from a golden-angle spiral in
// breadth-first order from the best-connected node, so neighbours start
// close and nothing depends on chance.
func (g *graph) force(comp []int, iters int) block {
	n := len(comp)
	loc := make(map[int]int, n)
	for i, v := range comp {
		loc[v] = i
	}
	var pairs [][2]int
	hub := 0
	for i, v := range comp {
		if len(g.adj[v]) > len(g.adj[comp[hub]]) {
			hub = i
		}
		for _, u := range g.adj[v] {
			if j := loc[u]; j > i {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	x, y := make([]float64, n), make([]float64, n)
	rank := 0
	seen := make([]bool, n)
	seen[hub] = true
	for q := []int{hub}; len(q) > 0; q = q[1:] {
		i := q[0]
		a, rad := float64(rank)*2.399963, 0.6*math.Sqrt(float64(rank)+0.5)
		x[i], y[i] = rad*math.Cos(a), rad*math.Sin(a)
		rank++
		for _, u := range g.adj[comp[i]] {
			if j := loc[u]; !seen[j] {
				seen[j] = true
				q = append(q, j)
			}
		}
	}

	if iters <= 0 {
		iters = int(min(300, max(30, iterationWork/float64(n*n))))
	}
	iters = min(iters, maxIterations)
	dx, dy := make([]float64, n), make([]float64, n)
	t0 := 0.25*math.Sqrt(float64(n)) + 0.5
	for it := range iters {
		clear(dx)
		clear(dy)
		for i := range n {
			xi, yi := x[i], y[i]
			for j := i + 1; j < n; j++ {
				ddx, ddy := xi-x[j], yi-y[j]
				d2 := ddx*ddx + ddy*ddy
				if d2 < 1e-6 {
					// Coincident nodes: part them along a direction fixed by
					// their indexes instead of dividing by zero.
					ddx, ddy, d2 = 1e-3, 1e-3*float64((j-i)%5-2), 1e-6
				}
				fx, fy := ddx/d2, ddy/d2 // repulsion k²/d along the unit vector
				dx[i], dy[i] = dx[i]+fx, dy[i]+fy
				dx[j], dy[j] = dx[j]-fx, dy[j]-fy
			}
		}
		for _, p := range pairs {
			i, j := p[0], p[1]
			ddx, ddy := x[i]-x[j], y[i]-y[j]
			d := math.Sqrt(ddx*ddx + ddy*ddy)
			fx, fy := ddx*d, ddy*d // attraction d²/k along the unit vector
			dx[i], dy[i] = dx[i]-fx, dy[i]-fy
			dx[j], dy[j] = dx[j]+fx, dy[j]+fy
		}
		// A weak pull to the centroid curls long paths and trees into a
		// rounder shape that packs and fits better.
		var cx, cy float64
		for i := range n {
			cx, cy = cx+x[i], cy+y[i]
		}
		cx, cy = cx/float64(n), cy/float64(n)
		// Linear cooling: big moves early, fine adjustment at the end.
		t := t0*(1-float64(it)/float64(iters)) + 0.01
		for i := range n {
			fx, fy := dx[i]-gravity*(x[i]-cx), dy[i]-gravity*(y[i]-cy)
			if l := math.Sqrt(fx*fx + fy*fy); l > 0 && !math.IsInf(l, 0) {
				s := min(l, t) / l
				x[i], y[i] = x[i]+fx*s, y[i]+fy*s
			}
		}
	}
	b := normalise(block{nodes: comp, x: x, y: y})
	b.scaled = true
	return b
}

// normalise moves a block's centres to start at 0,0 and records its size.
func normalise(b block) block {
	minX, minY := slices.Min(b.x), slices.Min(b.y)
	for i := range b.x {
		b.x[i], b.y[i] = b.x[i]-minX, b.y[i]-minY
	}
	b.w, b.h = slices.Max(b.x), slices.Max(b.y)
	return b
}

// gridBlock lays isolated nodes in a tidy grid of roughly the viewport's
// aspect ratio.
func gridBlock(nodes []int, ex extents, aspect float64) block {
	cw := 2*ex.side + 2*minSeparation
	ch := ex.top + ex.bottom + 2*minSeparation
	cols := max(1, int(math.Ceil(math.Sqrt(float64(len(nodes))*aspect*ch/cw))))
	b := block{nodes: nodes, x: make([]float64, len(nodes)), y: make([]float64, len(nodes)), ext: ex}
	for i := range nodes {
		b.x[i], b.y[i] = float64(i%cols)*cw, float64(i/cols)*ch
	}
	return normalise(b)
}

// packBlocks puts the blocks in rows (shelves) about as wide as a square
// of their total area stretched to the given aspect, scaling the
// components by length, and writes the resulting centres into x, y.
func packBlocks(blocks []block, length, aspect float64, x, y []float64) {
	scale := func(b block) float64 {
		if b.scaled {
			return length
		}
		return 1
	}
	gap := 2 * minSeparation
	fw := func(b block) float64 { return b.w*scale(b) + 2*b.ext.side + gap }
	fh := func(b block) float64 { return b.h*scale(b) + b.ext.top + b.ext.bottom + gap }
	var area, widest float64
	for _, b := range blocks {
		area += fw(b) * fh(b)
		widest = max(widest, fw(b))
	}
	row := max(widest, math.Sqrt(area*aspect))
	var cx, cy, rowH float64
	for _, b := range blocks {
		if cx > 0 && cx+fw(b) > row {
			cx, cy, rowH = 0, cy+rowH, 0
		}
		s := scale(b)
		for i, v := range b.nodes {
			x[v], y[v] = cx+b.ext.side+b.x[i]*s, cy+b.ext.top+b.y[i]*s
		}
		cx += fw(b)
		rowH = max(rowH, fh(b))
	}
}

// bounds is the box that the nodes' room covers when their centres are
// scaled by s.
func (g *graph) bounds(s float64) (x0, y0, x1, y1 float64) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for i, e := range g.ext {
		x0, x1 = min(x0, s*g.x[i]-e.side), max(x1, s*g.x[i]+e.side)
		y0, y1 = min(y0, s*g.y[i]-e.top), max(y1, s*g.y[i]+e.bottom)
	}
	return x0, y0, x1, y1
}

// fits says whether the nodes, centres scaled by s, fit the viewport.
func (g *graph) fits(s, w, h float64) bool {
	x0, y0, x1, y1 := g.bounds(s)
	return x1-x0 <= w-2*edgeMargin && y1-y0 <= h-2*edgeMargin
}

// fitScale is the largest scale (at most 1) of the centres at which the
// nodes fit the viewport.
func (g *graph) fitScale(w, h float64) float64 {
	if g.fits(1, w, h) {
		return 1
	}
	lo, hi := 0.0, 1.0
	for range 30 {
		if mid := (lo + hi) / 2; g.fits(mid, w, h) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// fit scales the centres down (never up) until the nodes' room fits the
// viewport, and centres the picture.
func (g *graph) fit(w, h float64) {
	s := g.fitScale(w, h)
	x0, y0, x1, y1 := g.bounds(s)
	ox, oy := (w-x0-x1)/2, (h-y0-y1)/2
	for i := range g.x {
		g.x[i], g.y[i] = g.clampNode(i, ox+s*g.x[i], oy+s*g.y[i], w, h)
	}
}

// clampNode keeps node i's room inside the viewport.
func (g *graph) clampNode(i int, x, y, w, h float64) (float64, float64) {
	e := g.ext[i]
	return clamp(x, e.side+edgeMargin, w-e.side-edgeMargin), clamp(y, e.top+edgeMargin, h-e.bottom-edgeMargin)
}

// separate pushes overlapping circles apart, keeping every node's room
// inside the viewport; fitting a big graph may have squeezed them. The
// passes are bounded so that a graph too dense to untangle still ends.
func (g *graph) separate(w, h float64) {
	n := len(g.x)
	passes := min(60, max(5, int(iterationWork/4/float64(n*n+1))))
	for range passes {
		moved := false
		for i := range n {
			for j := i + 1; j < n; j++ {
				dx, dy := g.x[j]-g.x[i], g.y[j]-g.y[i]
				need := g.r[i] + g.r[j] + minSeparation
				d2 := dx*dx + dy*dy
				if d2 >= need*need {
					continue
				}
				d := math.Sqrt(d2)
				ux, uy := unit(dx, dy, 1, float64((j-i)%3-1)*0.5)
				push := (need - d) / 2
				g.x[i], g.y[i] = g.clampNode(i, g.x[i]-ux*push, g.y[i]-uy*push, w, h)
				g.x[j], g.y[j] = g.clampNode(j, g.x[j]+ux*push, g.y[j]+uy*push, w, h)
				moved = true
			}
		}
		if !moved {
			return
		}
	}
}
