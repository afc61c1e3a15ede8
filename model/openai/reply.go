package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/stratagate/stratagate/model"
)

// chatReply is the part of a chat completion the client reads. Anything
// else (reasoning_content, timings, logprobs) is ignored.
type chatReply struct {
	Choices []struct {
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens        int64 `json:"prompt_tokens"`
		CompletionTokens    int64 `json:"completion_tokens"`
		PromptTokensDetails *struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		// DeepSeek reports its context cache hits here.
		PromptCacheHitTokens int64 `json:"prompt_cache_hit_tokens"`
	} `json:"usage"`
}

// reply is one parsed chat completion.
type reply struct {
	content string // cleaned: fences and surrounding prose removed
	finish  string // finish_reason of the first choice
	usage   model.Usage
}

// errMalformed marks a 2xx body that is not a chat completion.
var errMalformed = errors.New("reply is not a chat completion")

// parseReply reads a chat completion body. Content that is null, blank or
// absent yields an empty content and no error: the caller decides whether
// to retry. The usage is returned even when the choices are unusable,
// because those tokens were spent.
func parseReply(body []byte) (reply, error) {
	var cr chatReply
	if err := json.Unmarshal(body, &cr); err != nil {
		return reply{}, errMalformed
	}
	var r reply
	if u := cr.Usage; u != nil {
		r.usage.PromptTokens = max(u.PromptTokens, 0)
		r.usage.CompletionTokens = max(u.CompletionTokens, 0)
		if d := u.PromptTokensDetails; d != nil {
			r.usage.CachedTokens = d.CachedTokens
		}
		// DeepSeek may send both fields with the same count: take the
		// larger rather than adding them.
		r.usage.CachedTokens = max(r.usage.CachedTokens, u.PromptCacheHitTokens, 0)
	}
	if len(cr.Choices) == 0 {
		return r, errMalformed
	}
	ch := cr.Choices[0]
	r.finish = ch.FinishReason
	text, ok := contentText(ch.Message.Content)
	if !ok {
		return r, errMalformed
	}
	r.content = cleanContent(text)
	return r, nil
}

// contentText reads a message content: a string, null, or (some servers)
// an array of {"type":"text","text":...} parts.
func contentText(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, true
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "" || p.Type == "text" || p.Type == "output_text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), true
}

// maxCandidates bounds how many '{' positions cleanContent tries, so a
// reply full of braces costs linear time, not quadratic.
const maxCandidates = 16

// cleanContent unwraps the JSON object a chat model wrapped in a code
// fence or in prose. It never repairs: the result is a substring of s (or
// s trimmed), and the caller still decodes it strictly.
//
// The object is the first top-level balanced {...} span (strings and
// escapes respected) that is valid JSON, so a "{placeholder}" in the
// prose before it is skipped; when no span is valid, the first balanced
// span; when there is none (a cut reply), the text with its fence
// removed, so the caller's decoder reports what is wrong.
func cleanContent(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	s = stripFence(s)
	first := ""
	from := 0
	for range maxCandidates {
		i := strings.IndexByte(s[from:], '{')
		if i < 0 {
			break
		}
		start := from + i
		end := matchBrace(s, start)
		if end < 0 {
			// A cut object: its inner objects must not pass for the
			// answer, so stop here.
			break
		}
		span := s[start : end+1]
		if json.Valid([]byte(span)) {
			return span
		}
		if first == "" {
			first = span
		}
		// Resume after the span, never inside it: an inner object is
		// not the answer.
		from = end + 1
	}
	if first != "" {
		return first
	}
	return s
}

// stripFence removes a leading ``` line (```json) and a trailing ```.
func stripFence(s string) string {
	if rest, ok := strings.CutPrefix(s, "```"); ok {
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			s = rest[nl+1:]
		} else {
			s = strings.TrimPrefix(rest, "json")
		}
	}
	if i := strings.LastIndex(s, "```"); i >= 0 && strings.TrimSpace(s[i+3:]) == "" {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// matchBrace returns the index of the '}' closing the '{' at start, or -1.
// Braces inside JSON strings do not count.
func matchBrace(s string, start int) int {
	depth := 0
	inString, escaped := false, false
	for i := start; i < len(s); i++ {
		c := s[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
