package stratagate

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// snippetReference is the straightforward definition snippet implements:
// collapse whitespace of everything after start, cut to maxRunes runes.
func snippetReference(content string, start, maxRunes int) string {
	out := strings.Join(strings.Fields(content[start:]), " ")
	prefix := ""
	if start > 0 {
		prefix = "…"
	}
	if utf8.RuneCountInString(out) > maxRunes {
		n := 0
		for i := range out {
			if n == maxRunes {
				return prefix + out[:i] + "…"
			}
			n++
		}
	}
	return prefix + out
}

func TestSnippetMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	pieces := []string{"a", "bé", "日本", "word", " ", "  ", "\t", "\n", "x.y", "ünï", "🙂"}
	for i := range 3000 {
		var b strings.Builder
		for range rng.IntN(60) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		content := b.String()
		maxRunes := 1 + rng.IntN(40)
		got := snippet(content, nil, maxRunes)
		require.Equal(t, snippetReference(content, 0, maxRunes), got, "case %d: %q max %d", i, content, maxRunes)
	}
	// With a match the window starts a little before the first matching
	// word, and says so with a leading ellipsis.
	content := strings.Repeat("filler words here ", 30) + "the postgres migration finished"
	got := snippet(content, map[string]bool{"postgr": true, "postgres": true}, 40)
	assert.True(t, strings.HasPrefix(got, "…"), got)
	assert.Contains(t, got, "postgres")
	assert.LessOrEqual(t, utf8.RuneCountInString(got), 42)
}
