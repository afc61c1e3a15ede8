package index

import (
	"bytes"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// ErrMismatch is returned by Compare when two indexes differ.
var ErrMismatch = errors.New("sg: index differs from its source records")

// Compare checks that ix as stored in tx equals fresh, the same index
// rebuilt from the source records in freshTx. Everything is compared
// byte for byte except generation counters, which only validate the cache
// and depend on the history of writes, not on content. The error names
// the first differing key.
func Compare(ix *Index, tx *bolt.Tx, fresh *Index, freshTx *bolt.Tx) error {
	a, err := ix.buckets(tx)
	if err != nil {
		return err
	}
	b, err := fresh.buckets(freshTx)
	if err != nil {
		return err
	}
	if a == nil || b == nil {
		if a == nil && b == nil {
			return nil
		}
		return fmt.Errorf("%w: %s: index missing", ErrMismatch, ix.name)
	}
	pairs := []struct {
		name string
		a, b *bolt.Bucket
		norm func([]byte) []byte
	}{
		{"meta", a.meta, b.meta, normStats},
		{"docs", a.docs, b.docs, nil},
		{"ids", a.ids, b.ids, nil},
		{"terms", a.terms, b.terms, normTerm},
		{"post", a.post, b.post, nil},
		{"kwmeta", a.kwmeta, b.kwmeta, normKW},
		{"kw", a.kw, b.kw, nil},
		{"time", a.time, b.time, nil},
	}
	for _, p := range pairs {
		if err := compareBucket(p.a, p.b, p.norm); err != nil {
			return fmt.Errorf("%s/%s: %w", ix.name, p.name, err)
		}
	}
	return nil
}

func compareBucket(a, b *bolt.Bucket, norm func([]byte) []byte) error {
	ca, cb := a.Cursor(), b.Cursor()
	ka, va := ca.First()
	kb, vb := cb.First()
	for ka != nil || kb != nil {
		switch {
		case ka == nil || (kb != nil && bytes.Compare(kb, ka) < 0):
			return fmt.Errorf("%w: key %q missing from the stored index", ErrMismatch, kb)
		case kb == nil || bytes.Compare(ka, kb) < 0:
			return fmt.Errorf("%w: stored key %q has no source record", ErrMismatch, ka)
		}
		x, y := va, vb
		if norm != nil {
			x, y = norm(va), norm(vb)
		}
		if !bytes.Equal(x, y) {
			return fmt.Errorf("%w: value of key %q differs", ErrMismatch, ka)
		}
		ka, va = ca.Next()
		kb, vb = cb.Next()
	}
	return nil
}

// normTerm and normKW drop the trailing generation of fixed-width records;
// normStats zeroes the stats' generation and base (the generation of the
// last Drop).
func normTerm(v []byte) []byte {
	if len(v) == termRecordLen {
		return v[:termRecordLen-8]
	}
	return v
}

func normKW(v []byte) []byte {
	if len(v) == kwRecordLen {
		return v[:kwRecordLen-8]
	}
	return v
}

func normStats(v []byte) []byte {
	var st stats
	if _, err := kv.Decode(v, &st, statsVersion); err != nil {
		return v
	}
	st.Gen, st.Base = 0, 0
	out, err := kv.Encode(statsVersion, &st)
	if err != nil {
		return v
	}
	return out
}
