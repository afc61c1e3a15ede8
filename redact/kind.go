package redact

// Kind names what a redacted span held. Its string is part of the marker
// that replaces the span, so a reader (human or model) sees what was
// removed without seeing the secret; the strings below are therefore
// frozen once text carrying them has been sent anywhere.
type Kind string

// The kinds of secret Find reports.
const (
	// KindAPIKey is a provider key recognised by its prefix: OpenAI and
	// Anthropic sk-, GitHub ghp_/gho_/ghu_/ghs_/ghr_/github_pat_, AWS
	// AKIA/ASIA access key ids, Slack xox?-, Google AIza, Stripe
	// sk_/rk_ live and test keys.
	KindAPIKey Kind = "api_key"
	// KindBearer is the token of a Bearer credential, in an Authorization
	// header or on its own ("Bearer eyJ…").
	KindBearer Kind = "bearer_token"
	// KindSecret is the value of a password=, secret=, token= style pair
	// (and the credentials of a non-Bearer Authorization header).
	KindSecret Kind = "secret"
	// KindPrivateKey is a whole PEM private key block.
	KindPrivateKey Kind = "private_key"
	// KindURLCredentials is the user:password part of a URL.
	KindURLCredentials Kind = "url_credentials"
)

// markerOpen and markerClose frame every marker; the scanner skips any
// text shaped like "[redacted:word]" so that markers are never redacted
// again.
const (
	markerOpen  = "[redacted:"
	markerClose = "]"
)

// Marker returns the text that replaces a secret of kind k:
// "[redacted:" + k + "]".
func (k Kind) Marker() string {
	return markerOpen + string(k) + markerClose
}

// Finding is one secret in a string: its kind and its byte offsets,
// s[Start:End]. Start and End never fall inside a UTF-8 sequence.
type Finding struct {
	Kind       Kind
	Start, End int
}
