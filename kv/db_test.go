package kv_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// editBolt opens path with bbolt directly (no StrataGate checks) and runs fn
// in a read-write transaction.
func editBolt(t *testing.T, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	require.NoError(t, err)
	require.NoError(t, b.Update(fn))
	require.NoError(t, b.Close())
}

// viewBolt opens path read-only with bbolt directly and runs fn.
func viewBolt(t *testing.T, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	require.NoError(t, err)
	require.NoError(t, b.View(fn))
	require.NoError(t, b.Close())
}

func formatBytes(v uint32) []byte {
	var f [4]byte
	binary.BigEndian.PutUint32(f[:], v)
	return f[:]
}

func TestOpenCreatesBucketsAndMeta(t *testing.T) {
	created := time.Date(2024, 5, 6, 7, 8, 9, 10, time.FixedZone("X", 3600))
	path := dbPath(t)
	db := openAt(t, path, kv.Options{NoSync: true, Now: func() time.Time { return created }})
	assert.Equal(t, path, db.Path())
	assert.NotNil(t, db.Bolt())

	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for _, name := range kv.AllBuckets {
			assert.NotNil(t, tx.Bucket(name), "bucket %q", name)
		}
		meta := tx.Bucket(kv.BucketMeta)
		require.NotNil(t, meta)
		assert.Equal(t, []byte("stratagt"), meta.Get([]byte("magic")))
		assert.Equal(t, formatBytes(kv.FormatVersion), meta.Get([]byte("format")))
		want, _ := created.UTC().MarshalText()
		assert.Equal(t, want, meta.Get([]byte("created")))
		// Exactly the listed buckets, nothing else.
		n := 0
		require.NoError(t, tx.ForEach(func(name []byte, _ *bolt.Bucket) error { n++; return nil }))
		assert.Equal(t, len(kv.AllBuckets), n)
		return nil
	}))

	v, err := db.Format()
	require.NoError(t, err)
	assert.Equal(t, kv.FormatVersion, v)
}

func TestAllBucketsDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range kv.AllBuckets {
		require.NotEmpty(t, b)
		require.False(t, seen[string(b)], "duplicate bucket %q", b)
		seen[string(b)] = true
	}
	for _, b := range [][]byte{kv.BucketMeta, kv.BucketJobs, kv.BucketJobQueue, kv.BucketBlocks, kv.BucketMessages} {
		assert.True(t, seen[string(b)], "bucket %q missing from AllBuckets", b)
	}
}

func TestReopenKeepsDataAndCreated(t *testing.T) {
	path := dbPath(t)
	first := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	db, err := kv.Open(path, kv.Options{NoSync: true, Now: func() time.Time { return first }})
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketThreads).Put([]byte("t"), []byte("v"))
	}))
	require.NoError(t, db.Close())

	// Drop a bucket behind StrataGate's back: reopen recreates it.
	editBolt(t, path, func(tx *bolt.Tx) error { return tx.DeleteBucket(kv.BucketImports) })

	db = openAt(t, path, kv.Options{NoSync: true, Now: func() time.Time { return first.Add(time.Hour) }})
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		assert.Equal(t, []byte("v"), tx.Bucket(kv.BucketThreads).Get([]byte("t")))
		assert.NotNil(t, tx.Bucket(kv.BucketImports), "missing bucket recreated on open")
		want, _ := first.MarshalText()
		assert.Equal(t, want, tx.Bucket(kv.BucketMeta).Get([]byte("created")), "created is not rewritten on reopen")
		return nil
	}))
	v, err := db.Format()
	require.NoError(t, err)
	assert.Equal(t, kv.FormatVersion, v)
}

