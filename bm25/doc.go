// Package bm25 is the scoring core of StrataGate's inverted index: the
// tokenizer that turns text into index terms, query-time synonyms, BM25 and
// BM25F scoring with pruning bounds, Reciprocal Rank Fusion and a bounded
// top-k heap. Everything here is a pure function of its arguments: no I/O,
// no globals that change after init, no dependency beyond the standard
// library. The tokenizer and stopword list are part of the index format:
// changing any rule below requires a reindex.
//
// # Tokenizer
//
// Tokenize and AppendTerms apply these rules, in this order, to each rune:
//
//   - Invalid UTF-8 bytes (and U+FFFD) are separators; nothing panics.
//   - Width folding (the NFKC subset that matters for chat text): fullwidth
//     ASCII U+FF01..U+FF5E becomes ASCII ("ＡＢＣ１２３" is "abc123") and the
//     ideographic space U+3000 a space. Halfwidth Katakana is not folded.
//   - Case folding with unicode.ToLower, then Latin diacritic folding: every
//     letter of Latin-1 Supplement and Latin Extended-A becomes its ASCII
//     base ("é" is "e", "ñ" is "n", "ł" is "l"), with æ→ae, œ→oe, ß→ss,
//     þ→th, ĳ→ij. Combining diacritical marks (U+0300..U+036F) inside a
//     word are dropped without splitting it, so decomposed input folds like
//     precomposed input.
//   - CJK characters (scripts Han, Hiragana, Katakana, Hangul, plus ー and
//     々) form runs that end at any other character. A run of n ≥ 2
//     characters yields its n-1 overlapping bigrams; a run of one character
//     yields that character. "我用pnpm管理" is 我用, pnpm, 管理. CJK terms
//     are neither stopword-filtered nor stemmed.
//   - A word is a maximal run of non-CJK letters and digits (unicode
//     IsLetter/IsDigit); every other character, emoji and punctuation
//     included, separates words. Scripts written without spaces other than
//     CJK (Thai, Lao, Khmer...) are not segmented.
//   - Apostrophes (' ’ ʼ ＇) between two word characters are dropped
//     ("don't" is "dont"), except a possessive: an apostrophe followed by s
//     that ends the word drops both ("Mia's" is "mia", "it's" is "it").
//     Apostrophes at either end of a word are separators.
//   - Numbers: digits are word characters, so "2024", "v2" and "10am" are
//     single terms. A '.' between two ASCII digits stays inside the term
//     ("3.5", "192.168.0.1"); any other '.' and every ',' separate
//     ("1,000" is "1", "000").
//   - Stopwords: a folded word on the fixed English list (see IsStopword;
//     about 130 words, negations excluded) is dropped but still takes a
//     position. The check precedes stemming, so "cans" stays as "can".
//   - Stemming applies to words made only of ASCII letters after folding
//     (so "café" stems like "cafe"), see below.
//   - Terms are at most MaxTermLen (64) bytes: a longer word is cut to the
//     longest valid UTF-8 prefix that fits, and is not stemmed.
//
// Token.Pos is the ordinal of the token in the input: words (stopwords
// included) and CJK bigrams/unigrams each take one position.
//
// # Stemmer
//
// A light English stemmer, deliberately not Porter. Three steps, each
// applying at most one rule (the first that matches):
//
//  1. Plurals. -ies → -y when at least two letters precede it ("parties" →
//     "party", "flies" → "fly"); -es → "" after s, x, z, ch or sh when at
//     least three letters remain ("boxes" → "box", "switches" →
//     "switch"); -s → "" when the word has more than three letters and
//     does not end in -ss, -us or -is ("cats" → "cat"; "glass", "status",
//     "analysis" stay).
//  2. Verb endings. -ing → "" and -ed → "" when at least three letters
//     remain and they contain a vowel (a e i o u y), so "string", "sing"
//     and "need" stay; a doubled final consonant other than l, s, z is
//     then undoubled if three letters remain ("running" → "run", "stopped"
//     → "stop", "falling" → "fall", "added" → "add"). -ied → -y when at
//     least two letters precede it ("tried" → "try").
//  3. Silent e. A final -eed of more than four letters loses its d; then
//     final e's are dropped while more than three letters remain. This
//     unifies the stem forms: "move", "moved", "moving" and "moves" all
//     become "mov"; "decide" and "decided" "decid"; "agree", "agreed" and
//     "agreeing" "agr"; "proceed" and "proceeding" "proc".
//
// Known conflations and misses are accepted for a small, predictable rule
// set: "care"/"car" and "hoping"/"hopping" share a stem; "use" and "used"
// do not (three-letter minimum); "decision" stays apart from "decid".
//
// # Synonyms
//
// ExpandQuery adds Chinese–English synonyms to query terms. They apply at
// query time only, never at index time; see synonyms.go for the table.
//
// # Scoring
//
// IDF is ln(1 + (N - df + 0.5)/(df + 0.5)), never negative. Params.Score is
// idf · tf·(k1+1)/(tf + k1·(1 - b + b·dl/avgdl)), with avgdl ≤ 0 treated as
// dl/avgdl = 1. Params.UpperBound is Score at the largest tf and the
// smallest dl of a block, valid because Score is monotone even under float
// rounding. BM25F combines fields before saturation:
// tf~ = Σ w_f·tf_f/(1 - b_f + b_f·len_f/avg_f), score = idf·tf~(k1+1)/(tf~ + k1).
//
// # Fusion and top-k
//
// RRF scores an id Σ 1/(k + rank) over the lists containing it (rank from
// 1) and orders by score descending, then best rank in any list, then id
// ascending. TopK keeps the k best entries, higher score first and the
// smaller id first on equal scores.
//
// # Determinism
//
// Every function returns the same output for the same input, bit for bit:
// no map iteration order, randomness or concurrency influences a result.
// Term order follows the input; synonym order follows the table; RRF sums
// each id's contributions in a fixed order; all sorts have total orders.
package bm25
