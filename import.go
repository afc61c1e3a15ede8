package stratagate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/extmem"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model/heuristic"
)

// Import errors, checked with errors.Is.
var (
	// ErrImportStale is returned by ImportCommit when the store changed
	// since the preview (an Append, a new event, a Forget): its decisions
	// were taken against other memories. Preview again.
	ErrImportStale = errors.New("sg: the store changed since the import preview")
	// ErrImportState is returned for an import in the wrong state: a
	// commit of a batch already committed or undone, an undo of one not
	// committed.
	ErrImportState = errors.New("sg: import batch in the wrong state")
	// ErrUndone is returned by Forget and Restore for a card whose import
	// was undone.
	ErrUndone = events.ErrUndone
)

// ImportThreadPrefix starts the name of every import's source thread
// ("import/<batch id>"); Append refuses thread names with it.
const ImportThreadPrefix = "import/"

// maxPreviews bounds the uncommitted previews kept: older ones are
// dropped when a new preview is stored.
const maxPreviews = 64

// ImportOptions configure ImportPreview. The zero value is the default.
type ImportOptions struct {
	// Scope receives the imported memories. Default "global".
	Scope string
	// TopK is how many existing events each candidate is compared with.
	// Default 5, at most 20.
	TopK int
	// Decider chooses each candidate's action. Default: the model-backed
	// decider when Options.Model is a remote model, else the offline
	// heuristic one.
	Decider extmem.Decider
}

// ImportPreview is what an import would do; nothing of it is applied
// until ImportCommit.
type ImportPreview struct {
	ID         uint64 // the batch id: pass it to ImportCommit
	Scope      string
	Revision   string // the store state the decisions were taken against
	Source     string
	ExportedAt time.Time
	TextBytes  int
	CreatedAt  time.Time
	Candidates []ImportCandidate
}

// ImportCandidate is one imported memory and its decision.
type ImportCandidate struct {
	Index       int
	Kind        string
	Title       string
	Fingerprint string
	Compared    []ImportMatch // the existing events it was compared with, best first
	Decision    extmem.Decision
	// Automatic is true for decisions applied without confirmation
	// (confidence ≥ extmem.AutoConfidence).
	Automatic bool
	Warnings  []string
	// Applied, AppliedTargets, EventID and Confirmed say what commit did:
	// the action applied ("" = not applied: it awaited a confirmation
	// that did not come), to which events, and the card it created.
	Applied        extmem.Action
	AppliedTargets []uint64
	EventID        uint64
	Confirmed      bool
}

// ImportMatch is an existing event a candidate was compared with.
type ImportMatch struct {
	EventID uint64
	Title   string
	Score   float64
}

// Confirmations say which decisions that need one are accepted.
type Confirmations struct {
	// AcceptAll accepts every pending decision as proposed.
	AcceptAll bool
	// Accept lists candidates (by Index) whose decision is accepted.
	Accept []int
	// Override replaces the decision of candidates (by Index), automatic
	// or not; targets must be among the events the candidate was
	// compared with.
	Override map[int]ImportChoice
	// Reject lists candidates not to apply, even automatic ones.
	Reject []int
}

// ImportChoice is an action chosen by a person.
type ImportChoice struct {
	Action  extmem.Action
	Targets []uint64
}

// ImportResult is what ImportCommit applied.
type ImportResult struct {
	BatchID   uint64
	Thread    string // the import's source thread
	BlockID   uint64 // its permanent source block (L5 holds the text verbatim)
	MessageID uint64
	Created   []uint64 // cards created
	Changed   []uint64 // existing cards superseded or linked as conflicts
	Applied   int
	Pending   []int // candidates not applied: they needed a confirmation
}

// ImportBatch is a stored import: its preview, its state and, once
// committed, its result.
type ImportBatch struct {
	Preview     ImportPreview
	State       string // "previewed", "committed" or "undone"
	CommittedAt time.Time
	UndoneAt    time.Time
	Thread      string
	BlockID     uint64
	MessageID   uint64
}

// ExportPrompt returns the prompt to give another AI so that it exports
// what it knows about the user as a stratagate.external-memory.v2
// document (docs/IMPORT.md).
func ExportPrompt() string { return extmem.ExportPrompt() }

