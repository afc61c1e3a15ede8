package layers

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// L3 pruning removes narrowly defined redundancy and never rewrites what is
// left. The four rules (the prototype's, unchanged):
//
//  1. A user/assistant message whose whole content, case-folded with
//     surrounding punctuation, emoji and spaces trimmed, is a greeting or
//     acknowledgement from ackWords is dropped.
//  2. Likewise a standalone pure confirmation from confirmWords.
//  3. A tool call's raw argument payload is dropped (the line keeps the tool
//     name and call id); a tool result keeps at most toolSummaryRunes runes
//     (whitespace collapsed) followed by a "[trimmed N chars]" marker.
//  4. A message whose content is an exact repeat (byte-equal) of an earlier
//     message of the block and is at least repeatMinBytes long is replaced
//     by "[repeat of #ID]".
//
// Everything else renders exactly as in L4.

const (
	toolSummaryRunes = 160
	repeatMinBytes   = 80
)

var ackWords = setOf(
	"hi", "hello", "hey", "good morning", "good night", "bye", "ok", "okay", "k",
	"thanks", "thank you", "thanks a lot", "thx", "ty", "got it", "noted", "cool",
	"great", "nice", "sounds good", "perfect", "np", "no problem",
	"你好", "您好", "嗨", "好的", "好", "谢谢", "多谢", "收到", "明白", "了解", "嗯", "嗯嗯", "行", "再见",
)

var confirmWords = setOf(
	"yes", "yep", "yeah", "yup", "sure", "right", "correct", "exactly", "agreed", "indeed",
	"是", "是的", "对", "对的", "没错", "可以", "当然",
)

func setOf(words ...string) map[string]struct{} {
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}

// bare folds s for the list lookups: lower-case, outer punctuation, symbols
// (emoji) and spaces trimmed, inner runs of spaces collapsed.
func bare(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r)
	})
	if len(s) > 32 {
		return "" // longer than any list entry: not a bare acknowledgement
	}
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// PruneReason says why L3 dropped or shortened a message; "" keeps it.
func pruneReason(m *Message) string {
	if m.Role != RoleUser && m.Role != RoleAssistant || m.ToolName != "" {
		return ""
	}
	w := bare(m.Content)
	if _, ok := ackWords[w]; ok {
		return "acknowledgement"
	}
	if _, ok := confirmWords[w]; ok {
		return "confirmation"
	}
	return ""
}

// RenderL3 renders msgs with the four pruning rules applied.
func RenderL3(msgs []Message) string {
	return string(appendL3(make([]byte, 0, renderCap(msgs)), msgs))
}

// appendL3 appends RenderL3(msgs) to dst.
func appendL3(dst []byte, msgs []Message) []byte {
	var seen map[string]uint64 // content of long messages → first id
	for i := range msgs {
		m := &msgs[i]
		if pruneReason(m) != "" {
			continue
		}
		if len(m.Content) >= repeatMinBytes {
			if first, ok := seen[m.Content]; ok {
				dst = appendHeader(dst, m)
				dst = append(dst, "[repeat of #"...)
				dst = strconv.AppendUint(dst, first, 10)
				dst = append(dst, "]\n"...)
				continue
			}
			if seen == nil {
				seen = make(map[string]uint64)
			}
			seen[m.Content] = m.ID
		}
		dst = appendHeader(dst, m)
		switch {
		case m.Role == RoleTool:
			dst = append(dst, summarize(m.Content)...)
		case m.ToolName != "":
			dst = append(dst, "[arguments omitted]"...)
		default:
			dst = append(dst, m.Content...)
		}
		dst = append(dst, '\n')
	}
	return dst
}

// summarize keeps the first toolSummaryRunes runes of a tool result with
// whitespace collapsed and says how much it cut.
func summarize(s string) string {
	flat := strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(flat) <= toolSummaryRunes {
		return flat
	}
	cut, n := 0, 0
	for i := range flat {
		if n == toolSummaryRunes {
			cut = i
			break
		}
		n++
	}
	return flat[:cut] + "… [trimmed " + strconv.Itoa(utf8.RuneCountInString(flat[cut:])) + " chars]"
}
