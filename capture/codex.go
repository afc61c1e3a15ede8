package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/stratagate/stratagate"
)

// cxLine is one rollout line: {timestamp, type, payload}.
type cxLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// cxPayload holds the payload fields capture reads, for every line type.
// Fields whose JSON type varies between versions stay raw.
type cxPayload struct {
	Type string `json:"type"`
	// session_meta (newer versions nest it under "meta"), turn_context
	ID   string  `json:"id"`
	Cwd  string  `json:"cwd"`
	Meta *cxMeta `json:"meta"`
	// event_msg
	TurnID           string          `json:"turn_id"`
	Message          json.RawMessage `json:"message"`
	LastAgentMessage json.RawMessage `json:"last_agent_message"`
	// response_item
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	Action    json.RawMessage `json:"action"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
}

type cxMeta struct {
	ID  string `json:"id"`
	Cwd string `json:"cwd"`
}

// fallbackPart marks an assistant message taken from a response_item: it
// is kept only when the turn has no agent_message event (older rollouts).
const fallbackPart = "\x00response_item"

// ParseCodex folds a Codex CLI rollout file, read from absolute byte
// offset base (0 for a whole file), into complete turns. See the package
// documentation for the rules; the only error is a negative base.
func ParseCodex(data []byte, base int64, opts ParseOptions) (Batch, error) {
	if base < 0 {
		return Batch{}, fmt.Errorf("%w: negative base offset %d", stratagate.ErrInvalidInput, base)
	}
	b, _ := parseCodex(data, base, opts)
	return b, nil
}

// parseCodex also returns the first working directory and session id
// named.
func parseCodex(data []byte, base int64, opts ParseOptions) (Batch, head) {
	p := &cxParser{folder: newFolder(KindCodex, opts), names: map[string]string{}, skip: map[string]bool{}}
	end := lines(data, base, p.line)
	p.settle()
	return p.batch(end, end == base+int64(len(data))), head{cwd: p.cwd, session: p.session}
}

type cxParser struct {
	*folder
	session string            // from session_meta
	names   map[string]string // call id → tool name
	skip    map[string]bool   // ids of memory_* calls
}

func (p *cxParser) thread() string { return threadOr(p.session, p.opts.Session, "codex-session") }

func (p *cxParser) line(l line) {
	var cl cxLine
	if !p.decode(l, &cl) {
		return
	}
	switch cl.Type {
	case "session_meta", "turn_context", "event_msg", "response_item":
	default:
		p.skipLine(l) // compacted and bookkeeping lines
		return
	}
	var pl cxPayload
	if len(bytes.TrimSpace(cl.Payload)) == 0 || cl.Payload[0] != '{' {
		p.reject(l, cl.Type+" line without a payload object")
		return
	}
	if err := json.Unmarshal(cl.Payload, &pl); err != nil {
		p.reject(l, cl.Type+" payload: "+err.Error())
		return
	}
	at := parseTime(cl.Timestamp)
	switch cl.Type {
	case "session_meta":
		id, cwd := pl.ID, pl.Cwd
		if pl.Meta != nil {
			id, cwd = pl.Meta.ID, pl.Meta.Cwd
		}
		if p.session == "" {
			p.session = id
		}
		p.sawCwd(cwd)
		p.skipLine(l)
	case "turn_context":
		p.sawCwd(pl.Cwd)
		p.skipLine(l)
	case "event_msg":
		p.event(l, &pl, at)
	case "response_item":
		p.item(l, &pl, at)
	}
}

func (p *cxParser) event(l line, pl *cxPayload, at time.Time) {
	switch pl.Type {
	case "task_started":
		// An open turn without task_complete was cut short (a crash, an
		// old version): it ends here.
		p.closeTurn()
		p.open(l, p.thread(), p.turnKey(l, pl.TurnID))
		p.cur.started = true
		p.skipLine(l)
	case "user_message":
		text := rawText(pl.Message)
		if strings.TrimSpace(text) == "" {
			p.skipLine(l)
			return
		}
		if p.cur == nil || (!p.cur.started && hasNonUser(p.cur)) {
			p.closeTurn()
			p.open(l, p.thread(), p.turnKey(l, pl.TurnID))
		}
		p.cur.add(stratagate.Message{Role: "user", Content: text, At: at})
	case "agent_message":
		text := rawText(pl.Message)
		if strings.TrimSpace(text) == "" {
			p.skipLine(l)
			return
		}
		p.ensure(l, p.thread(), p.turnKey(l, pl.TurnID))
		p.cur.add(stratagate.Message{Role: "assistant", Content: text, At: at})
		p.cur.agent = true
	case "task_complete", "turn_aborted":
		if p.cur == nil {
			p.skipLine(l)
			return
		}
		if last := rawText(pl.LastAgentMessage); !p.cur.agent && !hasFallback(p.cur) && strings.TrimSpace(last) != "" {
			p.cur.add(stratagate.Message{Role: "assistant", Content: last, At: at})
			p.cur.agent = true
		}
		p.closeTurn()
	default:
		p.skipLine(l) // token_count, agent_reasoning, …
	}
}

func (p *cxParser) item(l line, pl *cxPayload, at time.Time) {
	switch pl.Type {
	case "message":
		// User messages here carry injected AGENTS.md and environment
		// text: the human input is event_msg user_message.
		if pl.Role != "assistant" {
			p.skipLine(l)
			return
		}
		text := contentText(pl.Content)
		if strings.TrimSpace(text) == "" {
			p.skipLine(l)
			return
		}
		p.ensure(l, p.thread(), p.turnKey(l, ""))
		p.cur.add(stratagate.Message{Role: "assistant", Content: text, At: at})
		p.cur.msgs[len(p.cur.msgs)-1].merge = fallbackPart
	case "function_call", "custom_tool_call", "local_shell_call":
		name := pl.Name
		args := pl.Arguments
		switch pl.Type {
		case "custom_tool_call":
			args = pl.Input
		case "local_shell_call":
			name, args = "local_shell", pl.Action
		}
		if isMemoryTool(name) {
			p.skip[pl.CallID] = true
			p.skipLine(l)
			return
		}
		p.names[pl.CallID] = name
		p.ensure(l, p.thread(), p.turnKey(l, ""))
		p.cur.add(stratagate.Message{Role: "assistant", ToolName: name, ToolCallID: pl.CallID, Content: argsText(args), At: at})
	case "function_call_output", "custom_tool_call_output":
		if p.skip[pl.CallID] {
			p.skipLine(l)
			return
		}
		p.ensure(l, p.thread(), p.turnKey(l, ""))
		text := outputText(pl.Output)
		p.cur.add(stratagate.Message{Role: "tool", ToolName: p.names[pl.CallID], ToolCallID: pl.CallID, Content: text, At: at})
	default:
		p.skipLine(l) // reasoning, web_search_call, …
	}
}

// turnKey is what a turn's receipt derives from: Codex's turn id, else
// the offset of its first line.
func (p *cxParser) turnKey(l line, turnID string) string {
	if turnID != "" {
		return "turn:" + turnID
	}
	return fmt.Sprintf("@%d", l.Offset)
}

// closeTurn drops the response_item fallback text of a turn that has
// agent_message events (the same text twice), then closes it.
func (p *cxParser) closeTurn() {
	p.settle()
	p.close()
}

func (p *cxParser) settle() {
	t := p.cur
	if t == nil || !t.agent {
		return
	}
	var kept []part
	for _, pt := range t.msgs {
		if pt.merge != fallbackPart {
			kept = append(kept, pt)
		}
	}
	t.msgs = kept
}

func hasNonUser(t *openTurn) bool {
	for i := range t.msgs {
		if t.msgs[i].msg.Role != "user" {
			return true
		}
	}
	return false
}

func hasFallback(t *openTurn) bool {
	for i := range t.msgs {
		if t.msgs[i].merge == fallbackPart {
			return true
		}
	}
	return false
}

// rawText reads a JSON string; any other JSON value is kept as its text.
func rawText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// contentText joins the text parts of a response_item message.
func contentText(raw json.RawMessage) string {
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return rawText(raw)
	}
	var out []string
	for _, c := range parts {
		if strings.TrimSpace(c.Text) != "" {
			out = append(out, c.Text)
		}
	}
	return strings.Join(out, "\n\n")
}

// argsText is a call's arguments: Codex writes them as a string holding
// JSON; an object (some versions) is compacted.
func argsText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		if s := rawText(raw); strings.TrimSpace(s) != "" {
			return s
		}
		return "{}"
	}
	return compactJSON(raw)
}

// outputText is a call's output: a string, or an object whose content
// (or output) string is the text.
func outputText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	text := ""
	if len(raw) > 0 && raw[0] == '{' {
		var o struct {
			Content json.RawMessage `json:"content"`
			Output  json.RawMessage `json:"output"`
		}
		if json.Unmarshal(raw, &o) == nil {
			text = rawText(o.Content)
			if text == "" {
				text = rawText(o.Output)
			}
		}
		if text == "" {
			text = compactJSON(raw)
		}
	} else {
		text = rawText(raw)
	}
	if strings.TrimSpace(text) == "" {
		return "(no output)"
	}
	return text
}
