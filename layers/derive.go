package layers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/wal"
)

// ErrInvalidDerivation marks model output for L0–L2 that failed validation;
// the job retries and nothing is stored.
var ErrInvalidDerivation = errors.New("sg: invalid block derivation")

// Limits on derived levels, enforced in code on every model's output.
const (
	MaxTitleRunes   = 80
	MaxTags         = 8
	MaxTagRunes     = 32
	MaxSummaryRunes = 600
	MaxFacts        = 12
	MaxFactRunes    = 240
	MaxFactCites    = 8
)

// DeriveHandler returns the wal handler for derive jobs: it asks m for a
// block's L0–L2, validates the output and stores it with state ready in the
// transaction that marks the job done. A block whose job fails for good is
// marked failed with the reason.
func DeriveHandler(db *kv.DB, m model.Model, now func() time.Time) wal.Handler {
	return wal.Handler{
		// A derive job reads only its own block and messages, and writes
		// only its block: derive jobs may run concurrently, in batches.
		Independent: true,
		RunIn: func(ctx context.Context, view wal.View, j wal.Job) (wal.Apply, error) {
			var b Block
			var msgs []Message
			err := view(func(tx *bolt.Tx) error {
				var err error
				if b, err = GetBlock(tx, j.Target); err != nil {
					return err
				}
				msgs, err = GetMessages(tx, b.MessageIDs)
				return err
			})
			if errors.Is(err, kv.ErrNotFound) || errors.Is(err, kv.ErrCorrupt) {
				return nil, wal.Permanent(err)
			}
			if err != nil {
				return nil, err
			}
			if b.State == StateReady {
				return func(*bolt.Tx) error { return nil }, nil // already derived: nothing to redo
			}
			req, err := model.NewRequestFor(m, model.TaskDeriveBlock, DeriveInput(b, msgs))
			if err != nil {
				return nil, wal.Permanent(err)
			}
			raw, err := model.Call(ctx, m, req)
			if err != nil {
				return nil, fmt.Errorf("model %s: %w", m.Name(), err)
			}
			var out model.DeriveOutput
			if err := model.Decode(raw, &out); err != nil {
				return nil, err
			}
			if err := ValidateDerived(&out, b.MessageIDs); err != nil {
				return nil, err
			}
			return func(tx *bolt.Tx) error {
				cur, err := GetBlock(tx, b.ID)
				if err != nil {
					return err
				}
				if cur.State == StateReady {
					return nil
				}
				cur.Title, cur.Tags, cur.Summary = out.Title, out.Tags, out.Summary
				cur.Facts = make([]Fact, len(out.Facts))
				for i, f := range out.Facts {
					cur.Facts[i] = Fact{Text: f.Text, MessageIDs: f.MessageIDs}
				}
				cur.DerivedHash = cur.DerivedSum()
				cur.State, cur.ReadyAt, cur.Err = StateReady, now().UTC(), ""
				if err := putBlock(tx, &cur); err != nil {
					return err
				}
				// Event extraction runs as its own job once L0–L2 are valid.
				_, err = wal.Enqueue(tx, wal.KindExtract, cur.ID, now())
				return err
			}, nil
		},
		OnFail: func(tx *bolt.Tx, j wal.Job, cause string) error {
			b, err := GetBlock(tx, j.Target)
			if err != nil {
				return nil // nothing to mark
			}
			b.State, b.Err = StateFailed, cause
			return putBlock(tx, &b)
		},
	}.Through(db)
}

// DeriveInput builds the model payload for block b.
func DeriveInput(b Block, msgs []Message) *model.DeriveInput {
	in := &model.DeriveInput{BlockID: b.ID, Thread: b.Thread, Messages: make([]model.DeriveMessage, len(msgs))}
	for i, m := range msgs {
		in.Messages[i] = model.DeriveMessage{ID: m.ID, Role: m.Role, Speaker: m.Speaker, ToolName: m.ToolName, At: m.At, Content: m.Content}
	}
	return in
}

// ValidateDerived checks a model's L0–L2 output against the limits and the
// block's message ids, trimming surrounding space. It rejects rather than
// repairs: a model that cannot follow the contract is retried.
func ValidateDerived(out *model.DeriveOutput, blockMsgs []uint64) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidDerivation, fmt.Sprintf(format, a...))
	}
	text := func(field, s string, maxRunes int) (string, error) {
		s = strings.TrimSpace(s)
		if !utf8.ValidString(s) {
			return "", bad("%s: invalid UTF-8", field)
		}
		if n := utf8.RuneCountInString(s); n == 0 || n > maxRunes {
			return "", bad("%s: %d runes, want 1–%d", field, n, maxRunes)
		}
		return s, nil
	}
	var err error
	if out.Title, err = text("title", out.Title, MaxTitleRunes); err != nil {
		return err
	}
	if out.Summary, err = text("summary", out.Summary, MaxSummaryRunes); err != nil {
		return err
	}
	if len(out.Tags) == 0 || len(out.Tags) > MaxTags {
		return bad("%d tags, want 1–%d", len(out.Tags), MaxTags)
	}
	seen := make(map[string]bool, len(out.Tags))
	for i := range out.Tags {
		if !utf8.ValidString(out.Tags[i]) { // before ToLower, which would repair it
			return bad("tag: invalid UTF-8")
		}
		if out.Tags[i], err = text("tag", strings.ToLower(out.Tags[i]), MaxTagRunes); err != nil {
			return err
		}
		if seen[out.Tags[i]] {
			return bad("duplicate tag %q", out.Tags[i])
		}
		seen[out.Tags[i]] = true
	}
	if len(out.Facts) > MaxFacts {
		return bad("%d facts, want at most %d", len(out.Facts), MaxFacts)
	}
	inBlock := make(map[uint64]bool, len(blockMsgs))
	for _, id := range blockMsgs {
		inBlock[id] = true
	}
	for i := range out.Facts {
		f := &out.Facts[i]
		if f.Text, err = text("fact", f.Text, MaxFactRunes); err != nil {
			return err
		}
		if len(f.MessageIDs) == 0 || len(f.MessageIDs) > MaxFactCites {
			return bad("fact %d cites %d messages, want 1–%d", i, len(f.MessageIDs), MaxFactCites)
		}
		for _, id := range f.MessageIDs {
			if !inBlock[id] {
				return bad("fact %d cites message %d outside the block", i, id)
			}
		}
	}
	return nil
}
