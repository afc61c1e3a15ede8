package events

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/wal"
)

// maxExisting bounds how many earlier active cards of the thread are
// offered to the model as supersede/conflict candidates.
const maxExisting = 40

// ExtractHandler returns the wal handler for extract jobs: it asks m for
// the event cards of block Target (context: the previous block and the
// nearest later ready block), validates each card in code, and stores the
// accepted ones and their index entries in the transaction that marks the
// job done. Rejected cards are logged with their reason. A block is
// extracted at most once: a re-run after a crash finds its record and
// stores nothing new.
func ExtractHandler(db *kv.DB, m model.Model, ix *index.Index, log *slog.Logger, now func() time.Time) wal.Handler {
	return wal.Handler{RunIn: func(ctx context.Context, view wal.View, j wal.Job) (wal.Apply, error) {
		var in model.ExtractInput
		var src Source
		done := false
		err := view(func(tx *bolt.Tx) error {
			if _, ok, err := BlockCards(tx, j.Target); err != nil || ok {
				done = ok
				return err
			}
			var err error
			src, err = loadSource(tx, j.Target, &in)
			return err
		})
		if errors.Is(err, kv.ErrNotFound) || errors.Is(err, kv.ErrCorrupt) {
			return nil, wal.Permanent(err)
		}
		if err != nil {
			return nil, err
		}
		if done {
			return func(*bolt.Tx) error { return nil }, nil
		}
		if src.Block.State != layers.StateReady {
			return nil, wal.Permanent(fmt.Errorf("block %d is %s: extraction needs a ready block", src.Block.ID, src.Block.State))
		}
		raw, trimmed, err := extract(ctx, m, &in)
		if err != nil {
			return nil, fmt.Errorf("model %s: %w", m.Name(), err)
		}
		if trimmed {
			src.Existing = nil // not shown to the model: it may link to none
		}
		var out model.ExtractOutput
		if err := model.Decode(raw, &out); err != nil {
			return nil, err
		}
		src.Now = now()
		var cards []Card
		seen := map[string]bool{}
		for i := range out.Events {
			c, err := Build(&out.Events[i], &src)
			if err != nil {
				log.Warn("event card rejected", "block", src.Block.ID, "index", i, "title", clip(out.Events[i].Title), "reason", err)
				continue
			}
			key := fmt.Sprint(c.SourceMessageIDs, c.Quotes, c.Title)
			if seen[key] {
				continue
			}
			seen[key] = true
			if len(cards) == MaxCardsPerBlock {
				log.Warn("event card dropped: block limit reached", "block", src.Block.ID, "limit", MaxCardsPerBlock)
				break
			}
			cards = append(cards, c)
		}
		return func(tx *bolt.Tx) error {
			if _, ok, err := BlockCards(tx, src.Block.ID); err != nil || ok {
				return err // already stored by an earlier run
			}
			ids := make([]uint64, 0, len(cards))
			docs := make([]index.Doc, 0, len(cards))
			for i := range cards {
				c := &cards[i]
				if err := insert(tx, c); err != nil {
					return err
				}
				docs = append(docs, Doc(c))
				ids = append(ids, c.ID)
			}
			// One write per term for the block's cards, not one per card;
			// in an inline chain, one per term for all its blocks' cards.
			if err := addDocs(tx, ix, docs); err != nil {
				return err
			}
			v, err := kv.Encode(blockCardsVersion, ids)
			if err != nil {
				return err
			}
			if err := tx.Bucket(kv.BucketBlockEvents).Put(kv.Key(src.Block.ID), v); err != nil {
				return err
			}
			// Graph projection of this batch is its own job.
			_, err = wal.Enqueue(tx, wal.KindProject, src.Block.ID, now())
			return err
		}, nil
	}}.Through(db)
}

// addDocs adds docs to ix, or leaves them to the end of tx's inline chain
// (wal.Deferred). No job reads the event index (loadSource reads cards
// from their buckets), and one AddBatch of the chain's documents in
// order stores what one AddBatch per job would.
func addDocs(tx *bolt.Tx, ix *index.Index, docs []index.Doc) error {
	if p, ok := wal.Deferred(tx, ix, func() wal.Flusher { return &pendingDocs{ix: ix} }).(*pendingDocs); ok {
		p.docs = append(p.docs, docs...)
		return nil
	}
	_, err := ix.AddBatch(tx, docs)
	return err
}

