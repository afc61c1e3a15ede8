package bm25_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/bm25"
)

// corpus is the tiny index every scoring test uses. After tokenization:
//
//	doc 0: cat cat dog        (length 3)
//	doc 1: cat bird           (length 2)
//	doc 2: dog dog fish fish  (length 4)
//
// so N = 3 and avgdl = 3.
var corpus = []string{
	"The cats and the cat's dog.",
	"A cat, a bird.",
	"Dogs, dogs; fish and fishes!",
}

type index struct {
	tf     []map[string]int
	df     map[string]int
	lens   []float64
	avgLen float64
}

func buildIndex(t *testing.T) index {
	t.Helper()
	ix := index{df: map[string]int{}}
	total := 0.0
	for _, doc := range corpus {
		tf := map[string]int{}
		ts := bm25.AppendTerms(nil, doc)
		for _, term := range ts {
			if tf[term] == 0 {
				ix.df[term]++
			}
			tf[term]++
		}
		ix.tf = append(ix.tf, tf)
		ix.lens = append(ix.lens, float64(len(ts)))
		total += float64(len(ts))
	}
	ix.avgLen = total / float64(len(corpus))
	require.Equal(t, []float64{3, 2, 4}, ix.lens)
	require.Equal(t, map[string]int{"cat": 2, "dog": 2, "bird": 1, "fish": 1}, ix.df)
	return ix
}

func TestBM25HandComputed(t *testing.T) {
	ix := buildIndex(t)
	p := bm25.DefaultParams // k1 = 1.2, b = 0.75
	// idf(df=2) = ln(1 + (3-2+0.5)/(2+0.5)) = ln(1.6)
	// idf(df=1) = ln(1 + (3-1+0.5)/(1+0.5)) = ln(8/3)
	idf2, idf1 := math.Log(1.6), math.Log(8.0/3.0)
	cases := []struct {
		name string
		term string
		doc  int
		want float64
	}{
		// norm = 1 - b + b*dl/avgdl; score = idf * tf*2.2 / (tf + 1.2*norm)
		{"cat in doc0: tf2 dl3 norm1", "cat", 0, idf2 * 4.4 / 3.2},
		{"cat in doc1: tf1 dl2 norm0.75", "cat", 1, idf2 * 2.2 / 1.9},
		{"cat absent from doc2", "cat", 2, 0},
		{"dog in doc0: tf1 dl3 norm1", "dog", 0, idf2 * 2.2 / 2.2},
		{"dog in doc2: tf2 dl4 norm1.25", "dog", 2, idf2 * 4.4 / 3.5},
		{"fish in doc2: tf2 dl4 norm1.25", "fish", 2, idf1 * 4.4 / 3.5},
		{"bird in doc1: tf1 dl2 norm0.75", "bird", 1, idf1 * 2.2 / 1.9},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			idf := bm25.IDF(len(corpus), ix.df[tc.term])
			got := p.Score(float64(ix.tf[tc.doc][tc.term]), ix.lens[tc.doc], ix.avgLen, idf)
			assert.InDelta(t, tc.want, got, 1e-12)
		})
	}

	t.Run("query ranking", func(t *testing.T) {
		// "cat fish": doc0 = idf2*1.375 ≈ 0.646, doc1 = idf2*1.158 ≈ 0.544,
		// doc2 = idf1*1.257 ≈ 1.233. Fish is rarer, so doc2 wins.
		score := func(doc int) float64 {
			s := 0.0
			for _, term := range bm25.AppendTerms(nil, "cat fish") {
				idf := bm25.IDF(len(corpus), ix.df[term])
				s += p.Score(float64(ix.tf[doc][term]), ix.lens[doc], ix.avgLen, idf)
			}
			return s
		}
		assert.Greater(t, score(2), score(0))
		assert.Greater(t, score(0), score(1))
	})
}

func TestIDF(t *testing.T) {
	cases := []struct {
		name  string
		n, df int
		want  float64
	}{
		{"common term", 3, 2, math.Log(1.6)},
		{"rare term", 3, 1, math.Log(8.0 / 3.0)},
		{"term in every doc stays positive", 10, 10, math.Log(1 + 0.5/10.5)},
		{"empty corpus", 0, 0, math.Log(2)},
		{"df above N is clamped to N", 2, 5, math.Log(1 + 0.5/5.5)},
		{"negative df is clamped to 0", 4, -3, math.Log(1 + 4.5/0.5)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := bm25.IDF(tc.n, tc.df)
			assert.InDelta(t, tc.want, got, 1e-12)
			assert.Greater(t, got, 0.0)
		})
	}
}

