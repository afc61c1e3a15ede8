package stratagate

import (
	"context"
	"fmt"
)

// MaxBatchTurns bounds the turns of one AppendBatch: a batch is one
// transaction, held in memory until it commits.
const MaxBatchTurns = 10000

// AppendBatch stores turns in order in one transaction (and one fsync
// unless NoSync) and returns their receipts, in order. It is all or
// nothing: if any turn is refused (the errors of Append, naming the turn
// as "turn N") nothing of the batch is written. Otherwise the store is the
// one the same turns appended one by one would leave: per-thread turn
// numbers and message ids in batch order, a block sealed wherever a turn
// completes BlockTurns turns of its thread (its derivation queued in the
// same transaction), receipts stored per turn, and a turn whose ReceiptID
// was stored before — by an earlier call or an earlier turn of this batch —
// answered Duplicate without writing it again. An empty batch writes
// nothing. More than MaxBatchTurns turns is ErrTooLarge.
//
// AppendBatch is for bulk ingest (backfilling transcripts, imports); it
// commits at many thousand turns per second where one Append per turn is
// bound by one transaction each.
func (m *Memory) AppendBatch(ctx context.Context, turns []Turn) ([]TurnRef, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	if m.opts.ReadOnly {
		return nil, ErrReadOnly
	}
	if len(turns) == 0 {
		return nil, nil
	}
	if len(turns) > MaxBatchTurns {
		return nil, invalid(ErrTooLarge, "batch has %d turns, limit %d", len(turns), MaxBatchTurns)
	}
	req := &appendReq{turns: make([]turnReq, len(turns)), done: make(chan struct{})}
	for i, t := range turns {
		if req.turns[i], err = m.prepareTurn(t); err != nil {
			return nil, fmt.Errorf("turn %d: %w", i, err)
		}
	}
	if err := m.commit(ctx, req); err != nil {
		return nil, err
	}
	out := make([]TurnRef, len(turns))
	for i := range req.turns {
		out[i] = req.turns[i].res
	}
	return out, nil
}
