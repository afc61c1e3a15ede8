package stratagate

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// A raw index merge that fails (here: its stats record damaged under a
// running store) is logged and retried a second later, not at every
// commit or in a loop; the appends themselves succeed, their messages
// buffered (a later merge, or the next Open, indexes them).
func TestFailedMergeIsNotRetriedInALoop(t *testing.T) {
	var logs LockedBuffer
	m, err := Open(filepath.Join(t.TempDir(), "m.sg"), &Options{NoSync: true, IndexBuffer: 4,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.NoError(t, err)
	defer m.Close()
	require.NoError(t, m.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("idx."+rawIndexName)).Bucket([]byte("meta")).Put([]byte("stats"), []byte{0xff, 0xff})
	}))
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 60 {
		_, err := m.Append(context.Background(), Turn{Thread: "t", Messages: []Message{
			{Role: "user", Content: fmt.Sprintf("message %d about the kiln", i), At: at.Add(time.Duration(i) * time.Second)}}})
		require.NoError(t, err)
	}
	time.Sleep(1500 * time.Millisecond)
	n := strings.Count(logs.String(), "raw index merge failed")
	t.Logf("merge failures logged: %d", n)
	require.Positive(t, n, "the merge was tried")
	require.LessOrEqual(t, n, 4, "once, then about once a second: %d", n)
	require.Equal(t, 60, m.rawBuf.cur.Load().Len(), "every message waits in the buffer")
}