func TestOpenRejectsBadMeta(t *testing.T) {
	cases := []struct {
		name    string
		edit    func(tx *bolt.Tx) error
		wantErr error
	}{
		{"newer format", func(tx *bolt.Tx) error {
			return tx.Bucket(kv.BucketMeta).Put([]byte("format"), formatBytes(kv.FormatVersion+1))
		}, kv.ErrVersionMismatch},
		{"much newer format", func(tx *bolt.Tx) error {
			return tx.Bucket(kv.BucketMeta).Put([]byte("format"), formatBytes(0xFFFFFFFF))
		}, kv.ErrVersionMismatch},
		{"wrong magic", func(tx *bolt.Tx) error {
			return tx.Bucket(kv.BucketMeta).Put([]byte("magic"), []byte("boltdbxx"))
		}, kv.ErrCorrupt},
		{"missing magic", func(tx *bolt.Tx) error {
			return tx.Bucket(kv.BucketMeta).Delete([]byte("magic"))
		}, kv.ErrCorrupt},
		{"short format", func(tx *bolt.Tx) error {
			return tx.Bucket(kv.BucketMeta).Put([]byte("format"), []byte{1})
		}, kv.ErrCorrupt},
		{"missing format", func(tx *bolt.Tx) error {
			return tx.Bucket(kv.BucketMeta).Delete([]byte("format"))
		}, kv.ErrCorrupt},
		{"meta deleted, other buckets left", func(tx *bolt.Tx) error {
			return tx.DeleteBucket(kv.BucketMeta)
		}, kv.ErrCorrupt},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := createClosed(t)
			editBolt(t, path, tc.edit)
			for _, ro := range []bool{false, true} {
				db, err := kv.Open(path, kv.Options{ReadOnly: ro, LockTimeout: time.Second})
				require.Error(t, err, "read-only=%v", ro)
				assert.Nil(t, db)
				assert.True(t, errors.Is(err, tc.wantErr), "read-only=%v: got %v", ro, err)
			}
			// The failed opens released the file lock: bbolt can open the
			// file again at once.
			viewBolt(t, path, func(*bolt.Tx) error { return nil })
		})
	}
}

func TestOpenOlderFormatAccepted(t *testing.T) {
	path := createClosed(t)
	editBolt(t, path, func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketMeta).Put([]byte("format"), formatBytes(kv.FormatVersion-1))
	})
	db := openAt(t, path, kv.Options{NoSync: true})
	v, err := db.Format()
	require.NoError(t, err)
	assert.Equal(t, kv.FormatVersion-1, v, "Open does not silently rewrite the format")
}

// A read-only Open accepts a file of any format from MinReadFormat on
// (they differ only in record versions every reader decodes) and refuses
// an older one, saying how to upgrade it.
func TestOpenReadOnlyOlderFormat(t *testing.T) {
	for f := kv.MinReadFormat - 1; f <= kv.FormatVersion; f++ {
		path := createClosed(t)
		editBolt(t, path, func(tx *bolt.Tx) error {
			return tx.Bucket(kv.BucketMeta).Put([]byte("format"), formatBytes(f))
		})
		db, err := kv.Open(path, kv.Options{ReadOnly: true, LockTimeout: time.Second})
		if f < kv.MinReadFormat {
			require.ErrorIs(t, err, kv.ErrVersionMismatch, "format %d", f)
			assert.Contains(t, err.Error(), "open it read-write once")
			continue
		}
		require.NoError(t, err, "format %d", f)
		v, err := db.Format()
		require.NoError(t, err)
		assert.Equal(t, f, v)
		require.NoError(t, db.Close())
	}
}

func TestOpenForeignBboltFile(t *testing.T) {
	path := dbPath(t)
	editBolt(t, path, func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("somebody-else"))
		if err != nil {
			return err
		}
		return b.Put([]byte("k"), []byte("v"))
	})

	for _, ro := range []bool{false, true} {
		db, err := kv.Open(path, kv.Options{ReadOnly: ro, LockTimeout: time.Second})
		require.Error(t, err, "read-only=%v", ro)
		assert.Nil(t, db)
		assert.True(t, errors.Is(err, kv.ErrCorrupt), "read-only=%v: got %v", ro, err)
	}

	// The refused file is left untouched: no meta, no StrataGate buckets.
	viewBolt(t, path, func(tx *bolt.Tx) error {
		assert.Nil(t, tx.Bucket(kv.BucketMeta))
		assert.Nil(t, tx.Bucket(kv.BucketJobs))
		assert.Equal(t, []byte("v"), tx.Bucket([]byte("somebody-else")).Get([]byte("k")))
		return nil
	})
}

