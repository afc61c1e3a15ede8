package stratagate_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/wal"
)

// sampleFile ingests testdata/conversation.json, lets every derivation
// finish, closes the file and returns its path.
func sampleFile(t *testing.T) string {
	t.Helper()
	mem, path := openMem(t, &stratagate.Options{NoSync: true})
	ingestSample(t, mem)
	waitIdle(t, mem)
	require.NoError(t, mem.Close())
	return path
}

// damagedCopy copies the closed file at src, applies damage to the copy
// through bbolt directly and returns the copy's path.
func damagedCopy(t *testing.T, src string, damage func(tx *bolt.Tx) error) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "damaged.sg")
	in, err := os.Open(src)
	require.NoError(t, err)
	defer in.Close()
	out, err := os.Create(dst)
	require.NoError(t, err)
	_, err = io.Copy(out, in)
	require.NoError(t, err)
	require.NoError(t, out.Close())
	db, err := bolt.Open(dst, 0o600, &bolt.Options{Timeout: time.Second})
	require.NoError(t, err)
	require.NoError(t, db.Update(damage))
	require.NoError(t, db.Close())
	return dst
}

func verifyFile(t *testing.T, path string) stratagate.VerifyReport {
	t.Helper()
	mem, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	return rep
}

// findViolation returns the first violation of check, failing the test
// when there is none.
func findViolation(t *testing.T, rep stratagate.VerifyReport, check string) stratagate.Violation {
	t.Helper()
	for _, v := range rep.Violations {
		if v.Check == check {
			return v
		}
	}
	require.Failf(t, "violation not reported", "want check %q in %v", check, rep.Violations)
	return stratagate.Violation{}
}

