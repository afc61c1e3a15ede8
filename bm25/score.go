package bm25

import (
	"fmt"
	"math"
	"strings"
)

// Params holds the BM25 free parameters. K1 (finite, ≥ 0) sets how fast
// term frequency saturates; B (in [0, 1]) sets how strongly document length
// normalises it. Out-of-range values are clamped into [0, 1] for B and to 0
// for K1.
type Params struct {
	K1, B float64
}

// DefaultParams are the customary BM25 parameters (as in Lucene).
var DefaultParams = Params{K1: 1.2, B: 0.75}

// clamped returns k1 and b forced into their valid ranges, which keeps every
// score finite and the monotonicity UpperBound relies on.
func (p Params) clamped() (k1, b float64) {
	k1 = p.K1
	if !(k1 >= 0) || math.IsInf(k1, 1) { // also catches NaN
		k1 = 0
	}
	return k1, clampB(p.B)
}

// clampB forces a length-normalisation strength into [0, 1] (NaN to 0).
func clampB(b float64) float64 {
	if !(b >= 0) {
		return 0
	}
	return min(b, 1)
}

// IDF is the non-negative (Lucene, BM25+) inverse document frequency
//
//	idf = ln(1 + (N - df + 0.5) / (df + 0.5))
//
// for a term present in docFreq of docCount documents. Out-of-range counts
// are clamped (0 ≤ df ≤ N), so the result is always finite and > 0.
func IDF(docCount, docFreq int) float64 {
	df := math.Max(float64(docFreq), 0)
	n := math.Max(float64(docCount), df)
	return math.Log1p((n - df + 0.5) / (df + 0.5))
}

// lengthNorm is 1 - b + b·docLen/avgDocLen, with avgDocLen ≤ 0 (an empty
// corpus) treated as docLen/avgDocLen = 1 and a negative or NaN docLen as 0.
func lengthNorm(b, docLen, avgDocLen float64) float64 {
	ratio := 1.0
	if avgDocLen > 0 {
		if !(docLen >= 0) {
			docLen = 0
		}
		ratio = docLen / avgDocLen
	}
	return (1 - b) + b*ratio
}

// Score is the BM25 score of one term in one document:
//
//	idf · tf·(k1+1) / (tf + k1·(1 - b + b·docLen/avgDocLen))
//
// It returns 0 for tf ≤ 0. It is evaluated as idf·(k1+1) / (1 + k1·norm/tf),
// the same value, because every step of that form is monotone under IEEE
// rounding; so the float result is exactly non-decreasing in tf and
// non-increasing in docLen, which UpperBound depends on.
func (p Params) Score(tf, docLen, avgDocLen, idf float64) float64 {
	if !(tf > 0) {
		return 0
	}
	k1, b := p.clamped()
	return idf * (k1 + 1) / (1 + k1*lengthNorm(b, docLen, avgDocLen)/tf)
}

// UpperBound bounds Score for a term over a set of documents (a posting
// list, or a block of one) whose term frequencies are ≤ maxTF and lengths
// ≥ minDocLen: MaxScore/WAND may skip documents whose summed bounds cannot
// beat TopK.Threshold. It equals Score(maxTF, minDocLen, avgDocLen, idf),
// which is a bound because Score is monotone in both arguments (see Score),
// so it is tight on the document that attains both extremes. maxTF = +Inf
// gives the global bound idf·(k1+1). For idf ≤ 0 every score is ≤ 0, and
// the bound is 0.
func (p Params) UpperBound(idf, maxTF, minDocLen, avgDocLen float64) float64 {
	if !(idf > 0) {
		return 0
	}
	return p.Score(maxTF, minDocLen, avgDocLen, idf)
}

// Field describes one field of a BM25F document: its boost and its own
// length-normalisation strength (in [0, 1], clamped).
type Field struct {
	Weight, B float64
}

