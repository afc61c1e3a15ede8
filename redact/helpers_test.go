package redact_test

import "strings"

const (
	base62   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upperNum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
)

// fake builds a key-shaped string: prefix and n bytes drawn from alphabet
// by a fixed generator. Keys are built at run time so that no string in
// the repository looks like a real credential to a secret scanner.
func fake(prefix string, n int, alphabet string) string {
	var b strings.Builder
	b.WriteString(prefix)
	x := uint32(len(prefix)*7919 + n)
	for range n {
		x = x*1664525 + 1013904223
		b.WriteByte(alphabet[(x>>16)%uint32(len(alphabet))])
	}
	return b.String()
}

// marker spells a marker out, independently of Kind.Marker.
func marker(kind string) string { return "[redacted:" + kind + "]" }

var (
	openAI     = fake("sk-proj-", 48, base62)
	anthropic  = fake("sk-ant-api03-", 40, base62)
	githubPAT  = fake("ghp_", 36, base62)
	githubFine = fake("github_pat_", 22, base62) + "_" + fake("", 59, base62)
	awsID      = fake("AKIA", 16, upperNum)
	awsTemp    = fake("ASIA", 16, upperNum)
	slack      = "xoxb-" + fake("", 12, "0123456789") + "-" + fake("", 24, base62)
	google     = fake("AIza", 35, base62)
	stripe     = fake("sk_live_", 24, base62)
	jwt        = fake("eyJ", 20, base62) + "." + fake("eyJ", 30, base62) + "." + fake("", 43, base62)
)

// pemBlock is a PEM block with the given label and a fake body.
func pemBlock(label string) string {
	return "-----BEGIN " + label + "-----\n" + fake("MIIE", 60, base62) + "\n" +
		fake("", 64, base62) + "\n-----END " + label + "-----"
}

// prose is ordinary text with no secret: sentences, code, hashes and
// URLs of the kinds conversations hold, repeated to n bytes.
func prose(n int) string {
	const para = "Mia said the task-force meeting moved to Thursday; she's asking whether " +
		"the skeleton crew can cover the ticket queue. Commit 3f9c66d4e1b2a7c0 fixed it, " +
		"see https://example.com/docs/api?page=2&sort=asc for the details. " +
		"The bearer of bad news was Tom, who used sk-learn for the model. " +
		"In Go we write `x := compute(a, b)` and `if err != nil { return err }`. " +
		"Her UUID is 123e4567-e89b-12d3-a456-426614174000 and the checksum " +
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 matched. " +
		"Café au lait, naïve coöperation, 我用pnpm管理项目 — all fine.\n"
	return strings.Repeat(para, n/len(para)+1)[:n]
}
