// Package diagram computes the geometry of the viewer's two drawings, the
// current-state graph and the event timeline, for templates to turn into
// SVG elements. It is pure: no I/O, no randomness, no dependency beyond
// the standard library. It emits no SVG text and escapes nothing; the one
// exception is PlacedEdge.Path and Arrow, which return path data ("d")
// made only of commands and numbers.
//
// # Graph
//
// LayoutGraph places nodes with a Fruchterman–Reingold force simulation
// (linear cooling, a weak pull to the centroid) run separately on each
// connected component; isolated nodes go to a grid. The blocks are packed
// in rows with the longest edge length, between 40 and 130 pixels, at
// which every node's room fits the viewport; a graph that does not fit
// even so is scaled down. Overlapping circles are then pushed apart.
// Invariants of the result:
//
//   - Deterministic: the start positions come from a golden-angle spiral
//     in breadth-first order over ID-sorted nodes, so the same nodes and
//     edges in any order give identical output.
//   - Every circle, node label (centred at LX,LY below the circle, at most
//     MaxLabelRunes runes at LabelFontSize), self-loop and edge label lies
//     inside [0,Width]×[0,Height]. No coordinate is NaN or infinite.
//   - Radii grow with degree from 10 to 24 pixels, shrunk (to 40% at
//     most) when the circles would cover more than a tenth of the
//     viewport.
//   - Edge ends lie on the circles' borders; edges between the same two
//     nodes (either direction) bend apart, so their labels differ.
//   - At most MaxGraphNodes nodes are placed; the rest are counted in
//     Truncated. The simulation costs O(iterations·n²); the default
//     iterations shrink with n so that 400 nodes take about 30 ms.
//
// # Timeline
//
// LayoutTimeline draws one row per span, in the caller's order, on a time
// axis that covers every mention and happened interval (or a window the
// caller fixes). Ticks fall on UTC calendar boundaries with a step chosen
// to fit their labels: days or weeks ("2023-05-08"), months ("May 2023")
// or years ("2023", then 2, 5, 10, ... years). The axis works in the years
// 1 to 9999; times are converted to float seconds, not time.Duration,
// which would overflow after 292 years.
package diagram
