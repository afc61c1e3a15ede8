package stratagate

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/layers"
)

// turnReq is one turn of an appendReq.
type turnReq struct {
	turn    Turn
	msgs    []Message
	stamped []bool     // msgs[i].At was stamped with the clock (the caller gave none)
	terms   [][]string // raw-index terms per message, computed by the caller's goroutine
	res     TurnRef
	flushed []string // receipt ids its seal moved to the receipts bucket (forgotten once committed)
}

// appendReq is one Append (one turn) or AppendBatch (its turns, committed
// together or not at all) waiting for the commit loop.
type appendReq struct {
	turns []turnReq
	err   error
	done  chan struct{}
}

// Append stores one completed turn and returns once it is durable (fsynced
// unless NoSync). Concurrent Appends are group-committed: one transaction
// and one fsync carry all turns waiting at that moment. A turn that
// completes BlockTurns turns of its thread seals a block in the same
// transaction, and the block's derivation runs in the background.
//
// Bad input (empty turn, unknown role, invalid UTF-8, content beyond
// MaxMessageBytes, malformed scope or a scope other than the thread's)
// returns an error wrapping ErrInvalidInput or ErrScope and writes nothing.
func (m *Memory) Append(ctx context.Context, t Turn) (TurnRef, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return TurnRef{}, err
	}
	defer release()
	if m.opts.ReadOnly {
		return TurnRef{}, ErrReadOnly
	}
	tr, err := m.prepareTurn(t)
	if err != nil {
		return TurnRef{}, err
	}
	req := &appendReq{turns: []turnReq{tr}, done: make(chan struct{})}
	if err := m.commit(ctx, req); err != nil {
		return TurnRef{}, err
	}
	return req.turns[0].res, nil
}

// prepareTurn validates t and tokenizes its messages for the raw index, on
// the caller's goroutine.
func (m *Memory) prepareTurn(t Turn) (turnReq, error) {
	msgs, stamped, err := m.checkTurn(&t)
	if err != nil {
		return turnReq{}, err
	}
	tr := turnReq{turn: t, msgs: msgs, stamped: stamped, terms: make([][]string, len(msgs))}
	for i := range msgs {
		tr.terms[i] = messageTerms(&msgs[i])
	}
	return tr, nil
}

func invalid(specific error, format string, a ...any) error {
	if specific == ErrInvalidInput {
		return fmt.Errorf("%w: %s", ErrInvalidInput, fmt.Sprintf(format, a...))
	}
	return fmt.Errorf("%w: %w: %s", ErrInvalidInput, specific, fmt.Sprintf(format, a...))
}

func checkName(field, s string, required bool) error {
	switch {
	case s == "" && required:
		return invalid(ErrEmpty, "%s is empty", field)
	case len(s) > maxNameBytes:
		return invalid(ErrTooLarge, "%s is %d bytes, limit %d", field, len(s), maxNameBytes)
	case !utf8.ValidString(s):
		return invalid(ErrInvalidUTF8, "%s", field)
	case strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return invalid(ErrInvalidInput, "%s contains a control character", field)
	}
	if why := layers.NameProblem(s); why != "" {
		return invalid(ErrInvalidInput, "%s %q %s", field, s, why)
	}
	return nil
}

// checkTurn validates t and returns a private copy of its messages with
// times stamped, so that the caller's slice is never mutated, and which of
// them were stamped.
func (m *Memory) checkTurn(t *Turn) ([]Message, []bool, error) {
	if err := checkName("thread", t.Thread, true); err != nil {
		return nil, nil, err
	}
	if strings.HasPrefix(t.Thread, ImportThreadPrefix) {
		return nil, nil, invalid(ErrInvalidInput, "thread %q: names starting with %q are reserved for imports", t.Thread, ImportThreadPrefix)
	}
	if t.Scope == "" {
		t.Scope = layers.ScopeGlobal
	}
	if err := layers.ValidateScope(t.Scope); err != nil {
		return nil, nil, err
	}
	if err := checkName("receipt id", t.ReceiptID, false); err != nil {
		return nil, nil, err
	}
	if len(t.Messages) == 0 {
		return nil, nil, invalid(ErrEmpty, "turn has no messages")
	}
	if len(t.Messages) > m.opts.MaxTurnMessages {
		return nil, nil, invalid(ErrTooLarge, "turn has %d messages, limit %d", len(t.Messages), m.opts.MaxTurnMessages)
	}
	now := m.opts.Clock()
	msgs := make([]Message, len(t.Messages))
	stamped := make([]bool, len(t.Messages))
	for i, in := range t.Messages {
		switch {
		case !layers.ValidRole(in.Role):
			return nil, nil, invalid(ErrUnknownRole, "message %d: role %q (want user, assistant, tool or system)", i, in.Role)
		case len(in.Content) > m.opts.MaxMessageBytes:
			return nil, nil, invalid(ErrTooLarge, "message %d: content is %d bytes, limit %d", i, len(in.Content), m.opts.MaxMessageBytes)
		case !utf8.ValidString(in.Content):
			return nil, nil, invalid(ErrInvalidUTF8, "message %d: content", i)
		case strings.TrimSpace(in.Content) == "":
			return nil, nil, invalid(ErrEmpty, "message %d: content is empty", i)
		}
		for _, f := range [...]struct{ name, v string }{{"speaker", in.Speaker}, {"tool name", in.ToolName}, {"tool call id", in.ToolCallID}} {
			if err := checkName(fmt.Sprintf("message %d: %s", i, f.name), f.v, false); err != nil {
				return nil, nil, err
			}
		}
		msgs[i] = Message{Role: in.Role, Speaker: in.Speaker, Content: in.Content, ToolName: in.ToolName, ToolCallID: in.ToolCallID, At: in.At}
		if msgs[i].At.IsZero() {
			msgs[i].At, stamped[i] = now, true
		}
		msgs[i].At = msgs[i].At.Round(0) // strip the monotonic reading
		if err := layers.CheckTime(msgs[i].At); err != nil {
			return nil, nil, invalid(err, "message %d", i)
		}
	}
	return msgs, stamped, nil
}

