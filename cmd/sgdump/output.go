package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/layers"
)

// emit prints one result: doc as a single JSON document with -json, else
// the text that text writes.
func (e *env) emit(doc any, text func(w io.Writer) error) error {
	if e.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(doc)
	}
	w := newEscaper(e.stdout)
	if err := text(w); err != nil {
		return err
	}
	return w.Flush()
}

func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
}

// stamp renders t in RFC 3339 with its stored offset; "" for a zero time.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339Nano)
}

// dash renders an empty cell.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine collapses whitespace and shortens s to n runes for a table cell.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// indent prefixes every line of s with p.
func indent(w io.Writer, s, p string) {
	s = strings.TrimSuffix(s, "\n")
	for _, line := range strings.Split(s, "\n") {
		fmt.Fprintf(w, "%s%s\n", p, line)
	}
}

func hashStatus(ok bool) string {
	if ok {
		return "ok"
	}
	return "MISMATCH"
}

// blockOut is a block in JSON. The level texts and facts are filled by
// trace only.
type blockOut struct {
	ID         uint64    `json:"id"`
	Thread     string    `json:"thread"`
	Scope      string    `json:"scope"`
	Seq        uint64    `json:"seq"`
	State      string    `json:"state"`
	TurnFirst  uint64    `json:"turn_first"`
	TurnLast   uint64    `json:"turn_last"`
	MessageIDs []uint64  `json:"message_ids"`
	FirstAt    string    `json:"first_at"`
	LastAt     string    `json:"last_at"`
	CreatedAt  string    `json:"created_at"`
	ReadyAt    string    `json:"ready_at,omitempty"`
	Title      string    `json:"title"`
	Tags       []string  `json:"tags"`
	Summary    string    `json:"summary"`
	Error      string    `json:"error,omitempty"`
	Facts      []factOut `json:"facts,omitempty"`
	L3         string    `json:"l3,omitempty"`
	L4         string    `json:"l4,omitempty"`
	L5Hash     string    `json:"l5_hash,omitempty"`
}

type factOut struct {
	Text       string   `json:"text"`
	MessageIDs []uint64 `json:"message_ids"`
}

func toBlockOut(b *stratagate.Block, levels bool) blockOut {
	o := blockOut{
		ID: b.ID, Thread: b.Thread, Scope: b.Scope, Seq: b.Seq, State: string(b.State),
		TurnFirst: b.TurnFirst, TurnLast: b.TurnLast, MessageIDs: b.MessageIDs,
		FirstAt: stamp(b.FirstAt), LastAt: stamp(b.LastAt), CreatedAt: stamp(b.CreatedAt), ReadyAt: stamp(b.ReadyAt),
		Title: b.Title, Tags: b.Tags, Summary: b.Summary, Error: b.Err,
	}
	if o.MessageIDs == nil {
		o.MessageIDs = []uint64{}
	}
	if o.Tags == nil {
		o.Tags = []string{}
	}
	if levels {
		o.Facts = make([]factOut, len(b.Facts))
		for i, f := range b.Facts {
			o.Facts[i] = factOut{Text: f.Text, MessageIDs: f.MessageIDs}
		}
		o.L3, o.L4, o.L5Hash = b.L3, b.L4, hex.EncodeToString(b.L5Hash)
	}
	return o
}

// messageOut is a message in JSON, with its hash recomputed.
type messageOut struct {
	ID           uint64 `json:"id"`
	Thread       string `json:"thread"`
	Turn         uint64 `json:"turn"`
	Role         string `json:"role"`
	Speaker      string `json:"speaker"`
	ToolName     string `json:"tool_name,omitempty"`
	ToolCallID   string `json:"tool_call_id,omitempty"`
	At           string `json:"at"`
	Content      string `json:"content"`
	SHA256       string `json:"sha256"`        // recomputed from the record's fields
	SHA256Stored string `json:"sha256_stored"` // as written when the message was appended
	SHA256OK     bool   `json:"sha256_ok"`
}

func toMessageOut(m *stratagate.Message) messageOut {
	sum := m.Hash()
	return messageOut{
		ID: m.ID, Thread: m.Thread, Turn: m.Turn, Role: m.Role, Speaker: m.Speaker,
		ToolName: m.ToolName, ToolCallID: m.ToolCallID, At: stamp(m.At), Content: m.Content,
		SHA256: hex.EncodeToString(sum[:]), SHA256Stored: hex.EncodeToString(m.SHA256[:]), SHA256OK: sum == m.SHA256,
	}
}

// writeMessage prints one message in text: its header line, hash line and
// the verbatim content indented by four spaces.
func writeMessage(w io.Writer, o *messageOut) {
	who := o.Speaker
	if o.ToolName != "" && o.ToolName != o.Speaker {
		who += " tool=" + o.ToolName
	}
	if o.ToolCallID != "" {
		who += " call=" + o.ToolCallID
	}
	fmt.Fprintf(w, "  #%d  turn %d  %s  %s  %s\n", o.ID, o.Turn, o.At, o.Role, who)
	fmt.Fprintf(w, "  sha256 %s %s\n", o.SHA256, hashStatus(o.SHA256OK))
	if !o.SHA256OK {
		fmt.Fprintf(w, "  stored %s\n", o.SHA256Stored)
	}
	indent(w, o.Content, "    ")
}

// levelName renders a level as "L4".
func levelName(l int) string { return fmt.Sprintf("L%d", l) }

// l5Hash recomputes a block's L5 hash from its messages.
func l5Hash(msgs []stratagate.Message) string { return hex.EncodeToString(layers.L5Hash(msgs)) }