// ImportPreview parses an export (text as pasted: the document may sit in
// prose or a code fence), compares each candidate with the top-K existing
// events of the scope and decides, per candidate, whether to add, merge,
// supersede, mark a conflict or ignore it. A candidate whose fingerprint
// equals an existing event's is ignored without any model call. The
// preview is stored (nothing else is written) and its ID is what
// ImportCommit takes. A document that does not parse is an error wrapping
// ErrInvalidInput and the extmem error.
func (m *Memory) ImportPreview(ctx context.Context, text string, o ImportOptions) (ImportPreview, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return ImportPreview{}, err
	}
	defer release()
	if m.opts.ReadOnly {
		return ImportPreview{}, ErrReadOnly
	}
	if o.Scope == "" {
		o.Scope = layers.ScopeGlobal
	}
	if err := layers.ValidateScope(o.Scope); err != nil {
		return ImportPreview{}, err
	}
	switch {
	case o.TopK == 0:
		o.TopK = extmem.DefaultTopK
	case o.TopK < 0 || o.TopK > extmem.MaxTopK:
		return ImportPreview{}, invalid(ErrInvalidInput, "TopK %d not in 1–%d", o.TopK, extmem.MaxTopK)
	}
	if len(text) > m.opts.MaxMessageBytes {
		return ImportPreview{}, invalid(ErrTooLarge, "import text is %d bytes, limit %d (MaxMessageBytes)", len(text), m.opts.MaxMessageBytes)
	}
	if !utf8.ValidString(text) {
		return ImportPreview{}, invalid(ErrInvalidUTF8, "import text")
	}
	doc, err := extmem.Parse(text)
	if err != nil {
		return ImportPreview{}, fmt.Errorf("%w: %w", ErrInvalidInput, err)
	}
	dec := o.Decider
	if dec == nil {
		dec = m.defaultDecider()
	}
	now := m.opts.Clock()
	rec := importRecord{State: importPreviewed, Scope: o.Scope, Text: text, TextBytes: len(text), Source: doc.Source,
		Exported: kv.ToStamp(doc.ExportedAt), Created: kv.ToStamp(now)}
	// Matches are read in one snapshot, whose revision the preview keeps;
	// decisions (model calls) run outside any transaction.
	matches := make([][]extmem.Existing, len(doc.Memories))
	err = m.db.View(func(tx *bolt.Tx) error {
		rec.Revision = revision(tx)
		for i := range doc.Memories {
			ms, err := m.importMatches(tx, &doc.Memories[i], o.Scope, o.TopK)
			if err != nil {
				return err
			}
			matches[i] = ms
		}
		return nil
	})
	if err != nil {
		return ImportPreview{}, err
	}
	rec.Decisions = make([]decisionRecord, len(doc.Memories))
	for i := range doc.Memories {
		c := &doc.Memories[i]
		d, err := decide(ctx, dec, c, matches[i])
		if err != nil {
			return ImportPreview{}, err
		}
		dr := decisionRecord{Index: c.Index, Kind: string(c.Kind), Title: c.Title, Fingerprint: c.Fingerprint(),
			Action: string(d.Action), Targets: d.Targets, Confidence: d.Confidence, Reason: d.Reason, Decider: d.Decider,
			Warnings: c.Warnings}
		for _, e := range matches[i] {
			dr.Compared = append(dr.Compared, e.ID)
			dr.Scores = append(dr.Scores, e.Score)
		}
		rec.Decisions[i] = dr
	}
	err = m.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(kv.BucketImports)
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		rec.ID = id
		if err := prunePreviews(tx); err != nil {
			return err
		}
		return putImport(tx, &rec)
	})
	if err != nil {
		return ImportPreview{}, err
	}
	var p ImportPreview
	err = m.db.View(func(tx *bolt.Tx) error {
		p, err = previewOf(tx, &rec)
		return err
	})
	return p, err
}

// defaultDecider is the model-backed decider for a remote model, the
// heuristic one otherwise.
func (m *Memory) defaultDecider() extmem.Decider {
	if m.opts.Model.Name() != heuristic.Name {
		return extmem.NewModelDecider(m.opts.Model)
	}
	return extmem.NewHeuristic()
}