// appendTx writes the turns of r inside tx.
func (m *Memory) appendTx(tx *bolt.Tx, r *appendReq) error {
	for i := range r.turns {
		if err := m.appendTurnTx(tx, &r.turns[i]); err != nil {
			if len(r.turns) > 1 {
				return fmt.Errorf("turn %d: %w", i, err)
			}
			return err
		}
	}
	return nil
}

// appendTurnTx writes one turn inside tx, or finds its receipt.
func (m *Memory) appendTurnTx(tx *bolt.Tx, r *turnReq) error {
	r.res, r.flushed = TurnRef{}, nil
	if r.turn.ReceiptID != "" {
		ref, ok, err := m.lookupReceipt(tx, r.turn.ReceiptID)
		if err != nil {
			return err
		}
		if ok {
			r.res = TurnRef{Thread: ref.Thread, Turn: ref.Turn, MessageIDs: ref.MessageIDs, SealedBlockID: ref.SealedBlockID}
			if err := sameTurn(tx, r); err != nil {
				r.res = TurnRef{}
				return err
			}
			r.res.Duplicate = true
			return nil
		}
	}
	// A retry after a failed group starts from fresh copies: the failed
	// attempt assigned ids that were rolled back.
	msgs := append([]Message(nil), r.msgs...)
	res, err := layers.AppendTurn(tx, r.turn.Thread, r.turn.Scope, r.turn.ReceiptID, msgs, m.opts.BlockTurns, m.opts.Clock())
	if err != nil {
		return err
	}
	for i := range msgs {
		if err := m.stageRaw(&msgs[i], r.turn.Scope, r.terms[i]); err != nil {
			return err
		}
	}
	r.res = TurnRef{Thread: res.Thread, Turn: res.Turn, MessageIDs: res.MessageIDs, SealedBlockID: res.SealedBlockID}
	r.flushed = res.Flushed
	if r.turn.ReceiptID != "" && res.SealedBlockID == 0 {
		m.receipts.note(r.turn.ReceiptID, res.Thread)
	}
	return nil
}

// sameTurn checks that the turn of a stored receipt (r.res) is the one r
// carries: same thread, scope and messages (role, speaker, content, tool
// fields, and the time where the caller gave one; a time stamped by the
// clock differs on every retry). A receipt reused for another turn is
// ErrReceiptConflict: answering Duplicate would drop the new turn silently.
func sameTurn(tx *bolt.Tx, r *turnReq) error {
	conflict := func(format string, a ...any) error {
		return fmt.Errorf("%w: receipt %q: %s", ErrReceiptConflict, r.turn.ReceiptID, fmt.Sprintf(format, a...))
	}
	if r.res.Thread != r.turn.Thread {
		return conflict("stored for thread %q, not %q", r.res.Thread, r.turn.Thread)
	}
	th, ok, err := layers.GetThread(tx, r.res.Thread)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("receipt %q: %w: its thread %q is not stored", r.turn.ReceiptID, ErrCorrupt, r.res.Thread)
	}
	if th.Scope != r.turn.Scope {
		return conflict("stored in scope %q, not %q", th.Scope, r.turn.Scope)
	}
	if len(r.res.MessageIDs) != len(r.msgs) {
		return conflict("stored with %d messages, not %d", len(r.res.MessageIDs), len(r.msgs))
	}
	for i, id := range r.res.MessageIDs {
		old, err := layers.GetMessage(tx, id)
		if err != nil {
			return fmt.Errorf("receipt %q: %w", r.turn.ReceiptID, err)
		}
		in := &r.msgs[i]
		if old.Role != in.Role || old.Speaker != in.Speaker || old.Content != in.Content ||
			old.ToolName != in.ToolName || old.ToolCallID != in.ToolCallID {
			return conflict("message %d differs from the stored message %d", i, id)
		}
		if !r.stamped[i] {
			_, o1 := old.At.Zone()
			_, o2 := in.At.Zone()
			if !old.At.Equal(in.At) || o1 != o2 {
				return conflict("message %d: time %v differs from the stored %v", i, in.At, old.At)
			}
		}
	}
	return nil
}
