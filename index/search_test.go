package index_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/index"
)

// modelDoc is a single-field document of the reference scorer.
type modelDoc struct {
	id    uint64
	scope string
	terms []string
	dead  bool
}

// modelResult is what a brute-force BM25 over docs returns for terms:
// every doc (doc number = position+1) that is not dead, passes keep and
// contains a query term, ordered by score then doc number, cut to k. N and
// df count every doc (tombstoned ones included), as the index does.
func modelSearch(docs []modelDoc, terms []string, k int, keep func(i int) bool) []index.Result {
	n := len(docs)
	var total int
	df := map[string]int{}
	for _, d := range docs {
		total += len(d.terms)
		seen := map[string]bool{}
		for _, w := range d.terms {
			if !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
	}
	avg := float64(total) / float64(n)
	var distinct []string
	for _, w := range terms {
		if w != "" && !slices.Contains(distinct, w) {
			distinct = append(distinct, w)
		}
	}
	var out []index.Result
	for i, d := range docs {
		if d.dead || (keep != nil && !keep(i)) {
			continue
		}
		var score float64
		match := false
		for _, w := range distinct {
			tf := 0
			for _, x := range d.terms {
				if x == w {
					tf++
				}
			}
			if tf > 0 {
				match = true
				score += bm25.DefaultParams.Score(float64(tf), float64(len(d.terms)), avg, bm25.IDF(n, df[w]))
			}
		}
		if match {
			out = append(out, index.Result{ID: d.id, Doc: uint32(i + 1), Score: score})
		}
	}
	slices.SortStableFunc(out, func(a, b index.Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// requireResults compares ids and doc numbers exactly and scores within
// 1e-12.
func requireResults(t testing.TB, want, got []index.Result, msg ...any) {
	t.Helper()
	require.Len(t, got, len(want), msg...)
	for i := range want {
		require.Equal(t, want[i].ID, got[i].ID, "rank %d %v", i, msg)
		require.Equal(t, want[i].Doc, got[i].Doc, "rank %d %v", i, msg)
		require.InDelta(t, want[i].Score, got[i].Score, 1e-12, "rank %d %v", i, msg)
	}
}

func addModel(t testing.TB, db interface {
	Update(func(*bolt.Tx) error) error
}, ix *index.Index, docs []modelDoc) {
	t.Helper()
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		for _, d := range docs {
			if _, err := ix.Add(tx, index.Doc{ID: d.id, Scope: d.scope, Fields: [][]string{d.terms}}); err != nil {
				return err
			}
		}
		return nil
	}))
}

func TestSearchBM25HandComputed(t *testing.T) {
	// Doc numbers are 1..4 in this order; ids deliberately do not follow
	// doc numbers so that the tie-break (doc number) is visible.
	docs := []modelDoc{
		{id: 10, scope: "s", terms: words("apple banana apple")},         // len 3
		{id: 40, scope: "s", terms: words("banana cherry")},              // len 2
		{id: 30, scope: "s", terms: words("apple cherry cherry cherry")}, // len 4
		{id: 20, scope: "s", terms: words("banana cherry")},              // len 2, same as doc 2
	}
	db := openDB(t)
	ix := index.New("a", []index.Field{{Name: "text"}}, index.Options{})
	addModel(t, db, ix, docs)

	// Fully by hand: N=4, avgdl=11/4, df(apple)=2 → idf=ln(1+2.5/2.5)=ln 2.
	// doc 1: tf=2, len=3; doc 3: tf=1, len=4.
	const avg = 11.0 / 4
	k1, b := 1.2, 0.75
	hand := func(tf, l float64) float64 {
		return math.Ln2 * tf * (k1 + 1) / (tf + k1*(1-b+b*l/avg))
	}
	got := search(t, db, ix, index.Query{Terms: []string{"apple"}, Scopes: []string{"s"}})
	require.Len(t, got, 2)
	assert.Equal(t, []uint64{10, 30}, ids(got))
	assert.InDelta(t, hand(2, 3), got[0].Score, 1e-12)
	assert.InDelta(t, hand(1, 4), got[1].Score, 1e-12)

	p := bm25.DefaultParams
	idf := func(df int) float64 { return bm25.IDF(4, df) }
	tests := []struct {
		name  string
		terms []string
		k     int
		want  []index.Result
	}{
		{"one term", words("apple"), 10, []index.Result{
			{ID: 10, Doc: 1, Score: p.Score(2, 3, avg, idf(2))},
			{ID: 30, Doc: 3, Score: p.Score(1, 4, avg, idf(2))},
		}},
		{"tie broken by doc number not id", words("banana"), 10, []index.Result{
			{ID: 40, Doc: 2, Score: p.Score(1, 2, avg, idf(3))},
			{ID: 20, Doc: 4, Score: p.Score(1, 2, avg, idf(3))},
			{ID: 10, Doc: 1, Score: p.Score(1, 3, avg, idf(3))},
		}},
		{"two terms summed", words("apple cherry"), 10, []index.Result{
			{ID: 30, Doc: 3, Score: p.Score(1, 4, avg, idf(2)) + p.Score(3, 4, avg, idf(3))},
			{ID: 10, Doc: 1, Score: p.Score(2, 3, avg, idf(2))},
			{ID: 40, Doc: 2, Score: p.Score(1, 2, avg, idf(3))},
			{ID: 20, Doc: 4, Score: p.Score(1, 2, avg, idf(3))},
		}},
		{"duplicate and unknown terms ignored", words("cherry zzz cherry"), 10, []index.Result{
			{ID: 30, Doc: 3, Score: p.Score(3, 4, avg, idf(3))},
			{ID: 40, Doc: 2, Score: p.Score(1, 2, avg, idf(3))},
			{ID: 20, Doc: 4, Score: p.Score(1, 2, avg, idf(3))},
		}},
		{"all three terms", words("banana apple cherry"), 2, []index.Result{
			{ID: 10, Doc: 1, Score: p.Score(1, 3, avg, idf(3)) + p.Score(2, 3, avg, idf(2))},
			{ID: 30, Doc: 3, Score: p.Score(1, 4, avg, idf(2)) + p.Score(3, 4, avg, idf(3))},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := index.Query{Terms: tc.terms, Scopes: []string{"s"}, K: tc.k}
			got := searchBoth(t, db, ix, q)
			requireResults(t, tc.want, got)
			requireResults(t, modelSearch(docs, tc.terms, max(tc.k, 1), nil), got, "model")
		})
	}
}

func TestSearchBM25F(t *testing.T) {
	// Doc A has "go" once in the title, doc B once in the body; every
	// other statistic is equal, so only the field weights decide.
	docs := []index.Doc{
		{ID: 1, Scope: "s", Fields: [][]string{words("go"), words("x y")}},
		{ID: 2, Scope: "s", Fields: [][]string{words("z"), words("go y")}},
	}
	tests := []struct {
		name        string
		title, body float64
		wantFirst   uint64
	}{
		{"title weighted", 4, 1, 1},
		{"body weighted", 1, 4, 2},
		{"equal weights tie by doc number", 1, 1, 1},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			fields := []index.Field{{Name: "title", Weight: tc.title}, {Name: "body", Weight: tc.body}}
			ix := index.New(fmt.Sprint("f", i), fields, index.Options{})
			addAll(t, db, ix, docs...)
			got := searchBoth(t, db, ix, index.Query{Terms: []string{"go"}, Scopes: []string{"s"}})
			require.Len(t, got, 2)
			assert.Equal(t, tc.wantFirst, got[0].ID)

			// Expected scores from bm25.BM25F: avg title len 1, body 2;
			// df counts docs with the term in any field (2 of 2).
			bf := []bm25.Field{{Weight: tc.title, B: 0.75}, {Weight: tc.body, B: 0.75}}
			avgs := []float64{1, 2}
			idf := bm25.IDF(2, 2)
			scoreA := bm25.BM25F(bm25.DefaultParams, bf, []float64{1, 0}, []float64{1, 2}, avgs, idf)
			scoreB := bm25.BM25F(bm25.DefaultParams, bf, []float64{0, 1}, []float64{1, 2}, avgs, idf)
			byID := map[uint64]float64{got[0].ID: got[0].Score, got[1].ID: got[1].Score}
			assert.InDelta(t, scoreA, byID[1], 1e-12)
			assert.InDelta(t, scoreB, byID[2], 1e-12)
			if tc.title == tc.body {
				assert.Equal(t, got[0].Score, got[1].Score)
			} else {
				assert.Greater(t, got[0].Score, got[1].Score)
			}
		})
	}
}

