package capture

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stratagate/stratagate"
)

// ccLine is the part of a Claude Code transcript line that capture reads.
type ccLine struct {
	Type                      string     `json:"type"`
	UUID                      string     `json:"uuid"`
	SessionID                 string     `json:"sessionId"`
	Cwd                       string     `json:"cwd"`
	Timestamp                 string     `json:"timestamp"`
	IsMeta                    bool       `json:"isMeta"`
	IsSidechain               bool       `json:"isSidechain"`
	IsCompactSummary          bool       `json:"isCompactSummary"`
	IsVisibleInTranscriptOnly bool       `json:"isVisibleInTranscriptOnly"`
	Message                   *ccMessage `json:"message"`
}

type ccMessage struct {
	ID      string          `json:"id"`
	Content json.RawMessage `json:"content"`
}

// ccBlock is one content block: text, image, tool_use, server_tool_use,
// tool_result or thinking.
type ccBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// ParseClaudeCode folds a Claude Code transcript, read from absolute byte
// offset base (0 for a whole file), into complete turns. See the package
// documentation for the rules; the only error is a negative base.
func ParseClaudeCode(data []byte, base int64, opts ParseOptions) (Batch, error) {
	if base < 0 {
		return Batch{}, fmt.Errorf("%w: negative base offset %d", stratagate.ErrInvalidInput, base)
	}
	b, _ := parseClaudeCode(data, base, opts)
	return b, nil
}

// parseClaudeCode also returns the first working directory named (every
// line names its session).
func parseClaudeCode(data []byte, base int64, opts ParseOptions) (Batch, head) {
	p := &ccParser{folder: newFolder(KindClaudeCode, opts), names: map[string]string{}, skip: map[string]bool{}, seen: map[string]bool{}}
	end := lines(data, base, p.line)
	return p.batch(end, end == base+int64(len(data))), head{cwd: p.cwd}
}

type ccParser struct {
	*folder
	names map[string]string // tool call id → tool name
	skip  map[string]bool   // ids of memory_* calls, whose results are skipped too
	seen  map[string]bool   // tool call ids already folded (a line written twice)
	texts map[[32]byte]bool // message.id + text already folded
}

func (p *ccParser) line(l line) {
	var cl ccLine
	if !p.decode(l, &cl) {
		return
	}
	p.sawCwd(cl.Cwd)
	if cl.Type != "user" && cl.Type != "assistant" {
		p.skipLine(l) // summary, system, progress, attachment, file-history-snapshot, …
		return
	}
	if cl.IsMeta || cl.IsSidechain || cl.IsCompactSummary || cl.IsVisibleInTranscriptOnly {
		p.skipLine(l)
		return
	}
	if cl.Message == nil {
		p.reject(l, cl.Type+" line without a message")
		return
	}
	blocks, err := ccBlocks(cl.Message.Content)
	if err != nil {
		p.reject(l, cl.Type+" line: message content: "+err.Error())
		return
	}
	at := parseTime(cl.Timestamp)
	thread := threadOr(cl.SessionID, p.opts.Session, "claude-code-session")
	key := cl.UUID
	if key == "" {
		key = fmt.Sprintf("@%d", l.Offset)
	}
	if cl.Type == "user" {
		p.user(l, thread, key, blocks, at)
	} else {
		p.assistant(l, thread, key, cl.Message.ID, blocks, at)
	}
}

// ccBlocks decodes message content: a string (one text block) or an
// array of blocks.
func ccBlocks(raw json.RawMessage) ([]ccBlock, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		return nil, errors.New("missing")
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return []ccBlock{{Type: "text", Text: s}}, nil
	case raw[0] == '[':
		var bs []ccBlock
		if err := json.Unmarshal(raw, &bs); err != nil {
			return nil, err
		}
		return bs, nil
	}
	return nil, errors.New("neither a string nor an array of blocks")
}

// interruption says whether a user text is Claude Code's note that the
// user stopped the reply: part of the turn, not a new prompt.
func interruption(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), "[Request interrupted by user")
}

