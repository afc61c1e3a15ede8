package viewer

import (
	"bytes"
	"errors"
	"net/http"
	"strconv"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/layers"
)

const (
	// defaultBudget is the token budget the thread page lays blocks out in,
	// as an agent's Context call would.
	defaultBudget = 4000
	maxBudget     = 1 << 20
	// blocksPerPage bounds one thread page; older blocks page backwards.
	blocksPerPage = 50
)

type blockRow struct {
	Block stratagate.Block
	Level int // the decay level Context shows it at; -1 = omitted for budget
	Text  string
}

type threadData struct {
	Thread  stratagate.Thread
	Budget  int
	Tokens  int
	Omitted int
	Rows    []blockRow
	Tail    []stratagate.Message
	Older   uint64 // the seq to page back to (0 = none)
	Newer   uint64
}

func (h *Handler) findThread(r *http.Request, name string) (stratagate.Thread, error) {
	ths, err := h.mem.Threads(r.Context())
	if err != nil {
		return stratagate.Thread{}, err
	}
	for _, th := range ths {
		if th.Name == name {
			return th, nil
		}
	}
	return stratagate.Thread{}, errNotFound("thread", strconv.Quote(name))
}

func (h *Handler) thread(r *http.Request) (view, error) {
	ctx := r.Context()
	name, err := formText(r, "name", 1024)
	if err != nil {
		return view{}, err
	}
	if name == "" {
		return view{}, errBadRequest("which thread? (/thread?name=NAME)")
	}
	budget := defaultBudget
	if s := r.FormValue("budget"); s != "" {
		if budget, err = strconv.Atoi(s); err != nil || budget <= 0 || budget > maxBudget {
			return view{}, errBadRequest("budget %q: want 1–%d tokens", s, maxBudget)
		}
	}
	th, err := h.findThread(r, name)
	if err != nil {
		return view{}, err
	}
	blocks, err := h.mem.Blocks(ctx, name)
	if err != nil {
		return view{}, err
	}
	cv, err := h.mem.Context(ctx, name, budget)
	if err != nil {
		return view{}, err
	}
	level := map[uint64]int{}
	for _, cb := range cv.Blocks {
		level[cb.BlockID] = cb.Level
	}
	d := threadData{Thread: th, Budget: budget, Tokens: cv.Tokens, Omitted: cv.Omitted}
	// A page ends at block seq "upto" (default: the newest) and shows the
	// blocksPerPage before it.
	end := len(blocks)
	if s := r.FormValue("upto"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || n == 0 {
			return view{}, errBadRequest("upto %q: want a block seq", s)
		}
		end = int(min(n, uint64(len(blocks))))
	}
	start := max(0, end-blocksPerPage)
	if start > 0 {
		d.Older = uint64(start)
	}
	if end < len(blocks) {
		d.Newer = uint64(min(end+blocksPerPage, len(blocks)))
	}
	for _, b := range blocks[start:end] {
		row := blockRow{Block: b, Level: -1}
		if l, ok := level[b.ID]; ok {
			row.Level = l
		}
		if row.Level >= 0 {
			v, err := h.mem.ExpandBlock(ctx, b.ID, row.Level)
			if err != nil {
				return view{}, err
			}
			row.Text = v.Text
		}
		d.Rows = append(d.Rows, row)
	}
	if len(th.OpenTail) > 0 {
		if d.Tail, err = h.mem.Messages(ctx, th.OpenTail...); err != nil {
			return view{}, err
		}
	}
	return view{page: "thread", title: "Thread " + name, nav: "overview", data: d}, nil
}

type messageRow struct {
	stratagate.Message
	HashOK bool
}

type blockData struct {
	Block    stratagate.Block
	Level    int
	All      bool
	Text     string
	Levels   []stratagate.BlockView // every level, for the side-by-side view
	Messages []messageRow
	L5OK     bool
	Cards    []cardRow
	Prev     uint64
	Next     uint64
}

func (h *Handler) block(r *http.Request) (view, error) {
	ctx := r.Context()
	id, err := pathID(r, "id")
	if err != nil {
		return view{}, err
	}
	level := 4
	all := r.FormValue("level") == "all"
	if s := r.FormValue("level"); s != "" && !all {
		if level, err = strconv.Atoi(s); err != nil || level < 0 || level > 5 {
			return view{}, errBadRequest("level %q: want 0–5 or all", s)
		}
	}
	l5, err := h.mem.ExpandBlock(ctx, id, 5)
	if err != nil {
		return view{}, err
	}
	var b stratagate.Block
	blocks, err := h.threadOfBlock(r, l5)
	if err != nil {
		return view{}, err
	}
	d := blockData{Level: level, All: all}
	for i := range blocks {
		if blocks[i].ID == id {
			b = blocks[i]
			if i > 0 {
				d.Prev = blocks[i-1].ID
			}
			if i+1 < len(blocks) {
				d.Next = blocks[i+1].ID
			}
		}
	}
	d.Block = b
	for _, m := range l5.Messages {
		d.Messages = append(d.Messages, messageRow{Message: m, HashOK: m.SHA256 == m.Hash()})
	}
	d.L5OK = bytes.Equal(layers.L5Hash(l5.Messages), b.L5Hash)
	if all {
		for l := 0; l <= 5; l++ {
			v := l5
			if l < 5 {
				if v, err = h.expandLevel(r, id, l); err != nil {
					return view{}, err
				}
			}
			d.Levels = append(d.Levels, v)
		}
	} else {
		v, err := h.expandLevel(r, id, level)
		if err != nil {
			return view{}, err
		}
		d.Text = v.Text
	}
	cards, err := h.mem.ListEvents(ctx, stratagate.EventFilter{Thread: b.Thread, Block: id})
	if err != nil {
		return view{}, err
	}
	d.Cards = cardRows(cards)
	return view{page: "block", title: "Block " + strconv.FormatUint(id, 10), nav: "overview", data: d}, nil
}

// expandLevel is ExpandBlock with a level not derived yet shown as such
// rather than failing the page.
func (h *Handler) expandLevel(r *http.Request, id uint64, level int) (stratagate.BlockView, error) {
	v, err := h.mem.ExpandBlock(r.Context(), id, level)
	if errors.Is(err, stratagate.ErrNotReady) {
		return stratagate.BlockView{BlockID: id, Level: level, Text: "(not derived yet: " + err.Error() + ")"}, nil
	}
	return v, err
}

// threadOfBlock returns the blocks of the thread the block's messages
// belong to (ExpandBlock does not name it).
func (h *Handler) threadOfBlock(r *http.Request, l5 stratagate.BlockView) ([]stratagate.Block, error) {
	if len(l5.Messages) == 0 {
		return nil, errNotFound("block", l5.BlockID)
	}
	return h.mem.Blocks(r.Context(), l5.Messages[0].Thread)
}
