package redact_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/redact"
)

// redactCase is one sentence and what String must make of it; kinds lists
// the kinds Find must report, in order.
type redactCase struct {
	name  string
	in    string
	want  string
	kinds []redact.Kind
}

var (
	api    = marker("api_key")
	bear   = marker("bearer_token")
	sec    = marker("secret")
	priv   = marker("private_key")
	urlCrd = marker("url_credentials")
)

const (
	kAPI  = redact.KindAPIKey
	kBear = redact.KindBearer
	kSec  = redact.KindSecret
	kPriv = redact.KindPrivateKey
	kURL  = redact.KindURLCredentials
)

func positives() []redactCase {
	return []redactCase{
		{"openai project key", "my key is " + openAI + " thanks", "my key is " + api + " thanks", []redact.Kind{kAPI}},
		{"openai classic key", "export OPENAI=" + fake("sk-", 48, base62), "export OPENAI=" + api, []redact.Kind{kAPI}},
		{"anthropic key", "use " + anthropic + ".", "use " + api + ".", []redact.Kind{kAPI}},
		{"github classic token", "token " + githubPAT + " expired", "token " + api + " expired", []redact.Kind{kAPI}},
		{"github oauth and server tokens", fake("gho_", 36, base62) + " and " + fake("ghs_", 36, base62), api + " and " + api, []redact.Kind{kAPI, kAPI}},
		{"github fine-grained pat", "PAT: (" + githubFine + ")", "PAT: (" + api + ")", []redact.Kind{kAPI}},
		{"aws access key id", "aws id " + awsID + ", region eu", "aws id " + api + ", region eu", []redact.Kind{kAPI}},
		{"aws temporary key id", "`" + awsTemp + "`", "`" + api + "`", []redact.Kind{kAPI}},
		{"slack bot token", "slack: " + slack, "slack: " + api, []redact.Kind{kAPI}},
		{"google api key", "maps key " + google + " here", "maps key " + api + " here", []redact.Kind{kAPI}},
		{"stripe live key", "charge with " + stripe, "charge with " + api, []redact.Kind{kAPI}},
		{"key in quotes json", `{"model": "gpt", "key": "` + openAI + `"}`, `{"model": "gpt", "key": "` + api + `"}`, []redact.Kind{kAPI}},
		{"authorization bearer header", "Authorization: Bearer " + jwt, "Authorization: Bearer " + bear, []redact.Kind{kBear}},
		{"authorization short bearer", "authorization: bearer abc123", "authorization: bearer " + bear, []redact.Kind{kBear}},
		{"authorization basic", "Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic " + sec, []redact.Kind{kSec}},
		{"bare bearer lower case", "curl -H 'bearer " + jwt + "' url", "curl -H 'bearer " + bear + "' url", []redact.Kind{kBear}},
		{"bare bearer random", "send BEARER " + fake("", 32, base62) + " now", "send BEARER " + bear + " now", []redact.Kind{kBear}},
		{"json authorization header", `{"Authorization": "Bearer ` + jwt + `"}`, `{"Authorization": "Bearer ` + bear + `"}`, []redact.Kind{kBear}},
		{"password equals", "login with password=hunter2 today", "login with password=" + sec + " today", []redact.Kind{kSec}},
		{"password spaced upper case", "PASSWORD = hunter2", "PASSWORD = " + sec, []redact.Kind{kSec}},
		{"password json", `{"user": "mia", "password": "hunter2"}`, `{"user": "mia", "password": "` + sec + `"}`, []redact.Kind{kSec}},
		{"quoted passphrase with spaces", `passphrase: "correct horse battery staple"`, `passphrase: "` + sec + `"`, []redact.Kind{kSec}},
		{"json escaped quote", `"password": "ab\"cd" ok`, `"password": "` + sec + `" ok`, []redact.Kind{kSec}},
		{"query string token", "GET /cb?code=1&access_token=abc.def&state=x", "GET /cb?code=1&access_token=" + sec + "&state=x", []redact.Kind{kSec}},
		{"env file keys", "DB_PASSWORD=s3cr3t\nCLIENT_SECRET=zzz;\nGITHUB_TOKEN=" + githubPAT, "DB_PASSWORD=" + sec + "\nCLIENT_SECRET=" + sec + ";\nGITHUB_TOKEN=" + api, []redact.Kind{kSec, kSec, kAPI}},
		{"passwd pwd apikey", "passwd:x1, pwd=y2 apikey=z3", "passwd:" + sec + ", pwd=" + sec + " apikey=" + sec, []redact.Kind{kSec, kSec, kSec}},
		{"api_key with dashes", "X-Api-Key: 0123abcd", "X-Api-Key: " + sec, []redact.Kind{kSec}},
		{"camel case key", "dbPassword := \"pa ss\"", "dbPassword := \"" + sec + "\"", []redact.Kind{kSec}},
		{"php arrow", "'secret' => 'abc'", "'secret' => '" + sec + "'", []redact.Kind{kSec}},
		{"markdown bold key", "**Password:** hunter2", "**Password:** " + sec, []redact.Kind{kSec}},
		{"yaml secret", "db:\n  secret: hunter2\n  host: db1", "db:\n  secret: " + sec + "\n  host: db1", []redact.Kind{kSec}},
		{"token with bearer scheme", "token: Bearer abc", "token: Bearer " + bear, []redact.Kind{kBear}},
		{"github token scheme", "Authorization: token " + githubPAT, "Authorization: token " + api, []redact.Kind{kAPI}},
		{"aws secret access key", "aws_secret_access_key = " + fake("", 40, base62+"+/"), "aws_secret_access_key = " + sec, []redact.Kind{kSec}},
		{"pem rsa", "here:\n" + pemBlock("RSA PRIVATE KEY") + "\nthanks", "here:\n" + priv + "\nthanks", []redact.Kind{kPriv}},
		{"pem pkcs8 and openssh", pemBlock("PRIVATE KEY") + " " + pemBlock("OPENSSH PRIVATE KEY"), priv + " " + priv, []redact.Kind{kPriv, kPriv}},
		{"pem without end", "oops " + pemBlock("EC PRIVATE KEY")[:80], "oops " + priv, []redact.Kind{kPriv}},
		{"pem as pair value", "private_key: " + pemBlock("PRIVATE KEY") + " end", "private_key: " + priv + " end", []redact.Kind{kPriv}},
		{"url credentials", "clone https://mia:hunter2@git.example.com/repo.git", "clone https://" + urlCrd + "@git.example.com/repo.git", []redact.Kind{kURL}},
		{"postgres url with escaped at", "postgres://app:p%40ss@db:5432/x", "postgres://" + urlCrd + "@db:5432/x", []redact.Kind{kURL}},
		{"url raw at in password", "redis://:pa@ss@cache:6379", "redis://" + urlCrd + "@cache:6379", []redact.Kind{kURL}},
		{"url credentials and query token", "https://u:p@h/x?token=t1", "https://" + urlCrd + "@h/x?token=" + sec, []redact.Kind{kURL, kSec}},
		{"key after invalid utf8", "\xff" + openAI + "\xc3", "\xff" + api + "\xc3", []redact.Kind{kAPI}},
		{"non-ascii password", "password=pässwört! ok", "password=" + sec + " ok", []redact.Kind{kSec}},
		{"url user before pem", "://a:b@" + pemBlock("PRIVATE KEY"), "://a:b@" + priv, []redact.Kind{kPriv}},
		{"value running into pem", "password=abc" + pemBlock("PRIVATE KEY"), "password=" + sec + priv, []redact.Kind{kSec, kPriv}},
		{"token running into pem", "Bearer " + fake("", 20, base62) + pemBlock("RSA PRIVATE KEY"), "Bearer " + bear + priv, []redact.Kind{kBear, kPriv}},
		{"pem after scheme", "Authorization: Bearer " + pemBlock("PRIVATE KEY"), "Authorization: Bearer " + priv, []redact.Kind{kPriv}},
		{"authorization key is no scheme", "Authorization: " + openAI + " sent", "Authorization: " + api + " sent", []redact.Kind{kAPI}},
		{"prose after secret colon fails closed", "the secret: patience pays", "the secret: " + sec + " pays", []redact.Kind{kSec}},
		{"key after pem end", pemBlock("PRIVATE KEY") + openAI, priv + api, []redact.Kind{kPriv, kAPI}},
	}
}

