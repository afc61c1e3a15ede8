package stratagate

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/kv"
)

// ImportUndo takes committed batch id back in one transaction: its cards
// become undone (hidden from search for good; Restore refuses them), the
// cards it superseded or marked as conflicting get their earlier state
// back, and the graph facts, edges and nodes its projection created or
// changed are reverted. What a later write changed in the meantime stays,
// without its references to the undone cards. The source block and its
// message stay (provenance is permanent) but the message is withdrawn from
// search, and the batch is marked undone. A batch not committed is
// ErrImportState.
func (m *Memory) ImportUndo(ctx context.Context, id uint64) error {
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	if m.opts.ReadOnly {
		return ErrReadOnly
	}
	// The undo tombstones the batch's message in the raw index, so what
	// the buffer holds is merged first (a buffered document cannot be
	// deleted).
	m.rawBuf.mu.Lock()
	defer m.rawBuf.mu.Unlock()
	if err := m.mergeRaw(); err != nil {
		return err
	}
	return m.db.Update(func(tx *bolt.Tx) error {
		r, err := getImport(tx, id)
		if err != nil {
			return err
		}
		if r.State != importCommitted {
			return fmt.Errorf("%w: import %d is %s, not committed", ErrImportState, id, r.State)
		}
		gone := map[uint64]bool{}
		for _, d := range r.Decisions {
			if d.Event != 0 {
				gone[d.Event] = true
			}
		}
		for _, d := range r.Decisions {
			if d.Event != 0 {
				if err := events.Retract(tx, m.events, d.Event); err != nil {
					return err
				}
			}
		}
		for _, img := range r.Journal {
			cur, err := events.RawRecord(tx, img.ID)
			if err != nil {
				return err
			}
			if rawHash(cur) == img.After {
				if err := events.PutRawRecord(tx, img.ID, img.Before); err != nil {
					return err
				}
				continue
			}
			prev, err := events.Decode(img.Before)
			if err != nil {
				return fmt.Errorf("import %d: journal of event %d: %w", id, img.ID, err)
			}
			if _, err := events.Unlink(tx, img.ID, gone, prev.Lifecycle); err != nil {
				return err
			}
		}
		if err := graph.Revert(tx, m.graph, r.Block, gone); err != nil {
			return err
		}
		// The graph state of nodes citing the restored cards may change too.
		for _, img := range r.Journal {
			if err := graph.Reindex(tx, m.graph, graph.EventNodes(tx, img.ID)); err != nil {
				return err
			}
		}
		if err := m.raw.Delete(tx, r.Message); err != nil {
			return err
		}
		if err := bumpRevision(tx); err != nil {
			return err
		}
		r.State, r.Undone = importUndone, kv.ToStamp(m.opts.Clock())
		return putImport(tx, &r)
	})
}

// rawHash identifies a stored record's bytes (0 only for none).
func rawHash(v []byte) uint64 {
	if v == nil {
		return 0
	}
	s := sha256.Sum256(v)
	return binary.BigEndian.Uint64(s[:8]) | 1
}

// undoneImportMessages returns the source messages of undone imports,
// which the raw index keeps tombstoned.
func undoneImportMessages(tx *bolt.Tx) ([]uint64, error) {
	var out []uint64
	err := tx.Bucket(kv.BucketImports).ForEach(func(k, v []byte) error {
		var r struct {
			State   string `msgpack:"s"`
			Message uint64 `msgpack:"m,omitempty"`
		}
		if _, err := kv.Decode(v, &r, importVersion); err != nil {
			return fmt.Errorf("import %d: %w", kv.ID(k), err)
		}
		if r.State == importUndone && r.Message != 0 {
			out = append(out, r.Message)
		}
		return nil
	})
	return out, err
}
