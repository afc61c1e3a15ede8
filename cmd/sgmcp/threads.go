package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
)

// Context budgets of memory_context, in estimated tokens.
const (
	defaultContextTokens = 2000
	maxContextTokens     = 12000
)

// BlocksIn is the input of memory_get_blocks.
type BlocksIn struct {
	Thread string     `json:"thread,omitempty" jsonschema:"the thread; omit to list the threads of the scopes"`
	Scopes stringList `json:"scopes,omitempty" jsonschema:"narrow to these of the server's scopes (default: all)"`
	Limit  flexInt    `json:"limit,omitempty" jsonschema:"blocks (or threads) per page, default 10, at most 50"`
	Cursor cursorArg  `json:"cursor,omitempty" jsonschema:"the next value of the previous page"`
}

// BlockInfo is one block of memory_get_blocks.
type BlockInfo struct {
	Ref     string   `json:"ref"`
	Seq     uint64   `json:"seq"`
	State   string   `json:"state" jsonschema:"pending (levels 0–2 being derived), ready or failed"`
	Title   string   `json:"title,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Summary string   `json:"summary,omitempty"`
	Turns   string   `json:"turns" jsonschema:"first–last turn"`
	FirstAt string   `json:"first_at,omitempty"`
	LastAt  string   `json:"last_at,omitempty"`
}

// ThreadInfo is one thread of memory_get_blocks.
type ThreadInfo struct {
	Name         string `json:"name"`
	Scope        string `json:"scope"`
	Turns        uint64 `json:"turns"`
	Blocks       uint64 `json:"blocks"`
	OpenTurns    int    `json:"open_turns" jsonschema:"turns in the open tail, not yet sealed into a block"`
	OpenMessages int    `json:"open_messages"`
	LastAt       string `json:"last_at,omitempty"`
}

// Counts are the block counts of memory_get_blocks.
type Counts struct {
	Blocks       int `json:"blocks"`
	Pending      int `json:"pending"`
	Ready        int `json:"ready"`
	Failed       int `json:"failed"`
	OpenTurns    int `json:"open_turns"`
	OpenMessages int `json:"open_messages"`
}

// BlocksOut is the result of memory_get_blocks.
type BlocksOut struct {
	BatchID string       `json:"batch_id,omitempty" jsonschema:"with a thread: a batch of its listed blocks, for memory_expand_block"`
	Thread  string       `json:"thread,omitempty"`
	Scope   string       `json:"scope,omitempty"`
	Counts  Counts       `json:"counts"`
	Blocks  []BlockInfo  `json:"blocks,omitempty"`
	Threads []ThreadInfo `json:"threads,omitempty"`
	// EmptyReason says why no block is listed.
	EmptyReason string `json:"empty_reason,omitempty" jsonschema:"why nothing is listed: no_threads, no_blocks, open_tail_pending or blocks_in_other_threads, with details"`
	Total       int    `json:"total"`
	Next        string `json:"next,omitempty"`
}

// ContextIn is the input of memory_context.
type ContextIn struct {
	Thread       string  `json:"thread,omitempty" jsonschema:"the thread (required)"`
	BudgetTokens flexInt `json:"budget_tokens,omitempty" jsonschema:"token budget, default 2000, at most 12000 (aliases budget, tokens)"`
}

// ContextOut is the result of memory_context.
type ContextOut struct {
	Thread  string         `json:"thread"`
	Scope   string         `json:"scope"`
	Budget  int            `json:"budget"`
	Tokens  int            `json:"tokens"`
	Text    string         `json:"text"`
	Blocks  []ContextBlock `json:"blocks,omitempty"`
	Tail    int            `json:"tail_messages" jsonschema:"open-tail messages included verbatim"`
	Omitted int            `json:"omitted" jsonschema:"blocks and tail messages left out for the budget"`
}

// ContextBlock says at which level a block appears in a context.
type ContextBlock struct {
	Ref   string `json:"ref"`
	Level int    `json:"level" jsonschema:"level shown, -1 when omitted for the budget"`
	State string `json:"state"`
}

func (s *Server) addThreadTools() {
	addTool(s, toolSpec{name: "memory_get_blocks", annotations: readOnly(), aliases: map[string]string{"id": "thread"},
		description: "List a thread's sealed blocks with counts, or the threads of the scopes; says why a thread shows no block (no blocks yet, blocks in other threads, open tail pending)."},
		s.getBlocks)
	addTool(s, toolSpec{name: "memory_context", annotations: readOnly(),
		aliases:     map[string]string{"id": "thread", "budget": "budget_tokens", "tokens": "budget_tokens", "max_tokens": "budget_tokens"},
		description: "A thread's history laid out within a token budget: open tail verbatim, recent blocks in detail, older ones at compact levels."},
		s.context)
}

func (s *Server) getBlocks(ctx context.Context, in *BlocksIn) (*BlocksOut, error) {
	scopes, err := s.narrow(in.Scopes)
	if err != nil {
		return nil, err
	}
	limit, off, err := page(in.Limit, in.Cursor)
	if err != nil {
		return nil, err
	}
	ths, err := s.mem.Threads(ctx)
	if err != nil {
		return nil, err
	}
	ths = slices.DeleteFunc(ths, func(th stratagate.Thread) bool { return !slices.Contains(scopes, th.Scope) })
	out := &BlocksOut{}
	if in.Thread == "" {
		for _, th := range ths {
			out.Counts.Blocks += int(th.Blocks)
			out.Counts.OpenTurns += th.OpenTurns
			out.Counts.OpenMessages += len(th.OpenTail)
		}
		out.Total = len(ths)
		lo, hi := min(off, len(ths)), min(off+limit, len(ths))
		for _, th := range ths[lo:hi] {
			out.Threads = append(out.Threads, ThreadInfo{Name: th.Name, Scope: th.Scope, Turns: th.Turns, Blocks: th.Blocks,
				OpenTurns: th.OpenTurns, OpenMessages: len(th.OpenTail), LastAt: stamp(th.LastAt)})
		}
		if hi < len(ths) {
			out.Next = strconv.Itoa(hi)
		}
		if len(ths) == 0 {
			out.EmptyReason = "no_threads: nothing was captured in scopes " + strings.Join(scopes, ", ")
		}
		return out, nil
	}
	th, err := s.threadIn(ctx, in.Thread, scopes)
	if err != nil {
		return nil, err
	}
	blocks, err := s.mem.Blocks(ctx, th.Name)
	if err != nil && !errors.Is(err, stratagate.ErrNotFound) {
		return nil, err
	}
	out.Thread, out.Scope = th.Name, th.Scope
	out.Counts.OpenTurns, out.Counts.OpenMessages = th.OpenTurns, len(th.OpenTail)
	for _, b := range blocks {
		out.Counts.Blocks++
		switch b.State {
		case stratagate.BlockPending:
			out.Counts.Pending++
		case stratagate.BlockReady:
			out.Counts.Ready++
		case stratagate.BlockFailed:
			out.Counts.Failed++
		}
	}
	out.Total = len(blocks)
	lo, hi := min(off, len(blocks)), min(off+limit, len(blocks))
	var items []gate.Item
	for _, b := range blocks[lo:hi] {
		out.Blocks = append(out.Blocks, BlockInfo{Ref: gate.MakeRef(gate.KindBlock, b.ID), Seq: b.Seq, State: string(b.State),
			Title: clip(b.Title, textRunes), Tags: clipAll(b.Tags, 12), Summary: clip(b.Summary, textRunes),
			Turns: fmt.Sprintf("%d–%d", b.TurnFirst, b.TurnLast), FirstAt: stamp(b.FirstAt), LastAt: stamp(b.LastAt)})
		items = append(items, gate.Item{Ref: gate.MakeRef(gate.KindBlock, b.ID), BlockID: b.ID, Title: b.Title, Text: b.Summary})
	}
	if hi < len(blocks) {
		out.Next = strconv.Itoa(hi)
	}
	if len(blocks) == 0 {
		out.EmptyReason = emptyReason(th, ths)
	} else if len(items) > 0 {
		if out.BatchID, err = s.newBatch(ctx, th.Name, gate.ExpandBlock, "", items, scopes); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// emptyReason says why thread th has no block.
func emptyReason(th stratagate.Thread, all []stratagate.Thread) string {
	var others []string
	for _, o := range all {
		if o.Name != th.Name && o.Blocks > 0 {
			others = append(others, o.Name)
		}
	}
	switch {
	case th.OpenTurns > 0 || len(th.OpenTail) > 0:
		return fmt.Sprintf("open_tail_pending: %d turn(s) wait in the open tail until a block is sealed; memory_search_raw and memory_context already see them", th.OpenTurns)
	case len(others) > 0:
		if len(others) > 5 {
			others = append(others[:5], "…")
		}
		return "blocks_in_other_threads: this thread has none; these do: " + strings.Join(others, ", ")
	}
	return "no_blocks: nothing was captured in this thread yet"
}

func (s *Server) context(ctx context.Context, in *ContextIn) (*ContextOut, error) {
	if in.Thread == "" {
		return nil, retryable("missing argument \"thread\"; retry with a thread listed by memory_get_blocks")
	}
	budget := int(in.BudgetTokens)
	switch {
	case budget == 0:
		budget = defaultContextTokens
	case budget < 0:
		return nil, retryable("budget_tokens %d is negative; retry with 1–%d", budget, maxContextTokens)
	case budget > maxContextTokens:
		budget = maxContextTokens
	}
	th, err := s.threadIn(ctx, in.Thread, s.scopes)
	if err != nil {
		return nil, err
	}
	cv, err := s.mem.Context(ctx, th.Name, budget)
	if err != nil {
		return nil, err
	}
	out := &ContextOut{Thread: cv.Thread, Scope: cv.Scope, Budget: cv.Budget, Tokens: cv.Tokens, Text: clip(cv.Text, maxContextTokens*4),
		Tail: len(cv.Tail), Omitted: cv.Omitted}
	for _, b := range cv.Blocks {
		out.Blocks = append(out.Blocks, ContextBlock{Ref: gate.MakeRef(gate.KindBlock, b.BlockID), Level: b.Level, State: string(b.State)})
	}
	if len(out.Blocks) > 200 {
		out.Blocks = out.Blocks[len(out.Blocks)-200:]
	}
	return out, nil
}
