package stratagate

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/wal"
)

// Contents returns every bucket of m's file, recursively, as path → value
// (nested buckets as "a/b/key"; a bucket's sequence as "a/b/#seq"), for
// tests that assert a call changed nothing. A byte-for-byte file
// comparison would not do: bbolt alternates its meta pages and may reuse
// free pages without a logical change.
func Contents(m *Memory) (map[string]string, error) {
	release, err := m.enter(context.Background())
	if err != nil {
		return nil, err
	}
	defer release()
	out := map[string]string{}
	var walk func(prefix string, b *bolt.Bucket) error
	walk = func(prefix string, b *bolt.Bucket) error {
		out[prefix+"#seq"] = fmt.Sprint(b.Sequence())
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				return walk(prefix+string(k)+"/", b.Bucket(k))
			}
			out[prefix+string(k)] = string(v)
			return nil
		})
	}
	err = m.db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(string(name)+"/", b) })
	})
	return out, err
}

// Jobs returns every job of m's file, for tests of what jobs record.
func Jobs(m *Memory) ([]wal.Job, error) {
	var jobs []wal.Job
	err := m.db.View(func(tx *bolt.Tx) error {
		var err error
		jobs, err = wal.List(tx, "")
		return err
	})
	return jobs, err
}

// UnmergedRawDocs opens path read-only and returns how many messages its
// raw index has not merged (the buffer a killed writer lost, re-indexed
// from L5 by the next writable Open).
func UnmergedRawDocs(path string) (int, error) {
	db, err := kv.Open(path, kv.Options{ReadOnly: true, LockTimeout: 5 * time.Second})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var unmerged int
	err = db.View(func(tx *bolt.Tx) error {
		if tx.Bucket(kv.BucketMessages) == nil {
			return nil
		}
		n, err := newRawIndex().Count(tx)
		if err != nil {
			return err
		}
		unmerged = int(tx.Bucket(kv.BucketMessages).Sequence()) - int(n)
		return nil
	})
	return unmerged, err
}

// LockedBuffer is a bytes.Buffer safe to read while another goroutine
// writes to it (a child's stderr copied by exec, a logger of the
// committer's goroutine).
type LockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *LockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
