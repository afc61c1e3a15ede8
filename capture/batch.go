package capture

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stratagate/stratagate"
)

// Kind names a transcript format.
type Kind string

// The transcript formats handled.
const (
	// KindClaudeCode is a Claude Code session transcript
	// (~/.claude/projects/<project>/<session>.jsonl).
	KindClaudeCode Kind = "claude-code"
	// KindCodex is a Codex CLI rollout file
	// (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl).
	KindCodex Kind = "codex"
)

// ParseKind returns the Kind named s ("claude-code" or "codex"), or an
// error wrapping ErrUnknownKind.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(s); k {
	case KindClaudeCode, KindCodex:
		return k, nil
	}
	return "", fmt.Errorf("%w: %q (want %q or %q)", ErrUnknownKind, s, KindClaudeCode, KindCodex)
}

// ParseOptions tune ParseClaudeCode and ParseCodex. Every zero field means
// the documented default.
type ParseOptions struct {
	// Session is the thread of turns whose lines name no session (a
	// Claude Code line without sessionId, a rollout read from an offset
	// past its session_meta). Default: none, then "claude-code-session" or
	// "codex-session".
	Session string
	// Cwd is the session's working directory, whose ProjectScope is the
	// scope of every turn parsed. Default: the first working directory
	// named in the data (FileCwd of the data). Pass FileCwd of the file's
	// head when parsing from an offset, so that every run of one session
	// gives its turns the same scope.
	Cwd string
	// Final says the data ends at a turn boundary: the turn still open at
	// the end of the data is complete (Claude Code's Stop and SessionEnd
	// hooks, a Codex Stop hook, an import of a whole file). It has no
	// effect when the data ends with an incomplete line. Default false:
	// only turns closed by a later line are returned.
	Final bool
	// MaxMessageBytes bounds one message's content; longer content is cut
	// with a marker. Default stratagate.DefaultMaxMessageBytes (1 MiB),
	// the store's default limit.
	MaxMessageBytes int
	// MaxTurnMessages bounds the messages of one returned turn; a longer
	// turn is split into several, each with its own receipt. Default
	// stratagate.DefaultMaxTurnMessages (256), the store's default limit.
	MaxTurnMessages int
}

func (o ParseOptions) withDefaults() ParseOptions {
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = stratagate.DefaultMaxMessageBytes
	}
	if o.MaxMessageBytes < minMessageBytes {
		o.MaxMessageBytes = minMessageBytes
	}
	if o.MaxTurnMessages <= 0 {
		o.MaxTurnMessages = stratagate.DefaultMaxTurnMessages
	}
	return o
}

// minMessageBytes keeps room for the truncation marker.
const minMessageBytes = 256

// Batch is what a parser returns: the complete turns found, where to resume
// and the lines it could not use.
type Batch struct {
	// Turns are the complete turns, in transcript order, each with Thread,
	// Scope, ReceiptID and messages that pass the store's validation under
	// its default limits.
	Turns []stratagate.Turn
	// Origins[i] says where Turns[i] starts in the transcript.
	Origins []Origin
	// Next is the absolute offset to resume from: the start of the first
	// line not consumed (the first line of the turn still open, or of the
	// incomplete last line), or the end of the data when all of it was
	// consumed. It is never before the base offset.
	Next int64
	// Rejected are the consumed lines that were skipped because they could
	// not be read (invalid JSON, an unknown shape of a conversation line).
	// Lines not consumed are never reported: the next parse sees them.
	Rejected []Reject
	// Skipped counts consumed lines ignored by rule (meta, sidechain,
	// compaction summaries, bookkeeping line types, memory_* tool calls).
	Skipped int
}

// Origin locates a line: its 1-based number within the parsed data (the
// line number in the file when the base offset is 0) and its absolute
// byte offset.
type Origin struct {
	Line   int
	Offset int64
}

// Reject is a line (or a turn, for a turn the store refused) that was not
// captured, and why.
type Reject struct {
	// File is the transcript path, where known.
	File string
	Origin
	Reason string
}

// String is "FILE:LINE (offset N): REASON", leaving out what is unknown.
func (r Reject) String() string {
	loc := r.File
	if r.Line > 0 {
		if loc != "" {
			loc += ":"
		}
		loc += fmt.Sprintf("%d (offset %d)", r.Line, r.Offset)
	}
	if loc == "" {
		return r.Reason
	}
	return loc + ": " + r.Reason
}

// Parse parses data with the parser of kind.
func Parse(kind Kind, data []byte, base int64, opts ParseOptions) (Batch, error) {
	switch kind {
	case KindClaudeCode:
		return ParseClaudeCode(data, base, opts)
	case KindCodex:
		return ParseCodex(data, base, opts)
	}
	return Batch{}, fmt.Errorf("%w: %q", ErrUnknownKind, kind)
}

// FileCwd returns the working directory a transcript of kind names
// first in head (the first bytes of the file; complete lines only), or ""
// when it names none. It is the Cwd to parse that file with from any
// offset: the scope of a session never changes with a later cd.
func FileCwd(kind Kind, head []byte) string { return readHead(kind, head).cwd }

// head is what a transcript's first lines say of its session.
type head struct{ cwd, session string }

func readHead(kind Kind, data []byte) head {
	o := ParseOptions{Cwd: "-"} // skip the scope hashing
	var h head
	switch kind {
	case KindClaudeCode:
		_, h = parseClaudeCode(data, 0, o)
	case KindCodex:
		_, h = parseCodex(data, 0, o)
	}
	return h
}

