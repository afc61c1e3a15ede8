package viewer

import (
	"errors"
	"net/http"
	"slices"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
)

// chain is one source event's provenance: the card, its block and its
// cited messages, each checked the way sgdump trace checks them.
type chain struct {
	EventID  uint64
	Missing  bool // the event is not stored (a damaged file)
	Card     events.Card
	Block    *stratagate.Block
	Messages []chainMessage
	Quotes   []quoteRow
	OK       bool
}

type chainMessage struct {
	messageRow
	InBlock bool
}

type traceData struct {
	Kind   string
	ID     uint64
	Fact   *graph.Fact
	Edge   *graph.Edge
	Node   *stratagate.NodeDetail
	Names  map[uint64]string
	Chains []chain
	OK     bool
}

func (h *Handler) trace(r *http.Request) (view, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return view{}, err
	}
	ctx := r.Context()
	d := traceData{Kind: r.PathValue("kind"), ID: id}
	var sources []uint64
	switch d.Kind {
	case "event":
		sources = []uint64{id}
	case "fact":
		f, err := h.mem.GraphFact(ctx, id)
		if err != nil {
			return view{}, err
		}
		d.Fact, sources = &f, f.SourceEventIDs
	case "edge":
		e, err := h.mem.GraphEdge(ctx, id)
		if err != nil {
			return view{}, err
		}
		d.Edge, sources = &e, e.SourceEventIDs
	case "node":
		n, err := h.mem.GraphNodeHistory(ctx, id)
		if err != nil {
			return view{}, err
		}
		d.Node = &n
		sources = slices.Clone(n.Node.SourceEventIDs)
		for _, f := range n.Facts {
			sources = append(sources, f.SourceEventIDs...)
		}
		for _, e := range n.Edges {
			sources = append(sources, e.SourceEventIDs...)
		}
		slices.Sort(sources)
		sources = slices.Compact(sources)
	default:
		return view{}, errNotFound("trace kind", d.Kind+" (want event, fact, edge or node)")
	}
	if d.Kind != "event" {
		if d.Names, err = h.nodeNames(r); err != nil {
			return view{}, err
		}
	}
	blocks := map[string][]stratagate.Block{}
	d.OK = len(sources) > 0
	for _, ev := range sources {
		c, err := h.chain(r, blocks, ev)
		if err != nil {
			return view{}, err
		}
		d.OK = d.OK && c.OK
		d.Chains = append(d.Chains, c)
	}
	return view{page: "trace", title: "Trace " + d.Kind + " " + idString(id), nav: "events", data: d}, nil
}

// chain follows event id down to its verbatim messages.
func (h *Handler) chain(r *http.Request, blocks map[string][]stratagate.Block, id uint64) (chain, error) {
	ctx := r.Context()
	c := chain{EventID: id}
	det, err := h.mem.ExpandEvent(ctx, id)
	if errors.Is(err, stratagate.ErrNotFound) {
		c.Missing = true
		return c, nil
	}
	if err != nil {
		return c, err
	}
	c.Card = det.Card
	bs, ok := blocks[det.Card.Thread]
	if !ok {
		if bs, err = h.mem.Blocks(ctx, det.Card.Thread); err != nil && !errors.Is(err, stratagate.ErrNotFound) {
			return c, err
		}
		blocks[det.Card.Thread] = bs
	}
	for i := range bs {
		if bs[i].ID == det.Card.SourceBlockID {
			c.Block = &bs[i]
		}
	}
	c.OK = c.Block != nil && len(det.Sources) == len(det.Card.SourceMessageIDs)
	for _, m := range det.Sources {
		cm := chainMessage{messageRow: messageRow{Message: m, HashOK: m.SHA256 == m.Hash()}}
		cm.InBlock = c.Block != nil && slices.Contains(c.Block.MessageIDs, m.ID)
		c.OK = c.OK && cm.HashOK && cm.InBlock
		c.Messages = append(c.Messages, cm)
	}
	c.Quotes = quoteRows(&det)
	for _, q := range c.Quotes {
		c.OK = c.OK && q.Found
	}
	return c, nil
}