func TestSearchZeroMatch(t *testing.T) {
	db := openDB(t)
	ix := index.New("a", []index.Field{{Name: "text"}}, index.Options{})
	addAll(t, db, ix,
		index.Doc{ID: 1, Scope: "s1", Fields: [][]string{words("alpha beta")}, Keywords: []string{"k"}},
		index.Doc{ID: 2, Scope: "s2", Fields: [][]string{words("beta gamma")}},
	)
	tests := []struct {
		name string
		q    index.Query
	}{
		{"unknown term", index.Query{Terms: words("delta"), Scopes: []string{"s1", "s2"}}},
		{"all terms unknown", index.Query{Terms: words("delta epsilon zeta"), Scopes: []string{"s1", "s2"}}},
		{"empty term only", index.Query{Terms: []string{""}, Scopes: []string{"s1"}}},
		{"no terms", index.Query{Scopes: []string{"s1"}}},
		{"nil scopes", index.Query{Terms: words("alpha")}},
		{"empty scopes", index.Query{Terms: words("alpha"), Scopes: []string{}}},
		{"scope with no docs", index.Query{Terms: words("alpha beta"), Scopes: []string{"nobody"}}},
		{"term only in other scope", index.Query{Terms: words("gamma"), Scopes: []string{"s1"}}},
		{"unknown keyword", index.Query{Terms: words("alpha"), Scopes: []string{"s1"}, Keywords: []string{"nope"}}},
		{"keyword on no matching doc", index.Query{Terms: words("gamma"), Scopes: []string{"s1", "s2"}, Keywords: []string{"k"}}},
		{"time bound, no doc has time", index.Query{Terms: words("beta"), Scopes: []string{"s1", "s2"}, From: time.Unix(0, 0)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := searchBoth(t, db, ix, tc.q)
			assert.Empty(t, got)
		})
	}
	t.Run("index never created", func(t *testing.T) {
		other := index.New("other", []index.Field{{Name: "text"}}, index.Options{})
		assert.Empty(t, search(t, db, other, index.Query{Terms: words("alpha"), Scopes: []string{"s1"}}))
	})
}

