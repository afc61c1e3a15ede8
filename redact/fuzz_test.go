package redact_test

import (
	"testing"

	"github.com/stratagate/stratagate/redact"
)

// FuzzString checks the package's properties on any input: no panic,
// sorted non-overlapping findings on UTF-8 boundaries, bounded output,
// idempotence, markers left alone and unchanged text when nothing is
// found (see checkProperties).
func FuzzString(f *testing.F) {
	for _, tc := range append(positives(), negatives()...) {
		f.Add(tc.in)
	}
	for _, s := range []string{
		"password=" + marker("secret") + "x", "Bearer " + marker("bearer_token") + jwt,
		"https://a:b@" + marker("api_key"), "-----BEGIN PRIVATE KEY-----" + openAI,
		"Authorization: Bearer\tBearer " + jwt, "token=`a\\`b` c", "**secret:** **x**",
		"x:=y password:=\"z\\\n\" pwd", "\xe2\x82password=\xe2\x82\xac",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkProperties(t, s)
		_ = redact.Contains(s)
	})
}
