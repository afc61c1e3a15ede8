package stratagate

import (
	"context"
	"fmt"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// cursorVersion is the record format of a cursor in the meta bucket.
const cursorVersion byte = 1

// cursorPrefix prefixes the meta keys of cursors: "cursor/" + key.
const cursorPrefix = "cursor/"

// MaxCursorKeyBytes bounds a cursor key (Cursor, SetCursor).
const MaxCursorKeyBytes = 512

// cursorRecord is a cursor as stored: a byte offset into some external
// file and when it was last set.
type cursorRecord struct {
	Off int64 `msgpack:"o"`
	At  int64 `msgpack:"t"` // Unix ns of the last SetCursor (informational)
}

func checkCursorKey(key string) error {
	switch {
	case key == "":
		return invalid(ErrEmpty, "cursor key is empty")
	case len(key) > MaxCursorKeyBytes:
		return invalid(ErrTooLarge, "cursor key is %d bytes, limit %d", len(key), MaxCursorKeyBytes)
	case !utf8.ValidString(key):
		return invalid(ErrInvalidUTF8, "cursor key")
	}
	return nil
}

// Cursor returns the offset last stored under key by SetCursor, or 0 when
// none is. Cursors let an importer that reads an append-only file (an
// agent's transcript) resume where it stopped; the store gives them no
// meaning. An empty key, one beyond MaxCursorKeyBytes or one that is not
// valid UTF-8 is ErrInvalidInput.
func (m *Memory) Cursor(ctx context.Context, key string) (int64, error) {
	if err := checkCursorKey(key); err != nil {
		return 0, err
	}
	release, err := m.enter(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	var rec cursorRecord
	err = m.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(kv.BucketMeta).Get([]byte(cursorPrefix + key))
		if v == nil {
			return nil
		}
		if _, err := kv.Decode(v, &rec, cursorVersion); err != nil {
			return fmt.Errorf("cursor %q: %w", key, err)
		}
		return nil
	})
	return rec.Off, err
}

// SetCursor stores off under key, durably (fsynced unless NoSync). A
// negative off or a bad key (see Cursor) is ErrInvalidInput; a ReadOnly
// Memory returns ErrReadOnly.
func (m *Memory) SetCursor(ctx context.Context, key string, off int64) error {
	if err := checkCursorKey(key); err != nil {
		return err
	}
	if off < 0 {
		return invalid(ErrInvalidInput, "cursor %q: negative offset %d", key, off)
	}
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	if m.opts.ReadOnly {
		return ErrReadOnly
	}
	v, err := kv.Encode(cursorVersion, &cursorRecord{Off: off, At: m.opts.Clock().UnixNano()})
	if err != nil {
		return err
	}
	return m.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketMeta).Put([]byte(cursorPrefix+key), v)
	})
}