// TestSearchScopeIsolation: with random documents over six scopes, every
// result of 500 random queries over random scope subsets belongs to an
// asked scope, and the results are exactly a brute-force BM25 restricted
// to those scopes (and SearchExhaustive).
func TestSearchScopeIsolation(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	z := rand.NewZipf(rng, 1.1, 1, 400)
	scopes := []string{"global", "project:a", "project:b", "session:x", "session:y", "user:z"}
	docs := make([]modelDoc, 1500)
	scopeOf := map[uint64]string{}
	for i := range docs {
		docs[i] = modelDoc{id: uint64(1000 + 7*i), scope: scopes[rng.IntN(len(scopes))], terms: zipfDoc(z, 1+rng.IntN(25))}
		scopeOf[docs[i].id] = docs[i].scope
	}
	db := openDB(t)
	ix := index.New("a", []index.Field{{Name: "text"}}, index.Options{})
	addModel(t, db, ix, docs)

	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for i := range 500 {
			var asked []string
			for _, s := range scopes {
				if rng.IntN(3) == 0 {
					asked = append(asked, s)
				}
			}
			if rng.IntN(10) == 0 {
				asked = append(asked, "unknown")
			}
			q := index.Query{Scopes: asked, K: 1 + rng.IntN(15)}
			for range 1 + rng.IntN(4) {
				q.Terms = append(q.Terms, fmt.Sprintf("w%d", z.Uint64()))
			}
			got, err := ix.Search(tx, q)
			require.NoError(t, err)
			for _, r := range got {
				require.Contains(t, asked, scopeOf[r.ID], "query %d %+v: result %d", i, q, r.ID)
			}
			exh, err := ix.SearchExhaustive(tx, q)
			require.NoError(t, err)
			require.Equal(t, exh, got, "query %d %+v", i, q)
			want := modelSearch(docs, q.Terms, q.K, func(j int) bool { return slices.Contains(asked, docs[j].scope) })
			requireResults(t, want, got, "query %d %+v", i, q)
		}
		return nil
	}))
}

