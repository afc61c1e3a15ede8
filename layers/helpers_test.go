package layers_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// Zones used throughout: fixed offsets so that the tests do not depend on
// the host's tz database.
var (
	zoneNY      = time.FixedZone("EDT", -4*3600)
	zoneIndia   = time.FixedZone("IST", 5*3600+30*60)
	zoneBerlin  = time.FixedZone("CET", 1*3600)
	zoneNepal   = time.FixedZone("NPT", 5*3600+45*60)
	zoneMarques = time.FixedZone("MART", -(9*3600 + 30*60))

	// base is the first message time of generated threads.
	base = time.Date(2024, 3, 10, 9, 15, 30, 123456789, zoneNY)
	// sealNow is the clock passed to AppendTurn/Seal.
	sealNow = time.Date(2024, 3, 11, 12, 0, 0, 0, time.UTC)
)

// openDB opens a fresh kv.DB in t's temp dir, closed on cleanup.
func openDB(t testing.TB) *kv.DB {
	t.Helper()
	db, err := kv.Open(filepath.Join(t.TempDir(), "layers.sg"), kv.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// mkMsg builds an unsaved message.
func mkMsg(role, speaker, content string, at time.Time) layers.Message {
	return layers.Message{Role: role, Speaker: speaker, Content: content, At: at}
}

// turnMsgs builds turn k (1-based) of a generated thread: a user message in
// New York time and an assistant reply in India time.
func turnMsgs(k int) []layers.Message {
	at := base.Add(time.Duration(k) * time.Minute)
	return []layers.Message{
		mkMsg(layers.RoleUser, "Mia", fmt.Sprintf("Question %d: should Atlas move to Postgres %d?", k, 10+k), at),
		mkMsg(layers.RoleAssistant, "", fmt.Sprintf("Answer %d: yes, migrate shard %d first.", k, k), at.Add(5*time.Second).In(zoneIndia)),
	}
}

// appendTurns appends turns from..to (inclusive, 1-based) of turnMsgs to
// thread, each in its own committed transaction, and returns the results.
func appendTurns(t testing.TB, db *kv.DB, thread, scope string, from, to, blockTurns int) []layers.TurnResult {
	t.Helper()
	var out []layers.TurnResult
	for k := from; k <= to; k++ {
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			res, err := layers.AppendTurn(tx, thread, scope, "", turnMsgs(k), blockTurns, sealNow)
			out = append(out, res)
			return err
		}))
	}
	return out
}

// appendTurnsOneTx appends turns from..to in a single transaction (faster
// for large fixtures).
func appendTurnsOneTx(t testing.TB, db *kv.DB, thread, scope string, from, to, blockTurns int) {
	t.Helper()
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for k := from; k <= to; k++ {
			if _, err := layers.AppendTurn(tx, thread, scope, "", turnMsgs(k), blockTurns, sealNow); err != nil {
				return err
			}
		}
		return nil
	}))
}

// snapshot dumps every bucket's keys, values and sequence so that two
// states of the file can be compared exactly.
func snapshot(t testing.TB, db *kv.DB) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			out[string(name)+"#seq"] = fmt.Sprint(b.Sequence())
			return b.ForEach(func(k, v []byte) error {
				out[string(name)+"/"+string(k)] = string(bytes.Clone(v))
				return nil
			})
		})
	}))
	return out
}

// loadThread reads a thread, its blocks and its open tail.
func loadThread(t testing.TB, db *kv.DB, name string) (layers.Thread, []layers.Block, []layers.Message) {
	t.Helper()
	var (
		th     layers.Thread
		blocks []layers.Block
		tail   []layers.Message
	)
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var ok bool
		var err error
		th, ok, err = layers.GetThread(tx, name)
		if err != nil {
			return err
		}
		require.True(t, ok, "thread %q exists", name)
		if blocks, err = layers.ThreadBlocks(tx, name); err != nil {
			return err
		}
		// The tests read L3 and L4 too: render them, as Memory.Blocks does.
		for i := range blocks {
			if err := layers.LoadRenderings(tx, &blocks[i]); err != nil {
				return err
			}
		}
		tail, err = layers.GetMessages(tx, th.OpenTail)
		return err
	}))
	return th, blocks, tail
}

// blockMessages reads the messages of b.
func blockMessages(t testing.TB, db *kv.DB, b layers.Block) []layers.Message {
	t.Helper()
	var msgs []layers.Message
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		var err error
		msgs, err = layers.GetMessages(tx, b.MessageIDs)
		return err
	}))
	return msgs
}

func offsetOf(tm time.Time) int {
	_, off := tm.Zone()
	return off
}
