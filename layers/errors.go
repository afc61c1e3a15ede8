package layers

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrScope is returned for a malformed scope string and for a turn whose
// scope differs from the one its thread was created with.
var ErrScope = errors.New("sg: bad scope")

// Scope kinds: every thread belongs to exactly one scope.
const (
	ScopeGlobal  = "global"
	scopeProject = "project:"
	scopeSession = "session:"
	maxScopeName = 128
)

// ValidateScope checks that s is "global", "project:NAME" or "session:ID"
// with a non-empty NAME/ID of at most 128 bytes, valid UTF-8, without
// control characters.
func ValidateScope(s string) error {
	if s == ScopeGlobal {
		return nil
	}
	var name string
	switch {
	case strings.HasPrefix(s, scopeProject):
		name = s[len(scopeProject):]
	case strings.HasPrefix(s, scopeSession):
		name = s[len(scopeSession):]
	default:
		return fmt.Errorf("%w: %q: want global, project:NAME or session:ID", ErrScope, s)
	}
	if name == "" || len(name) > maxScopeName || !utf8.ValidString(name) {
		return fmt.Errorf("%w: %q: name must be 1–%d bytes of UTF-8", ErrScope, s, maxScopeName)
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%w: %q: control character in name", ErrScope, s)
		}
	}
	return nil
}
