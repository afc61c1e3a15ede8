package bm25_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/bm25"
)

func terms(text string) []string { return bm25.AppendTerms(nil, text) }

func TestTokenizeTerms(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"only separators", " ,.;!? \t\n", nil},
		{"sentence with punctuation", "Hello, world! Cats: nice.", []string{"hello", "world", "cat", "nic"}},
		{"possessive dropped", "Mia's dog", []string{"mia", "dog"}},
		{"possessive curly apostrophe", "Mia’s dog", []string{"mia", "dog"}},
		{"possessive upper case", "MIA'S DOG", []string{"mia", "dog"}},
		{"inner apostrophe dropped", "don't won't", []string{"dont", "wont"}},
		{"apostrophe then s inside word", "o'sullivan", []string{"osullivan"}},
		{"quotes are separators", "'quoted' students'", []string{"quot", "student"}},
		{"possessive pronoun is stopword", "it's fine", []string{"fin"}},
		{"stopwords dropped", "the cat and the dog of a friend", []string{"cat", "dog", "friend"}},
		{"only stopwords", "The and OR of to in is was", nil},
		{"negation kept", "Mia does not eat meat", []string{"mia", "not", "eat", "meat"}},
		{"hyphen and underscore split", "e-mail snake_case", []string{"e", "mail", "snak", "cas"}},
		{"numbers", "2024 3.5 v2 10am", []string{"2024", "3.5", "v2", "10am"}},
		{"dotted numbers", "192.168.0.1 1.2.3", []string{"192.168.0.1", "1.2.3"}},
		{"dot not between digits", "3.5. .5 a.b v2.x", []string{"3.5", "5", "b", "v2", "x"}},
		{"comma splits numbers", "1,000", []string{"1", "000"}},
		{"numbers are not stemmed", "1990s 2s", []string{"1990s", "2s"}},
		{"chinese bigrams", "我喜欢咖啡", []string{"我喜", "喜欢", "欢咖", "咖啡"}},
		{"chinese two chars", "咖啡", []string{"咖啡"}},
		{"lone cjk unigram", "猫", []string{"猫"}},
		{"lone cjk between words", "my 猫 cat", []string{"猫", "cat"}},
		{"cjk punctuation splits runs", "咖啡，茶。", []string{"咖啡", "茶"}},
		{"mixed chinese english", "我用pnpm管理", []string{"我用", "pnpm", "管理"}},
		{"japanese kana with long mark", "コーヒー", []string{"コー", "ーヒ", "ヒー"}},
		{"korean", "한국어", []string{"한국", "국어"}},
		{"fullwidth ascii", "ＡＢＣ１２３", []string{"abc123"}},
		{"fullwidth possessive and ideographic space", "Ｍｉａ＇ｓ　ｄｏｇ", []string{"mia", "dog"}},
		{"fullwidth decimal", "３．５", []string{"3.5"}},
		{"diacritics folded", "Zürich São Kraków señor garçon ŁÓDŹ", []string{"zurich", "sao", "krakow", "senor", "garcon", "lodz"}},
		{"diacritic word stems like ascii", "café cafe", []string{"caf", "caf"}},
		{"two letter foldings", "Straße œuvre Æsir", []string{"strass", "oeuvr", "aesir"}},
		{"combining marks dropped", "cafe\u0301 nai\u0308ve", []string{"caf", "naiv"}},
		{"other scripts lower-cased", "ΑΘΗΝΑ Москва", []string{"αθηνα", "москва"}},
		{"emoji dropped", "I ❤️ coffee 😀☕ tea🍵", []string{"coff", "tea"}},
		{"invalid utf8 is a separator", "hello\xffworld \xc3 cat\xe2\x82", []string{"hello", "world", "cat"}},
		{"replacement char is a separator", "a\uFFFDcat", []string{"cat"}},
		{"invalid utf8 inside cjk run", "咖\xff啡", []string{"咖", "啡"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := terms(tc.in)
			if tc.want == nil {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestStemming(t *testing.T) {
	// Each group must collapse to a single stem.
	groups := []struct {
		name  string
		words []string
		stem  string
	}{
		{"cat", []string{"cat", "cats"}, "cat"},
		{"party", []string{"party", "parties"}, "party"},
		{"box", []string{"box", "boxes"}, "box"},
		{"run", []string{"run", "running", "runs"}, "run"},
		{"move", []string{"move", "moved", "moving", "moves"}, "mov"},
		{"decide", []string{"decide", "decided", "deciding", "decides"}, "decid"},
		{"adopt", []string{"adopt", "adopted", "adopting", "adopts"}, "adopt"},
		{"switch", []string{"switch", "switched", "switches", "switching"}, "switch"},
		{"try", []string{"try", "tried", "tries", "trying"}, "try"},
		{"agree", []string{"agree", "agreed", "agreeing", "agrees"}, "agr"},
		{"proceed", []string{"proceed", "proceeded", "proceeding"}, "proc"},
		{"need", []string{"need", "needed", "needing", "needs"}, "need"},
		{"stop", []string{"stop", "stopped", "stopping", "stops"}, "stop"},
		{"meeting", []string{"meet", "meeting", "meetings"}, "meet"},
		{"glass", []string{"glass", "glasses"}, "glass"},
		{"fall keeps double l", []string{"fall", "falling"}, "fall"},
		{"miss keeps double s", []string{"miss", "missed", "missing"}, "miss"},
		{"add keeps three letters", []string{"add", "added"}, "add"},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			for _, w := range g.words {
				assert.Equal(t, []string{g.stem}, terms(w), "word %q", w)
			}
		})
	}

	unchanged := []struct{ name, word string }{
		{"decision stays separate", "decision"},
		{"ss ending", "boss"},
		{"us ending", "status"},
		{"is ending", "analysis"},
		{"short word", "gas"},
		{"ing without vowel stem", "string"},
		{"short ing", "sing"},
		{"short ed", "bed"},
	}
	for _, u := range unchanged {
		t.Run(u.name, func(t *testing.T) {
			assert.Equal(t, []string{u.word}, terms(u.word))
		})
	}
	assert.NotEqual(t, terms("decision"), terms("decide"))
}

func TestTokenizePositions(t *testing.T) {
	toks := bm25.Tokenize("The cat's toy, 我喜欢 it")
	// the=0 (stopword), cat=1, toy=2, 我喜=3, 喜欢=4, it=5 (stopword).
	require.Equal(t, []bm25.Token{
		{Term: "cat", Pos: 1},
		{Term: "toy", Pos: 2},
		{Term: "我喜", Pos: 3},
		{Term: "喜欢", Pos: 4},
	}, toks)
	assert.Nil(t, bm25.Tokenize("the of and"))
}

func TestLongWordsTruncated(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"ascii", strings.Repeat("x", 100), strings.Repeat("x", 64)},
		{"exactly 64 is kept and stemmed", strings.Repeat("b", 61) + "xes", strings.Repeat("b", 61) + "x"},
		{"long word is not stemmed", strings.Repeat("b", 70) + "ing", strings.Repeat("b", 64)},
		// 'é' folds to 1 byte; 'ж' stays 2 bytes: 21 of them are 42 bytes,
		// and 31 more cannot fit in the remaining 22 at a rune boundary.
		{"multibyte cut at rune boundary", strings.Repeat("a", 21) + strings.Repeat("ж", 30),
			strings.Repeat("a", 21) + strings.Repeat("ж", 21)},
		{"folded bytes count", strings.Repeat("é", 80), strings.Repeat("e", 64)},
		{"odd boundary", "a" + strings.Repeat("ж", 40), "a" + strings.Repeat("ж", 31)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := terms(tc.in + " next")
			require.Len(t, got, 2)
			assert.Equal(t, tc.want, got[0])
			assert.LessOrEqual(t, len(got[0]), bm25.MaxTermLen)
			assert.True(t, utf8.ValidString(got[0]))
			assert.Equal(t, "next", got[1])
		})
	}
}