// BM25F scores one term over a multi-field document with the standard
// BM25F combination: per-field frequencies are length-normalised and
// weighted first, and saturate once, together:
//
//	tf~   = Σ_f Weight_f · tf_f / (1 - B_f + B_f · len_f / avg_f)
//	score = idf · tf~·(k1+1) / (tf~ + k1)
//
// Only p.K1 is used; each field carries its own B. The slices are parallel
// (index f describes the same field everywhere); extra entries in longer
// slices are ignored. Fields with tf ≤ 0 or Weight ≤ 0 contribute nothing;
// avg_f ≤ 0 counts as len_f/avg_f = 1, and a zero normaliser (B_f = 1,
// len_f = 0) as 1.
func BM25F(p Params, fields []Field, tfs []float64, lens []float64, avgLens []float64, idf float64) float64 {
	n := min(len(fields), len(tfs), len(lens), len(avgLens))
	var pseudo float64
	for f := range n {
		if tf := tfs[f]; tf > 0 && fields[f].Weight > 0 {
			pseudo += FieldPart(fields[f], tf, lens[f], avgLens[f])
		}
	}
	return p.Saturate(pseudo, idf)
}

// FieldPart is one field's term of BM25F's pseudo-frequency tf~:
// Weight · tf / (1 - B + B · len / avg), for tf > 0 and Weight > 0. A
// caller that memoises it and adds the parts of a document's fields in
// field order, then calls Saturate, gets BM25F's very float.
func FieldPart(f Field, tf, docLen, avgLen float64) float64 {
	norm := lengthNorm(clampB(f.B), docLen, avgLen)
	if !(norm > 0) {
		norm = 1
	}
	return f.Weight * tf / norm
}

// Saturate is BM25F's last step: idf · tf~·(k1+1) / (tf~ + k1), 0 when
// tf~ is not positive.
func (p Params) Saturate(pseudo, idf float64) float64 {
	if !(pseudo > 0) {
		return 0
	}
	k1, _ := p.clamped()
	return idf * (k1 + 1) / (1 + k1/pseudo)
}

// Explanation is a debugging tree that shows how a score was computed, in
// the manner of bleve's and Lucene's explain output. Value of the root is
// exactly the score being explained.
type Explanation struct {
	Value    float64
	Message  string
	Children []Explanation
}

// String renders the tree, one node per line, children indented.
func (e Explanation) String() string {
	var sb strings.Builder
	e.write(&sb, 0)
	return sb.String()
}

func (e Explanation) write(sb *strings.Builder, depth int) {
	fmt.Fprintf(sb, "%s%g = %s\n", strings.Repeat("  ", depth), e.Value, e.Message)
	for _, c := range e.Children {
		c.write(sb, depth+1)
	}
}

// Explain returns the explanation of Score(tf, docLen, avgDocLen, idf). It
// allocates and is meant for debugging, not for the scoring loop.
func (p Params) Explain(tf, docLen, avgDocLen, idf float64) Explanation {
	k1, b := p.clamped()
	norm := lengthNorm(b, docLen, avgDocLen)
	tfNorm := 0.0
	if tf > 0 {
		tfNorm = tf * (k1 + 1) / (tf + k1*norm)
	}
	return Explanation{
		Value:   p.Score(tf, docLen, avgDocLen, idf),
		Message: "score = idf * tfNorm",
		Children: []Explanation{
			{Value: idf, Message: "idf = ln(1 + (N - df + 0.5) / (df + 0.5))"},
			{
				Value:   tfNorm,
				Message: "tfNorm = tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))",
				Children: []Explanation{
					{Value: tf, Message: "tf, term frequency in document"},
					{Value: k1, Message: "k1, term saturation parameter"},
					{Value: b, Message: "b, length normalisation parameter"},
					{Value: docLen, Message: "dl, document length"},
					{Value: avgDocLen, Message: "avgdl, average document length"},
				},
			},
		},
	}
}