func TestVerifyHealthyStore(t *testing.T) {
	mem, path := openMem(t, &stratagate.Options{NoSync: true})
	ingestSample(t, mem)
	waitIdle(t, mem)

	ths, err := mem.Threads(ctx)
	require.NoError(t, err)
	tail := 0
	for _, th := range ths {
		tail += len(th.OpenTail)
	}
	require.NotZero(t, tail, "mia's 10 turns stay open")

	// A writable Memory verifies too.
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
	require.NoError(t, mem.Close())
	_, err = mem.Verify(ctx)
	assert.ErrorIs(t, err, stratagate.ErrClosed)

	rep = verifyFile(t, path)
	assert.True(t, rep.OK)
	assert.Empty(t, rep.Violations)
	f := loadSample(t)
	msgs := 0
	for _, tr := range f.Turns() {
		msgs += len(tr.Messages)
	}
	assert.Equal(t, msgs, rep.Checked["messages"])
	assert.Equal(t, 5, rep.Checked["thread_spans"], "a span per block; open tails are listed by their thread records")
	assert.Equal(t, 2, rep.Checked["threads"])
	assert.Equal(t, 5, rep.Checked["blocks"], "60 atlas turns in blocks of 12; mia's 10 turns stay open")
	assert.Equal(t, f.TurnCount(), rep.Checked["receipts"])
	assert.GreaterOrEqual(t, rep.Checked["jobs"], 5, "a derive job per block, and any later stages' jobs")
	assert.Equal(t, msgs, rep.Checked["index.raw.ids"])
	assert.Equal(t, 1, rep.Checked["indexes"])

	js, err := json.Marshal(stratagate.VerifyReport{Checked: map[string]int{}, Violations: []stratagate.Violation{{}}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"ok":false,"checked":{},"violations":[{"check":"","kind":"","id":0,"key":"","detail":""}]}`, string(js))
}

func TestVerifyDetectsDamage(t *testing.T) {
	src := sampleFile(t)
	const msgID, blockID = 5, 2

	t.Run("message content byte flipped", func(t *testing.T) {
		var content string
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			b := tx.Bucket(kv.BucketMessages)
			v := bytes.Clone(b.Get(kv.Key(msgID)))
			msg, err := layers.DecodeMessage(v)
			require.NoError(t, err)
			content = msg.Content
			at := bytes.Index(v, []byte(content))
			require.Positive(t, at)
			for i := at; i < at+len(content); i++ { // change the first ASCII letter
				if c := v[i]; c >= 'a' && c <= 'y' || c >= 'A' && c <= 'Y' {
					v[i] = 'z' // another word: the raw index differs too
					break
				}
			}
			return b.Put(kv.Key(msgID), v)
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "message.hash")
		assert.Equal(t, uint64(msgID), v.ID)
		assert.Equal(t, stratagate.ViolationError, v.Kind)
		assert.Equal(t, "team-atlas", v.Key)
		assert.Contains(t, v.Detail, "recomputed")
		// The block holding it no longer matches its L5 hash, and the raw
		// index no longer matches the changed text.
		assert.Equal(t, uint64(1), findViolation(t, rep, "block.l5hash").ID)
		findViolation(t, rep, "index.raw")
	})

	t.Run("pending receipt damaged", func(t *testing.T) {
		// A receipt pending in a thread record that is also in the
		// receipts bucket, and one naming a sealed message.
		var thread string
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			ths, err := layers.ListThreads(tx)
			require.NoError(t, err)
			for _, th := range ths {
				if len(th.Receipts) < 2 {
					continue
				}
				thread = th.Name
				th.Receipts[0].MessageIDs = []uint64{msgID}
				dup := th.Receipts[1]
				v, err := layers.EncodeReceipt(&layers.Receipt{Thread: th.Name, Turn: dup.Turn, MessageIDs: dup.MessageIDs})
				require.NoError(t, err)
				require.NoError(t, tx.Bucket(kv.BucketReceipts).Put([]byte(dup.ID), v))
				return layers.PutThread(tx, &th)
			}
			t.Fatal("no thread holds two pending receipts")
			return nil
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		var details []string
		for _, v := range rep.Violations {
			if v.Check == "receipt.pending" {
				details = append(details, v.Detail)
			}
		}
		require.Len(t, details, 2, "%v", rep.Violations)
		assert.Contains(t, details[0], "is not in the open tail")
		assert.Contains(t, details[1], "stored in the receipts bucket")
		assert.Contains(t, details[1], thread)
		findViolation(t, rep, "receipt.messages") // msgID is of another turn
	})

	t.Run("index posting deleted", func(t *testing.T) {
		var deleted []byte
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			post := tx.Bucket([]byte("idx.raw")).Bucket([]byte("post"))
			c := post.Cursor()
			for k, _ := c.First(); k != nil; k, _ = c.Next() {
				if bytes.Contains(k, []byte("pnpm")) {
					deleted = bytes.Clone(k)
					break
				}
			}
			require.NotNil(t, deleted)
			return post.Delete(deleted)
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "index.raw")
		assert.Contains(t, v.Key, "idx.raw/post")
		assert.Contains(t, v.Key, "pnpm")
		assert.Contains(t, v.Detail, "missing from the stored index")
	})

	t.Run("index id entry deleted", func(t *testing.T) {
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			// The ids table is chunked (see index/doc.go): chunk msgID>>6
			// holds (id&63 byte, varint doc delta) entries after a version
			// byte. Rewrite it without msgID's entry.
			ids := tx.Bucket([]byte("idx.raw")).Bucket([]byte("ids"))
			k := kv.Key(msgID >> 6)
			v := ids.Get(k)
			require.NotNil(t, v)
			out := []byte{v[0]}
			var doc, prev int64
			for p := 1; p < len(v); {
				low := v[p]
				delta, n := binary.Varint(v[p+1:])
				require.Positive(t, n)
				p += 1 + n
				doc += delta
				if uint64(low) == msgID&63 {
					continue
				}
				out = append(out, low)
				out = binary.AppendVarint(out, doc-prev)
				prev = doc
			}
			require.Less(t, len(out), len(v))
			return ids.Put(k, out)
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "index.raw")
		assert.Equal(t, uint64(msgID), v.ID)
		assert.Contains(t, v.Key, "idx.raw/ids")
	})

	t.Run("index id without a message", func(t *testing.T) {
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			return tx.Bucket([]byte("idx.raw")).Bucket([]byte("ids")).Put(kv.Key(9999>>6), []byte{2, 9999 & 63, 2}) // id 9999 → doc 1
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		assert.Equal(t, uint64(9999), findViolation(t, rep, "index.raw.ids").ID)
	})

	// editBlock rewrites block blockID's record in a damaged copy of src.
	editBlock := func(t *testing.T, edit func(b *layers.Block)) string {
		return damagedCopy(t, src, func(tx *bolt.Tx) error {
			b, err := layers.GetBlock(tx, blockID)
			require.NoError(t, err)
			edit(&b)
			return layers.PutBlock(tx, &b)
		})
	}
	t.Run("block render hash changed", func(t *testing.T) {
		path := editBlock(t, func(b *layers.Block) { b.RenderHash[0] ^= 1 })
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "block.render_hash")
		assert.Equal(t, uint64(blockID), v.ID)
		assert.Equal(t, stratagate.ViolationError, v.Kind)
		assert.Contains(t, v.Detail, "stored L3/L4 hash")
		for _, x := range rep.Violations {
			assert.NotEqual(t, "block.l5hash", x.Check, "only the rendering hash was changed")
		}
	})
	t.Run("L5 message changed with its own hash recomputed", func(t *testing.T) {
		// Whoever rewrote the message also fixed its SHA-256: the block's
		// L5 hash and its renderings' hash still catch it.
		var victim uint64
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			b, err := layers.GetBlock(tx, blockID)
			require.NoError(t, err)
			victim = b.MessageIDs[3]
			msg, err := layers.GetMessage(tx, victim)
			require.NoError(t, err)
			require.NoError(t, tx.Bucket(kv.BucketMessages).Delete(kv.Key(victim)))
			msg.Content = strings.ToUpper(msg.Content)
			return layers.PutMessage(tx, &msg)
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		for _, x := range rep.Violations {
			assert.NotEqual(t, "message.hash", x.Check, "the message's own hash was recomputed")
		}
		assert.Equal(t, uint64(blockID), findViolation(t, rep, "block.l5hash").ID)
		assert.Equal(t, uint64(blockID), findViolation(t, rep, "block.render_hash").ID)
	})
	t.Run("block hashed by another renderer version", func(t *testing.T) {
		path := editBlock(t, func(b *layers.Block) { b.RenderVersion = layers.RendererVersion + 1 })
		rep := verifyFile(t, path)
		v := findViolation(t, rep, "block.render_version")
		assert.Equal(t, stratagate.ViolationWarning, v.Kind, "a renderer change is not damage")
		assert.Equal(t, uint64(blockID), v.ID)
		assert.True(t, rep.OK, "%v", rep.Violations)
	})

	// respan replaces block blockID's thread_spans entry with one listing
	// ids (none: the entry is only removed), or with raw as its value.
	respan := func(t *testing.T, ids []uint64, raw []byte) string {
		return damagedCopy(t, src, func(tx *bolt.Tx) error {
			sb := tx.Bucket(kv.BucketThreadSpans)
			b, err := layers.GetBlock(tx, blockID)
			require.NoError(t, err)
			key := append([]byte(b.Thread+"\x00"), kv.Key(b.MessageIDs[len(b.MessageIDs)-1])...)
			require.NotNil(t, sb.Get(key))
			require.NoError(t, sb.Delete(key))
			if raw != nil {
				return sb.Put(key, raw)
			}
			if len(ids) == 0 {
				return nil
			}
			v := binary.AppendUvarint([]byte{1}, blockID)
			v = binary.AppendUvarint(v, uint64(len(ids)))
			v = binary.AppendUvarint(v, ids[0])
			for i := 1; i < len(ids); i++ {
				v = binary.AppendUvarint(v, ids[i]-ids[i-1])
			}
			return sb.Put(append([]byte(b.Thread+"\x00"), kv.Key(ids[len(ids)-1])...), v)
		})
	}
	blockMsgs := func(t *testing.T) []uint64 {
		db, err := bolt.Open(src, 0o600, &bolt.Options{ReadOnly: true})
		require.NoError(t, err)
		defer db.Close()
		var ids []uint64
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			b, err := layers.GetBlock(tx, blockID)
			ids = b.MessageIDs
			return err
		}))
		return ids
	}

	t.Run("span removed", func(t *testing.T) {
		rep := verifyFile(t, respan(t, nil, nil))
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "thread_spans")
		assert.Equal(t, uint64(blockID), v.ID)
		assert.Contains(t, v.Detail, "no thread_spans entry")
	})
	t.Run("span missing a message", func(t *testing.T) {
		ids := blockMsgs(t)
		rep := verifyFile(t, respan(t, append(slices.Clone(ids[:3]), ids[4:]...), nil))
		assert.False(t, rep.OK)
		v := findViolation(t, rep, "thread_spans")
		assert.Equal(t, uint64(blockID), v.ID)
		assert.Contains(t, v.Detail, "the block lists")
	})
	t.Run("span that does not decode", func(t *testing.T) {
		rep := verifyFile(t, respan(t, nil, []byte{1, 0x80}))
		assert.False(t, rep.OK)
		assert.Contains(t, findViolation(t, rep, "thread_spans").Detail, "corrupt")
	})

	t.Run("stuck running job", func(t *testing.T) {
		var job wal.Job
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			j, err := wal.Enqueue(tx, wal.KindDerive, blockID, time.Now())
			if err != nil {
				return err
			}
			job, err = wal.Claim(tx, j.ID, time.Now())
			return err
		})
		rep := verifyFile(t, path)
		v := findViolation(t, rep, "jobs.running")
		assert.Equal(t, job.ID, v.ID)
		assert.Equal(t, stratagate.ViolationWarning, v.Kind)
		assert.Contains(t, v.Detail, "resumes on the next")
		assert.True(t, rep.OK, "a warning alone does not fail the audit: %v", rep.Violations)
		assert.Len(t, rep.Violations, 1)
	})

	t.Run("job dropped from the queue", func(t *testing.T) {
		var job wal.Job
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			var err error
			if job, err = wal.Enqueue(tx, wal.KindDerive, blockID, time.Now()); err != nil {
				return err
			}
			return tx.Bucket(kv.BucketJobQueue).Delete(kv.Key(job.ID))
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		assert.Equal(t, job.ID, findViolation(t, rep, "jobs.queue").ID)
	})

	t.Run("open tail message sealed", func(t *testing.T) {
		var tail uint64
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			th, ok, err := layers.GetThread(tx, "mia-personal")
			require.NoError(t, err)
			require.True(t, ok)
			tail = th.OpenTail[0]
			b, err := layers.GetBlock(tx, blockID)
			require.NoError(t, err)
			b.MessageIDs = append(b.MessageIDs, tail)
			return layers.PutBlock(tx, &b)
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		assert.Equal(t, tail, findViolation(t, rep, "thread.open_tail").ID)
		assert.Equal(t, uint64(blockID), findViolation(t, rep, "thread_spans").ID, "the block no longer matches its span")
	})

	// editCard rewrites event 1 of the copy with fn.
	editCard := func(t *testing.T, fn func(c *events.Card, tx *bolt.Tx)) string {
		return damagedCopy(t, src, func(tx *bolt.Tx) error {
			b := tx.Bucket(kv.BucketEvents)
			c, err := events.Decode(b.Get(kv.Key(1)))
			require.NoError(t, err)
			fn(&c, tx)
			v, err := events.Encode(&c)
			require.NoError(t, err)
			return b.Put(kv.Key(1), v)
		})
	}

	t.Run("event cites a foreign message", func(t *testing.T) {
		path := editCard(t, func(c *events.Card, tx *bolt.Tx) {
			b, err := layers.GetBlock(tx, c.SourceBlockID+1)
			require.NoError(t, err)
			c.SourceMessageIDs = append(c.SourceMessageIDs, b.MessageIDs[0])
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		assert.Equal(t, uint64(1), findViolation(t, rep, "event.source").ID)
	})

	t.Run("event quote fabricated", func(t *testing.T) {
		path := editCard(t, func(c *events.Card, _ *bolt.Tx) { c.Quotes = []string{"words nobody ever wrote"} })
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		assert.Equal(t, uint64(1), findViolation(t, rep, "event.quote").ID)
	})

	t.Run("weight without a recorded use", func(t *testing.T) {
		path := damagedCopy(t, src, func(tx *bolt.Tx) error { return events.Adopt(tx, 1, time.Now()) })
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		assert.Equal(t, uint64(1), findViolation(t, rep, "use.bookkeeping").ID)
	})

	t.Run("extraction record deleted", func(t *testing.T) {
		var block uint64
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			c, err := events.Get(tx, 1)
			require.NoError(t, err)
			block = c.SourceBlockID
			return tx.Bucket(kv.BucketBlockEvents).Delete(kv.Key(block))
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		assert.Equal(t, uint64(1), findViolation(t, rep, "block_events.card").ID)
		assert.Equal(t, block, findViolation(t, rep, "block.extract").ID)
	})

	t.Run("source event of a fact removed", func(t *testing.T) {
		var fact, event uint64
		path := damagedCopy(t, src, func(tx *bolt.Tx) error {
			require.NoError(t, graph.ForEachFact(tx, func(f graph.Fact) error {
				if fact == 0 {
					fact, event = f.ID, f.SourceEventIDs[0]
				}
				return nil
			}))
			require.NotZero(t, fact, "the sample store has graph facts")
			return tx.Bucket(kv.BucketEvents).Delete(kv.Key(event))
		})
		rep := verifyFile(t, path)
		assert.False(t, rep.OK)
		assert.Equal(t, fact, findViolation(t, rep, "graph.fact").ID)
	})

	t.Run("bucket dropped", func(t *testing.T) {
		path := damagedCopy(t, src, func(tx *bolt.Tx) error { return tx.DeleteBucket(kv.BucketThreadSpans) })
		_, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
		assert.ErrorIs(t, err, stratagate.ErrVersionMismatch, "a missing bucket is refused with a clear error")
		assert.ErrorContains(t, err, "thread_spans")
	})
}
