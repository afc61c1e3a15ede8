package index_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
)

// HasKeywords answers what HasKeyword answers for each keyword, and
// CarryAny whether a result's document carries one of the keywords, in
// read-only and writable transactions, with the cache on and off, for
// keyword bitmaps that span several chunks.
func TestHasKeywordsAndCarryAny(t *testing.T) {
	for _, cache := range []int{0, -1} {
		t.Run(fmt.Sprintf("cache %d", cache), func(t *testing.T) {
			db := openDB(t)
			ix := index.New("kw", oneField, index.Options{CacheEntries: cache})
			var docs []index.Doc
			for i := range 9000 {
				d := index.Doc{ID: uint64(1000 + i), Scope: "s", Fields: [][]string{words("word")}}
				if i%3 == 0 {
					d.Keywords = append(d.Keywords, "three")
				}
				if i%7 == 0 {
					d.Keywords = append(d.Keywords, "seven")
				}
				if i == 8999 {
					d.Keywords = append(d.Keywords, "last")
				}
				docs = append(docs, d)
			}
			require.NoError(t, db.Update(func(tx *bolt.Tx) error {
				if err := ix.Create(tx); err != nil {
					return err
				}
				_, err := ix.AddBatch(tx, docs)
				return err
			}))
			probe := []string{"three", "nine", "seven", "last", "", "thre"}
			for _, writable := range []bool{false, true} {
				fn := db.View
				if writable {
					fn = db.Update
				}
				require.NoError(t, fn(func(tx *bolt.Tx) error {
					got := ix.HasKeywords(tx, probe, []bool{true})
					require.Len(t, got, len(probe))
					for i, kw := range probe {
						assert.Equal(t, ix.HasKeyword(tx, kw), got[i], "%q", kw)
					}
					assert.Empty(t, ix.HasKeywords(tx, nil, nil))
					var rs []index.Result
					for d := uint32(1); d <= 9000; d += 5 {
						rs = append(rs, index.Result{Doc: d})
					}
					for _, kws := range [][]string{{"three"}, {"seven", "last"}, {"nine"}, nil} {
						carry, err := ix.CarryAny(tx, kws, rs, nil)
						require.NoError(t, err)
						require.Len(t, carry, len(rs))
						for i, r := range rs {
							n := int(r.Doc - 1)
							want := false
							for _, kw := range kws {
								want = want || (kw == "three" && n%3 == 0) || (kw == "seven" && n%7 == 0) || (kw == "last" && n == 8999)
							}
							assert.Equal(t, want, carry[i], "doc %d carries %v", r.Doc, kws)
						}
					}
					return nil
				}))
			}
		})
	}
	t.Run("no index", func(t *testing.T) {
		db := openDB(t)
		ix := index.New("absent", oneField, index.Options{})
		require.NoError(t, db.View(func(tx *bolt.Tx) error {
			assert.Equal(t, []bool{false}, ix.HasKeywords(tx, []string{"x"}, nil))
			carry, err := ix.CarryAny(tx, []string{"x"}, []index.Result{{Doc: 1}}, nil)
			assert.Equal(t, []bool{false}, carry)
			return err
		}))
	})
}