func TestSearchKeywordFilter(t *testing.T) {
	db := openDB(t)
	ix := index.New("a", []index.Field{{Name: "text"}}, index.Options{})
	addAll(t, db, ix,
		index.Doc{ID: 1, Scope: "s", Fields: [][]string{words("note one")}, Keywords: []string{"red"}},
		index.Doc{ID: 2, Scope: "s", Fields: [][]string{words("note two")}, Keywords: []string{"red", "blue"}},
		index.Doc{ID: 3, Scope: "s", Fields: [][]string{words("note three")}, Keywords: []string{"blue", "green", "blue"}},
		index.Doc{ID: 4, Scope: "s", Fields: [][]string{words("note four")}},
		index.Doc{ID: 5, Scope: "t", Fields: [][]string{words("note five")}, Keywords: []string{"red", "blue"}},
	)
	tests := []struct {
		name     string
		keywords []string
		scopes   []string
		want     []uint64
	}{
		{"none", nil, []string{"s"}, []uint64{1, 2, 3, 4}},
		{"one", []string{"red"}, []string{"s"}, []uint64{1, 2}},
		{"all required", []string{"red", "blue"}, []string{"s"}, []uint64{2}},
		{"all required, order irrelevant", []string{"blue", "red"}, []string{"s", "t"}, []uint64{2, 5}},
		{"duplicate keyword in doc", []string{"blue", "green"}, []string{"s"}, []uint64{3}},
		{"duplicate keyword in query", []string{"blue", "blue"}, []string{"s"}, []uint64{2, 3}},
		{"one unknown keyword", []string{"red", "nope"}, []string{"s"}, nil},
		{"no doc has all", []string{"red", "green"}, []string{"s", "t"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := searchBoth(t, db, ix, index.Query{Terms: words("note"), Scopes: tc.scopes, Keywords: tc.keywords})
			gotIDs := ids(got)
			slices.Sort(gotIDs)
			if tc.want == nil {
				assert.Empty(t, gotIDs)
			} else {
				assert.Equal(t, tc.want, gotIDs)
			}
		})
	}
}

func TestSearchTimeFilter(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	h := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }
	type span struct{ start, end time.Time }
	spans := map[uint64]span{
		1: {h(0), time.Time{}}, // instant at 0
		2: {h(1), h(5)},        // [1, 5]
		3: {h(10), h(11)},      // [10, 11]
		4: {h(-100), h(100)},   // long, covers everything (MaxSpan)
		5: {},                  // no time
		6: {h(20), h(19)},      // End before Start: instant at 20
		7: {h(-5), h(-3)},      // before zero
	}
	db := openDB(t)
	ix := index.New("a", []index.Field{{Name: "text"}}, index.Options{})
	for id := uint64(1); id <= 7; id++ {
		addAll(t, db, ix, index.Doc{ID: id, Scope: "s", Fields: [][]string{words("event")}, Start: spans[id].start, End: spans[id].end})
	}
	tests := []struct {
		name     string
		from, to time.Time
		want     []uint64
	}{
		{"unbounded keeps untimed", time.Time{}, time.Time{}, []uint64{1, 2, 3, 4, 5, 6, 7}},
		{"from only", h(6), time.Time{}, []uint64{3, 4, 6}},
		{"to only", time.Time{}, h(0), []uint64{1, 4, 7}},
		{"overlap at start bound", h(5), h(9), []uint64{2, 4}},
		{"overlap at end bound", h(-1), h(1), []uint64{1, 2, 4}},
		{"inside a span", h(2), h(3), []uint64{2, 4}},
		{"instant query", h(10), h(10), []uint64{3, 4}},
		{"inverted end is instant", h(19), h(19), []uint64{4}},
		{"inverted end matched at start", h(20), h(20), []uint64{4, 6}},
		{"gap", h(12), h(18), []uint64{4}},
		{"nothing after", h(101), time.Time{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := searchBoth(t, db, ix, index.Query{Terms: words("event"), Scopes: []string{"s"}, From: tc.from, To: tc.to})
			gotIDs := ids(got)
			slices.Sort(gotIDs)
			if tc.want == nil {
				assert.Empty(t, gotIDs)
			} else {
				assert.Equal(t, tc.want, gotIDs)
			}
		})
	}
}

