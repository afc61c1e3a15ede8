package main

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPHandler serves the streamable HTTP transport at /mcp (and /). With a
// token, every request must carry "Authorization: Bearer <token>"; the SDK's
// DNS-rebinding protection stays on.
func (s *Server) HTTPHandler(token string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{})
	if token == "" {
		return h
	}
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := bearer(r.Header.Get("Authorization"))
		// Comparing digests keeps the compare constant-time whatever the
		// lengths.
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sgmcp"`)
			http.Error(w, "sgmcp: missing or wrong bearer token: send Authorization: Bearer <the -token value>", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func bearer(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(tok), true
}
