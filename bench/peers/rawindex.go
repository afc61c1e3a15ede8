package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

const rawBatch = 1000

// rawEngine is StrataGate's raw-message index on its own: the index
// package with the field, tokenizer (bm25.AppendTerms), query expansion
// (bm25.ExpandQuery) and keywords (thread, role) that Memory's raw index
// uses, in a StrataGate kv file, written in transactions of 1,000
// messages and then compacted (kv.DB.CompactTo, as Memory.CompactTo) into
// the file that is measured and searched; the written file's size is
// reported too. The message text is not stored (in Memory it is the L5 record,
// not part of the index); nor do bleve and FTS5 store it in this
// comparison. Queries are index.Search over the three scopes, returning
// record ids and scores: what bleve and FTS5 return.
type rawEngine struct {
	db  *kv.DB
	ix  *index.Index
	n   int // documents indexed
	buf []string

	liveBytes int64 // the written file before compaction
}

func (e *rawEngine) name() string { return "stratagate" }
func (e *rawEngine) scoring() string {
	return "bm25 (k1 1.2, b 0.75; StrataGate tokenizer: stemmed terms, stopwords; MaxScore exact top k)"
}

func (e *rawEngine) path(dir string) string { return filepath.Join(dir, "raw.sg") }

// livePath is where the index is written before it is compacted into path.
func (e *rawEngine) livePath(dir string) string { return filepath.Join(dir, "raw.live.sg") }

func newRawIndex() *index.Index {
	return index.New("raw", []index.Field{{Name: "text"}}, index.Options{})
}

func (e *rawEngine) build(ctx context.Context, c *corpus, dir string, progress func(int)) error {
	db, err := kv.Open(e.livePath(dir), kv.Options{NoSync: true})
	if err != nil {
		return err
	}
	e.db, e.ix, e.n = db, newRawIndex(), len(c.docs)
	defer func() {
		if db != nil {
			db.Close()
		}
	}()
	for lo := 0; lo < len(c.docs); lo += rawBatch {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+rawBatch, len(c.docs))
		err := db.Update(func(tx *bolt.Tx) error {
			for i := lo; i < hi; i++ {
				d := &c.docs[i]
				doc := index.Doc{
					ID:       uint64(i + 1),
					Scope:    d.scope,
					Fields:   [][]string{bm25.AppendTerms(nil, d.text)},
					Keywords: []string{"t:" + d.threadName(), "r:" + d.role},
					Start:    d.at,
				}
				if _, err := e.ix.Add(tx, doc); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		progress(hi - lo)
	}
	// Compaction is part of the build (bleve merges its segments too):
	// the written file keeps the pages freed by copy-on-write and pages
	// half filled by random inserts.
	if err := db.CompactTo(ctx, e.path(dir)); err != nil {
		return err
	}
	err = db.Close()
	db, e.db = nil, nil
	if err != nil {
		return err
	}
	if e.liveBytes, err = diskBytes(e.livePath(dir)); err != nil {
		return err
	}
	return os.Remove(e.livePath(dir))
}

func (e *rawEngine) close() error {
	if e.db == nil {
		return nil
	}
	err := e.db.Close()
	e.db = nil
	return err
}

func (e *rawEngine) open(dir string) error {
	db, err := kv.Open(e.path(dir), kv.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	e.db, e.ix = db, newRawIndex()
	return db.View(func(tx *bolt.Tx) error {
		var err error
		e.n, err = e.ix.Count(tx)
		return err
	})
}

func (e *rawEngine) search(ctx context.Context, q string, k int) ([]int, error) {
	e.buf = e.buf[:0]
	for _, group := range bm25.ExpandQuery(bm25.AppendTerms(nil, q)) {
		e.buf = append(e.buf, group...)
	}
	var res []index.Result
	err := e.db.View(func(tx *bolt.Tx) error {
		var err error
		res, err = e.ix.Search(tx, index.Query{Terms: e.buf, Scopes: scopes, K: k})
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]int, len(res))
	for i, r := range res {
		if r.ID < 1 || r.ID > uint64(e.n) {
			return nil, fmt.Errorf("hit %d is no message of the corpus", r.ID)
		}
		out[i] = int(r.ID - 1)
	}
	return out, nil
}
