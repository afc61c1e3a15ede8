package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
)

const bleveBatch = 1000

// bleveEngine is bleve v2 on disk (the default scorch index type) with
// BM25 scoring: the text field analysed by the standard analyzer, not
// stored (the comparison is of indexes), without term vectors or doc
// values; the scope a keyword field used as a non-scoring filter.
type bleveEngine struct {
	idx bleve.Index
}

type bleveDoc struct {
	Text  string `json:"text"`
	Scope string `json:"scope"`
}

func (e *bleveEngine) name() string { return "bleve" }
func (e *bleveEngine) scoring() string {
	return "bm25 (bleve " + index.BM25Scoring + " scoring model, k1 1.2, b 0.75; standard analyzer)"
}

func (e *bleveEngine) path(dir string) string { return filepath.Join(dir, "bleve") }

func (e *bleveEngine) build(ctx context.Context, c *corpus, dir string, progress func(int)) error {
	text := bleve.NewTextFieldMapping()
	text.Analyzer = standard.Name
	text.Store = false // index only, as every engine here (see rawEngine)
	text.IncludeTermVectors = false
	text.IncludeInAll = false
	text.DocValues = false
	scope := bleve.NewTextFieldMapping()
	scope.Analyzer = keyword.Name
	scope.Store = false
	scope.IncludeTermVectors = false
	scope.IncludeInAll = false
	scope.DocValues = false
	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt("text", text)
	dm.AddFieldMappingsAt("scope", scope)
	im := bleve.NewIndexMapping()
	im.DefaultMapping = dm
	im.DefaultAnalyzer = standard.Name
	im.ScoringModel = index.BM25Scoring
	idx, err := bleve.New(e.path(dir), im)
	if err != nil {
		return err
	}
	e.idx = idx
	b := idx.NewBatch()
	for i := range c.docs {
		if err := ctx.Err(); err != nil {
			return err
		}
		d := &c.docs[i]
		if err := b.Index(strconv.Itoa(i), bleveDoc{Text: d.text, Scope: d.scope}); err != nil {
			return err
		}
		if b.Size() == bleveBatch || i == len(c.docs)-1 {
			if err := idx.Batch(b); err != nil {
				return err
			}
			progress(b.Size())
			b.Reset()
		}
	}
	n, err := idx.DocCount()
	if err != nil {
		return err
	}
	if n != uint64(len(c.docs)) {
		return fmt.Errorf("bleve holds %d docs, want %d", n, len(c.docs))
	}
	return nil
}

func (e *bleveEngine) close() error {
	if e.idx == nil {
		return nil
	}
	err := e.idx.Close()
	e.idx = nil
	return err
}

func (e *bleveEngine) open(dir string) error {
	idx, err := bleve.Open(e.path(dir))
	if err != nil {
		return err
	}
	e.idx = idx
	return nil
}

func (e *bleveEngine) search(ctx context.Context, q string, k int) ([]int, error) {
	mq := bleve.NewMatchQuery(q) // terms OR-ed, like StrataGate and the FTS5 query
	mq.SetField("text")
	scopeQ := make([]query.Query, len(scopes))
	for i, s := range scopes {
		tq := bleve.NewTermQuery(s)
		tq.SetField("scope")
		scopeQ[i] = tq
	}
	bq := bleve.NewBooleanQuery()
	bq.AddMust(mq)
	bq.AddFilter(bleve.NewDisjunctionQuery(scopeQ...))
	req := bleve.NewSearchRequestOptions(bq, k, 0, false)
	res, err := e.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(res.Hits))
	for i, h := range res.Hits {
		if out[i], err = strconv.Atoi(h.ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}
