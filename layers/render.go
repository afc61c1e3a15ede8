package layers

import (
	"strconv"
	"strings"
	"time"
)

// timeLayout renders message times with their original offset.
const timeLayout = "2006-01-02 15:04:05 -07:00"

// RenderL4 is the readable near-verbatim rendering of msgs: one entry per
// message with its original timestamp and speaker, contents unchanged, tool
// calls and results included. It is deterministic: the same messages always
// render to the same bytes.
func RenderL4(msgs []Message) string {
	return string(appendL4(make([]byte, 0, renderCap(msgs)), msgs))
}

// renderCap is room for a rendering of msgs: their content and a header
// each.
func renderCap(msgs []Message) int {
	n := 0
	for i := range msgs {
		n += len(msgs[i].Content) + 64
	}
	return n
}

// appendL4 appends RenderL4(msgs) to dst.
func appendL4(dst []byte, msgs []Message) []byte {
	for i := range msgs {
		m := &msgs[i]
		dst = appendHeader(dst, m)
		dst = append(dst, m.Content...)
		dst = append(dst, '\n')
	}
	return dst
}

func appendHeader(dst []byte, m *Message) []byte {
	dst = append(dst, '[')
	dst = m.At.AppendFormat(dst, timeLayout)
	dst = append(dst, "] "...)
	switch {
	case m.Role == RoleTool:
		dst = append(dst, "tool "...)
		dst = append(dst, m.ToolName...)
		dst = append(dst, " result"...)
	case m.ToolName != "":
		dst = append(dst, who(m)...)
		dst = append(dst, " → tool "...)
		dst = append(dst, m.ToolName...)
	default:
		dst = append(dst, who(m)...)
	}
	if m.ToolCallID != "" {
		dst = append(dst, " ("...)
		dst = append(dst, m.ToolCallID...)
		dst = append(dst, ')')
	}
	return append(dst, ": "...)
}

func who(m *Message) string {
	if m.Speaker != "" {
		return m.Speaker
	}
	return m.Role
}

// RenderL5 renders msgs exactly, with every stored field: message id, turn,
// role, speaker, tool fields, RFC 3339 time with nanoseconds and offset, and
// the content byte for byte.
func RenderL5(msgs []Message) string {
	var b strings.Builder
	for i := range msgs {
		m := &msgs[i]
		b.WriteString("#")
		b.WriteString(strconv.FormatUint(m.ID, 10))
		b.WriteString(" turn ")
		b.WriteString(strconv.FormatUint(m.Turn, 10))
		b.WriteString(" ")
		b.WriteString(m.At.Format(time.RFC3339Nano))
		b.WriteString(" ")
		b.WriteString(m.Role)
		if m.Speaker != "" {
			b.WriteString(" ")
			b.WriteString(strconv.Quote(m.Speaker))
		}
		if m.ToolName != "" {
			b.WriteString(" tool=")
			b.WriteString(strconv.Quote(m.ToolName))
		}
		if m.ToolCallID != "" {
			b.WriteString(" call=")
			b.WriteString(strconv.Quote(m.ToolCallID))
		}
		b.WriteString("\n")
		b.WriteString(m.Content)
		b.WriteString("\n")
	}
	return b.String()
}
