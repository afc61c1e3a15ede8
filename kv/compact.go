package kv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// ErrExists is returned by CompactTo when the destination already exists.
var ErrExists = errors.New("sg: destination file exists")

// compactTxBytes bounds the key and value bytes one destination
// transaction copies, so that a large file is not held in one dirty
// transaction.
const compactTxBytes = 16 << 20

// CompactTo writes a compacted copy of db's current committed state to a
// new file at path: every bucket, key, value and bucket sequence, with
// pages filled completely (bbolt leaves pages half full after random
// inserts, and a file keeps the pages freed by copy-on-write). The copy is
// one consistent snapshot (one read transaction), taken while writers go
// on. It is written to a temporary file beside path (".NAME.compact-*"),
// without fsync until the end, synced, and only then linked to path, so
// path never holds a partial copy, even after a crash (which may leave the
// temporary file behind); on error or cancellation the temporary file is
// removed. path must not exist (ErrExists), then or when the copy is done.
func (db *DB) CompactTo(ctx context.Context, path string) (err error) {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("kv: compact to %s: %w", path, ErrExists)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("kv: compact to %s: %w", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".compact-*")
	if err != nil {
		return fmt.Errorf("kv: compact to %s: %w", path, err)
	}
	tmp := f.Name()
	f.Close()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if err := db.compactInto(ctx, tmp); err != nil {
		return fmt.Errorf("kv: compact to %s: %w", path, err)
	}
	// Link refuses an existing path (a copy made meanwhile is never
	// replaced); the temporary name is then dropped.
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("kv: compact to %s: %w", path, ErrExists)
		}
		return fmt.Errorf("kv: compact to %s: %w", path, err)
	}
	os.Remove(tmp)
	return syncDir(filepath.Dir(path))
}

// syncDir makes a new directory entry durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// compactInto copies db's current state into the new (empty) file at path.
func (db *DB) compactInto(ctx context.Context, path string) (err error) {
	dst, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true, NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return err
	}
	var used int64 // the copy's high-water mark, past which its file is preallocation
	defer func() {
		if cerr := dst.Close(); err == nil && cerr != nil {
			err = cerr
		}
		// bbolt grows a file in steps (up to 16 MB past its data) and never
		// gives the slack back; the copy is done, so cut it to its pages.
		if err == nil && used > 0 {
			err = truncateSynced(path, used)
		}
	}()
	err = db.View(func(src *bolt.Tx) (err error) {
		c := &copier{ctx: ctx, dst: dst}
		if err := c.begin(); err != nil {
			return err
		}
		// A panic reading a damaged source page must not leave the
		// destination's write transaction open (dst.Close would wait for it).
		defer func() {
			if p := recover(); p != nil {
				_ = c.tx.Rollback()
				panic(p) // for View's guard: an ErrCorrupt naming the panic
			}
			if err != nil {
				_ = c.tx.Rollback()
			}
		}()
		err = src.ForEach(func(name []byte, b *bolt.Bucket) error {
			return c.bucket([][]byte{name}, b)
		})
		if err != nil {
			return err
		}
		return c.tx.Commit()
	})
	if err != nil {
		return err
	}
	if err := dst.View(func(tx *bolt.Tx) error { used = tx.Size(); return nil }); err != nil {
		return err
	}
	return dst.Sync()
}

// truncateSynced cuts the closed file at path to size bytes and syncs it.
func truncateSynced(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() <= size {
		return f.Close()
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// copier copies buckets into dst in transactions of about compactTxBytes.
type copier struct {
	ctx  context.Context
	dst  *bolt.DB
	tx   *bolt.Tx
	size int
	n    int
}

func (c *copier) begin() error {
	tx, err := c.dst.Begin(true)
	if err != nil {
		return err
	}
	c.tx, c.size = tx, 0
	return nil
}

// target returns the destination bucket at path in the current
// transaction, creating it (with its pages filled completely) if needed.
func (c *copier) target(path [][]byte) (*bolt.Bucket, error) {
	b, err := c.tx.CreateBucketIfNotExists(path[0])
	if err != nil {
		return nil, err
	}
	b.FillPercent = 1
	for _, name := range path[1:] {
		if b, err = b.CreateBucketIfNotExists(name); err != nil {
			return nil, err
		}
		b.FillPercent = 1
	}
	return b, nil
}

// bucket copies src (at path) key by key, in key order, recursing into
// nested buckets; a transaction that has grown past compactTxBytes is
// committed and the copy goes on in a new one.
func (c *copier) bucket(path [][]byte, src *bolt.Bucket) error {
	dst, err := c.target(path)
	if err != nil {
		return err
	}
	if err := dst.SetSequence(src.Sequence()); err != nil {
		return err
	}
	cur := src.Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		if c.n++; c.n&1023 == 0 {
			if err := c.ctx.Err(); err != nil {
				return err
			}
		}
		if v == nil {
			sub := src.Bucket(k)
			if sub == nil {
				return fmt.Errorf("%w: %q is neither a value nor a bucket", ErrCorrupt, k)
			}
			if err := c.bucket(append(path[:len(path):len(path)], bytes.Clone(k)), sub); err != nil {
				return err
			}
			// The nested copy may have committed: reopen this level.
			if dst, err = c.target(path); err != nil {
				return err
			}
			continue
		}
		if c.size > compactTxBytes {
			if err := c.tx.Commit(); err != nil {
				return err
			}
			if err := c.begin(); err != nil {
				return err
			}
			if dst, err = c.target(path); err != nil {
				return err
			}
		}
		// Put copies key and value into the transaction's nodes only at
		// commit (it keeps the slices): src's memory stays mapped while
		// the read transaction is open, and every commit happens inside it.
		if err := dst.Put(k, v); err != nil {
			return err
		}
		c.size += len(k) + len(v)
	}
	return nil
}
