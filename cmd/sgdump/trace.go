package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/stratagate/stratagate"
)

// tracer follows the provenance of one record of a kind down to the L5
// messages it rests on.
type tracer func(e *env, id uint64) error

// tracers maps a record kind to its tracer; a new record family (events,
// graph) adds its kinds here.
var tracers = map[string]tracer{
	"block":   traceBlock,
	"message": traceMessage,
	"event":   traceEvent,
	"fact":    traceFact,
	"edge":    traceEdge,
	"node":    traceNode,
}

func traceKinds() []string {
	kinds := make([]string, 0, len(tracers))
	for k := range tracers {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}

var traceCommand = &command{
	name: "trace", args: "block|message|event|fact|edge|node ID",
	summary: "provenance down to L5: levels, events, graph, verbatim messages, hashes",
	define:  noFlags(runTrace),
}

func runTrace(e *env, args []string) error {
	if len(args) != 2 {
		return usagef("trace takes a record kind (%s) and an id", strings.Join(traceKinds(), ", "))
	}
	t, ok := tracers[args[0]]
	if !ok {
		return usagef("cannot trace %q: want one of %s", args[0], strings.Join(traceKinds(), ", "))
	}
	id, err := parseID(args[0], args[1])
	if err != nil {
		return err
	}
	return t(e, id)
}

// blockTraceOut is "trace block" in JSON.
type blockTraceOut struct {
	Block blockOut `json:"block"`
	// L5HashComputed is the L5 hash recomputed from the messages found;
	// L5HashOK says whether it equals block.l5_hash.
	L5HashComputed string       `json:"l5_hash_computed"`
	L5HashOK       bool         `json:"l5_hash_ok"`
	Messages       []messageOut `json:"messages"`
	// MissingMessageIDs lists ids the block names that are not stored.
	MissingMessageIDs []uint64 `json:"missing_message_ids"`
}

// loadMessages reads ids one by one so that a missing message is reported
// rather than failing the whole trace.
func loadMessages(e *env, mem *stratagate.Memory, ids []uint64) (found []stratagate.Message, missing []uint64, err error) {
	if msgs, err := mem.Messages(e.ctx, ids...); err == nil {
		return msgs, []uint64{}, nil
	}
	missing = []uint64{}
	for _, id := range ids {
		msgs, err := mem.Messages(e.ctx, id)
		switch {
		case err == nil:
			found = append(found, msgs...)
		case errors.Is(err, stratagate.ErrNotFound) || errors.Is(err, stratagate.ErrCorrupt):
			missing = append(missing, id)
		default:
			return nil, nil, err
		}
	}
	return found, missing, nil
}

func traceBlock(e *env, id uint64) error {
	mem, err := e.memory()
	if err != nil {
		return err
	}
	b, err := findBlock(e, mem, id)
	if err != nil {
		return err
	}
	msgs, missing, err := loadMessages(e, mem, b.MessageIDs)
	if err != nil {
		return err
	}
	o := blockTraceOut{Block: toBlockOut(&b, true), Messages: make([]messageOut, len(msgs)), MissingMessageIDs: missing}
	for i := range msgs {
		o.Messages[i] = toMessageOut(&msgs[i])
	}
	o.L5HashComputed = l5Hash(msgs)
	o.L5HashOK = len(missing) == 0 && o.L5HashComputed == o.Block.L5Hash
	return e.emit(o, func(w io.Writer) error {
		bo := &o.Block
		tw := newTable(w)
		fmt.Fprintf(tw, "block\t%d\n", bo.ID)
		fmt.Fprintf(tw, "thread\t%s (%s), seq %d\n", bo.Thread, bo.Scope, bo.Seq)
		fmt.Fprintf(tw, "state\t%s\n", bo.State)
		if bo.Error != "" {
			fmt.Fprintf(tw, "error\t%s\n", bo.Error)
		}
		fmt.Fprintf(tw, "turns\t%d–%d, %d messages\n", bo.TurnFirst, bo.TurnLast, len(bo.MessageIDs))
		fmt.Fprintf(tw, "time\t%s … %s\n", bo.FirstAt, bo.LastAt)
		fmt.Fprintf(tw, "l5 hash\t%s %s\n", bo.L5Hash, hashStatus(o.L5HashOK))
		if !o.L5HashOK {
			fmt.Fprintf(tw, "recomputed\t%s\n", o.L5HashComputed)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if bo.State == string(stratagate.BlockReady) {
			fmt.Fprintf(w, "\nL0 title: %s\n   tags: %s\n", bo.Title, strings.Join(bo.Tags, ", "))
			fmt.Fprintln(w, "\nL1 summary:")
			indent(w, bo.Summary, "  ")
			fmt.Fprintln(w, "\nL2 facts:")
			for _, f := range bo.Facts {
				fmt.Fprintf(w, "  - %s %s\n", f.Text, citeList(f.MessageIDs))
			}
		} else {
			fmt.Fprintf(w, "\nL0–L2: not derived (block is %s)\n", bo.State)
		}
		fmt.Fprintln(w, "\nL3 (pruned):")
		indent(w, bo.L3, "  ")
		fmt.Fprintln(w, "\nL4 (near-verbatim):")
		indent(w, bo.L4, "  ")
		fmt.Fprintf(w, "\nL5 messages (%d):\n", len(bo.MessageIDs))
		for i := range o.Messages {
			writeMessage(w, &o.Messages[i])
		}
		for _, id := range o.MissingMessageIDs {
			fmt.Fprintf(w, "  #%d  MISSING: not stored or unreadable\n", id)
		}
		return nil
	})
}

func citeList(ids []uint64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("#%d", id)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// messageTraceOut is "trace message" in JSON.
type messageTraceOut struct {
	Message messageOut `json:"message"`
	// Block is the block the message is sealed into; null while it is in
	// its thread's open tail.
	Block *blockOut `json:"block"`
	// CitedBy lists the block's L2 facts that cite this message.
	CitedBy []factOut `json:"cited_by"`
}

func traceMessage(e *env, id uint64) error {
	mem, err := e.memory()
	if err != nil {
		return err
	}
	msgs, err := mem.Messages(e.ctx, id)
	if errors.Is(err, stratagate.ErrNotFound) {
		return notFound("message", id)
	}
	if err != nil {
		return err
	}
	o := messageTraceOut{Message: toMessageOut(&msgs[0]), CitedBy: []factOut{}}
	bs, err := mem.Blocks(e.ctx, msgs[0].Thread)
	if err != nil && !errors.Is(err, stratagate.ErrNotFound) {
		return err
	}
	for i := range bs {
		if !slices.Contains(bs[i].MessageIDs, id) {
			continue
		}
		bo := toBlockOut(&bs[i], false)
		o.Block = &bo
		for _, f := range bs[i].Facts {
			if slices.Contains(f.MessageIDs, id) {
				o.CitedBy = append(o.CitedBy, factOut{Text: f.Text, MessageIDs: f.MessageIDs})
			}
		}
		break
	}
	return e.emit(o, func(w io.Writer) error {
		m := &o.Message
		tw := newTable(w)
		fmt.Fprintf(tw, "message\t%d\n", m.ID)
		fmt.Fprintf(tw, "thread\t%s, turn %d\n", m.Thread, m.Turn)
		fmt.Fprintf(tw, "role\t%s\n", m.Role)
		fmt.Fprintf(tw, "speaker\t%s\n", dash(m.Speaker))
		if m.ToolName != "" || m.ToolCallID != "" {
			fmt.Fprintf(tw, "tool\t%s (call %s)\n", dash(m.ToolName), dash(m.ToolCallID))
		}
		fmt.Fprintf(tw, "at\t%s\n", m.At)
		fmt.Fprintf(tw, "sha256\t%s %s\n", m.SHA256, hashStatus(m.SHA256OK))
		if !m.SHA256OK {
			fmt.Fprintf(tw, "stored\t%s\n", m.SHA256Stored)
		}
		if o.Block != nil {
			fmt.Fprintf(tw, "block\t%d (seq %d, %s) %s\n", o.Block.ID, o.Block.Seq, o.Block.State, o.Block.Title)
		} else {
			fmt.Fprintf(tw, "block\tnone: in the open tail of thread %s\n", m.Thread)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(o.CitedBy) > 0 {
			fmt.Fprintln(w, "\ncited by L2 facts:")
			for _, f := range o.CitedBy {
				fmt.Fprintf(w, "  - %s %s\n", f.Text, citeList(f.MessageIDs))
			}
		}
		fmt.Fprintln(w, "\ncontent:")
		indent(w, m.Content, "    ")
		return nil
	})
}
