package capture

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/redact"
)

// RecallOptions configure Recall.
type RecallOptions struct {
	// Scope is the only scope searched (normally ProjectScope of the
	// session's directory). Required: recall never widens to other
	// projects.
	Scope string
	// Thread, when set, is the current session: its own messages are
	// left out (the agent already has them in context).
	Thread string
	// Tokens bounds the text returned, estimated at 4 bytes a token.
	// Default DefaultRecallTokens.
	Tokens int
}

// recallHeader opens a recalled context.
const recallHeader = "Memories from earlier sessions in this project (StrataGate; they may be outdated, verify before relying on them):\n"

// Recall returns a short context for prompt: the best event cards and
// original messages of opts.Scope, one line each in the searches' rank
// order (cards first), redacted (redact.String) and bounded by
// opts.Tokens. It returns "" when nothing matches. A prompt the searches
// cannot use (no searchable term) is "" with no error.
func Recall(ctx context.Context, st Store, prompt string, opts RecallOptions) (string, error) {
	if opts.Scope == "" {
		return "", fmt.Errorf("%w: recall needs a scope", stratagate.ErrInvalidInput)
	}
	if opts.Tokens <= 0 {
		opts.Tokens = DefaultRecallTokens
	}
	q := strings.ToValidUTF8(prompt, " ")
	if len(q) > stratagate.MaxQueryBytes {
		n := stratagate.MaxQueryBytes
		for n > 0 && !utf8.RuneStart(q[n]) {
			n--
		}
		q = q[:n]
	}
	if strings.TrimSpace(q) == "" {
		return "", nil
	}
	scopes := []string{opts.Scope}
	var lines []string
	evs, err := st.SearchEvents(ctx, stratagate.Query{Text: q, Scopes: scopes, Limit: 5})
	if err != nil && !errors.Is(err, stratagate.ErrInvalidInput) {
		return "", err
	}
	for _, e := range evs {
		line := "- " + day(e.MentionedAt) + e.Title
		if e.Summary != "" && e.Summary != e.Title {
			line += ": " + e.Summary
		}
		lines = append(lines, line+fmt.Sprintf(" (event %d)", e.ID))
	}
	hits, err := st.SearchRaw(ctx, stratagate.Query{Text: q, Scopes: scopes, Limit: 8})
	if err != nil && !errors.Is(err, stratagate.ErrInvalidInput) {
		return "", err
	}
	for _, h := range hits {
		if opts.Thread != "" && h.Thread == opts.Thread {
			continue
		}
		lines = append(lines, fmt.Sprintf("- %s%s: %s (message %d)", day(h.At), h.Role, h.Snippet, h.MessageID))
	}
	if len(lines) == 0 {
		return "", nil
	}
	budget := opts.Tokens * 4
	var b strings.Builder
	b.WriteString(recallHeader)
	for _, l := range lines {
		l = redact.String(strings.Join(strings.Fields(l), " ")) + "\n"
		if b.Len()+len(l) > budget {
			break
		}
		b.WriteString(l)
	}
	if b.Len() == len(recallHeader) {
		return "", nil
	}
	return b.String(), nil
}

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return "[" + t.Format("2006-01-02") + "] "
}

// recallHook answers UserPromptSubmit.
func recallHook(ctx context.Context, o *HookOptions, lg *hookLog, in *HookInput) *HookSpecificOutput {
	cwd := ""
	if in.TranscriptPath != "" {
		h, _ := sessionHead(o.Kind, in.TranscriptPath, nil, 1)
		cwd = h.cwd
	}
	if cwd == "" {
		cwd = in.Cwd
	}
	if cwd == "" {
		lg.printf("UserPromptSubmit %s: no working directory, nothing recalled", in.SessionID)
		return nil
	}
	st, _, done, err := connect(ctx, o, true)
	if err != nil {
		lg.printf("UserPromptSubmit %s: %v", in.SessionID, err)
		return nil
	}
	defer done()
	text, err := Recall(ctx, st, in.Prompt, RecallOptions{Scope: ProjectScope(cwd), Thread: cleanName(in.SessionID), Tokens: o.RecallTokens})
	if err != nil {
		lg.printf("UserPromptSubmit %s: recall: %v", in.SessionID, err)
		return nil
	}
	if text == "" {
		return nil
	}
	return &HookSpecificOutput{HookEventName: "UserPromptSubmit", AdditionalContext: text}
}
