package kv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// FormatVersion is the file format this build writes and the newest it
// reads. It only ratchets. Format 2: block records are version 2 (L3 and
// L4 rendered on read, not stored); a writable Open of a format 1 file
// migrates its block records and then raises the format (see the root
// package's migrate.go), so that a build that cannot read version 2
// block records refuses the file at Open instead of failing on each block.
// Format 3: a thread's open tail and its receipts are listed only by the
// thread record (thread_messages and receipts gain them at seal); a
// format 2 file is valid format 3 as it is, and the number is raised so
// that a format 2 build, which would miss the tail, refuses the file.
// Format 4: thread_spans (one entry per sealed block: its id and message
// ids) replaces message_block and thread_messages (one entry per message
// each); a writable Open of an older file builds the spans and deletes
// the two maps in one transaction. Message, receipt, thread and card
// records are written as version 2 from format 4 (version 1 is still
// read). Format 5: card records are written as version 3 (a card's texts
// may refer to each other); a format 4 file is valid format 5 as it is,
// and the number is raised so that a format 4 build, which cannot read
// version 3 cards, refuses the file. Format 6: graph node, fact and edge
// records are written as version 2 (binary, see the graph package); a
// format 5 file is valid format 6 as it is (version 1 records are still
// read and are rewritten as version 2 when projection next changes them),
// and the number is raised so that a format 5 build refuses the file.
// Format 7: block records are written as version 3 (binary); a format 6
// file is valid format 7 as it is (version 2 block records are still read;
// a pending block becomes version 3 when its derivation stores it), and
// the number is raised so that a format 6 build refuses the file.
const FormatVersion uint32 = 7

// MinReadFormat is the oldest format a read-only Open accepts: files of
// formats MinReadFormat to FormatVersion differ only in record versions
// that every reader decodes. An older file lacks thread_spans: open it
// read-write once.
const MinReadFormat uint32 = 4

var (
	keyMagic   = []byte("magic")
	keyFormat  = []byte("format")
	keyCreated = []byte("created")
	magic      = []byte("stratagt")
)

// Options configure Open. The zero value opens read-write, fsyncing every
// commit, waiting indefinitely for the file lock.
type Options struct {
	ReadOnly    bool
	NoSync      bool
	LockTimeout time.Duration // 0 waits forever (bbolt's default)
	// Now stamps the "created" meta key of a new file; nil means time.Now.
	Now func() time.Time
}

// DB is a StrataGate bbolt file. It is safe for concurrent use: one writer
// at a time, any number of readers (bbolt's model).
type DB struct {
	bolt *bolt.DB
	path string
}

