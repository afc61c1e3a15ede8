package stratagate

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// ErrIndexMismatch is returned by CheckIndexes when a derived index differs
// from a fresh rebuild of its source records.
var ErrIndexMismatch = errors.New("sg: index differs from its source records")

// ensureIndexes creates the index buckets and rebuilds an index whose
// document count does not match its source (a file written before the
// index existed, or an index dropped by hand).
func (m *Memory) ensureIndexes() error {
	return m.db.Update(func(tx *bolt.Tx) error {
		if err := m.raw.Create(tx); err != nil {
			return err
		}
		n, err := m.raw.Count(tx)
		if err != nil {
			return err
		}
		if uint64(n) != tx.Bucket(kv.BucketMessages).Sequence() {
			m.opts.Logger.Warn("raw index out of date; rebuilding", "indexed", n)
			return rebuildRaw(tx, m.raw)
		}
		return nil
	})
}

// rebuildRaw regenerates ix from the messages bucket in id order, which is
// the order Append indexed them in, so the result is byte-identical to the
// incremental index.
func rebuildRaw(tx *bolt.Tx, ix *index.Index) error {
	if err := ix.Drop(tx); err != nil {
		return err
	}
	if err := ix.Create(tx); err != nil {
		return err
	}
	scopes := map[string]string{}
	return tx.Bucket(kv.BucketMessages).ForEach(func(_, v []byte) error {
		msg, err := layers.DecodeMessage(v)
		if err != nil {
			return err
		}
		scope, ok := scopes[msg.Thread]
		if !ok {
			th, found, err := layers.GetThread(tx, msg.Thread)
			if err != nil {
				return err
			}
			if !found {
				return fmt.Errorf("message %d: %w: thread %q", msg.ID, kv.ErrCorrupt, msg.Thread)
			}
			scope = th.Scope
			scopes[msg.Thread] = scope
		}
		_, err = ix.Add(tx, rawDoc(&msg, scope, messageTerms(&msg)))
		return err
	})
}

// RebuildIndexes regenerates every derived index from its source records.
func (m *Memory) RebuildIndexes(ctx context.Context) error {
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	if m.opts.ReadOnly {
		return ErrReadOnly
	}
	return m.db.Update(func(tx *bolt.Tx) error { return rebuildRaw(tx, m.raw) })
}

var errRollback = errors.New("rollback")

// CheckIndexes rebuilds every derived index into a scratch bucket and
// compares it with the stored one, key by key; any difference is
// ErrIndexMismatch naming the first differing key. It needs a writable
// Memory (the scratch work is rolled back) and blocks writers meanwhile.
func (m *Memory) CheckIndexes(ctx context.Context) error {
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	if m.opts.ReadOnly {
		return ErrReadOnly
	}
	var mismatch error
	err = m.db.Update(func(tx *bolt.Tx) error {
		scratch := index.New(rawIndexName+".check", m.raw.Fields(), index.Options{CacheEntries: -1})
		if err := rebuildRaw(tx, scratch); err != nil {
			return err
		}
		mismatch = compareBuckets(tx.Bucket([]byte(m.raw.Name())), tx.Bucket([]byte(scratch.Name())), m.raw.Name())
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		return err
	}
	return mismatch
}

// compareBuckets compares two bucket trees; nil when identical.
func compareBuckets(a, b *bolt.Bucket, path string) error {
	if a == nil || b == nil {
		if a == nil && b == nil {
			return nil
		}
		return fmt.Errorf("%w: %s: bucket missing", ErrIndexMismatch, path)
	}
	ca, cb := a.Cursor(), b.Cursor()
	ka, va := ca.First()
	kb, vb := cb.First()
	for ka != nil || kb != nil {
		switch {
		case ka == nil || (kb != nil && bytes.Compare(kb, ka) < 0):
			return fmt.Errorf("%w: %s: key %q missing from the stored index", ErrIndexMismatch, path, kb)
		case kb == nil || bytes.Compare(ka, kb) < 0:
			return fmt.Errorf("%w: %s: stored key %q has no source", ErrIndexMismatch, path, ka)
		}
		if va == nil || vb == nil { // nested buckets
			if err := compareBuckets(a.Bucket(ka), b.Bucket(kb), path+"/"+string(ka)); err != nil {
				return err
			}
		} else if !bytes.Equal(va, vb) {
			return fmt.Errorf("%w: %s: value of key %q differs", ErrIndexMismatch, path, ka)
		}
		ka, va = ca.Next()
		kb, vb = cb.Next()
	}
	return nil
}
