package index

import (
	"fmt"
	"math"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// Select is a structured (non-lexical) lookup: documents of the given
// scopes that carry at least one of AnyKeywords and/or whose time overlaps
// [From, To].
type Select struct {
	Scopes      []string
	AnyKeywords []string  // empty = no keyword condition
	From, To    time.Time // both zero = no time condition
	Limit       int       // ≤ 0 means 100
}

// Select returns the matching live documents, newest (highest doc number)
// first. With neither a keyword nor a time condition it returns nothing:
// a structured ranking never invents candidates.
func (ix *Index) Select(tx *bolt.Tx, s Select) ([]Result, error) {
	limit := s.Limit
	if limit <= 0 {
		limit = 100
	}
	hasTime := !s.From.IsZero() || !s.To.IsZero()
	if len(s.AnyKeywords) == 0 && !hasTime {
		return nil, nil
	}
	var bs buckets
	b := &bs
	if !ix.open(tx, b) {
		return nil, nil
	}
	st, err := ix.readStats(b)
	if err != nil {
		if hasTime {
			return nil, err
		}
		st = nil // not needed: record ids are then read directly
	}
	// Unions go through FastOr (lazy container unions): a union built by
	// repeated Or of run-encoded bitmaps inserts value by value.
	var bms []*roaring.Bitmap
	for _, sc := range s.Scopes {
		bm, err := ix.scope(b, sc)
		if err != nil {
			return nil, err
		}
		if bm != nil {
			bms = append(bms, bm)
		}
	}
	scopes := roaring.FastOr(bms...)
	var set *roaring.Bitmap
	if len(s.AnyKeywords) > 0 {
		bms = bms[:0]
		for _, kw := range s.AnyKeywords {
			bm, err := ix.keyword(b, kw)
			if err != nil {
				return nil, err
			}
			if bm != nil {
				bms = append(bms, bm)
			}
		}
		set = roaring.FastOr(bms...)
		set.And(scopes)
	} else {
		set = scopes
	}
	if hasTime {
		from, to := int64(math.MinInt64), int64(math.MaxInt64)
		if !s.From.IsZero() {
			from = s.From.UnixNano()
		}
		if !s.To.IsZero() {
			to = s.To.UnixNano()
		}
		tr, err := timeRange(b, st, from, to)
		if err != nil {
			return nil, err
		}
		set.And(tr)
	}
	tomb, err := ix.keyword(b, tombKeyword)
	if err != nil {
		return nil, err
	}
	if tomb != nil {
		set.AndNot(tomb)
	}
	var out []Result
	it := set.ReverseIterator()
	for it.HasNext() && len(out) < limit {
		out = append(out, Result{Doc: it.Next()})
	}
	if err := ix.recordIDs(b, st, out); err != nil {
		return nil, err
	}
	return out, nil
}

// HasKeyword reports whether any document carries kw.
func (ix *Index) HasKeyword(tx *bolt.Tx, kw string) bool {
	var b buckets
	if !ix.open(tx, &b) {
		return false
	}
	kwmeta, err := b.sub(&b.kwmeta, bKWMeta)
	return err == nil && kwmeta.Get([]byte(kw)) != nil
}

// HasKeywords sets dst[i] to HasKeyword(tx, kws[i]) for every i and
// returns dst (grown as needed): one lookup pass with one cursor, where
// separate HasKeyword calls would open the index's buckets each time.
func (ix *Index) HasKeywords(tx *bolt.Tx, kws []string, dst []bool) []bool {
	dst = append(dst[:0], make([]bool, len(kws))...)
	var b buckets
	if len(kws) == 0 || !ix.open(tx, &b) {
		return dst
	}
	kwmeta, err := b.sub(&b.kwmeta, bKWMeta)
	if err != nil {
		return dst
	}
	for i, kw := range kws {
		b.rkey = append(b.rkey[:0], kw...)
		dst[i] = b.lookup(kwmeta, &b.kwmetaCur, b.rkey) != nil
	}
	return dst
}

// CarryAny sets dst[i] to whether the document of rs[i] (a result of this
// index in tx: its Doc is what counts) carries at least one of kws, and
// returns dst (grown as needed). It reads the keywords' bitmaps, cached
// like a Select's, so that a caller need not read the records the
// documents came from to learn their keywords. Buffered documents (see
// Buffer) are not covered: their keywords are not in the bitmaps yet.
func (ix *Index) CarryAny(tx *bolt.Tx, kws []string, rs []Result, dst []bool) ([]bool, error) {
	dst = append(dst[:0], make([]bool, len(rs))...)
	var b buckets
	if len(kws) == 0 || len(rs) == 0 || !ix.open(tx, &b) {
		return dst, nil
	}
	// Reading the stats sets the snapshot that cached bitmaps are
	// confirmed at; without it every lookup would read the keyword
	// record. An unreadable stats record only costs those reads.
	_, _ = ix.readStats(&b)
	for _, kw := range kws {
		bm, err := ix.keyword(&b, kw)
		if err != nil {
			return dst, err
		}
		if bm == nil {
			continue
		}
		for i := range rs {
			dst[i] = dst[i] || bm.Contains(rs[i].Doc)
		}
	}
	return dst, nil
}

// Undelete removes record id's tombstone (after Delete); a live record is
// left as is.
func (ix *Index) Undelete(tx *bolt.Tx, id uint64) error {
	b, err := ix.buckets(tx)
	if err != nil {
		return err
	}
	if b == nil {
		return fmt.Errorf("index %s: record %d: %w", ix.name, id, kv.ErrNotFound)
	}
	d, ok, err := lookupID(b.ids, id)
	if err != nil {
		return fmt.Errorf("index %s: %w", ix.name, err)
	}
	if !ok {
		return fmt.Errorf("index %s: record %d: %w", ix.name, id, kv.ErrNotFound)
	}
	tomb, err := ix.keyword(b, tombKeyword)
	if err != nil || tomb == nil || !tomb.Contains(d) {
		return err
	}
	st, err := ix.loadStats(b)
	if err != nil {
		return err
	}
	st.Live++
	st.Gen++
	if err := ix.removeKeyword(b, tombKeyword, d, st.Gen); err != nil {
		return err
	}
	return ix.saveStats(b, &st)
}

func (ix *Index) removeKeyword(b *buckets, kw string, d uint32, gen uint64) error {
	v := b.kwmeta.Get([]byte(kw))
	if v == nil {
		return nil
	}
	kr, err := decodeKWRecord(v)
	if err != nil {
		return err
	}
	k := kwKey(nil, kw, d>>chunkShift)
	cv := b.kw.Get(k)
	if cv == nil {
		return nil
	}
	bm, err := decodeBitmap(cv)
	if err != nil {
		return err
	}
	if !bm.CheckedRemove(d) {
		return nil
	}
	kr.Count--
	kr.Gen = gen
	if bm.IsEmpty() {
		if err := b.kw.Delete(k); err != nil {
			return err
		}
	} else {
		nv, err := encodeBitmap(bm)
		if err != nil {
			return err
		}
		if err := b.kw.Put(k, nv); err != nil {
			return err
		}
	}
	if kr.Count == 0 {
		return b.kwmeta.Delete([]byte(kw))
	}
	return b.kwmeta.Put([]byte(kw), kr.encode())
}

// Deleted reports whether record id is in the index and tombstoned (by
// Delete or Replace): auditors accept a tombstoned id whose record is gone.
func (ix *Index) Deleted(tx *bolt.Tx, id uint64) bool {
	b, err := ix.buckets(tx)
	if err != nil || b == nil {
		return false
	}
	d, ok, err := lookupID(b.ids, id)
	if err != nil || !ok {
		return false
	}
	tomb, err := ix.keyword(b, tombKeyword)
	return err == nil && tomb != nil && tomb.Contains(d)
}