func TestSearchK(t *testing.T) {
	db := openDB(t)
	ix := index.New("a", []index.Field{{Name: "text"}}, index.Options{})
	var docs []modelDoc
	for i := range 15 {
		// Distinct lengths give distinct scores.
		terms := append([]string{"hit"}, make([]string, i)...)
		for j := range i {
			terms[j+1] = fmt.Sprint("pad", j)
		}
		docs = append(docs, modelDoc{id: uint64(i + 1), scope: "s", terms: terms})
	}
	docs = append(docs, modelDoc{id: 100, scope: "s", terms: words("miss")})
	addModel(t, db, ix, docs)
	tests := []struct {
		name    string
		k, want int
	}{
		{"K=1", 1, 1},
		{"K=5", 5, 5},
		{"K=0 means 10", 0, 10},
		{"negative K means 10", -3, 10},
		{"K equals matches", 15, 15},
		{"K larger than matches", 1000, 15},
		{"huge K", 1 << 30, 15},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := searchBoth(t, db, ix, index.Query{Terms: words("hit"), Scopes: []string{"s"}, K: tc.k})
			require.Len(t, got, tc.want)
			requireResults(t, modelSearch(docs, words("hit"), tc.want, nil), got)
			// Shorter docs score higher: ids ascending.
			for i, r := range got {
				assert.Equal(t, uint64(i+1), r.ID)
			}
		})
	}
}

// TestPrunedTies stresses MaxScore's tie handling: a tiny vocabulary and
// short documents give thousands of exactly equal scores, where a pruner
// that skips a candidate whose bound merely equals the threshold must
// still keep the smaller doc numbers.
func TestPrunedTies(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 6))
	vocab := words("a b c d e")
	docs := make([]modelDoc, 2000)
	for i := range docs {
		terms := make([]string, 1+rng.IntN(3))
		for j := range terms {
			terms[j] = vocab[rng.IntN(len(vocab))]
		}
		docs[i] = modelDoc{id: uint64(5000 - i), scope: []string{"x", "y"}[rng.IntN(2)], terms: terms}
	}
	db := openDB(t)
	ix := index.New("a", oneField, index.Options{})
	addModel(t, db, ix, docs)
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		for i := range 300 {
			q := index.Query{Scopes: []string{"x", "y"}[:1+rng.IntN(2)], K: 1 + rng.IntN(40)}
			for range 1 + rng.IntN(4) {
				q.Terms = append(q.Terms, vocab[rng.IntN(len(vocab))])
			}
			got, err := ix.Search(tx, q)
			require.NoError(t, err)
			exh, err := ix.SearchExhaustive(tx, q)
			require.NoError(t, err)
			require.Equal(t, exh, got, "query %d %+v", i, q)
			want := modelSearch(docs, q.Terms, q.K, func(j int) bool { return slices.Contains(q.Scopes, docs[j].scope) })
			requireResults(t, want, got, "query %d %+v", i, q)
		}
		return nil
	}))
}