func TestIsStopword(t *testing.T) {
	for _, w := range []string{"the", "a", "an", "and", "or", "of", "to", "in", "is", "was", "im"} {
		assert.True(t, bm25.IsStopword(w), w)
	}
	for _, w := range []string{"not", "no", "cat", "The", "", "dont"} {
		assert.False(t, bm25.IsStopword(w), w)
	}
}

func TestAppendTermsAppends(t *testing.T) {
	dst := []string{"keep"}
	dst = bm25.AppendTerms(dst, "Cats and DOGS")
	assert.Equal(t, []string{"keep", "cat", "dog"}, dst)
}

func TestAppendTermsTermsAreStable(t *testing.T) {
	// Terms built in the shared arena must not be overwritten by later ones.
	in := "ALPHA BETA GAMMA Ünïcödé parties " + strings.Repeat("WORD ", 50)
	got := terms(in)
	again := terms(in)
	require.Equal(t, again, got)
	assert.Equal(t, []string{"alpha", "beta", "gamma", "unicod", "party", "word"}, got[:6])
}

func TestLatinFoldingTable(t *testing.T) {
	// Every letter of Latin-1 Supplement and Latin Extended-A folds to one
	// or two ASCII letters (checked inside a word so stemming stays out).
	for r := rune(0xC0); r < 0x180; r++ {
		if !unicode.IsLetter(r) {
			continue
		}
		got := terms("q" + string(r) + "q")
		require.Len(t, got, 1, "%U", r)
		term := got[0]
		require.True(t, len(term) == 3 || len(term) == 4, "%U folds to %q", r, term)
		for _, c := range []byte(term) {
			require.True(t, 'a' <= c && c <= 'z', "%U folds to %q", r, term)
		}
	}
	spot := map[string]string{
		"qàq": "qaq", "qÉq": "qeq", "qñq": "qnq", "qçq": "qcq", "qüq": "quq",
		"qøq": "qoq", "qđq": "qdq", "qłq": "qlq", "qşq": "qsq", "qžq": "qzq",
		"qßq": "qssq", "qæq": "qaeq", "qŒq": "qoeq", "qþq": "qthq", "qĳq": "qijq",
	}
	for in, want := range spot {
		assert.Equal(t, []string{want}, terms(in), in)
	}
}

func TestAppendTermsAllocations(t *testing.T) {
	dst := make([]string, 0, 64)
	cases := []struct {
		name string
		text string
		max  float64
	}{
		// Lower-case terms and prefix-only stems are substrings of the input.
		{"lower-case english", "we decided to switch the project tracker and moved the meetings", 0},
		{"cjk", "我用pnpm管理项目，她喜欢燕麦奶咖啡", 0},
		// Folded terms share one arena allocation per call.
		{"mixed case and folding", "Mia's PARTIES in Zürich with ＡＢＣ and Café friends", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			allocs := testing.AllocsPerRun(100, func() {
				dst = bm25.AppendTerms(dst[:0], tc.text)
			})
			assert.LessOrEqual(t, allocs, tc.max)
		})
	}
}