// Open opens or creates the file at path, creates missing buckets (unless
// read-only) and checks the file format.
//
// A file that exists must be a StrataGate file or an empty bbolt file (one
// without buckets, which a writable Open adopts); anything else is refused
// with ErrCorrupt and left unmodified: a zero-length file (only a file this
// call creates starts a new store), a foreign file, a bbolt file with other
// buckets, and a file shorter than its meta page's high-water mark (a
// truncated copy, which bbolt would map and then crash on). A panic or a
// memory fault while bbolt reads a damaged file also becomes ErrCorrupt.
func Open(path string, o Options) (db *DB, err error) {
	absent, err := absentFile(path)
	if err != nil {
		return nil, fmt.Errorf("kv: open %s: %w", path, err)
	}
	if absent && o.ReadOnly {
		return nil, fmt.Errorf("kv: open %s: %w", path, os.ErrNotExist)
	}
	if absent {
		if err := createFile(path, o); err != nil {
			return nil, fmt.Errorf("kv: open %s: %w", path, err)
		}
		absent = false // opened below like any existing store
	}
	var file *os.File
	bo := &bolt.Options{
		Timeout:      o.LockTimeout,
		NoSync:       o.NoSync,
		ReadOnly:     o.ReadOnly,
		FreelistType: bolt.FreelistMapType,
		// The freelist is not written with every commit (a durable Append
		// then rewrote its pages, several on a file with many free pages):
		// Open rebuilds it from the reachable pages, the walk checkPages
		// does on a writable Open anyway.
		NoFreelistSync: true,
		OpenFile: func(name string, flag int, mode os.FileMode) (*os.File, error) {
			// createFile made a missing store; never create one here.
			f, err := os.OpenFile(name, flag&^os.O_CREATE, mode)
			if err != nil {
				return nil, err
			}
			// Check the existing file before bbolt maps it, under the lock
			// bbolt takes next (taking it again on the same descriptor is a
			// no-op), so that a writer elsewhere cannot change it meanwhile.
			if err := lockFile(f, !o.ReadOnly, o.LockTimeout); err != nil {
				_ = f.Close()
				return nil, err
			}
			if err := checkOpenFile(f, !o.ReadOnly); err != nil {
				_ = f.Close()
				return nil, err
			}
			file = f
			return f, nil
		},
	}
	var b *bolt.DB
	defer func() {
		// bbolt reads the meta and freelist pages during Open and our
		// checks read the meta bucket: on a damaged file either can panic
		// (a page assertion) or fault. Release the file (and its lock).
		if p := recover(); p != nil {
			if b != nil {
				_ = closeQuietly(b)
			} else if file != nil {
				_ = file.Close()
			}
			db, err = nil, fmt.Errorf("kv: open %s: %w: reading the file's pages: %v", path, ErrCorrupt, p)
		}
	}()
	defer SetPanicOnFault()()
	b, err = bolt.Open(path, 0o600, bo)
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, fmt.Errorf("kv: open %s: %w (waited %v)", path, ErrLocked, o.LockTimeout)
		}
		if errors.Is(err, berrors.ErrVersionMismatch) {
			return nil, fmt.Errorf("kv: open %s: %w: %v", path, ErrVersionMismatch, err)
		}
		if errors.Is(err, ErrCorrupt) {
			return nil, fmt.Errorf("kv: open %s: %w", path, err) // our pre-open checks
		}
		var pe *os.PathError
		if errors.As(err, &pe) || errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
			return nil, fmt.Errorf("kv: open %s: %w", path, err)
		}
		// Anything else bbolt rejects is a file it cannot read as a
		// database: bad magic, checksum, truncated ("file size too small").
		return nil, fmt.Errorf("kv: open %s: %w: %v", path, ErrCorrupt, err)
	}
	db = &DB{bolt: b, path: path}
	if o.ReadOnly {
		err = b.View(func(tx *bolt.Tx) error {
			if err := checkMeta(tx); err != nil {
				return err
			}
			// Readers know the layouts from MinReadFormat on; an older file is
			// migrated by a writable Open (a file a writable Open left
			// part way, with the new buckets created but the format not
			// yet raised, is refused here too).
			if v := binary.BigEndian.Uint32(tx.Bucket(BucketMeta).Get(keyFormat)); v < MinReadFormat {
				return fmt.Errorf("%w: file format %d predates this build's %d: open it read-write once to upgrade", ErrVersionMismatch, v, FormatVersion)
			}
			for _, name := range AllBuckets {
				if tx.Bucket(name) == nil {
					return fmt.Errorf("%w: no bucket %q (written by an older build): open it read-write once to upgrade", ErrVersionMismatch, name)
				}
			}
			return nil
		})
	} else {
		now := time.Now
		if o.Now != nil {
			now = o.Now
		}
		err = b.Update(func(tx *bolt.Tx) error { return initFile(tx, now()) })
	}
	if err != nil {
		_ = b.Close()
		return nil, fmt.Errorf("kv: open %s: %w", path, err)
	}
	return db, nil
}

// closeQuietly closes b after a panic, when its state may be inconsistent.
func closeQuietly(b *bolt.DB) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("close after panic: %v", p)
		}
	}()
	return b.Close()
}

func initFile(tx *bolt.Tx, now time.Time) error {
	meta := tx.Bucket(BucketMeta)
	if meta == nil {
		// A file with buckets but no meta is not ours; refuse to adopt it.
		if err := tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			return fmt.Errorf("%w: bucket %q without meta: not a StrataGate file", ErrCorrupt, name)
		}); err != nil {
			return err
		}
		var err error
		if meta, err = tx.CreateBucket(BucketMeta); err != nil {
			return err
		}
		var f [4]byte
		binary.BigEndian.PutUint32(f[:], FormatVersion)
		ts, _ := now.UTC().MarshalText()
		for k, v := range map[string][]byte{string(keyMagic): magic, string(keyFormat): f[:], string(keyCreated): ts} {
			if err := meta.Put([]byte(k), v); err != nil {
				return err
			}
		}
	}
	if err := checkMeta(tx); err != nil {
		return err
	}
	for _, name := range AllBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

