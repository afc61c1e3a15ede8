package redact

import "strings"

// keyRule describes one provider's key: a literal prefix, the bytes its
// body may hold and how long the body must be.
type keyRule struct {
	prefix string
	body   func(c byte) bool
	// min is the shortest body; exact rules also take no more than min
	// and must not run on into a word.
	min   int
	exact bool
	// random requires looksRandom of the body (see there).
	random bool
}

func isUpperOrDigit(c byte) bool { return isUpper(c) || isDigit(c) }
func isAlnumOrDash(c byte) bool  { return isAlnum(c) || c == '-' }
func isAlnumOrUnder(c byte) bool { return isAlnum(c) || c == '_' }

// keyRules, grouped by first byte so the scanner looks only at the rules
// that can start where it stands. Lengths follow the providers' published
// formats with some slack below, so a slightly shorter key (a test key, an
// older format) is still caught while short identifiers are not.
var keyRules = map[byte][]keyRule{
	's': {
		// OpenAI (sk-, sk-proj-, sk-svcacct-) and Anthropic (sk-ant-).
		{prefix: "sk-", body: isWord, min: 16, random: true},
		// Stripe secret keys.
		{prefix: "sk_live_", body: isAlnum, min: 16, random: true},
		{prefix: "sk_test_", body: isAlnum, min: 16, random: true},
	},
	'r': {
		// Stripe restricted keys.
		{prefix: "rk_live_", body: isAlnum, min: 16, random: true},
		{prefix: "rk_test_", body: isAlnum, min: 16, random: true},
	},
	'g': {
		// GitHub: personal, OAuth, user-to-server, server-to-server and
		// refresh tokens (36 base62 characters), fine-grained PATs.
		{prefix: "ghp_", body: isAlnum, min: 20, random: true},
		{prefix: "gho_", body: isAlnum, min: 20, random: true},
		{prefix: "ghu_", body: isAlnum, min: 20, random: true},
		{prefix: "ghs_", body: isAlnum, min: 20, random: true},
		{prefix: "ghr_", body: isAlnum, min: 20, random: true},
		{prefix: "github_pat_", body: isAlnumOrUnder, min: 22, random: true},
	},
	'A': {
		// AWS access key ids (long-term and temporary): exactly 16.
		{prefix: "AKIA", body: isUpperOrDigit, min: 16, exact: true},
		{prefix: "ASIA", body: isUpperOrDigit, min: 16, exact: true},
		// Google API keys: AIza and exactly 35 more.
		{prefix: "AIza", body: isWord, min: 35, exact: true},
	},
	'x': {
		// Slack bot, user, app and refresh tokens.
		{prefix: "xoxa-", body: isAlnumOrDash, min: 16, random: true},
		{prefix: "xoxb-", body: isAlnumOrDash, min: 16, random: true},
		{prefix: "xoxp-", body: isAlnumOrDash, min: 16, random: true},
		{prefix: "xoxr-", body: isAlnumOrDash, min: 16, random: true},
	},
}

// matchKey returns the end of the API key that starts at s[i], or -1. The
// caller has checked the word boundary before i.
func matchKey(s string, i int) int {
	for _, r := range keyRules[s[i]] {
		if !strings.HasPrefix(s[i:], r.prefix) {
			continue
		}
		b := i + len(r.prefix)
		e := b
		for e < len(s) && r.body(s[e]) && !pemAt(s, e) {
			e++
		}
		n := e - b
		switch {
		case n < r.min:
			continue
		case r.exact && (n != r.min || (e < len(s) && isWord(s[e]) && !pemAt(s, e))):
			continue
		case r.random && !looksRandom(s[b:e]):
			continue
		}
		return e
	}
	return -1
}
