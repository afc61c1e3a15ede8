package bm25

// stopwords is the fixed English stopword list, in folded form (lower case,
// apostrophes removed: "i'm" is "im"). Negations (no, not, nor, never) are
// deliberately absent: "Mia does not eat meat" must stay retrievable by
// "not". The list is part of the index format; changing it requires a
// reindex.
var stopwords = func() map[string]struct{} {
	words := [...]string{
		"a", "about", "above", "after", "again", "against", "all", "also",
		"am", "an", "and", "any", "are", "as", "at",
		"be", "because", "been", "before", "being", "below", "between",
		"both", "but", "by",
		"can", "could",
		"did", "do", "does", "doing", "down", "during",
		"each", "either",
		"few", "for", "from", "further",
		"had", "has", "have", "having", "he", "her", "here", "hers",
		"herself", "him", "himself", "his", "how",
		"i", "if", "im", "in", "into", "is", "it", "its", "itself", "ive",
		"just",
		"me", "more", "most", "my", "myself",
		"of", "off", "on", "once", "only", "or", "other", "our", "ours",
		"ourselves", "out", "over", "own",
		"same", "she", "should", "so", "some", "such",
		"than", "that", "the", "their", "theirs", "them", "themselves",
		"then", "there", "these", "they", "theyre", "this", "those",
		"through", "to", "too",
		"under", "until", "up", "us",
		"very",
		"was", "we", "were", "what", "when", "where", "which", "while",
		"who", "whom", "why", "will", "with", "would",
		"you", "youre", "your", "yours", "yourself", "yourselves",
	}
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}()

// IsStopword reports whether term, already folded (lower case, no
// apostrophes), is on the English stopword list that Tokenize drops.
func IsStopword(term string) bool {
	_, ok := stopwords[term]
	return ok
}

// stopFilter[first][last] has bit n set when some stopword of n bytes
// starts and ends with those letters. It rejects most content words before
// the map lookup, which dominated tokenization time.
var stopFilter = func() (f [26][26]uint16) {
	for w := range stopwords {
		f[w[0]-'a'][w[len(w)-1]-'a'] |= 1 << len(w)
	}
	return f
}()

// isStopwordBytes is IsStopword for a scratch buffer; the map index with a
// string conversion does not allocate.
func isStopwordBytes(b []byte) bool {
	n := len(b)
	if n == 0 || n > 15 {
		return false
	}
	first, last := b[0]-'a', b[n-1]-'a'
	if first >= 26 || last >= 26 || stopFilter[first][last]&(1<<n) == 0 {
		return false
	}
	_, ok := stopwords[string(b)]
	return ok
}