func TestOpenEmptyBboltFileIsAdopted(t *testing.T) {
	path := dbPath(t)
	editBolt(t, path, func(*bolt.Tx) error { return nil }) // a bbolt file with no buckets

	// Read-only cannot adopt it.
	_, err := kv.Open(path, kv.Options{ReadOnly: true, LockTimeout: time.Second})
	require.Error(t, err)
	assert.True(t, errors.Is(err, kv.ErrCorrupt), "got %v", err)

	db := openAt(t, path, kv.Options{NoSync: true})
	v, err := db.Format()
	require.NoError(t, err)
	assert.Equal(t, kv.FormatVersion, v)
}

func TestOpenZeroLengthFileIsRefused(t *testing.T) {
	for _, ro := range []bool{false, true} {
		path := dbPath(t)
		require.NoError(t, os.WriteFile(path, nil, 0o600))
		db, err := kv.Open(path, kv.Options{ReadOnly: ro, LockTimeout: time.Second})
		require.Error(t, err, "read-only=%v", ro)
		assert.Nil(t, db)
		assert.ErrorIs(t, err, kv.ErrCorrupt, "read-only=%v", ro)
		assert.Contains(t, err.Error(), "zero-length file")
		st, err := os.Stat(path)
		require.NoError(t, err)
		assert.Zero(t, st.Size(), "a refused file is not initialised")
	}
	// A file this call creates starts a new store.
	db := openAt(t, dbPath(t), kv.Options{NoSync: true})
	v, err := db.Format()
	require.NoError(t, err)
	assert.Equal(t, kv.FormatVersion, v)
}

func TestOpenGarbageFile(t *testing.T) {
	cases := []struct {
		name string
		size int
		skip string
	}{
		{"1 byte", 1, ""},
		{"100 bytes", 100, ""},
		{"1000 bytes", 1000, ""},
		{"2048 bytes", 2048, ""},
		{"2049 bytes", 2049, ""},
		{"4096 bytes", 4096, ""},
		{"8191 bytes", 8191, ""},
		{"8192 bytes", 8192, ""},
		{"64 KiB", 64 << 10, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.skip != "" {
				t.Skip(tc.skip)
			}
			checkGarbageRefused(t, tc.size)
		})
	}
}

// TestOpenGarbageFileMidSizeIsCorrupt: bbolt reports files of 2049–8191
// bytes as "file size too small", which must surface as ErrCorrupt too.
func TestOpenGarbageFileMidSizeIsCorrupt(t *testing.T) {
	checkGarbageRefused(t, 5000)
}

func checkGarbageRefused(t *testing.T, size int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(size), 7))
	garbage := make([]byte, size)
	for i := range garbage {
		garbage[i] = byte(rng.Uint32())
	}
	path := filepath.Join(t.TempDir(), "garbage.sg")
	require.NoError(t, os.WriteFile(path, garbage, 0o600))

	for _, ro := range []bool{false, true} {
		db, err := kv.Open(path, kv.Options{ReadOnly: ro, LockTimeout: time.Second})
		require.Error(t, err, "read-only=%v", ro)
		assert.Nil(t, db)
		assert.True(t, errors.Is(err, kv.ErrCorrupt), "read-only=%v: got %v", ro, err)
	}
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(garbage, after), "a refused file is not modified")
}

func TestOpenTruncatedValidFile(t *testing.T) {
	path := createClosed(t)
	full, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Greater(t, len(full), 8192)
	// Keep only the first page: a valid meta page, nothing else.
	require.NoError(t, os.WriteFile(path, full[:4096], 0o600))
	_, err = kv.Open(path, kv.Options{LockTimeout: time.Second})
	require.Error(t, err, "a truncated file must not open")
	assert.True(t, errors.Is(err, kv.ErrCorrupt), "got %v", err)
}

