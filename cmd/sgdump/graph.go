package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
)

// graphNodeOut is a graph node in JSON.
type graphNodeOut struct {
	ID             uint64   `json:"id"`
	Name           string   `json:"name"`
	Kind           string   `json:"kind"`
	Scope          string   `json:"scope"`
	Aliases        []string `json:"aliases"`
	Tags           []string `json:"tags"`
	CreatedAt      string   `json:"created_at"`
	SourceEventIDs []uint64 `json:"source_event_ids"`
}

func toGraphNode(n *graph.Node) graphNodeOut {
	return graphNodeOut{
		ID: n.ID, Name: n.Name, Kind: string(n.Kind), Scope: n.Scope, Aliases: nonNil(n.Aliases), Tags: nonNil(n.Tags),
		CreatedAt: stamp(n.CreatedAt), SourceEventIDs: nonNil(n.SourceEventIDs),
	}
}

// graphFactOut is a fact in JSON with its bi-temporal fields: valid_from
// and valid_to bound when it was true in the world ("" = unbounded; the
// interval is half-open), recorded_at is when it was learned and closed_at
// when its closing was recorded. active: a source event is active.
type graphFactOut struct {
	ID             uint64   `json:"id"`
	Node           uint64   `json:"node"`
	Key            string   `json:"key"`
	Value          string   `json:"value"`
	ValidFrom      string   `json:"valid_from"`
	ValidTo        string   `json:"valid_to"`
	RecordedAt     string   `json:"recorded_at"`
	ClosedAt       string   `json:"closed_at"`
	Active         bool     `json:"active"`
	SourceEventIDs []uint64 `json:"source_event_ids"`
}

func toGraphFact(f *graph.Fact) graphFactOut {
	return graphFactOut{
		ID: f.ID, Node: f.Node, Key: f.Key, Value: f.Value, ValidFrom: stamp(f.ValidFrom), ValidTo: stamp(f.ValidTo),
		RecordedAt: stamp(f.RecordedAt), ClosedAt: stamp(f.ClosedAt), Active: f.Active, SourceEventIDs: nonNil(f.SourceEventIDs),
	}
}

// graphEdgeOut is an edge in JSON; to is 0 when the target is a named
// value without a node, to_name names the target either way.
type graphEdgeOut struct {
	ID             uint64   `json:"id"`
	From           uint64   `json:"from"`
	FromName       string   `json:"from_name"`
	To             uint64   `json:"to"`
	ToName         string   `json:"to_name"`
	Relation       string   `json:"relation"`
	ValidFrom      string   `json:"valid_from"`
	ValidTo        string   `json:"valid_to"`
	RecordedAt     string   `json:"recorded_at"`
	ClosedAt       string   `json:"closed_at"`
	Active         bool     `json:"active"`
	SourceEventIDs []uint64 `json:"source_event_ids"`
}

// toGraphEdge converts ed; names gives node names by id (the target's
// current name replaces the name the edge was written with).
func toGraphEdge(ed *graph.Edge, names map[uint64]string) graphEdgeOut {
	o := graphEdgeOut{
		ID: ed.ID, From: ed.From, FromName: names[ed.From], To: ed.To, ToName: ed.ToName, Relation: ed.Relation,
		ValidFrom: stamp(ed.ValidFrom), ValidTo: stamp(ed.ValidTo), RecordedAt: stamp(ed.RecordedAt),
		ClosedAt: stamp(ed.ClosedAt), Active: ed.Active, SourceEventIDs: nonNil(ed.SourceEventIDs),
	}
	if n, ok := names[ed.To]; ok && ed.To != 0 {
		o.ToName = n
	}
	return o
}

// graphStateNodeOut is a node of "graph" with the facts valid as of the
// requested time.
type graphStateNodeOut struct {
	graphNodeOut
	Facts []graphFactOut `json:"facts"`
}

type graphOut struct {
	AsOf   string              `json:"as_of"`
	Scopes []string            `json:"scopes"` // [] = every scope
	Nodes  []graphStateNodeOut `json:"nodes"`
	Edges  []graphEdgeOut      `json:"edges"`
}

var graphCommand = &command{
	name: "graph", args: "[-as-of DATE] [-format text|dot|json] [-scope S]...",
	summary: "the graph now or as of DATE: nodes with their facts, and edges",
	define: func(fs *flag.FlagSet) runner {
		asOf := fs.String("as-of", "", "the state at `DATE`: 2006-01-02 (00:00 UTC) or RFC 3339; default now")
		format := fs.String("format", "text", "`FORMAT`: text, dot (Graphviz) or json (as -json)")
		var scopes multiFlag
		fs.Var(&scopes, "scope", "only nodes of `SCOPE` (repeatable; default every scope)")
		return func(e *env, args []string) error { return runGraph(e, args, *asOf, *format, scopes) }
	},
}