// decide runs the fingerprint rule, then dec. A decider that fails on
// bad output gives way to the heuristic one, whose decision then needs a
// confirmation; a cancelled context is returned as such.
func decide(ctx context.Context, dec extmem.Decider, c *extmem.Candidate, existing []extmem.Existing) (extmem.Decision, error) {
	fp := c.Fingerprint()
	for _, e := range existing {
		if e.Fingerprint == fp {
			return extmem.Decision{Action: extmem.ActionIgnore, Targets: []uint64{e.ID}, Confidence: 1,
				Reason: fmt.Sprintf("identical to event %d (same normalised title and summary)", e.ID), Decider: "fingerprint"}, nil
		}
	}
	d, err := dec.Decide(ctx, c, existing)
	if err == nil {
		err = checkDecision(&d, existing)
	}
	if err == nil {
		return d, nil
	}
	if ctx.Err() != nil {
		return extmem.Decision{}, classify(ctx.Err())
	}
	h := extmem.NewHeuristic()
	if dec.Name() == h.Name() {
		return extmem.Decision{}, err
	}
	d, herr := h.Decide(ctx, c, existing)
	if herr == nil {
		herr = checkDecision(&d, existing)
	}
	if herr != nil {
		return extmem.Decision{}, fmt.Errorf("%w (heuristic fallback: %w)", err, herr)
	}
	d.Confidence = math.Min(d.Confidence, math.Nextafter(extmem.AutoConfidence, 0))
	d.Reason = clipTo(fmt.Sprintf("%s rejected (%v); heuristic: %s", dec.Name(), err, d.Reason), extmem.MaxReasonRunes)
	return d, nil
}

// checkDecision validates any decider's output: a known action, targets
// among the offered events (required for merge, supersede and conflict,
// none for add), a finite confidence in [0, 1].
func checkDecision(d *extmem.Decision, existing []extmem.Existing) error {
	offered := map[uint64]bool{}
	for _, e := range existing {
		offered[e.ID] = true
	}
	return checkChoice(d.Action, d.Targets, offered, d.Confidence)
}

func checkChoice(a extmem.Action, targets []uint64, offered map[uint64]bool, conf float64) error {
	switch a {
	case extmem.ActionAdd:
		if len(targets) > 0 {
			return invalid(ErrInvalidInput, "add names targets %v", targets)
		}
	case extmem.ActionMerge, extmem.ActionSupersede, extmem.ActionConflict:
		if len(targets) == 0 {
			return invalid(ErrInvalidInput, "%s names no target", a)
		}
	case extmem.ActionIgnore:
	default:
		return invalid(ErrInvalidInput, "unknown import action %q", a)
	}
	seen := map[uint64]bool{}
	for _, t := range targets {
		if !offered[t] {
			return invalid(ErrInvalidInput, "target event %d was not among the compared events", t)
		}
		if seen[t] {
			return invalid(ErrInvalidInput, "target event %d named twice", t)
		}
		seen[t] = true
	}
	if math.IsNaN(conf) || conf < 0 || conf > 1 {
		return invalid(ErrInvalidInput, "confidence %v not in [0, 1]", conf)
	}
	return nil
}

