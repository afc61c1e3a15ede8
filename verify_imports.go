package stratagate

import (
	"strconv"
	"strings"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/kv"
)

// importsPass audits import provenance: every committed or undone batch
// names its own source block in its own thread, holding its message, and
// the block maps back to it; every card a batch created cites that block;
// a committed batch's cards are not undone and an undone batch leaves no
// active card; every card of an import thread belongs to its batch.
func (v *verifier) importsPass() error {
	if v.tx.Bucket(kv.BucketImports) == nil {
		return nil // a file from before imports, opened read-only
	}
	owned := map[uint64]uint64{}  // card → batch
	blocks := map[uint64]uint64{} // block → batch
	err := v.forEach(kv.BucketImports, "imports", func(k, _ []byte) error {
		id := kv.ID(k)
		r, err := getImport(v.tx, id)
		if err != nil {
			v.fail("import.decode", id, "", "import %d does not decode: %v", id, err)
			return nil
		}
		switch r.State {
		case importPreviewed:
			return nil
		case importCommitted, importUndone:
		default:
			v.fail("import.state", id, "", "import %d has unknown state %q", id, r.State)
			return nil
		}
		if want := ImportThreadPrefix + strconv.FormatUint(id, 10); r.Thread != want {
			v.fail("import.block", id, "", "import %d names thread %q, want %q", id, r.Thread, want)
		}
		ba := v.blocks[r.Block]
		switch {
		case ba == nil:
			v.fail("import.block", id, "", "import %d names source block %d, which does not exist", id, r.Block)
		case ba.thread != r.Thread || !ba.msgs[r.Message]:
			v.fail("import.block", id, "", "import %d: source block %d is not message %d of thread %q", id, r.Block, r.Message, r.Thread)
		}
		blocks[r.Block] = id
		if b, ok := importOfBlock(v.tx, r.Block); !ok || b != id {
			v.fail("import.block", id, "", "import %d: block %d does not map back to it in %s", id, r.Block, kv.BucketImportBlocks)
		}
		for _, d := range r.Decisions {
			if d.Event == 0 {
				continue
			}
			owned[d.Event] = id
			c := v.cards[d.Event]
			switch {
			case c == nil:
				v.fail("import.event", id, "", "import %d: candidate %d created event %d, which does not exist", id, d.Index, d.Event)
			case c.SourceBlockID != r.Block:
				v.fail("import.event", id, "", "import %d: event %d cites block %d, not the import block %d", id, d.Event, c.SourceBlockID, r.Block)
			case r.State == importUndone && c.Lifecycle != events.LifecycleUndone:
				v.fail("import.undone", id, "", "import %d is undone but its event %d is %s", id, d.Event, c.Lifecycle)
			case r.State == importCommitted && c.Lifecycle == events.LifecycleUndone:
				v.fail("import.undone", id, "", "import %d is committed but its event %d is undone", id, d.Event)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if b := v.tx.Bucket(kv.BucketImportBlocks); b != nil {
		err := b.ForEach(func(k, val []byte) error {
			if len(k) != 8 || len(val) != 8 || blocks[kv.ID(k)] != kv.ID(val) {
				v.fail("import.block", kv.ID(k), string(kv.BucketImportBlocks), "import block entry %x → %x names no committed import", k, val)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for _, id := range sortedMapKeys(v.cards) {
		c := v.cards[id]
		if !strings.HasPrefix(c.Thread, ImportThreadPrefix) && c.Lifecycle != events.LifecycleUndone {
			continue
		}
		if _, ok := owned[id]; !ok {
			v.fail("import.event", id, "", "event %d (thread %q, %s) belongs to no import batch", id, c.Thread, c.Lifecycle)
		}
	}
	return nil
}
