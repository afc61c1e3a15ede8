package index

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

// A batch of documents fills the docs and ids tables chunk by chunk:
// appendDoc and putID per document read, decode, copy and rewrite their
// whole chunk (up to 64 entries) for each entry, so a merge of the raw
// index's buffer rewrote each chunk 64 times. The batch writers below
// write each chunk once and store exactly what the per-document writers
// would (TestBatchTablesEqualOneByOne).

// appendDocs records that docs first, first+1, ... are the records ids,
// in order: appendDoc for each, one chunk write per chunk.
func appendDocs(docs *bolt.Bucket, first uint32, ids []uint64) error {
	for i := 0; i < len(ids); {
		d := first + uint32(i)
		k := docsKey(d)
		pos := int((d - 1) & (1<<docShift - 1))
		n := min(len(ids)-i, 1<<docShift-pos) // entries of this chunk in the batch
		old := docs.Get(k)
		var v []byte
		var prev uint64
		if pos == 0 {
			if old != nil {
				return fmt.Errorf("%w: docs chunk %x exists before its first doc %d", kv.ErrCorrupt, k, d)
			}
			v = append(make([]byte, 0, 1+n*binary.MaxVarintLen64), docsVersion)
		} else {
			var buf [1 << docShift]uint64
			have, err := decodeDocs(old, buf[:0])
			if err != nil {
				return err
			}
			if len(have) != pos {
				return fmt.Errorf("%w: docs chunk %x holds %d docs, doc %d is entry %d", kv.ErrCorrupt, k, len(have), d, pos)
			}
			prev = have[pos-1]
			v = append(make([]byte, 0, len(old)+n*binary.MaxVarintLen64), old...)
		}
		for _, id := range ids[i : i+n] {
			v = binary.AppendVarint(v, int64(id-prev))
			prev = id
		}
		if err := docs.Put(k, v); err != nil {
			return err
		}
		i += n
	}
	return nil
}

// idDoc is one record id and the doc number it gets.
type idDoc struct {
	id uint64
	d  uint32
}

// checkNewIDs returns ErrDuplicate (with the record id) if a record of
// pairs is in the ids table already or twice in pairs, and sorts pairs by
// record id. It writes nothing, so a refused batch leaves the tables as
// they were.
func checkNewIDs(ids *bolt.Bucket, pairs []idDoc) error {
	slices.SortFunc(pairs, func(a, b idDoc) int { return cmp.Compare(a.id, b.id) })
	var buf [1 << idShift]idEntry
	for i := 0; i < len(pairs); {
		j := chunkEnd(pairs, i)
		if v := ids.Get(idsKey(pairs[i].id)); v != nil {
			es, err := decodeIDs(v, buf[:0])
			if err != nil {
				return err
			}
			for _, p := range pairs[i:j] {
				low := uint8(p.id & (1<<idShift - 1))
				if _, found := slices.BinarySearchFunc(es, low, func(e idEntry, l uint8) int { return cmp.Compare(e.low, l) }); found {
					return fmt.Errorf("%w: record %d", ErrDuplicate, p.id)
				}
			}
		}
		for k := i + 1; k < j; k++ {
			if pairs[k].id == pairs[k-1].id {
				return fmt.Errorf("%w: record %d", ErrDuplicate, pairs[k].id)
			}
		}
		i = j
	}
	return nil
}

// putNewIDs adds pairs (sorted by record id, none in the table yet: see
// checkNewIDs) to the ids table: putID for each, one write per chunk.
func putNewIDs(ids *bolt.Bucket, pairs []idDoc) error {
	var buf [1 << idShift]idEntry
	for i := 0; i < len(pairs); {
		j := chunkEnd(pairs, i)
		k := idsKey(pairs[i].id)
		es := buf[:0]
		if v := ids.Get(k); v != nil {
			var err error
			if es, err = decodeIDs(v, es); err != nil {
				return err
			}
		}
		for _, p := range pairs[i:j] {
			low := uint8(p.id & (1<<idShift - 1))
			at, _ := slices.BinarySearchFunc(es, low, func(e idEntry, l uint8) int { return cmp.Compare(e.low, l) })
			es = slices.Insert(es, at, idEntry{low: low, doc: p.d})
		}
		if err := ids.Put(k, encodeIDs(es)); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// chunkEnd returns the end of the run of pairs from i whose record ids
// share an ids chunk.
func chunkEnd(pairs []idDoc, i int) int {
	hi := pairs[i].id >> idShift
	j := i + 1
	for j < len(pairs) && pairs[j].id>>idShift == hi {
		j++
	}
	return j
}