// pendingDocs are the card documents of an inline chain's extractions.
type pendingDocs struct {
	ix   *index.Index
	docs []index.Doc
}

// Flush adds the chain's documents in one batch.
func (p *pendingDocs) Flush(tx *bolt.Tx) error {
	_, err := p.ix.AddBatch(tx, p.docs)
	return err
}

// extract asks m for the cards of in. A prompt beyond the model's context
// is asked again without the context-only parts (the neighbouring blocks,
// the earlier cards; trimmed is then true): the block alone still yields
// cards, only without links to earlier ones.
func extract(ctx context.Context, m model.Model, in *model.ExtractInput) (raw string, trimmed bool, err error) {
	req, err := model.NewRequestFor(m, model.TaskExtractEvents, in)
	if err != nil {
		return "", false, wal.Permanent(err)
	}
	raw, err = model.Call(ctx, m, req)
	if !errors.Is(err, model.ErrContextSize) || (len(in.Before) == 0 && len(in.After) == 0 && len(in.Existing) == 0) {
		return raw, false, err
	}
	in.Before, in.After, in.Existing = nil, nil, nil
	if req, err = model.NewRequestFor(m, model.TaskExtractEvents, in); err != nil {
		return "", true, wal.Permanent(err)
	}
	raw, err = model.Call(ctx, m, req)
	return raw, true, err
}

// loadSource reads block id, its neighbours for context and the thread's
// recent active cards.
func loadSource(tx *bolt.Tx, id uint64, in *model.ExtractInput) (Source, error) {
	b, err := layers.GetBlock(tx, id)
	if err != nil {
		return Source{}, err
	}
	msgs, err := layers.GetMessages(tx, b.MessageIDs)
	if err != nil {
		return Source{}, err
	}
	src := Source{Block: b, Messages: msgs, Existing: map[uint64]bool{}}
	*in = model.ExtractInput{BlockID: b.ID, Thread: b.Thread, Messages: deriveMessages(msgs)}
	// The blocks around b come from the thread's block index, decoded one
	// at a time as needed: a thread of thousands of blocks must not be
	// decoded whole for each of its blocks.
	neighbour := func(id uint64) ([]model.DeriveMessage, error) {
		o, err := layers.GetBlock(tx, id)
		if err != nil {
			return nil, err
		}
		ctx, err := layers.GetMessages(tx, o.MessageIDs)
		if err != nil {
			return nil, err
		}
		return deriveMessages(ctx), nil
	}
	if b.Seq > 1 {
		if err := layers.WalkThreadBlocks(tx, b.Thread, b.Seq-1, false, func(seq, id uint64) (bool, error) {
			var err error
			if seq == b.Seq-1 {
				in.Before, err = neighbour(id)
			}
			return false, err
		}); err != nil {
			return Source{}, err
		}
	}
	// After: the first later block whose derivation is done.
	if err := layers.WalkThreadBlocks(tx, b.Thread, b.Seq+1, false, func(_, id uint64) (bool, error) {
		o, err := layers.GetBlock(tx, id)
		if err != nil || o.State != layers.StateReady {
			return err == nil, err
		}
		in.After, err = neighbour(id)
		return false, err
	}); err != nil {
		return Source{}, err
	}
	// Earlier active cards of the thread, newest first.
	if b.Seq > 1 {
		cards := tx.Bucket(kv.BucketEvents).Cursor() // one for every card read
		err := layers.WalkThreadBlocks(tx, b.Thread, b.Seq-1, true, func(_, id uint64) (bool, error) {
			ids, _, err := BlockCards(tx, id)
			if err != nil {
				return false, err
			}
			for k := len(ids) - 1; k >= 0 && len(in.Existing) < maxExisting; k-- {
				e, lc, err := getExisting(cards, ids[k])
				if err != nil {
					return false, err
				}
				if lc != LifecycleActive {
					continue
				}
				in.Existing = append(in.Existing, e)
				src.Existing[e.ID] = true
			}
			return len(in.Existing) < maxExisting, nil
		})
		if err != nil {
			return Source{}, err
		}
	}
	return src, nil
}

func deriveMessages(msgs []layers.Message) []model.DeriveMessage {
	out := make([]model.DeriveMessage, len(msgs))
	for i, m := range msgs {
		out[i] = model.DeriveMessage{ID: m.ID, Role: m.Role, Speaker: m.Speaker, ToolName: m.ToolName, At: m.At, Content: m.Content}
	}
	return out
}
