package kv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// createFile makes a new, empty store at path without ever leaving a
// partial one there: bbolt initialises a temporary file beside path (named
// path + ".creating-*", which nothing opens), the meta and buckets are
// written and committed, and only then is it linked to path. A crash while
// creating therefore leaves path absent, never a zero-length or half
// initialised file that Open would refuse (a zero-length file is not
// adopted: see checkOpenFile). If path appeared meanwhile (another
// process), the link fails and that file is opened as an existing one.
func createFile(path string, o Options) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".creating-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Close(); err != nil {
		return err
	}
	b, err := bolt.Open(tmp, 0o600, &bolt.Options{NoSync: o.NoSync, FreelistType: bolt.FreelistMapType, NoFreelistSync: true})
	if err != nil {
		return err
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	err = b.Update(func(tx *bolt.Tx) error { return initFile(tx, now()) })
	if cerr := b.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("create: %w", err)
	}
	if o.NoSync {
		return nil
	}
	// The new name is durable only once its directory is.
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