// TestOpenTruncatedToHighWaterMark: a file cut anywhere below the pages its
// meta page says are in use is refused before bbolt maps it (bbolt panicked
// in its page assertion, or faulted, reading the missing pages), read-only
// and writable alike, and is left unmodified.
func TestOpenTruncatedToHighWaterMark(t *testing.T) {
	src := createClosed(t)
	editBolt(t, src, func(tx *bolt.Tx) error {
		b := tx.Bucket(kv.BucketMessages)
		for i := range 2000 {
			if err := b.Put(kv.Key(uint64(i+1)), bytes.Repeat([]byte{byte(i)}, 100)); err != nil {
				return err
			}
		}
		return nil
	})
	full, err := os.ReadFile(src)
	require.NoError(t, err)
	require.Greater(t, len(full), 20*4096)
	for _, cut := range []int{len(full) / 2, len(full) / 4, 3 * 4096, 2*4096 + 100} {
		for _, ro := range []bool{true, false} {
			path := filepath.Join(t.TempDir(), "cut.sg")
			require.NoError(t, os.WriteFile(path, full[:cut], 0o600))
			db, err := kv.Open(path, kv.Options{ReadOnly: ro, LockTimeout: time.Second})
			require.Error(t, err, "cut at %d, read-only=%v", cut, ro)
			assert.Nil(t, db)
			assert.ErrorIs(t, err, kv.ErrCorrupt)
			assert.Contains(t, err.Error(), "truncated")
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, cut, len(after), "a refused file is not extended")
		}
	}
}

func TestOpenReadOnlyMissingFile(t *testing.T) {
	path := dbPath(t)
	db, err := kv.Open(path, kv.Options{ReadOnly: true})
	require.Error(t, err)
	assert.Nil(t, db)
	assert.True(t, errors.Is(err, os.ErrNotExist), "got %v", err)
	_, statErr := os.Stat(path)
	assert.True(t, errors.Is(statErr, os.ErrNotExist), "read-only open must not create the file")
}

func TestOpenMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "x.sg")
	_, err := kv.Open(path, kv.Options{})
	require.Error(t, err)
}

func TestOpenReadOnlyValidFile(t *testing.T) {
	path := dbPath(t)
	db, err := kv.Open(path, kv.Options{NoSync: true})
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketThreads).Put([]byte("t"), []byte("v"))
	}))
	require.NoError(t, db.Close())

	ro := openAt(t, path, kv.Options{ReadOnly: true})
	v, err := ro.Format()
	require.NoError(t, err)
	assert.Equal(t, kv.FormatVersion, v)
	require.NoError(t, ro.View(func(tx *bolt.Tx) error {
		got, err := kv.Get(tx.Bucket(kv.BucketThreads), []byte("t"))
		require.NoError(t, err)
		assert.Equal(t, []byte("v"), got)
		return nil
	}))
	err = ro.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketThreads).Put([]byte("t2"), []byte("v2"))
	})
	require.Error(t, err, "Update on a read-only DB must fail")

	// Two read-only handles may share the file.
	ro2 := openAt(t, path, kv.Options{ReadOnly: true, LockTimeout: time.Second})
	_, err = ro2.Format()
	require.NoError(t, err)
}

func TestOpenLocked(t *testing.T) {
	cases := []struct {
		name string
		o    kv.Options
	}{
		{"read-write", kv.Options{LockTimeout: 100 * time.Millisecond}},
		{"read-only", kv.Options{ReadOnly: true, LockTimeout: 100 * time.Millisecond}},
	}
	path := dbPath(t)
	first := openAt(t, path, kv.Options{NoSync: true})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db, err := kv.Open(path, tc.o)
			require.Error(t, err)
			assert.Nil(t, db)
			assert.True(t, errors.Is(err, kv.ErrLocked), "got %v", err)
		})
	}
	// The holder is unaffected, and once it closes the file opens again.
	_, err := first.Format()
	require.NoError(t, err)
	require.NoError(t, first.Close())
	db := openAt(t, path, kv.Options{LockTimeout: time.Second})
	_, err = db.Format()
	require.NoError(t, err)
}

func TestCloseTwice(t *testing.T) {
	db, err := kv.Open(dbPath(t), kv.Options{NoSync: true})
	require.NoError(t, err)
	assert.NoError(t, db.Close())
	assert.NoError(t, db.Close())

	var nilDB *kv.DB
	assert.NoError(t, nilDB.Close())
}

