package openai

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCleanContent(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain object", `{"a":1}`, `{"a":1}`},
		{"blank", " \n\t", ""},
		{"json fence", "```json\n{\"a\":1}\n```", `{"a":1}`},
		{"bare fence", "```\n{\"a\":1}\n```\n", `{"a":1}`},
		{"one-line fence", "```json{\"a\":1}```", `{"a":1}`},
		{"prose around", "Here you go:\n{\"a\":{\"b\":[1,2]}}\nAnything else?", `{"a":{"b":[1,2]}}`},
		{"braces in strings", `x {"a":"}{\"}"} y`, `{"a":"}{\"}"}`},
		{"placeholder before the object", `Fill {name}: {"name":"Ann"}`, `{"name":"Ann"}`},
		{"fenced within prose", "Result:\n```json\n{\"a\":1}\n```\nDone.", `{"a":1}`},
		{"no valid span keeps the first", `{a:1} and {b:2}`, `{a:1}`},
		{"cut object is not mined for inner objects", `{"a":{"b":1},"c":"unterminated`, `{"a":{"b":1},"c":"unterminated`},
		{"cut fence", "```json\n{\"a\":", `{"a":`},
		{"no object", "I cannot help with that.", "I cannot help with that."},
		{"array stays", `[1,2]`, `[1,2]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, cleanContent(tt.in))
		})
	}

	t.Run("many braces cost linear time", func(t *testing.T) {
		in := strings.Repeat("{x} ", 1000) + `{"a":1}`
		// Beyond maxCandidates spans the first invalid one is returned.
		assert.Equal(t, "{x}", cleanContent(in))
	})
}

func TestScrub(t *testing.T) {
	tests := []struct {
		name, in, key string
		limit         int
		want          string
	}{
		{"key", "bad key sk-1 given", "sk-1", 100, "bad key [redacted] given"},
		{"no key set", "sk-1", "", 100, "sk-1"},
		{"controls and space", "a\x00\x1b[31mb\r\n\tc  d", "", 100, "a [31mb c d"},
		{"invalid utf8", "a\xffb", "", 100, "a b"},
		{"limit on a rune boundary", "ééé", "", 5, "éé"},
		{"key split by white space", "sk-\n1", "sk- 1", 100, "[redacted]"},
		{"leading space", "  x  ", "", 100, "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, scrub(tt.in, tt.key, tt.limit))
		})
	}
}

func TestBackoffBounds(t *testing.T) {
	assert.Zero(t, backoff(0, 3))
	for n := range 12 {
		d := backoff(time.Millisecond, n)
		assert.GreaterOrEqual(t, d, time.Duration(0))
		assert.Less(t, d, min(time.Millisecond<<n, maxBackoff))
	}
	assert.Less(t, backoff(time.Hour, 0), maxBackoff+1)
}

func TestSleepCtx(t *testing.T) {
	require.NoError(t, sleepCtx(t.Context(), 0))
	require.NoError(t, sleepCtx(t.Context(), time.Microsecond))
}

func TestParseReplyUsage(t *testing.T) {
	r, err := parseReply([]byte(`{"choices":[{"message":{"content":"{}"},"finish_reason":"stop"}],` +
		`"usage":{"prompt_tokens":-3,"completion_tokens":2,"prompt_cache_hit_tokens":5,"prompt_tokens_details":{"cached_tokens":4}}}`))
	require.NoError(t, err)
	assert.Equal(t, "{}", r.content)
	assert.Equal(t, "stop", r.finish)
	assert.Zero(t, r.usage.PromptTokens, "negative counts are dropped")
	assert.EqualValues(t, 2, r.usage.CompletionTokens)
	assert.EqualValues(t, 5, r.usage.CachedTokens)
}

func FuzzParseReply(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"message":{"content":"{\"a\":1}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`,
		`{"choices":[{"message":{"content":"` + "```json\\n{\\\"a\\\":\\\"}\\\"}\\n```" + `"},"finish_reason":"length"}]}`,
		`{"choices":[{"message":{"content":null,"reasoning_content":"x"}}],"usage":{"prompt_cache_hit_tokens":3}}`,
		`{"choices":[{"message":{"content":[{"type":"text","text":"{"},{"type":"text","text":"}"}]}}]}`,
		`{"choices":[]}`,
		`{"error":{"message":"x"}}`,
		`Prose {"a": {"b": "c\"}"}} more`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := parseReply(body)
		if err != nil {
			return
		}
		require.Equal(t, r.content, strings.TrimSpace(r.content))
		require.GreaterOrEqual(t, r.usage.PromptTokens, int64(0))
		require.GreaterOrEqual(t, r.usage.CachedTokens, int64(0))
		if strings.HasPrefix(r.content, "{") && strings.HasSuffix(r.content, "}") {
			require.Equal(t, r.content, cleanContent(r.content), "cleaning a clean object changes nothing")
		}
		// The cleanup only unwraps: on any text it yields a substring.
		s := string(body)
		require.Contains(t, s, cleanContent(s))
	})
}