func checkMeta(tx *bolt.Tx) error {
	meta := tx.Bucket(BucketMeta)
	if meta == nil {
		return fmt.Errorf("%w: no meta bucket: not a StrataGate file", ErrCorrupt)
	}
	if !bytes.Equal(meta.Get(keyMagic), magic) {
		return fmt.Errorf("%w: bad magic: not a StrataGate file", ErrCorrupt)
	}
	f := meta.Get(keyFormat)
	if len(f) != 4 {
		return fmt.Errorf("%w: format key of %d bytes", ErrCorrupt, len(f))
	}
	if v := binary.BigEndian.Uint32(f); v > FormatVersion {
		return fmt.Errorf("%w: file format %d is newer than this build's %d", ErrVersionMismatch, v, FormatVersion)
	}
	return nil
}

// SetFormat raises the file's format version to v inside tx, the
// transaction that completes the migration to v. Lowering it, or raising
// it past FormatVersion, is refused: the number only ratchets.
func SetFormat(tx *bolt.Tx, v uint32) error {
	meta := tx.Bucket(BucketMeta)
	if meta == nil {
		return fmt.Errorf("%w: no meta bucket", ErrCorrupt)
	}
	f := meta.Get(keyFormat)
	if len(f) != 4 {
		return fmt.Errorf("%w: format key of %d bytes", ErrCorrupt, len(f))
	}
	if cur := binary.BigEndian.Uint32(f); v < cur || v > FormatVersion {
		return fmt.Errorf("kv: set format %d on a format %d file (this build writes %d): %w", v, cur, FormatVersion, ErrVersionMismatch)
	}
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], v)
	return meta.Put(keyFormat, b[:])
}

// Format returns the file's format version.
func (db *DB) Format() (uint32, error) {
	var v uint32
	err := db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(BucketMeta)
		if meta == nil {
			return fmt.Errorf("%w: no meta bucket", ErrCorrupt)
		}
		f := meta.Get(keyFormat)
		if len(f) != 4 {
			return fmt.Errorf("%w: format key of %d bytes", ErrCorrupt, len(f))
		}
		v = binary.BigEndian.Uint32(f)
		return nil
	})
	return v, err
}

// Path returns the file path.
func (db *DB) Path() string { return db.path }

// Bolt exposes the underlying bbolt handle for packages that run their own
// transactions (every package of this module updates inside the caller's
// transaction so that a record and its derived entries commit together).
func (db *DB) Bolt() *bolt.DB { return db.bolt }

// Update runs fn in a read-write transaction, committing when fn returns
// nil and rolling back otherwise. OS and context errors (of fn or of the
// commit: a full disk) come back classified (see Classify). A panic or
// memory fault while reading a damaged file (in fn or in bbolt) rolls back
// and returns an error wrapping ErrCorrupt (see Guard).
func (db *DB) Update(fn func(*bolt.Tx) error) (err error) {
	defer Guard(&err, "writing "+db.path)()
	return Classify(db.bolt.Update(fn))
}

// View runs fn in a read-only transaction; errors as for Update.
func (db *DB) View(fn func(*bolt.Tx) error) (err error) {
	defer Guard(&err, "reading "+db.path)()
	return Classify(db.bolt.View(fn))
}

// Close closes the file; it is safe to call more than once.
func (db *DB) Close() error {
	if db == nil || db.bolt == nil {
		return nil
	}
	err := db.bolt.Close()
	if errors.Is(err, berrors.ErrDatabaseNotOpen) {
		return nil
	}
	return err
}

// NextID returns the next value of bucket b's sequence (starting at 1).
func NextID(b *bolt.Bucket) (uint64, error) { return b.NextSequence() }

// Get copies the value of key in bucket b, or returns ErrNotFound.
func Get(b *bolt.Bucket, key []byte) ([]byte, error) {
	v := b.Get(key)
	if v == nil {
		return nil, ErrNotFound
	}
	return bytes.Clone(v), nil
}