// parseAsOf parses -as-of: a date (its 00:00 UTC) or an RFC 3339 time.
func parseAsOf(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Time{}, usagef("-as-of %q: want a date (2006-01-02) or an RFC 3339 time", s)
}

// allNodes reads every node through the read-only kv handle.
func allNodes(e *env) ([]graph.Node, error) {
	var nodes []graph.Node
	err := e.view(func(tx *bolt.Tx) error {
		return graph.ForEachNode(tx, func(n graph.Node) error {
			nodes = append(nodes, n)
			return nil
		})
	})
	return nodes, err
}

func runGraph(e *env, args []string, asOfFlag, format string, scopes []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q", args[0])
	}
	if err := oneOf("format", format, "text", "dot", "json"); err != nil {
		return err
	}
	if e.json && format == "dot" {
		return usagef("-json and -format dot conflict: choose one")
	}
	asOf := time.Now()
	if asOfFlag != "" {
		var err error
		if asOf, err = parseAsOf(asOfFlag); err != nil {
			return err
		}
	}
	mem, err := e.memory()
	if err != nil {
		return err
	}
	nodes, err := allNodes(e)
	if err != nil {
		return err
	}
	names := map[uint64]string{}
	kinds := map[uint64]string{}
	for _, n := range nodes {
		names[n.ID], kinds[n.ID] = n.Name, string(n.Kind)
	}
	o := graphOut{AsOf: stamp(asOf), Scopes: nonNil(scopes), Nodes: []graphStateNodeOut{}, Edges: []graphEdgeOut{}}
	for _, n := range nodes {
		if len(scopes) > 0 && !slices.Contains(scopes, n.Scope) {
			continue
		}
		d, err := mem.ExpandGraphNode(e.ctx, n.ID, asOf)
		if err != nil {
			return err
		}
		so := graphStateNodeOut{graphNodeOut: toGraphNode(&d.Node), Facts: []graphFactOut{}}
		for i := range d.Facts {
			so.Facts = append(so.Facts, toGraphFact(&d.Facts[i]))
		}
		o.Nodes = append(o.Nodes, so)
		for i := range d.Edges {
			if d.Edges[i].From == n.ID { // each edge once, from its source node
				o.Edges = append(o.Edges, toGraphEdge(&d.Edges[i], names))
			}
		}
	}
	switch {
	case format == "dot":
		w := newEscaper(e.stdout)
		if err := writeDot(w, &o, names, kinds); err != nil {
			return err
		}
		return w.Flush()
	case format == "json":
		e.json = true
	}
	return e.emit(o, func(w io.Writer) error { return writeGraphText(w, &o) })
}

func writeGraphText(w io.Writer, o *graphOut) error {
	where := "every scope"
	if len(o.Scopes) > 0 {
		where = "scope " + strings.Join(o.Scopes, ", ")
	}
	fmt.Fprintf(w, "graph as of %s, %s\n\n", o.AsOf, where)
	facts := 0
	for _, n := range o.Nodes {
		var kvs, ids []string
		for _, f := range n.Facts {
			kvs = append(kvs, f.Key+"="+factValue(f.Value))
			ids = append(ids, strconv.FormatUint(f.ID, 10))
		}
		facts += len(n.Facts)
		line := strings.Join(kvs, " ")
		if line == "" {
			line = "(no facts)"
		}
		ref := fmt.Sprintf("node %d", n.ID)
		if len(ids) > 0 {
			ref += ", facts " + strings.Join(ids, " ")
		}
		fmt.Fprintf(w, "%s (%s): %s   # %s\n", n.Name, n.Kind, line, ref)
	}
	if len(o.Edges) > 0 {
		fmt.Fprintln(w, "\nedges:")
		for _, ed := range o.Edges {
			fmt.Fprintf(w, "%s —%s→ %s   # edge %d\n", ed.FromName, ed.Relation, ed.ToName, ed.ID)
		}
	}
	fmt.Fprintf(w, "\n%d nodes, %d facts, %d edges\n", len(o.Nodes), facts, len(o.Edges))
	if len(o.Nodes) > 0 {
		fmt.Fprintln(w, "provenance: sgdump trace node|fact|edge ID")
	}
	return nil
}

// factValue quotes a value that would not read as one word.
func factValue(s string) string {
	if s == "" || strings.ContainsAny(s, "=\"") || strings.ContainsFunc(s, unicode.IsSpace) {
		return strconv.Quote(s)
	}
	return s
}

