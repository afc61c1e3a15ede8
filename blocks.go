package stratagate

import (
	"context"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// Blocks returns the sealed blocks of thread in order, each with its state,
// its L3 and L4 (rendered from its messages: they are not stored; empty
// for a block whose messages cannot be read, which Verify reports) and,
// once ready, its L0 title and tags and L1 summary. An unknown thread is
// ErrNotFound.
func (m *Memory) Blocks(ctx context.Context, thread string) ([]Block, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var out []Block
	err = m.db.View(func(tx *bolt.Tx) error {
		if _, ok, err := layers.GetThread(tx, thread); err != nil {
			return err
		} else if !ok {
			return notFound("thread", fmt.Sprintf("%q", thread))
		}
		if out, err = layers.ThreadBlocks(tx, thread); err != nil {
			return err
		}
		return layers.LoadAllRenderings(tx, out)
	})
	return out, err
}

// ExpandBlock returns block id at level 0–5: L0 title and tags, L1 summary,
// L2 key facts with the message ids they cite, L3 the pruned and L4 the
// near-verbatim rendering, L5 the verbatim messages with their original
// timestamps. It returns exactly the level asked for: L0–L2 of a block still
// pending are ErrNotReady, never silently replaced by another level.
func (m *Memory) ExpandBlock(ctx context.Context, id uint64, level int) (BlockView, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return BlockView{}, err
	}
	defer release()
	if level < 0 || level > 5 {
		return BlockView{}, fmt.Errorf("%w: %w: got %d", ErrInvalidInput, ErrLevel, level)
	}
	var v BlockView
	err = m.db.View(func(tx *bolt.Tx) error {
		b, err := layers.GetBlock(tx, id)
		if err != nil {
			return err
		}
		var msgs []Message
		if level >= 3 { // L3 and L4 are rendered from L5 on read
			if msgs, err = layers.GetMessages(tx, b.MessageIDs); err != nil {
				return err
			}
		}
		v, err = layers.Render(&b, level, msgs)
		return err
	})
	return v, err
}

// Context returns thread's history laid out within budgetTokens (estimated
// tokens, see layers.EstimateTokens): the open tail verbatim, recent blocks
// in detail and older blocks at their decayed level, oldest first.
func (m *Memory) Context(ctx context.Context, thread string, budgetTokens int) (ContextView, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return ContextView{}, err
	}
	defer release()
	if budgetTokens <= 0 {
		return ContextView{}, invalid(ErrInvalidInput, "budget %d tokens must be positive", budgetTokens)
	}
	var cv ContextView
	err = m.db.View(func(tx *bolt.Tx) error {
		th, ok, err := layers.GetThread(tx, thread)
		if err != nil {
			return err
		}
		if !ok {
			return notFound("thread", fmt.Sprintf("%q", thread))
		}
		blocks, err := layers.ThreadBlocks(tx, thread)
		if err != nil {
			return err
		}
		if err := layers.LoadContextRenderings(tx, blocks, m.opts.DecayCoefficient); err != nil {
			return err
		}
		tail, err := layers.GetMessages(tx, th.OpenTail)
		if err != nil {
			return err
		}
		cv = layers.BuildContext(th, blocks, tail, budgetTokens, m.opts.DecayCoefficient)
		return nil
	})
	return cv, err
}

// Threads lists every thread in name order.
func (m *Memory) Threads(ctx context.Context) ([]Thread, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var out []Thread
	err = m.db.View(func(tx *bolt.Tx) error {
		out, err = layers.ListThreads(tx)
		return err
	})
	return out, err
}

// Messages returns the stored messages with the given ids, in order.
func (m *Memory) Messages(ctx context.Context, ids ...uint64) ([]Message, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var out []Message
	err = m.db.View(func(tx *bolt.Tx) error {
		out, err = layers.GetMessages(tx, ids)
		return err
	})
	if errors.Is(err, kv.ErrNotFound) {
		return nil, err
	}
	return out, err
}
