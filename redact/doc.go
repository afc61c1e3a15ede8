// Package redact finds secrets in text and replaces each by a typed marker
// such as "[redacted:api_key]", so that a model or an agent reading the
// text learns that something was there and what kind of thing it was,
// never the secret itself.
//
// StrataGate applies String to every prompt it sends to a language model
// and to every agent-facing output (tool results, exports). It is never
// applied to stored text: L5 messages keep the user's words exactly, and
// redaction happens on the way out, so that a better detector later covers
// old messages too.
//
// The package is pure: no I/O, no state, no dependency beyond the standard
// library. Find, String and Contains are safe for concurrent use.
//
// # What is redacted
//
//   - API keys, by prefix, at a word boundary (the byte before the prefix
//     is not a letter, digit, '_' or '-'): OpenAI and Anthropic "sk-"
//     (including "sk-proj-", "sk-ant-") with at least 16 more key bytes;
//     GitHub "ghp_", "gho_", "ghu_", "ghs_", "ghr_" with at least 20 and
//     "github_pat_" with at least 22; AWS "AKIA"/"ASIA" and exactly 16
//     upper-case letters or digits; Slack "xoxa-", "xoxb-", "xoxp-",
//     "xoxr-" with at least 16; Google "AIza" and exactly 35; Stripe
//     "sk_live_", "sk_test_", "rk_live_", "rk_test_" with at least 16.
//     Except for the fixed-length AWS and Google formats, the key body
//     must also look random: a digit, or letters of both cases. Kind
//     KindAPIKey.
//   - Bearer tokens: "Bearer" (any case), blanks, then a token (RFC 6750
//     characters) of at least 16 bytes that looks random; after an
//     "Authorization:" key any token length counts. Only the token is
//     replaced: "Bearer [redacted:bearer_token]". Kind KindBearer.
//   - Secret pairs: a key ending in password, passwd, passphrase, pwd,
//     secret, token, api_key, apikey, access_key, secret_key, private_key
//     or authorization (any case, on a word or camelCase boundary, '-' or
//     '.' for '_': "DB_PASSWORD", "clientSecret", "x-api-key"), optional
//     quotes, blanks and Markdown bold around it, then '=', ':', "=>" or
//     ":=", then the value. Only the value is replaced. An unquoted value
//     ends at white space, a quote, '&', ',' or ';'; a quoted value runs to
//     its closing quote (or the end of the line), so a passphrase with
//     spaces is covered whole. Kind KindSecret, or KindAPIKey when the
//     value is exactly a recognised key, or KindBearer for "token: Bearer
//     x"; any scheme word after "Authorization:" is kept.
//   - PEM private keys: from "-----BEGIN <label>-----", where the label
//     contains "PRIVATE KEY", to "-----END <label>-----", the whole block;
//     without an END line, to the end of the text. Kind KindPrivateKey.
//   - URL credentials: the "user:password" of "scheme://user:password@host"
//     (up to the last '@' of the authority). Kind KindURLCredentials.
//
// # What is not redacted
//
// Text with no prefix and no key is left alone, however random it looks:
// hex hashes (git commits, SHA-256 sums), UUIDs, base64 blobs and JWTs on
// their own. A detector by entropy would redact the commit hashes and
// checksums that conversations about code are full of, and a model cannot
// answer questions about text it never sees. Also left alone: a URL user
// without a password ("ssh://git@host"), public key blocks and
// certificates, "password" without a separator ("my password is x"),
// and words that merely contain a prefix ("task-force", "asking",
// "sk-learn-compatible").
//
// Pairs fail closed: after "secret:" the next word goes even in prose
// ("the secret: patience" keeps only "the secret: "). A lost word costs
// little; a leaked password cannot be taken back.
//
// # Guarantees
//
//   - Findings are sorted by Start and never overlap.
//   - String returns its input itself, with no allocation, when there is
//     nothing to redact.
//   - String is idempotent: String(String(s)) == String(s). Markers already
//     in the text ("[redacted:" lower-case word "]") are never redacted
//     again, and a key or value that is a marker is not a finding.
//   - A finding starts and ends at an ASCII byte or the end of the text, so
//     replacing it never splits a UTF-8 sequence; invalid UTF-8 is passed
//     through as it is, and nothing panics on any input.
//   - len(String(s)) <= len(s) + len(Find(s))*len(longest marker), and the
//     scan is linear in len(s).
package redact
