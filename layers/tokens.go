package layers

import (
	"unicode"
	"unicode/utf8"
)

// EstimateTokens approximates how many model tokens s costs: one per
// Han/Kana/Hangul rune (CJK tokenizers rarely merge them) and one per four
// bytes of everything else, rounded up. It is deterministic and cheap; exact
// counts depend on the model's tokenizer, which StrataGate does not know.
func EstimateTokens(s string) int {
	cjk, other := 0, 0
	for _, r := range s {
		if r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
			unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)) {
			cjk++
			continue
		}
		if r < 0x80 {
			other++
		} else {
			other += utf8.RuneLen(r)
		}
	}
	return cjk + (other+3)/4
}