func negatives() []redactCase {
	return []redactCase{
		{"prose", "We met at the café and talked about the trip to Lisbon.", "", nil},
		{"sk inside words", "The task-force is asking about the skeleton and the desk-lamp.", "", nil},
		{"sk-learn words", "pip install sk-learn-compatible-estimators-for-everyone", "", nil},
		{"short sk key", "the prefix sk-abc is not a key", "", nil},
		{"code identifiers", "func tokenize(s string) []Token { tokens := split(s); return tokens }", "", nil},
		{"comparison not assignment", "if token == nil || secret != x { return }", "", nil},
		{"scope operator", "std::token::next and Password::hash", "", nil},
		{"hex hash", "commit 3f9c66d4e1b2a7c0d1e2f3a4b5c6d7e8f9a0b1c2 fixed it", "", nil},
		{"sha256", "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "", nil},
		{"uuid", "request id 123e4567-e89b-12d3-a456-426614174000 failed", "", nil},
		{"base64 blob", "data:image/png;base64," + fake("iVBOR", 80, base62+"+/") + "==", "", nil},
		{"bare jwt", "the token looks like " + jwt, "", nil},
		{"bearer prose", "The bearer of this letter is my friend.", "", nil},
		{"bearer long word", "bearer responsibilities and bearer well-intentioned", "", nil},
		{"url without password", "ssh://git@github.com/org/repo and https://example.com:8443/a", "", nil},
		{"email", "write to mia@example.com: she knows", "", nil},
		{"public key and cert", "-----BEGIN PUBLIC KEY-----\nMIIBIjAN\n-----END PUBLIC KEY-----\n-----BEGIN CERTIFICATE-----", "", nil},
		{"password without separator", "my password is long and the secret is out", "", nil},
		{"keys that only look alike", "tokens: 512, max_tokens=1024, mytoken=x, keyboard: qwerty, primary key: id", "", nil},
		{"aws wrong length", "AKIA1234 and AKIAABCDEFGHIJKLMNOPQ", "", nil},
		{"prefix inside identifier", "use my_ghp_" + fake("", 36, base62) + " and xsk-" + fake("", 40, base62), "", nil},
		{"github prefix short", "ghp_short and ghs_request_handler", "", nil},
		{"empty values", "password= \npassword=\"\" token:", "", nil},
		{"markers stay", "password=" + sec + " and " + api + " and Bearer " + bear, "", nil},
		{"marker in url", "https://" + urlCrd + "@host/", "", nil},
		{"empty", "", "", nil},
		{"invalid utf8", "\xff\xfe\xc3\x28 sk-\xe2\x82", "", nil},
		{"cjk", "我用pnpm管理项目，密码不在这里。", "", nil},
	}
}

func TestString(t *testing.T) {
	cases := append(positives(), negatives()...)
	require.GreaterOrEqual(t, len(cases), 40)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if tc.kinds == nil {
				want = tc.in
			}
			got := redact.String(tc.in)
			assert.Equal(t, want, got)
			var kinds []redact.Kind
			for _, f := range redact.Find(tc.in) {
				kinds = append(kinds, f.Kind)
			}
			assert.Equal(t, tc.kinds, kinds)
			assert.Equal(t, tc.kinds != nil, redact.Contains(tc.in))
			checkProperties(t, tc.in)
		})
	}
}

