package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/stratagate/stratagate"
)

var blocksCommand = &command{
	name: "blocks", args: "[-thread T]", summary: "sealed blocks with state, turns and L0 title",
	define: func(fs *flag.FlagSet) runner {
		thread := fs.String("thread", "", "list only the blocks of `THREAD`")
		return func(e *env, args []string) error { return runBlocks(e, args, *thread) }
	},
}

func runBlocks(e *env, args []string, thread string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q", args[0])
	}
	mem, err := e.memory()
	if err != nil {
		return err
	}
	var blocks []stratagate.Block
	if thread != "" {
		if blocks, err = mem.Blocks(e.ctx, thread); errors.Is(err, stratagate.ErrNotFound) {
			return notFound("thread", strconv.Quote(thread))
		}
	} else {
		blocks, err = allBlocks(e, mem)
	}
	if err != nil {
		return err
	}
	out := make([]blockOut, len(blocks))
	for i := range blocks {
		out[i] = toBlockOut(&blocks[i], false)
	}
	return e.emit(struct {
		Blocks []blockOut `json:"blocks"`
	}{out}, func(w io.Writer) error {
		tw := newTable(w)
		fmt.Fprintln(tw, "ID\tTHREAD\tSEQ\tSTATE\tTURNS\tMSGS\tFIRST\tLAST\tTITLE")
		for _, b := range out {
			title := b.Title
			if b.Error != "" {
				title = "error: " + b.Error
			}
			fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%d–%d\t%d\t%s\t%s\t%s\n", b.ID, b.Thread, b.Seq, b.State,
				b.TurnFirst, b.TurnLast, len(b.MessageIDs), dash(b.FirstAt), dash(b.LastAt), dash(oneLine(title, 60)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "%d blocks\n", len(out))
		return nil
	})
}

// allBlocks returns the blocks of every thread, thread by thread.
func allBlocks(e *env, mem *stratagate.Memory) ([]stratagate.Block, error) {
	ths, err := mem.Threads(e.ctx)
	if err != nil {
		return nil, err
	}
	var out []stratagate.Block
	for _, th := range ths {
		bs, err := mem.Blocks(e.ctx, th.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	return out, nil
}

// findBlock returns block id's record, or a not-found error.
func findBlock(e *env, mem *stratagate.Memory, id uint64) (stratagate.Block, error) {
	// A block's messages name its thread; fall back to a scan of every
	// thread when they cannot be read (a damaged file).
	if v, err := mem.ExpandBlock(e.ctx, id, 5); err == nil && len(v.Messages) > 0 {
		if bs, err := mem.Blocks(e.ctx, v.Messages[0].Thread); err == nil {
			for _, b := range bs {
				if b.ID == id {
					return b, nil
				}
			}
		}
	}
	all, err := allBlocks(e, mem)
	if err != nil {
		return stratagate.Block{}, err
	}
	for _, b := range all {
		if b.ID == id {
			return b, nil
		}
	}
	return stratagate.Block{}, notFound("block", id)
}

var blockCommand = &command{
	name: "block", args: "ID [-level L]", summary: "one level of a block, L0–L5 (default L4)",
	define: func(fs *flag.FlagSet) runner {
		level := fs.String("level", "L4", "the `LEVEL` to show: L0–L5 (or 0–5)")
		return func(e *env, args []string) error { return runBlock(e, args, *level) }
	},
}

// parseLevel accepts "L3", "l3" or "3".
func parseLevel(s string) (int, error) {
	t := strings.TrimPrefix(strings.TrimPrefix(s, "L"), "l")
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 || n > 5 || t == "" || t[0] == '+' || t[0] == '-' {
		return 0, usagef("-level %q: want L0–L5 or 0–5", s)
	}
	return n, nil
}

type blockViewOut struct {
	BlockID  uint64       `json:"block_id"`
	Level    int          `json:"level"`
	State    string       `json:"state"`
	Text     string       `json:"text"`
	Messages []messageOut `json:"messages,omitempty"`
}

func runBlock(e *env, args []string, levelFlag string) error {
	if len(args) != 1 {
		return usagef("block takes one block id")
	}
	id, err := parseID("block", args[0])
	if err != nil {
		return err
	}
	level, err := parseLevel(levelFlag)
	if err != nil {
		return err
	}
	mem, err := e.memory()
	if err != nil {
		return err
	}
	v, err := mem.ExpandBlock(e.ctx, id, level)
	switch {
	case errors.Is(err, stratagate.ErrNotReady):
		return failf("block %d: %s is derived by the model and not ready yet (%v)", id, levelName(level), err)
	case errors.Is(err, stratagate.ErrNotFound):
		if _, ferr := findBlock(e, mem, id); ferr != nil {
			return ferr
		}
		return failf("block %d: %v", id, err) // the block exists, one of its messages does not
	case err != nil:
		return err
	}
	o := blockViewOut{BlockID: v.BlockID, Level: v.Level, State: string(v.State), Text: v.Text}
	for i := range v.Messages {
		o.Messages = append(o.Messages, toMessageOut(&v.Messages[i]))
	}
	return e.emit(o, func(w io.Writer) error {
		fmt.Fprintf(w, "block %d  %s  (%s)\n\n", o.BlockID, levelName(o.Level), o.State)
		_, err := io.WriteString(w, o.Text)
		return err
	})
}
