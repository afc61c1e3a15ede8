package bm25

// stem applies the light English stemmer (rules in the package doc) to b,
// which holds only ASCII a-z, rewriting it in place, and returns the new
// length. Each step only shortens the word or rewrites a suffix, so the
// result is never empty and never longer than the input.
func stem(b []byte) int {
	n := len(b)

	// Step 1: plurals.
	switch {
	case hasSuffix(b[:n], "ies") && n-3 >= 2: // parties -> party, flies -> fly
		b[n-3] = 'y'
		n -= 2
	case hasSuffix(b[:n], "es") && n-2 >= 3 && sibilantEnd(b[:n-2]): // boxes -> box
		n -= 2
	case n > 3 && b[n-1] == 's' && b[n-2] != 's' && b[n-2] != 'u' && b[n-2] != 'i': // cats -> cat
		n--
	}

	// Step 2: -ing, -ied, -ed.
	switch {
	case hasSuffix(b[:n], "ing") && n-3 >= 3 && hasVowel(b[:n-3]): // running -> run
		n = undouble(b, n-3)
	case hasSuffix(b[:n], "ied") && n-3 >= 2: // tried -> try
		b[n-3] = 'y'
		n -= 2
	case hasSuffix(b[:n], "ed") && n-2 >= 3 && hasVowel(b[:n-2]): // adopted -> adopt
		n = undouble(b, n-2)
	}

	// Step 3: trailing silent e's, so move/moved/moving/moves meet at "mov"
	// and agree/agreed at "agr". An -eed left by step 1 or 2 (proceeding ->
	// proceed) first loses its d, as step 2 strips -ed from proceed itself.
	if n > 4 && hasSuffix(b[:n], "eed") {
		n--
	}
	for n > 3 && b[n-1] == 'e' {
		n--
	}
	return n
}

func hasSuffix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

// sibilantEnd reports whether b ends in s, x, z, ch or sh: the stems whose
// plural takes -es.
func sibilantEnd(b []byte) bool {
	switch b[len(b)-1] {
	case 's', 'x', 'z':
		return true
	case 'h':
		return len(b) >= 2 && (b[len(b)-2] == 'c' || b[len(b)-2] == 's')
	}
	return false
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

func hasVowel(b []byte) bool {
	for _, c := range b {
		if isVowel(c) {
			return true
		}
	}
	return false
}

// undouble drops one letter of a doubled final consonant (runn -> run)
// unless it is l, s or z (fall, miss, buzz) or the result would be shorter
// than three letters (add stays add).
func undouble(b []byte, n int) int {
	if n < 4 {
		return n
	}
	c := b[n-1]
	if c != b[n-2] || isVowel(c) || c == 'l' || c == 's' || c == 'z' {
		return n
	}
	return n - 1
}