// line is one complete line of the data.
type line struct {
	text []byte // without the newline (and a trailing '\r')
	Origin
	end int64 // absolute offset after the newline
}

// lines calls fn for each newline-terminated line of data and returns the
// absolute offset after the last one. The bytes after the last newline (an
// incomplete line) are never passed.
func lines(data []byte, base int64, fn func(l line)) int64 {
	end := base
	no := 0
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		no++
		text := bytes.TrimSuffix(data[:i], []byte{'\r'})
		fn(line{text: text, Origin: Origin{Line: no, Offset: end}, end: end + int64(i) + 1})
		end += int64(i) + 1
		data = data[i+1:]
	}
	return end
}

// openTurn is a turn being folded.
type openTurn struct {
	thread string
	key    string // what the receipt is derived from: the first line's uuid or "@offset"
	origin Origin
	msgs   []part
	// Codex: the turn was opened by task_started (so a user_message inside
	// it is more input, not a new turn), and it has agent_message text.
	started, agent bool
}

// part is a message being built, with the upstream id it may merge on.
type part struct {
	msg   stratagate.Message
	merge string // Claude Code message.id of an assistant text part
}

func (t *openTurn) add(msg stratagate.Message) {
	t.msgs = append(t.msgs, part{msg: msg})
}

// finish turns the folded messages into store turns: content repaired,
// truncated and non-empty, split into turns of at most MaxTurnMessages.
func finish(t *openTurn, kind Kind, scope string, o ParseOptions) []stratagate.Turn {
	var msgs []stratagate.Message
	for i := range t.msgs {
		m := t.msgs[i].msg
		m.Content = cleanContent(m.Content, o.MaxMessageBytes)
		if m.Content == "" {
			continue
		}
		m.ToolName = cleanName(m.ToolName)
		m.ToolCallID = cleanName(m.ToolCallID)
		msgs = append(msgs, m)
	}
	var out []stratagate.Turn
	for k := 0; len(msgs) > 0; k++ {
		n := min(len(msgs), o.MaxTurnMessages)
		key := t.key
		if k > 0 {
			key = fmt.Sprintf("%s#%d", t.key, k)
		}
		out = append(out, stratagate.Turn{
			Thread: t.thread, Scope: scope, ReceiptID: receiptID(kind, t.thread, key),
			Messages: msgs[:n:n],
		})
		msgs = msgs[n:]
	}
	return out
}

// receiptID derives a turn's receipt from its session and the key of its
// first line: the same turn read twice, by a hook or an import, gets the
// same receipt; a hash keeps it within the store's name limits whatever
// the ids look like.
func receiptID(kind Kind, thread, key string) string {
	h := sha256.Sum256([]byte(string(kind) + "\x00" + thread + "\x00" + key))
	return string(kind) + ":" + hex.EncodeToString(h[:16])
}

// truncMarker ends a message cut to MaxMessageBytes.
const truncMarker = "\n[… truncated by capture: %d bytes omitted]"

// cleanContent repairs invalid UTF-8, bounds s to limit bytes (with a
// marker) and returns "" for text with nothing but white space.
func cleanContent(s string, limit int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.TrimSpace(s) == "" {
		return ""
	}
	if len(s) <= limit {
		return s
	}
	// The marker's number has at most 20 digits.
	keep := limit - len(truncMarker) - 20
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return s[:keep] + fmt.Sprintf(truncMarker, len(s)-keep)
}

// maxName is the store's limit on names (threads, tool fields).
const maxName = 256

// cleanName makes s acceptable as a store name: valid UTF-8 without
// control or bidirectional-control characters, at most 256 bytes, with a
// visible character; "" when nothing is left.
func cleanName(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if len(s) > maxName {
		n := maxName
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = strings.TrimSpace(s[:n])
	}
	for _, r := range s {
		if !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) && r != '\u3164' && r != '\u115f' && r != '\u1160' {
			return s
		}
	}
	return ""
}

// Message time limits of the store (see layers.CheckTime).
const (
	minYear   = 1678
	maxYear   = 2261
	maxOffset = 18 * 3600
)

// parseTime reads an RFC 3339 timestamp; anything unreadable or outside
// the store's range is the zero time (the store then stamps its clock).
func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	if _, off := t.Zone(); off < -maxOffset || off > maxOffset {
		return time.Time{}
	}
	if y := t.UTC().Year(); y < minYear || y > maxYear {
		return time.Time{}
	}
	return t
}

// isMemoryTool says whether name is one of our own memory tools, whose
// calls are not captured (they would feed recalled memories back in as new
// ones): "memory_…", "mcp__<server>__memory_…" (Claude Code) or
// "<server>__memory_…" (Codex).
func isMemoryTool(name string) bool {
	name = strings.TrimPrefix(name, "mcp__")
	if strings.HasPrefix(name, "memory_") {
		return true
	}
	_, rest, ok := strings.Cut(name, "__")
	return ok && strings.HasPrefix(rest, "memory_")
}

// threadOr returns the cleaned id, else the cleaned fallback, else def.
func threadOr(id, fallback, def string) string {
	if s := cleanName(id); s != "" {
		return s
	}
	if s := cleanName(fallback); s != "" {
		return s
	}
	return def
}