func TestScoreGuards(t *testing.T) {
	p := bm25.DefaultParams
	cases := []struct {
		name               string
		p                  bm25.Params
		tf, dl, avgdl, idf float64
		want               float64
	}{
		{"zero tf", p, 0, 3, 3, 1, 0},
		{"negative tf", p, -1, 3, 3, 1, 0},
		{"NaN tf", p, math.NaN(), 3, 3, 1, 0},
		{"zero avgdl means dl/avgdl = 1", p, 1, 5, 0, 1, 2.2 / 2.2},
		{"k1 = 0 ignores tf", bm25.Params{K1: 0, B: 0.75}, 7, 3, 3, 2, 2},
		{"b = 0 ignores length", bm25.Params{K1: 1.2, B: 0}, 1, 100, 3, 1, 2.2 / 2.2},
		{"b above 1 is clamped", bm25.Params{K1: 1.2, B: 5}, 1, 6, 3, 1, 2.2 / (1 + 1.2*2)},
		{"negative k1 is clamped", bm25.Params{K1: -1, B: 0.75}, 3, 3, 3, 1.5, 1.5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.p.Score(tc.tf, tc.dl, tc.avgdl, tc.idf)
			assert.InDelta(t, tc.want, got, 1e-12)
		})
	}
}

func TestUpperBoundProperty(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for range 20000 {
		p := bm25.Params{K1: rng.Float64() * 3, B: rng.Float64()}
		idf := rng.Float64() * 5
		avg := 0.5 + rng.Float64()*100
		maxTF := 1 + float64(rng.IntN(50))
		minDL := float64(rng.IntN(200))
		ub := p.UpperBound(idf, maxTF, minDL, avg)

		// Integer frequencies, then fractional values hugging the bounds
		// (BM25F pseudo-frequencies are fractional) to probe rounding.
		probes := [][2]float64{
			{float64(1 + rng.IntN(int(maxTF))), minDL + float64(rng.IntN(300))},
			{maxTF * rng.Float64(), minDL + rng.Float64()},
			{math.Nextafter(maxTF, 0), math.Nextafter(minDL, math.Inf(1))},
			{maxTF, minDL},
		}
		for _, pr := range probes {
			if s := p.Score(pr[0], pr[1], avg, idf); s > ub {
				t.Fatalf("Score %v > UpperBound %v: p=%+v idf=%v tf=%v<=%v dl=%v>=%v avg=%v",
					s, ub, p, idf, pr[0], maxTF, pr[1], minDL, avg)
			}
		}
		if g := p.UpperBound(idf, math.Inf(1), 0, avg); ub > g {
			t.Fatalf("bound %v above global bound %v", ub, g)
		}
	}
	p := bm25.DefaultParams
	assert.InDelta(t, 2.0*2.2, p.UpperBound(2, math.Inf(1), 10, 3), 1e-12, "global bound idf*(k1+1)")
	assert.Equal(t, 0.0, p.UpperBound(-1, 5, 1, 3), "negative idf bounds at 0")
}

func TestBM25FWeightChangesWinner(t *testing.T) {
	p := bm25.DefaultParams
	idf := bm25.IDF(100, 5)
	avgLens := []float64{5, 100} // title, body
	// Doc A has the term once in a short title; doc B three times in an
	// average body.
	tfA, lensA := []float64{1, 0}, []float64{4, 80}
	tfB, lensB := []float64{0, 3}, []float64{6, 100}
	score := func(titleWeight float64, tfs, lens []float64) float64 {
		fields := []bm25.Field{{Weight: titleWeight, B: 0.75}, {Weight: 1, B: 0.75}}
		return bm25.BM25F(p, fields, tfs, lens, avgLens, idf)
	}
	t.Run("equal weights favour body frequency", func(t *testing.T) {
		assert.Greater(t, score(1, tfB, lensB), score(1, tfA, lensA))
	})
	t.Run("heavy title flips the order", func(t *testing.T) {
		assert.Greater(t, score(5, tfA, lensA), score(5, tfB, lensB))
	})
	t.Run("hand computed", func(t *testing.T) {
		// pseudo-tf = 5*1/(0.25+0.75*4/5) = 5/0.85; score = idf*tf~*2.2/(tf~+1.2)
		tfp := 5 / 0.85
		assert.InDelta(t, idf*tfp*2.2/(tfp+1.2), score(5, tfA, lensA), 1e-12)
	})
	t.Run("one field equals BM25", func(t *testing.T) {
		got := bm25.BM25F(p, []bm25.Field{{Weight: 1, B: p.B}}, []float64{3}, []float64{7}, []float64{4}, idf)
		assert.InDelta(t, p.Score(3, 7, 4, idf), got, 1e-12)
	})
	t.Run("mismatched slices do not panic", func(t *testing.T) {
		got := bm25.BM25F(p, []bm25.Field{{Weight: 1, B: 1}, {Weight: 1}}, []float64{2}, nil, avgLens, idf)
		assert.Equal(t, 0.0, got)
		got = bm25.BM25F(p, []bm25.Field{{Weight: 1, B: 1}}, []float64{2}, []float64{0}, []float64{3}, idf)
		assert.InDelta(t, idf*2*2.2/(2+1.2), got, 1e-12, "zero normaliser counts as 1")
	})
}

func TestExplain(t *testing.T) {
	p := bm25.DefaultParams
	e := p.Explain(2, 4, 3, 1.3)
	assert.Equal(t, p.Score(2, 4, 3, 1.3), e.Value)
	require.Len(t, e.Children, 2)
	assert.Equal(t, 1.3, e.Children[0].Value)
	assert.InDelta(t, e.Value, e.Children[0].Value*e.Children[1].Value, 1e-12)
	s := e.String()
	assert.Contains(t, s, "idf")
	assert.Contains(t, s, "tfNorm")
}