func (p *ccParser) user(l line, thread, key string, blocks []ccBlock, at time.Time) {
	results := false
	for _, b := range blocks {
		results = results || b.Type == "tool_result"
	}
	if results {
		// Tool results (and any text beside them) belong to the open turn.
		p.ensure(l, thread, key)
		for _, b := range blocks {
			switch b.Type {
			case "tool_result":
				if p.skip[b.ToolUseID] {
					p.skipLine(l)
					continue
				}
				text := resultText(b.Content)
				if b.IsError {
					text = "[error] " + text
				}
				p.cur.add(stratagate.Message{Role: "tool", ToolName: p.names[b.ToolUseID], ToolCallID: b.ToolUseID, Content: text, At: at})
			case "text":
				p.cur.add(stratagate.Message{Role: "user", Content: b.Text, At: at})
			}
		}
		return
	}
	text := blockText(blocks)
	if strings.TrimSpace(text) == "" {
		p.skipLine(l)
		return
	}
	if interruption(text) && p.cur != nil {
		p.cur.add(stratagate.Message{Role: "user", Content: text, At: at})
		return
	}
	// A human prompt: the open turn is complete.
	p.close()
	p.open(l, thread, key)
	p.cur.add(stratagate.Message{Role: "user", Content: text, At: at})
}

func (p *ccParser) assistant(l line, thread, key, msgID string, blocks []ccBlock, at time.Time) {
	p.ensure(l, thread, key)
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) == "" {
				continue
			}
			if msgID != "" {
				// A line written twice, or a block repeated, folds once.
				h := sha256.Sum256([]byte(msgID + "\x00" + b.Text))
				if p.texts == nil {
					p.texts = map[[32]byte]bool{}
				}
				if p.texts[h] {
					continue
				}
				p.texts[h] = true
			}
			// Streamed chunks of one reply share message.id: merge
			// consecutive text chunks into one message.
			if n := len(p.cur.msgs); msgID != "" && n > 0 && p.cur.msgs[n-1].merge == msgID {
				p.cur.msgs[n-1].msg.Content += "\n\n" + b.Text
				continue
			}
			p.cur.add(stratagate.Message{Role: "assistant", Content: b.Text, At: at})
			p.cur.msgs[len(p.cur.msgs)-1].merge = msgID
		case "tool_use", "server_tool_use":
			if b.ID != "" && p.seen[b.ID] {
				continue
			}
			p.seen[b.ID] = true
			if isMemoryTool(b.Name) {
				p.skip[b.ID] = true
				p.skipLine(l)
				continue
			}
			p.names[b.ID] = b.Name
			p.cur.add(stratagate.Message{Role: "assistant", ToolName: b.Name, ToolCallID: b.ID, Content: compactJSON(b.Input), At: at})
		}
		// thinking, redacted_thinking and unknown blocks are not captured.
	}
}

// blockText joins the text of a prompt's blocks; an image is a marker.
func blockText(blocks []ccBlock) string {
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) != "" {
				parts = append(parts, b.Text)
			}
		case "image":
			parts = append(parts, "[image]")
		case "document":
			parts = append(parts, "[document]")
		}
	}
	return strings.Join(parts, "\n\n")
}

// resultText is a tool result's content: a string or text blocks.
func resultText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	var text string
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
	case raw[0] == '"':
		_ = json.Unmarshal(raw, &text)
	case raw[0] == '[':
		var bs []ccBlock
		if json.Unmarshal(raw, &bs) == nil {
			text = blockText(bs)
		} else {
			text = string(raw)
		}
	default:
		text = string(raw)
	}
	if strings.TrimSpace(text) == "" {
		return "(no output)"
	}
	return text
}

// compactJSON is a tool call's input as compact JSON ("{}" when absent).
func compactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if len(bytes.TrimSpace(raw)) == 0 || json.Compact(&buf, raw) != nil {
		return "{}"
	}
	return buf.String()
}
