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
	var b strings.Builder
	for i := range msgs {
		m := &msgs[i]
		header(&b, m)
		b.WriteString(m.Content)
		b.WriteByte('\n')
	}
	return b.String()
}

func header(b *strings.Builder, m *Message) {
	b.WriteByte('[')
	b.WriteString(m.At.Format(timeLayout))
	b.WriteString("] ")
	switch {
	case m.Role == RoleTool:
		b.WriteString("tool ")
		b.WriteString(m.ToolName)
		b.WriteString(" result")
	case m.ToolName != "":
		b.WriteString(who(m))
		b.WriteString(" → tool ")
		b.WriteString(m.ToolName)
	default:
		b.WriteString(who(m))
	}
	if m.ToolCallID != "" {
		b.WriteString(" (")
		b.WriteString(m.ToolCallID)
		b.WriteByte(')')
	}
	b.WriteString(": ")
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
