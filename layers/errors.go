package layers

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
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
// control characters, bidirectional controls, or nothing visible (see
// NameProblem).
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
	if why := NameProblem(name); why != "" {
		return fmt.Errorf("%w: %q: name %s", ErrScope, s, why)
	}
	return nil
}

// NameProblem says what makes s unfit as a name (thread, scope name,
// speaker, receipt), or "" when nothing does: a name with no visible
// character (only white space and invisible format characters such as
// zero-width spaces and joiners) names nothing a person can read or type,
// and a bidirectional control (U+202A–U+202E, U+2066–U+2069, U+200E,
// U+200F, U+061C) makes a name display as another one ("txt.exe" shown
// as "exe.txt"). Control characters and UTF-8 validity are checked by the
// callers.
func NameProblem(s string) string {
	visible := false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Bidi_Control, r):
			return fmt.Sprintf("contains the bidirectional control U+%04X", r)
		case unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) || r == '\u3164' || r == '\u115f' || r == '\u1160':
			// Hangul fillers render as blanks though they are letters.
		default:
			visible = true
		}
	}
	if s != "" && !visible {
		return "has no visible character (only white space or invisible characters)"
	}
	return ""
}
