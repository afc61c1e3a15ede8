package bm25_test

import (
	"fmt"

	"github.com/stratagate/stratagate/bm25"
)

func ExampleTokenize() {
	for _, tok := range bm25.Tokenize("Mia's moving boxes; 我用pnpm管理") {
		fmt.Println(tok.Pos, tok.Term)
	}
	// Output:
	// 0 mia
	// 1 mov
	// 2 box
	// 3 我用
	// 4 pnpm
	// 5 管理
}

func ExampleExpandQuery() {
	q := bm25.AppendTerms(nil, "my cats 上周")
	fmt.Println(bm25.ExpandQuery(q))
	// Output: [[cat 猫 猫咪 kitten] [上周 last week]]
}

func ExampleRRF() {
	lexical := []uint64{7, 3, 9}
	vector := []uint64{3, 5}
	for _, r := range bm25.RRF(bm25.RRFK, lexical, vector) {
		fmt.Printf("%d %.5f\n", r.ID, r.Score)
	}
	// Output:
	// 3 0.03252
	// 7 0.01639
	// 5 0.01613
	// 9 0.01587
}
