package redact

// pairKeys are the key names whose value is a secret, lower case. A key
// matches the end of the identifier before a separator, on a word
// boundary: "password", "DB_PASSWORD", "dbPassword" and "x-api-key" all
// match, "tokens" and "mytoken" do not. A '_' in a key also matches '-'
// or '.' in the text. Bare "key" is left out on purpose: "primary key:
// id" and "sort_key=date" are not secrets.
var pairKeys = []string{
	"password", "passwd", "passphrase", "pwd",
	"secret", "token",
	"api_key", "apikey", "access_key", "secret_key", "private_key",
	"authorization",
}

// matchPair handles a separator ('=', ':', "=>", ":=") at s[p]: when a
// secret key ends just before it, the finding is the value after it. The
// key is looked for no further back than floor (the end of the previous
// finding), so a key is always visible text. When the key's value is
// already redacted, resume > 0 tells the scanner to go on from the marker:
// the text before it (a scheme word) was not scanned when the value was
// found, and must not be now, or String would not be idempotent.
func matchPair(s string, p, floor int) (f Finding, ok bool, resume int) {
	v := p + 1
	if v < len(s) {
		switch c := s[v]; {
		case c == s[p]:
			// "==" compares and "::" scopes; neither assigns.
			return Finding{}, false, 0
		case s[p] == '=' && c == '>', s[p] == ':' && c == '=':
			v++
		}
	}
	auth, ok := keyBefore(s, p, floor)
	if !ok {
		return Finding{}, false, 0
	}
	return pairValue(s, v, auth)
}

// keyBefore reports whether a secret key ends before s[p], allowing
// blanks, and up to three closing quotes or Markdown '*' between them
// (`"password": `, `**Password**:`). auth reports the Authorization key,
// whose value starts with a scheme.
func keyBefore(s string, p, floor int) (auth, ok bool) {
	e := p
	for e > floor && isBlank(s[e-1]) {
		e--
	}
	for n := 0; n < 3 && e > floor && (isQuote(s[e-1]) || s[e-1] == '*'); n++ {
		e--
	}
	// Every key ends in a letter: a cheap test that turns away most
	// separators in code and prose.
	if e == floor || !isLower(lower(s[e-1])) {
		return false, false
	}
	for _, k := range pairKeys {
		b := e - len(k)
		if b < floor || !keyEqual(s[b:e], k) {
			continue
		}
		if b > floor && isAlnum(s[b-1]) && !(isUpper(s[b]) && !isUpper(s[b-1])) {
			continue // inside a word, and not a camelCase hump
		}
		return k == "authorization", true
	}
	return false, false
}

// keyEqual compares text with a lower-case key, ignoring case and letting
// '-' or '.' stand for '_'.
func keyEqual(text, key string) bool {
	for i := 0; i < len(key); i++ {
		c := lower(text[i])
		if c == '-' || c == '.' {
			c = '_'
		}
		if c != key[i] {
			return false
		}
	}
	return true
}

// pairValue finds the value that starts at or after s[i] (blanks, an
// optional opening quote, then the value). An unquoted value ends at white
// space, a quote, '&', ',' or ';'; a quoted one at its closing quote or the
// end of the line, with backslash escapes, so a quoted passphrase with
// spaces goes whole. A scheme word ("Bearer", or any word after an
// Authorization key) is kept and only what follows it is redacted. A value
// that is already a marker, or empty, is no finding.
func pairValue(s string, i int, auth bool) (f Finding, ok bool, resume int) {
	i = skipBlanks(s, i)
	// "**Password:** hunter2": the bold's closing stars are not the value.
	if j := skipByte(s, i, '*'); j > i && j < len(s) && isBlank(s[j]) {
		i = skipBlanks(s, j)
	}
	var q byte
	if i < len(s) && isQuote(s[i]) {
		q = s[i]
		i++
	}
	if markerLen(s[i:]) > 0 {
		return Finding{}, false, i
	}
	if e := matchPEM(s, i); e >= 0 {
		return Finding{Kind: KindPrivateKey, Start: i, End: e}, true, 0
	}
	kind := KindSecret
	if w, isBearer := schemeEnd(s, i, auth); w > i {
		if j := skipBlanks(s, w); j < len(s) && !endsValue(s[j], q) {
			if markerLen(s[j:]) > 0 {
				return Finding{}, false, j
			}
			if e := matchPEM(s, j); e >= 0 {
				return Finding{Kind: KindPrivateKey, Start: j, End: e}, true, 0
			}
			if isBearer {
				kind = KindBearer
			}
			i = j
		}
	}
	e := valueEnd(s, i, q)
	if e == i {
		return Finding{}, false, 0
	}
	if kind != KindBearer && matchKey(s, i) == e {
		kind = KindAPIKey
	}
	return Finding{Kind: kind, Start: i, End: e}, true, 0
}

// schemeMax bounds an authentication scheme word ("Bearer", "Basic",
// "AWS4-HMAC-SHA256").
const schemeMax = 24

// schemeEnd returns the end of the scheme word at s[i] followed by a
// blank, or i when there is none: "Bearer" after any key, any word after an
// Authorization key. A word that is itself an API key is no scheme.
func schemeEnd(s string, i int, auth bool) (end int, isBearer bool) {
	w := i
	for w < len(s) && w-i <= schemeMax && isAlnumOrDash(s[w]) && !pemAt(s, w) {
		w++
	}
	if w == i || w-i > schemeMax || w >= len(s) || !isBlank(s[w]) {
		return i, false
	}
	isBearer = w-i == len(bearer) && hasPrefixFold(s[i:], bearer)
	if !auth && !isBearer || matchKey(s, i) >= 0 {
		return i, false
	}
	return w, isBearer
}

// endsValue reports whether c ends a value opened with quote q (0: none).
func endsValue(c, q byte) bool {
	if q != 0 {
		return c == q || c == '\n' || c == '\r'
	}
	return isSpace(c) || isQuote(c) || c == '&' || c == ',' || c == ';'
}

// valueEnd returns the end of the value starting at s[i].
func valueEnd(s string, i int, q byte) int {
	for i < len(s) && !endsValue(s[i], q) && !pemAt(s, i) {
		if q != 0 && s[i] == '\\' && i+1 < len(s) && s[i+1] != '\n' && s[i+1] != '\r' {
			i += 2
			continue
		}
		i++
	}
	return i
}

func skipByte(s string, i int, c byte) int {
	for i < len(s) && s[i] == c {
		i++
	}
	return i
}

func skipBlanks(s string, i int) int {
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	return i
}