func TestGet(t *testing.T) {
	db := openDB(t)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketThreads).Put([]byte("k"), []byte("value"))
	}))

	cases := []struct {
		name    string
		key     []byte
		want    []byte
		wantErr error
	}{
		{"present", []byte("k"), []byte("value"), nil},
		{"missing", []byte("nope"), nil, kv.ErrNotFound},
		{"prefix of present", []byte(""), nil, kv.ErrNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []byte
			require.NoError(t, db.View(func(tx *bolt.Tx) error {
				var err error
				got, err = kv.Get(tx.Bucket(kv.BucketThreads), tc.key)
				if tc.wantErr != nil {
					assert.True(t, errors.Is(err, tc.wantErr), "got %v", err)
					assert.Nil(t, got)
					return nil
				}
				require.NoError(t, err)
				return nil
			}))
			// Used after the transaction ended: must be a copy.
			assert.Equal(t, tc.want, got)
		})
	}

	t.Run("copy survives overwrite and mutation", func(t *testing.T) {
		var got []byte
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(kv.BucketThreads)
			var err error
			got, err = kv.Get(b, []byte("k"))
			require.NoError(t, err)
			got[0] = 'X' // must not write through to the page
			return b.Put([]byte("k"), []byte("other"))
		}))
		assert.Equal(t, []byte("Xalue"), got)
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			assert.Equal(t, []byte("other"), tx.Bucket(kv.BucketThreads).Get([]byte("k")))
			return nil
		}))
	})

	t.Run("empty value is found", func(t *testing.T) {
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(kv.BucketThreads)
			require.NoError(t, b.Put([]byte("empty"), []byte{}))
			got, err := kv.Get(b, []byte("empty"))
			require.NoError(t, err)
			assert.Empty(t, got)
			return nil
		}))
	})
}

func TestNextID(t *testing.T) {
	path := dbPath(t)
	db, err := kv.Open(path, kv.Options{NoSync: true})
	require.NoError(t, err)

	var ids []uint64
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for range 3 {
			id, err := kv.NextID(tx.Bucket(kv.BucketBlocks))
			require.NoError(t, err)
			ids = append(ids, id)
		}
		return nil
	}))
	assert.Equal(t, []uint64{1, 2, 3}, ids)

	// Sequences are per bucket.
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		id, err := kv.NextID(tx.Bucket(kv.BucketEvents))
		require.NoError(t, err)
		assert.Equal(t, uint64(1), id)
		return nil
	}))

	// A rolled-back transaction does not consume ids.
	_ = db.Update(func(tx *bolt.Tx) error {
		_, _ = kv.NextID(tx.Bucket(kv.BucketBlocks))
		return errors.New("rollback")
	})

	// Read-only transactions cannot draw ids.
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		_, err := kv.NextID(tx.Bucket(kv.BucketBlocks))
		assert.Error(t, err)
		return nil
	}))
	require.NoError(t, db.Close())

	// Sequences persist across reopen and keep increasing.
	db = openAt(t, path, kv.Options{NoSync: true})
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		id, err := kv.NextID(tx.Bucket(kv.BucketBlocks))
		require.NoError(t, err)
		assert.Equal(t, uint64(4), id)
		return nil
	}))
}

// TestCreateLeavesNoPartialFile: a new store is initialised beside its
// path and linked there whole, so the directory then holds the store
// alone, and a leftover of a creation that crashed (a temporary that
// nothing opens) does not stop the next Open from creating the store.
func TestCreateLeavesNoPartialFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.sg")
	require.NoError(t, os.WriteFile(path+".creating-123", nil, 0o600)) // a crashed creation
	db, err := kv.Open(path, kv.Options{})
	require.NoError(t, err)
	f, err := db.Format()
	require.NoError(t, err)
	assert.Equal(t, kv.FormatVersion, f)
	require.NoError(t, db.Close())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"new.sg", "new.sg.creating-123"}, names, "no temporary of this creation is left")
	db, err = kv.Open(path, kv.Options{ReadOnly: true})
	require.NoError(t, err)
	require.NoError(t, db.Close())
}
