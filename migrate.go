package stratagate

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// formatBlocksV2 is the file format from which block records are version
// 2: L3 and L4 are rendered from L5 on read, the record keeps their
// renderer version and hash (see layers.RenderSum).
const formatBlocksV2 uint32 = 2

// formatSpans is the file format from which thread_spans replaces
// message_block and thread_messages (see layers.Span).
const formatSpans uint32 = 4

// migrateBatch bounds the block records one migration transaction
// rewrites: a large file is migrated in many small transactions, never
// one that holds the whole blocks bucket dirty.
var migrateBatch = 512

// migrate brings the file of a writable Open up to this build's format.
// Format 1 → 2 rewrites every version 1 block record (as the current version), in
// transactions of migrateBatch records. A crash part way leaves a format 1
// file whose blocks are partly rewritten; readers accept both record
// versions and the next writable Open finishes the job. Format 2 → 3
// rewrites nothing (a format 2 file lists its open tails in both places,
// which format 3 readers accept). Format 3 → 4 builds thread_spans from
// the blocks and deletes message_block and thread_messages, in the
// transaction that raises the format (a few bytes per block: even a file
// of a million messages writes a few MB), so a crash leaves either the
// old layout or the new one. Format 4 → 5 rewrites nothing: version 2
// card records stay readable, and new cards are written as version 3.
// Format 5 → 6 rewrites nothing either: version 1 graph records stay
// readable, and what projection writes is version 2. Format 6 → 7 rewrites
// nothing: version 2 block records stay readable, and what sealing and
// derivation write is version 3 (binary). A read-only Open migrates
// nothing; kv.Open refuses it for a file older than kv.MinReadFormat.
func (m *Memory) migrate() error {
	format, err := m.db.Format()
	if err != nil {
		return err
	}
	if format >= kv.FormatVersion {
		return nil
	}
	if format < formatBlocksV2 {
		m.opts.Logger.Info("migrating version 1 block records (L3 and L4 rendered on read)", "format", format)
		st, err := migrateBlocks(m.db, migrateBatch)
		if err != nil {
			return fmt.Errorf("sg: migrate block records: %w", err)
		}
		m.opts.Logger.Info("migrated version 1 block records", "rewritten", st.rewritten,
			"undecodable", st.skipped, "transactions", st.txs)
	}
	var spans, skipped int
	if err := m.db.Update(func(tx *bolt.Tx) error {
		if format < formatSpans {
			var err error
			if spans, skipped, err = layers.MigrateSpans(tx); err != nil {
				return fmt.Errorf("sg: migrate to thread_spans: %w", err)
			}
		}
		return kv.SetFormat(tx, kv.FormatVersion)
	}); err != nil {
		return err
	}
	if format < formatSpans {
		m.opts.Logger.Info("replaced message_block and thread_messages with thread_spans", "spans", spans, "blocks_skipped", skipped)
	}
	m.opts.Logger.Info("raised the file format", "from", format, "to", kv.FormatVersion)
	return nil
}

type migrateStats struct{ rewritten, skipped, txs int }

// migrateBlocks rewrites the version 1 block records of db as current ones,
// at most batch per transaction. The hash a rewritten record keeps is that
// of its stored L3 and L4 text, so a rendering damaged before the
// migration still fails Verify after it. A record that does not decode is
// left as it is, for Verify to report.
func migrateBlocks(db *kv.DB, batch int) (migrateStats, error) {
	var st migrateStats
	var after []byte // last key handled; nil before the first batch
	for {
		done := false
		err := db.Update(func(tx *bolt.Tx) error {
			bb := tx.Bucket(kv.BucketBlocks)
			c := bb.Cursor()
			k, v := c.First()
			if after != nil {
				if k, v = c.Seek(after); k != nil && bytes.Equal(k, after) {
					k, v = c.Next()
				}
			}
			// Collect first, then write: a Put repositions bbolt cursors.
			var todo []layers.Block
			for ; k != nil && len(todo) < batch; k, v = c.Next() {
				after = bytes.Clone(k)
				if !layers.IsBlockV1(v) {
					continue
				}
				b, err := layers.DecodeBlock(v)
				if err != nil || b.ID != kv.ID(k) {
					st.skipped++
					continue
				}
				todo = append(todo, b)
			}
			done = k == nil
			for i := range todo {
				if err := layers.PutBlock(tx, &todo[i]); err != nil {
					return err
				}
			}
			st.rewritten += len(todo)
			st.txs++
			return nil
		})
		if err != nil || done {
			return st, err
		}
	}
}