func TestMarker(t *testing.T) {
	for _, k := range []redact.Kind{kAPI, kBear, kSec, kPriv, kURL} {
		t.Run(string(k), func(t *testing.T) {
			assert.Equal(t, "[redacted:"+string(k)+"]", k.Marker())
			assert.False(t, redact.Contains(k.Marker()))
		})
	}
}

func TestFindOffsets(t *testing.T) {
	in := "a password=xyz b " + openAI
	got := redact.Find(in)
	require.Len(t, got, 2)
	assert.Equal(t, "xyz", in[got[0].Start:got[0].End])
	assert.Equal(t, openAI, in[got[1].Start:got[1].End])
}

func TestNothingFoundAllocatesNothing(t *testing.T) {
	text := prose(64 << 10)
	assert.Zero(t, testing.AllocsPerRun(10, func() { _ = redact.String(text) }))
	assert.Zero(t, testing.AllocsPerRun(10, func() { _ = redact.Find(text) }))
	assert.Zero(t, testing.AllocsPerRun(10, func() { _ = redact.Contains(text) }))
	got := redact.String(text)
	assert.Equal(t, text, got)
	assert.Same(t, unsafeData(text), unsafeData(got), "String must return its input when nothing is found")
}

func TestLongInputs(t *testing.T) {
	// Pathological repetitions stay linear and correct.
	for _, in := range []string{
		strings.Repeat("://a:", 5000),
		strings.Repeat("password=", 5000),
		strings.Repeat("-----BEGIN PRIVATE KEY----- ", 2000),
		strings.Repeat("Bearer ", 5000),
		strings.Repeat("sk-", 5000),
		strings.Repeat("[redacted:", 5000),
	} {
		checkProperties(t, in)
	}
}