// dotQuote renders s as a Graphviz double-quoted string: backslashes and
// quotes escaped, a newline as the \n line break, other control
// characters as spaces.
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case unicode.IsControl(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// writeDot writes o as a Graphviz digraph: node n<ID> labelled
// "Name\n(kind)", a named value without a node as a dashed v<N>, each edge
// labelled with its relation.
func writeDot(w io.Writer, o *graphOut, names, kinds map[uint64]string) error {
	fmt.Fprintln(w, "digraph stratagate {")
	fmt.Fprintf(w, "  graph [label=%s, labelloc=t];\n", dotQuote("StrataGate graph as of "+o.AsOf))
	fmt.Fprintln(w, "  node [shape=box];")
	declared := map[uint64]bool{}
	declare := func(id uint64, name, kind string) {
		if !declared[id] {
			declared[id] = true
			fmt.Fprintf(w, "  n%d [label=%s];\n", id, dotQuote(name+"\n("+kind+")"))
		}
	}
	for _, n := range o.Nodes {
		declare(n.ID, n.Name, n.Kind)
	}
	values := map[string]string{}
	for _, ed := range o.Edges {
		to := fmt.Sprintf("n%d", ed.To)
		if ed.To == 0 {
			k := graph.NameKey(ed.ToName)
			if values[k] == "" {
				values[k] = fmt.Sprintf("v%d", len(values)+1)
				fmt.Fprintf(w, "  %s [label=%s, shape=ellipse, style=dashed];\n", values[k], dotQuote(ed.ToName))
			}
			to = values[k]
		} else {
			declare(ed.To, names[ed.To], kinds[ed.To]) // a node outside -scope
		}
		fmt.Fprintf(w, "  n%d -> %s [label=%s];\n", ed.From, to, dotQuote(ed.Relation))
	}
	_, err := fmt.Fprintln(w, "}")
	return err
}

// sourceChains reads the cards ids name and follows each down to L5.
func sourceChains(e *env, mem *stratagate.Memory, ids []uint64) (chains []eventTraceOut, missing []uint64, err error) {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	cards, missing, err := getCards(e, ids)
	if err != nil {
		return nil, nil, err
	}
	chains = []eventTraceOut{}
	cc := &chainCache{}
	for i := range cards {
		ch, err := eventChain(e, mem, cc, &cards[i])
		if err != nil {
			return nil, nil, err
		}
		chains = append(chains, ch)
	}
	return chains, missing, nil
}

// anyActive reports whether a chain's card is active: what makes a fact
// or edge read from the store (not through Expand) active.
func anyActive(chains []eventTraceOut, ids []uint64) bool {
	for _, c := range chains {
		if slices.Contains(ids, c.Event.ID) && c.Event.Lifecycle == string(events.LifecycleActive) {
			return true
		}
	}
	return false
}

// factTraceOut is "trace fact" in JSON.
type factTraceOut struct {
	Fact            graphFactOut    `json:"fact"`
	Node            *graphNodeOut   `json:"node"` // null: the node is not stored
	SourceEvents    []eventTraceOut `json:"source_events"`
	MissingEventIDs []uint64        `json:"missing_event_ids"`
}

func traceFact(e *env, id uint64) error {
	mem, err := e.memory()
	if err != nil {
		return err
	}
	var (
		f     graph.Fact
		node  *graphNodeOut
		found bool
	)
	if err := e.view(func(tx *bolt.Tx) error {
		var gerr error
		if f, gerr = graph.GetFact(tx, id); errors.Is(gerr, graph.ErrNotFound) {
			return nil
		} else if gerr != nil {
			return gerr
		}
		found = true
		if n, gerr := graph.GetNode(tx, f.Node); gerr == nil {
			no := toGraphNode(&n)
			node = &no
		}
		return nil
	}); err != nil {
		return err
	}
	if !found {
		return notFound("fact", id)
	}
	o := factTraceOut{Node: node}
	if o.SourceEvents, o.MissingEventIDs, err = sourceChains(e, mem, f.SourceEventIDs); err != nil {
		return err
	}
	f.Active = anyActive(o.SourceEvents, f.SourceEventIDs)
	o.Fact = toGraphFact(&f)
	return e.emit(o, func(w io.Writer) error {
		ft := &o.Fact
		tw := newTable(w)
		fmt.Fprintf(tw, "fact\t%d\n", ft.ID)
		fmt.Fprintf(tw, "node\t%s\n", nodeRef(ft.Node, o.Node))
		fmt.Fprintf(tw, "statement\t%s=%s\n", ft.Key, factValue(ft.Value))
		writeBitemporal(tw, ft.ValidFrom, ft.ValidTo, ft.RecordedAt, ft.ClosedAt, ft.Active)
		fmt.Fprintf(tw, "sources\t%s\n", citeList(ft.SourceEventIDs))
		if err := tw.Flush(); err != nil {
			return err
		}
		writeSourceChains(w, o.SourceEvents, o.MissingEventIDs)
		return nil
	})
}

// edgeTraceOut is "trace edge" in JSON.
type edgeTraceOut struct {
	Edge            graphEdgeOut    `json:"edge"`
	From            *graphNodeOut   `json:"from"` // null: not stored
	To              *graphNodeOut   `json:"to"`   // null: a named value without a node, or not stored
	SourceEvents    []eventTraceOut `json:"source_events"`
	MissingEventIDs []uint64        `json:"missing_event_ids"`
}

func traceEdge(e *env, id uint64) error {
	mem, err := e.memory()
	if err != nil {
		return err
	}
	var (
		ed       graph.Edge
		from, to *graphNodeOut
		found    bool
		names    = map[uint64]string{}
	)
	if err := e.view(func(tx *bolt.Tx) error {
		var gerr error
		if ed, gerr = graph.GetEdge(tx, id); errors.Is(gerr, graph.ErrNotFound) {
			return nil
		} else if gerr != nil {
			return gerr
		}
		found = true
		if n, gerr := graph.GetNode(tx, ed.From); gerr == nil {
			no := toGraphNode(&n)
			from, names[n.ID] = &no, n.Name
		}
		if ed.To != 0 {
			if n, gerr := graph.GetNode(tx, ed.To); gerr == nil {
				no := toGraphNode(&n)
				to, names[n.ID] = &no, n.Name
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if !found {
		return notFound("edge", id)
	}
	o := edgeTraceOut{From: from, To: to}
	if o.SourceEvents, o.MissingEventIDs, err = sourceChains(e, mem, ed.SourceEventIDs); err != nil {
		return err
	}
	ed.Active = anyActive(o.SourceEvents, ed.SourceEventIDs)
	o.Edge = toGraphEdge(&ed, names)
	return e.emit(o, func(w io.Writer) error {
		eo := &o.Edge
		tw := newTable(w)
		fmt.Fprintf(tw, "edge\t%d\n", eo.ID)
		fmt.Fprintf(tw, "relation\t%s —%s→ %s\n", dash(eo.FromName), eo.Relation, eo.ToName)
		fmt.Fprintf(tw, "from\t%s\n", nodeRef(eo.From, o.From))
		if eo.To == 0 {
			fmt.Fprintf(tw, "to\t%s (a named value, no node)\n", strconv.Quote(eo.ToName))
		} else {
			fmt.Fprintf(tw, "to\t%s\n", nodeRef(eo.To, o.To))
		}
		writeBitemporal(tw, eo.ValidFrom, eo.ValidTo, eo.RecordedAt, eo.ClosedAt, eo.Active)
		fmt.Fprintf(tw, "sources\t%s\n", citeList(eo.SourceEventIDs))
		if err := tw.Flush(); err != nil {
			return err
		}
		writeSourceChains(w, o.SourceEvents, o.MissingEventIDs)
		return nil
	})
}

// nodeTraceOut is "trace node" in JSON: the node with its whole history
// (closed and inactive facts and edges too).
type nodeTraceOut struct {
	Node            graphNodeOut    `json:"node"`
	Facts           []graphFactOut  `json:"facts"`
	Edges           []graphEdgeOut  `json:"edges"` // outgoing, then incoming
	SourceEvents    []eventTraceOut `json:"source_events"`
	MissingEventIDs []uint64        `json:"missing_event_ids"`
}

func traceNode(e *env, id uint64) error {
	mem, err := e.memory()
	if err != nil {
		return err
	}
	d, err := mem.GraphNodeHistory(e.ctx, id)
	if errors.Is(err, stratagate.ErrNotFound) {
		return notFound("node", id)
	}
	if err != nil {
		return err
	}
	names := map[uint64]string{id: d.Node.Name}
	if err := e.view(func(tx *bolt.Tx) error {
		for _, ed := range d.Edges {
			for _, nid := range []uint64{ed.From, ed.To} {
				if _, ok := names[nid]; !ok && nid != 0 {
					if n, gerr := graph.GetNode(tx, nid); gerr == nil {
						names[nid] = n.Name
					}
				}
			}
		}
		return nil
	}); err != nil {
		return err
	}
	o := nodeTraceOut{Node: toGraphNode(&d.Node), Facts: []graphFactOut{}, Edges: []graphEdgeOut{}}
	srcs := slices.Clone(d.Node.SourceEventIDs)
	for i := range d.Facts {
		o.Facts = append(o.Facts, toGraphFact(&d.Facts[i]))
		srcs = append(srcs, d.Facts[i].SourceEventIDs...)
	}
	for i := range d.Edges {
		o.Edges = append(o.Edges, toGraphEdge(&d.Edges[i], names))
		srcs = append(srcs, d.Edges[i].SourceEventIDs...)
	}
	if o.SourceEvents, o.MissingEventIDs, err = sourceChains(e, mem, srcs); err != nil {
		return err
	}
	return e.emit(o, func(w io.Writer) error {
		n := &o.Node
		tw := newTable(w)
		fmt.Fprintf(tw, "node\t%d\n", n.ID)
		fmt.Fprintf(tw, "name\t%s\n", n.Name)
		fmt.Fprintf(tw, "kind\t%s\n", n.Kind)
		fmt.Fprintf(tw, "scope\t%s\n", n.Scope)
		fmt.Fprintf(tw, "aliases\t%s\n", dash(strings.Join(n.Aliases, ", ")))
		fmt.Fprintf(tw, "tags\t%s\n", dash(strings.Join(n.Tags, ", ")))
		fmt.Fprintf(tw, "created\t%s\n", dash(n.CreatedAt))
		fmt.Fprintf(tw, "named by\t%s\n", citeList(n.SourceEventIDs))
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nfacts, whole history (%d):\n", len(o.Facts))
		for _, f := range o.Facts {
			fmt.Fprintf(w, "  #%d  %s=%s  valid %s  recorded %s%s  %s  sources %s\n", f.ID, f.Key, factValue(f.Value),
				interval(f.ValidFrom, f.ValidTo), dash(f.RecordedAt), closedText(f.ClosedAt), activeWord(f.Active), citeList(f.SourceEventIDs))
		}
		fmt.Fprintf(w, "\nedges, whole history (%d):\n", len(o.Edges))
		for _, ed := range o.Edges {
			fmt.Fprintf(w, "  #%d  %s —%s→ %s  valid %s  recorded %s%s  %s  sources %s\n", ed.ID, dash(ed.FromName), ed.Relation, ed.ToName,
				interval(ed.ValidFrom, ed.ValidTo), dash(ed.RecordedAt), closedText(ed.ClosedAt), activeWord(ed.Active), citeList(ed.SourceEventIDs))
		}
		writeSourceChains(w, o.SourceEvents, o.MissingEventIDs)
		return nil
	})
}

// nodeRef names a node: "3  Mia Chen (person, global)".
func nodeRef(id uint64, n *graphNodeOut) string {
	if n == nil {
		return fmt.Sprintf("%d  MISSING: not stored", id)
	}
	return fmt.Sprintf("%d  %s (%s, %s)", id, n.Name, n.Kind, n.Scope)
}

// writeBitemporal writes a fact's or edge's two clocks as table rows.
func writeBitemporal(tw io.Writer, from, to, recorded, closed string, active bool) {
	fmt.Fprintf(tw, "valid from\t%s\n", orText(from, "- (unbounded)"))
	fmt.Fprintf(tw, "valid to\t%s\n", orText(to, "- (still true)"))
	fmt.Fprintf(tw, "recorded at\t%s\n", dash(recorded))
	fmt.Fprintf(tw, "closed at\t%s\n", orText(closed, "- (not closed)"))
	if active {
		fmt.Fprintf(tw, "active\tyes: a source event is active\n")
	} else {
		fmt.Fprintf(tw, "active\tno: every source event is superseded, forgotten or missing\n")
	}
}

func orText(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// interval renders a half-open valid-time interval.
func interval(from, to string) string {
	return fmt.Sprintf("[%s, %s)", orText(from, "…"), orText(to, "open"))
}

func closedText(closed string) string {
	if closed == "" {
		return ""
	}
	return "  closed " + closed
}

func activeWord(active bool) string {
	if active {
		return "active"
	}
	return "INACTIVE"
}

// writeSourceChains writes the source events of a fact, edge or node,
// each down to its messages.
func writeSourceChains(w io.Writer, chains []eventTraceOut, missing []uint64) {
	fmt.Fprintf(w, "\nsource events (%d):\n", len(chains)+len(missing))
	for i := range chains {
		writeChainCompact(w, &chains[i])
	}
	for _, id := range missing {
		fmt.Fprintf(w, "  event #%d  MISSING: not stored or unreadable\n", id)
	}
}
