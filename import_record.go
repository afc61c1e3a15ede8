package stratagate

import (
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// importVersion is the format version of an import record (the imports
// bucket: batch id → importRecord).
const importVersion byte = 1

// Import batch states.
const (
	importPreviewed = "previewed"
	importCommitted = "committed"
	importUndone    = "undone"
)

// importRecord is one import batch: its preview (the text, the revision
// it was decided against, one decision per candidate), and once committed
// the source block, what was applied and the before-images of the cards
// it changed, which undo restores.
type importRecord struct {
	ID        uint64           `msgpack:"i"`
	State     string           `msgpack:"s"`
	Scope     string           `msgpack:"sc"`
	Revision  string           `msgpack:"rv"`
	Text      string           `msgpack:"t,omitempty"` // cleared at commit: the source message holds it
	TextBytes int              `msgpack:"tb"`
	Source    string           `msgpack:"so,omitempty"`
	Exported  kv.Stamp         `msgpack:"ex"`
	Created   kv.Stamp         `msgpack:"c"`
	Committed kv.Stamp         `msgpack:"cm"`
	Undone    kv.Stamp         `msgpack:"ud"`
	Decisions []decisionRecord `msgpack:"d"`
	Thread    string           `msgpack:"th,omitempty"`
	Block     uint64           `msgpack:"b,omitempty"`
	Message   uint64           `msgpack:"m,omitempty"`
	Journal   []cardImage      `msgpack:"j,omitempty"`
}

// decisionRecord is one candidate's decision, and what commit applied.
type decisionRecord struct {
	Index       int       `msgpack:"x"`
	Kind        string    `msgpack:"k"`
	Title       string    `msgpack:"ti"`
	Fingerprint string    `msgpack:"fp"`
	Compared    []uint64  `msgpack:"cp,omitempty"`
	Scores      []float64 `msgpack:"cs,omitempty"`
	Action      string    `msgpack:"a"`
	Targets     []uint64  `msgpack:"tg,omitempty"`
	Confidence  float64   `msgpack:"cf"`
	Reason      string    `msgpack:"r"`
	Decider     string    `msgpack:"dr"`
	Warnings    []string  `msgpack:"w,omitempty"`
	// Set by commit.
	Applied        string   `msgpack:"ap,omitempty"` // the action applied; "" = not applied
	AppliedTargets []uint64 `msgpack:"at,omitempty"`
	Event          uint64   `msgpack:"e,omitempty"` // the card it created
	Confirmed      bool     `msgpack:"cn,omitempty"`
}

// cardImage is an existing card as it was before a commit changed its
// links, and a hash of what the commit left, so that undo restores it
// exactly unless something changed it since.
type cardImage struct {
	ID     uint64 `msgpack:"i"`
	Before []byte `msgpack:"b"`
	After  uint64 `msgpack:"a"`
}

func getImport(tx *bolt.Tx, id uint64) (importRecord, error) {
	var r importRecord
	v := tx.Bucket(kv.BucketImports).Get(kv.Key(id))
	if v == nil {
		return r, notFound("import", strconv.FormatUint(id, 10))
	}
	if _, err := kv.Decode(v, &r, importVersion); err != nil {
		return r, fmt.Errorf("import %d: %w", id, err)
	}
	if r.ID != id {
		return r, fmt.Errorf("%w: import stored under %d says id %d", kv.ErrCorrupt, id, r.ID)
	}
	return r, nil
}

func putImport(tx *bolt.Tx, r *importRecord) error {
	v, err := kv.Encode(importVersion, r)
	if err != nil {
		return err
	}
	return tx.Bucket(kv.BucketImports).Put(kv.Key(r.ID), v)
}

// importOfBlock returns the import batch whose source block is block.
func importOfBlock(tx *bolt.Tx, block uint64) (uint64, bool) {
	b := tx.Bucket(kv.BucketImportBlocks)
	if b == nil {
		return 0, false
	}
	v := b.Get(kv.Key(block))
	if len(v) != 8 {
		return 0, false
	}
	return kv.ID(v), true
}

// revision identifies the state an import preview was decided against:
// the last message id, the last event id and a counter of lifecycle
// changes (Forget, Restore, import commits and undos). Any Append, new
// card or lifecycle change makes a preview stale.
func revision(tx *bolt.Tx) string {
	var n uint64
	if v := tx.Bucket(kv.BucketMeta).Get(metaRevision); len(v) == 8 {
		n = kv.ID(v)
	}
	return fmt.Sprintf("%d.%d.%d", tx.Bucket(kv.BucketMessages).Sequence(), tx.Bucket(kv.BucketEvents).Sequence(), n)
}

var metaRevision = []byte("revision.lifecycle")

// bumpRevision counts a lifecycle change.
func bumpRevision(tx *bolt.Tx) error {
	b := tx.Bucket(kv.BucketMeta)
	var n uint64
	if v := b.Get(metaRevision); len(v) == 8 {
		n = kv.ID(v)
	}
	return b.Put(metaRevision, kv.Key(n+1))
}
