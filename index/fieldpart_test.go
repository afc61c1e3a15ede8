package index_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/index"
)

// TestMultiFieldScoresAreBM25F: a multi-field term's scores (memoised per
// field, tf and length, see search.fieldPart) are bm25.BM25F's over the
// doc's per-field frequencies and lengths, exactly, for tfs and lengths
// on both sides of the memo's limits (tf 4, length 64) and every
// combination of fields holding the term.
func TestMultiFieldScoresAreBM25F(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	fields := []index.Field{{Name: "title", Weight: 3}, {Name: "body", Weight: 1, B: 0.5}, {Name: "tags", Weight: 0.5, B: -1}}
	const n = 400
	tfs, lens := make([][3]int, n), make([][3]int, n)
	var docs []index.Doc
	total := [3]float64{}
	for i := range n {
		d := index.Doc{ID: uint64(i + 1), Scope: "s"}
		for f := range 3 {
			tf := 0
			if rng.IntN(2) == 0 {
				tf = 1 + rng.IntN(7)
			}
			l := tf + rng.IntN([]int{8, 90, 3}[f])
			toks := make([]string, 0, l)
			for range tf {
				toks = append(toks, "t")
			}
			for len(toks) < l {
				toks = append(toks, fmt.Sprintf("w%d", rng.IntN(50)))
			}
			tfs[i][f], lens[i][f] = tf, l
			total[f] += float64(l)
			d.Fields = append(d.Fields, toks)
		}
		docs = append(docs, d)
	}
	db := openDB(t)
	ix := index.New("fp", fields, index.Options{})
	addAll(t, db, ix, docs...)

	df := 0
	for i := range n {
		if tfs[i][0]+tfs[i][1]+tfs[i][2] > 0 {
			df++
		}
	}
	bf := []bm25.Field{{Weight: 3, B: 0.75}, {Weight: 1, B: 0.5}, {Weight: 0.5, B: 0}}
	avgs := []float64{total[0] / n, total[1] / n, total[2] / n}
	idf := bm25.IDF(n, df)
	got := searchBoth(t, db, ix, index.Query{Terms: []string{"t"}, Scopes: []string{"s"}, K: n})
	require.Len(t, got, df)
	for _, r := range got {
		i := r.ID - 1
		want := bm25.BM25F(bm25.DefaultParams, bf,
			[]float64{float64(tfs[i][0]), float64(tfs[i][1]), float64(tfs[i][2])},
			[]float64{float64(lens[i][0]), float64(lens[i][1]), float64(lens[i][2])}, avgs, idf)
		assert.Equal(t, want, r.Score, "doc %d: tfs %v lens %v", r.ID, tfs[i], lens[i])
	}
}
