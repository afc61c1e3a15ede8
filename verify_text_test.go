package stratagate_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// TestVerifyDetectsDerivedTextDamage: model-derived text has no source to
// be recomputed from, so Verify checks it against what the writer
// validated (UTF-8, lengths) and, for L0–L2, against the hash stored with
// it.
func TestVerifyDetectsDerivedTextDamage(t *testing.T) {
	src := sampleFile(t)
	require.True(t, verifyFile(t, src).OK)

	t.Run("event title with invalid UTF-8", func(t *testing.T) {
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			b := tx.Bucket(kv.BucketEvents)
			v := bytes.Clone(b.Get(kv.Key(1)))
			c, err := events.Decode(v)
			require.NoError(t, err)
			at := bytes.Index(v, []byte(c.Title))
			require.Positive(t, at)
			v[at] = 0xff // never valid in UTF-8
			return b.Put(kv.Key(1), v)
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "event.text")
		assert.Equal(t, uint64(1), v.ID)
		assert.Contains(t, v.Detail, "title")
		assert.Contains(t, v.Detail, "UTF-8")
	})

	t.Run("L2 fact byte changed", func(t *testing.T) {
		const blockID = 1
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			b := tx.Bucket(kv.BucketBlocks)
			v := bytes.Clone(b.Get(kv.Key(blockID)))
			bl, err := layers.DecodeBlock(v)
			require.NoError(t, err)
			require.NotEmpty(t, bl.Facts)
			require.NotEmpty(t, bl.DerivedHash, "the derive job stores the hash")
			// One letter of the first fact, another valid letter: the
			// record re-encoded as the derive job would have written it.
			fact := []byte(bl.Facts[0].Text)
			for i, c := range fact {
				if c >= 'a' && c <= 'y' {
					fact[i]++
					break
				}
			}
			bl.Facts[0].Text = string(fact)
			v, err = kv.Encode(1, &bl)
			require.NoError(t, err)
			return b.Put(kv.Key(blockID), v)
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "block.derived_hash")
		assert.Equal(t, uint64(blockID), v.ID)
		assert.Contains(t, v.Detail, "recomputed")
	})

	t.Run("block title with invalid UTF-8", func(t *testing.T) {
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			b := tx.Bucket(kv.BucketBlocks)
			v := bytes.Clone(b.Get(kv.Key(2)))
			bl, err := layers.DecodeBlock(v)
			require.NoError(t, err)
			at := bytes.Index(v, []byte(bl.Title))
			require.Positive(t, at)
			v[at] = 0xfe
			return b.Put(kv.Key(2), v)
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "block.derived")
		assert.Equal(t, uint64(2), v.ID)
		assert.Contains(t, v.Detail, "UTF-8")
	})
}