// clipTo clips s to at most n runes, marking the cut.
func clipTo(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// importMatches returns the top-k active events of scope closest to c by
// BM25 over the events index, with what a decider reads of them.
func (m *Memory) importMatches(tx *bolt.Tx, c *extmem.Candidate, scope string, k int) ([]extmem.Existing, error) {
	text := strings.Join(append([]string{c.Title, c.Summary, c.OriginalText}, c.Quotes...), " ")
	terms := bm25.AppendTerms(nil, text)
	if len(terms) == 0 {
		return nil, nil
	}
	// Fetch more than k: superseded cards are history, not targets.
	rs, err := m.events.Search(tx, index.Query{Terms: terms, Scopes: []string{scope}, K: 4 * k})
	if err != nil {
		return nil, err
	}
	var out []extmem.Existing
	for _, r := range rs {
		ec, err := events.Get(tx, r.ID)
		if err != nil {
			return nil, danglingRef("event index", "event", r.ID, err)
		}
		if ec.Lifecycle != events.LifecycleActive {
			continue
		}
		out = append(out, extmem.Existing{
			ID: ec.ID, Title: ec.Title, Summary: ec.Summary, Quotes: ec.Quotes, EventType: string(ec.EventType),
			Status: string(ec.Status), Participants: ec.Participants, MentionedAt: ec.Temporal.MentionedAt,
			HappenedStart: ec.Temporal.HappenedStart, HappenedEnd: ec.Temporal.HappenedEnd, Lifecycle: string(ec.Lifecycle),
			Fingerprint: extmem.Fingerprint(ec.Title, ec.Summary), Score: r.Score, Rank: len(out) + 1,
		})
		if len(out) == k {
			break
		}
	}
	return out, nil
}

// prunePreviews drops the oldest uncommitted previews beyond maxPreviews.
func prunePreviews(tx *bolt.Tx) error {
	var previewed [][]byte
	b := tx.Bucket(kv.BucketImports)
	err := b.ForEach(func(k, v []byte) error {
		var r struct {
			State string `msgpack:"s"`
		}
		if _, err := kv.Decode(v, &r, importVersion); err == nil && r.State == importPreviewed {
			previewed = append(previewed, append([]byte(nil), k...))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for len(previewed) >= maxPreviews {
		if err := b.Delete(previewed[0]); err != nil {
			return err
		}
		previewed = previewed[1:]
	}
	return nil
}

// previewOf renders a record for callers, with the titles of the events
// each candidate was compared with as they are now.
func previewOf(tx *bolt.Tx, r *importRecord) (ImportPreview, error) {
	p := ImportPreview{ID: r.ID, Scope: r.Scope, Revision: r.Revision, Source: r.Source, ExportedAt: r.Exported.Time(),
		TextBytes: r.TextBytes, CreatedAt: r.Created.Time(), Candidates: make([]ImportCandidate, len(r.Decisions))}
	for i := range r.Decisions {
		d := &r.Decisions[i]
		c := ImportCandidate{Index: d.Index, Kind: d.Kind, Title: d.Title, Fingerprint: d.Fingerprint, Warnings: d.Warnings,
			Decision:  extmem.Decision{Action: extmem.Action(d.Action), Targets: d.Targets, Confidence: d.Confidence, Reason: d.Reason, Decider: d.Decider},
			Automatic: d.Confidence >= extmem.AutoConfidence, Applied: extmem.Action(d.Applied), AppliedTargets: d.AppliedTargets,
			EventID: d.Event, Confirmed: d.Confirmed}
		for j, id := range d.Compared {
			mt := ImportMatch{EventID: id}
			if j < len(d.Scores) {
				mt.Score = d.Scores[j]
			}
			if ec, err := events.Get(tx, id); err == nil {
				mt.Title = ec.Title
			} else if !errors.Is(err, kv.ErrNotFound) {
				return p, err
			}
			c.Compared = append(c.Compared, mt)
		}
		p.Candidates[i] = c
	}
	return p, nil
}

// Imports lists the stored import batches, oldest first.
func (m *Memory) Imports(ctx context.Context) ([]ImportBatch, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var out []ImportBatch
	err = m.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketImports).ForEach(func(k, _ []byte) error {
			r, err := getImport(tx, kv.ID(k))
			if err != nil {
				return err
			}
			b, err := batchOf(tx, &r)
			out = append(out, b)
			return err
		})
	})
	return out, err
}

// Import returns import batch id (ErrNotFound if unknown).
func (m *Memory) Import(ctx context.Context, id uint64) (ImportBatch, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return ImportBatch{}, err
	}
	defer release()
	var b ImportBatch
	err = m.db.View(func(tx *bolt.Tx) error {
		r, err := getImport(tx, id)
		if err != nil {
			return err
		}
		b, err = batchOf(tx, &r)
		return err
	})
	return b, err
}

func batchOf(tx *bolt.Tx, r *importRecord) (ImportBatch, error) {
	p, err := previewOf(tx, r)
	return ImportBatch{Preview: p, State: r.State, CommittedAt: r.Committed.Time(), UndoneAt: r.Undone.Time(),
		Thread: r.Thread, BlockID: r.Block, MessageID: r.Message}, err
}
