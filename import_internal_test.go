package stratagate

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/extmem"
	"github.com/stratagate/stratagate/kv"
)

// dumpBuckets copies every key and value of the named buckets.
func dumpBuckets(t *testing.T, m *Memory, names ...[]byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, m.db.View(func(tx *bolt.Tx) error {
		for _, n := range names {
			if err := tx.Bucket(n).ForEach(func(k, v []byte) error {
				out[fmt.Sprintf("%s/%x", n, k)] = string(v)
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	}))
	return out
}

// TestImportUndoExactRecords: after undo the graph buckets hold exactly
// the records they held before the import, byte for byte, and every card
// that existed before is byte-identical too.
func TestImportUndoExactRecords(t *testing.T) {
	ctx := context.Background()
	m, err := Open(filepath.Join(t.TempDir(), "m.sg"), &Options{BlockTurns: 1})
	require.NoError(t, err)
	defer m.Close()
	at := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	for i, s := range []string{
		"I drink green tea every morning.",
		"My sister Ines lives in Porto and works at a bakery.",
		"We adopted a cat named Miso last spring.",
	} {
		_, err := m.Append(ctx, Turn{Thread: "t", Messages: []Message{{Role: "user", Speaker: "Sam", Content: s, At: at.Add(time.Duration(i) * time.Hour)}}})
		require.NoError(t, err)
	}
	require.NoError(t, m.WaitIdle(ctx))
	graphBuckets := [][]byte{kv.BucketGraphNodes, kv.BucketGraphFacts, kv.BucketGraphEdges, kv.BucketGraphNames, kv.BucketGraphLinks}
	beforeGraph := dumpBuckets(t, m, graphBuckets...)
	beforeEvents := dumpBuckets(t, m, kv.BucketEvents)
	require.NotEmpty(t, beforeEvents)

	text := "```json\n" + `{"format":"` + extmem.Format + `","memories":[
 {"kind":"preference","title":"Sam drinks coffee now","summary":"Sam switched from green tea to coffee.","original_text":"I drink coffee now, not green tea.","temporal":{"participants":["Sam"],"precision":"unknown","basis":"unknown"}},
 {"kind":"fact","title":"Sam's sister Ines lives in Lisbon","summary":"Ines moved from Porto to Lisbon.","original_text":"Ines lives in Lisbon now.","temporal":{"participants":["Ines"],"precision":"unknown","basis":"unknown"}},
 {"kind":"fact","title":"Sam plays the cello","summary":"Sam plays cello in an amateur orchestra.","original_text":"I play cello in an amateur orchestra.","temporal":{"participants":["Sam"],"precision":"unknown","basis":"unknown"}}
]}` + "\n```"
	p, err := m.ImportPreview(ctx, text, ImportOptions{})
	require.NoError(t, err)
	res, err := m.ImportCommit(ctx, p.ID, Confirmations{AcceptAll: true})
	require.NoError(t, err)
	require.NotEmpty(t, res.Created)
	require.NoError(t, m.WaitIdle(ctx))
	require.NotEqual(t, beforeGraph, dumpBuckets(t, m, graphBuckets...), "the import was projected")

	require.NoError(t, m.ImportUndo(ctx, res.BatchID))
	require.Equal(t, beforeGraph, dumpBuckets(t, m, graphBuckets...))
	afterEvents := dumpBuckets(t, m, kv.BucketEvents)
	for k, v := range beforeEvents {
		require.Equal(t, v, afterEvents[k], k)
	}
	require.Len(t, afterEvents, len(beforeEvents)+len(res.Created), "undone cards stay, as undone")
	rep, err := m.Verify(ctx)
	require.NoError(t, err)
	require.True(t, rep.OK, "%+v", rep.Violations)

	// A reopen does not rebuild the graph index (nodes are counted).
	require.NoError(t, m.Close())
	m2, err := Open(m.db.Path(), nil)
	require.NoError(t, err)
	defer m2.Close()
	require.NoError(t, m2.CheckIndexes(ctx))
}
