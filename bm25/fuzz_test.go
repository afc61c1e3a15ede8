package bm25_test

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stratagate/stratagate/bm25"
)

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{
		"", "Mia's cat doesn't like the parties; she's moving boxes!",
		"我用pnpm管理项目", "ＡＢＣ１２３ café Ｍｉａ's　test", "3.5. 192.168.0.1 v2",
		"hello\xffworld \xc3", "cafe\u0301 Straße ŁÓDŹ", "😀☕ コーヒー 한국어",
		strings.Repeat("ж", 40) + "'s", "İstanbul ǅ ẞ K Å",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		toks := bm25.Tokenize(text)
		ts := bm25.AppendTerms(nil, text)
		if len(toks) != len(ts) {
			t.Fatalf("Tokenize gave %d tokens, AppendTerms %d terms", len(toks), len(ts))
		}
		prev := -1
		for i, tok := range toks {
			term := tok.Term
			switch {
			case term != ts[i]:
				t.Fatalf("token %d: Tokenize %q, AppendTerms %q", i, term, ts[i])
			case term == "":
				t.Fatalf("token %d is empty", i)
			case !utf8.ValidString(term):
				t.Fatalf("token %d %q is not valid UTF-8", i, term)
			case len(term) > bm25.MaxTermLen:
				t.Fatalf("token %d %q is %d bytes", i, term, len(term))
			case strings.ToLower(term) != term:
				t.Fatalf("token %d %q is not lower-case", i, term)
			// Stopwords are filtered before stemming, so a stem may equal
			// one ("alls" -> "all"); no stopword check here.
			case tok.Pos <= prev:
				t.Fatalf("token %d position %d after %d", i, tok.Pos, prev)
			}
			prev = tok.Pos
		}
		// Terms must outlive later tokenization (arena views stay intact).
		again := bm25.AppendTerms(nil, text)
		if !slices.Equal(ts, again) {
			t.Fatalf("not deterministic: %q vs %q", ts, again)
		}
	})
}

func FuzzExpandQuery(f *testing.F) {
	for _, s := range []string{"", "猫", "我的猫 上周 cats moving", "sister 妹妹", "\xff的猫"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		// Both tokenized queries and raw fields (arbitrary strings) are fed.
		for _, q := range [][]string{bm25.AppendTerms(nil, text), strings.Fields(text)} {
			out := bm25.ExpandQuery(q)
			if len(out) != len(q) {
				t.Fatalf("%d expansions for %d terms", len(out), len(q))
			}
			for i, exp := range out {
				if len(exp) == 0 || exp[0] != q[i] {
					t.Fatalf("expansion %d %q does not start with %q", i, exp, q[i])
				}
				seen := map[string]bool{}
				for _, s := range exp {
					if seen[s] {
						t.Fatalf("expansion %d %q repeats %q", i, exp, s)
					}
					seen[s] = true
				}
			}
			if again := bm25.ExpandQuery(q); !slices.EqualFunc(out, again, slices.Equal[[]string]) {
				t.Fatalf("not deterministic: %q vs %q", out, again)
			}
		}
	})
}
