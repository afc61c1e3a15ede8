package stratagate

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/extmem"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/wal"
)

// ImportCommit applies preview id in one transaction: the whole imported
// text becomes a permanent source block (L5 verbatim) in its own thread,
// "import/<id>"; every applied decision that keeps the candidate creates a
// card citing that block and quoting the imported text verbatim — merge
// and supersede cards supersede their targets, conflict cards link both
// ways — and the cards are projected into the graph by a durable job.
// Decisions below extmem.AutoConfidence apply only when c accepts (or
// overrides) them; the others are reported in ImportResult.Pending. A
// store changed since the preview is ErrImportStale, a batch not in the
// previewed state ErrImportState; then nothing is written.
func (m *Memory) ImportCommit(ctx context.Context, id uint64, c Confirmations) (ImportResult, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return ImportResult{}, err
	}
	defer release()
	if m.opts.ReadOnly {
		return ImportResult{}, ErrReadOnly
	}
	var res ImportResult
	err = m.rawUpdate(func(tx *bolt.Tx) error {
		r, err := getImport(tx, id)
		if err != nil {
			return err
		}
		if r.State != importPreviewed {
			return fmt.Errorf("%w: import %d is %s", ErrImportState, id, r.State)
		}
		if rev := revision(tx); rev != r.Revision {
			return fmt.Errorf("%w: import %d was previewed at revision %s, the store is at %s; preview it again", ErrImportStale, id, r.Revision, rev)
		}
		doc, err := extmem.Parse(r.Text)
		if err != nil {
			return fmt.Errorf("%w: import %d: stored text no longer parses: %w", kv.ErrCorrupt, id, err)
		}
		if len(doc.Memories) != len(r.Decisions) {
			return fmt.Errorf("%w: import %d: %d candidates, %d decisions", kv.ErrCorrupt, id, len(doc.Memories), len(r.Decisions))
		}
		if err := resolveChoices(&r, &c); err != nil {
			return err
		}
		res, err = m.applyImport(tx, &r, doc)
		return err
	})
	if err != nil {
		return ImportResult{}, err
	}
	m.runner.Notify()
	return res, nil
}

// resolveChoices sets each decision's Applied action from the preview and
// c, or reports a confirmation that names no candidate or an invalid
// choice.
func resolveChoices(r *importRecord, c *Confirmations) error {
	byIndex := map[int]*decisionRecord{}
	for i := range r.Decisions {
		byIndex[r.Decisions[i].Index] = &r.Decisions[i]
	}
	known := func(what string, i int) (*decisionRecord, error) {
		d := byIndex[i]
		if d == nil {
			return nil, invalid(ErrInvalidInput, "%s names candidate %d; the import has %d (0–%d)", what, i, len(r.Decisions), len(r.Decisions)-1)
		}
		return d, nil
	}
	accept := map[int]bool{}
	for _, i := range c.Accept {
		if _, err := known("Accept", i); err != nil {
			return err
		}
		accept[i] = true
	}
	reject := map[int]bool{}
	for _, i := range c.Reject {
		if _, err := known("Reject", i); err != nil {
			return err
		}
		reject[i] = true
	}
	for i, ch := range c.Override {
		d, err := known("Override", i)
		if err != nil {
			return err
		}
		offered := map[uint64]bool{}
		for _, id := range d.Compared {
			offered[id] = true
		}
		if err := checkChoice(ch.Action, ch.Targets, offered, 1); err != nil {
			return fmt.Errorf("override of candidate %d: %w", i, err)
		}
	}
	for i := range r.Decisions {
		d := &r.Decisions[i]
		if ch, ok := c.Override[d.Index]; ok && !reject[d.Index] {
			d.Applied, d.AppliedTargets, d.Confirmed = string(ch.Action), slices.Clone(ch.Targets), true
			continue
		}
		switch {
		case reject[d.Index]:
			d.Applied, d.Confirmed = string(extmem.ActionIgnore), true
		case d.Confidence >= extmem.AutoConfidence:
			d.Applied, d.AppliedTargets = d.Action, d.Targets
		case c.AcceptAll || accept[d.Index]:
			d.Applied, d.AppliedTargets, d.Confirmed = d.Action, d.Targets, true
		}
	}
	return nil
}

// applyImport writes the source block, the cards and the journal of r
// inside tx.
func (m *Memory) applyImport(tx *bolt.Tx, r *importRecord, doc *extmem.Document) (ImportResult, error) {
	now := m.opts.Clock().Round(0)
	thread := ImportThreadPrefix + strconv.FormatUint(r.ID, 10)
	msgs := []Message{{Role: layers.RoleUser, Content: r.Text, At: now}}
	tr, err := layers.AppendTurn(tx, thread, r.Scope, "", msgs, 1, now)
	if err != nil {
		return ImportResult{}, err
	}
	if err := m.stageRaw(&msgs[0], r.Scope, messageTerms(&msgs[0])); err != nil {
		return ImportResult{}, err
	}
	r.Thread, r.Block, r.Message = thread, tr.SealedBlockID, msgs[0].ID
	res := ImportResult{BatchID: r.ID, Thread: thread, BlockID: r.Block, MessageID: r.Message}
	before := map[uint64][]byte{}
	var created []uint64
	for i := range r.Decisions {
		d := &r.Decisions[i]
		switch extmem.Action(d.Applied) {
		case "":
			res.Pending = append(res.Pending, d.Index)
			continue
		case extmem.ActionIgnore:
			res.Applied++
			continue
		}
		for _, t := range d.AppliedTargets {
			if _, ok := before[t]; ok {
				continue
			}
			raw, err := events.RawRecord(tx, t)
			if err != nil {
				return ImportResult{}, fmt.Errorf("import %d: candidate %d: %w", r.ID, d.Index, err)
			}
			before[t] = raw
			res.Changed = append(res.Changed, t)
		}
		card, err := importCard(tx, &doc.Memories[i], d, &msgs[0], r, tr.SealedBlockID, now)
		if err != nil {
			return ImportResult{}, err
		}
		if err := events.Insert(tx, m.events, &card); err != nil {
			return ImportResult{}, err
		}
		d.Event = card.ID
		created = append(created, card.ID)
		res.Applied++
	}
	for _, t := range res.Changed {
		raw, err := events.RawRecord(tx, t)
		if err != nil {
			return ImportResult{}, err
		}
		r.Journal = append(r.Journal, cardImage{ID: t, Before: before[t], After: rawHash(raw)})
	}
	res.Created = created
	if err := events.SetBlockCards(tx, r.Block, created); err != nil {
		return ImportResult{}, err
	}
	if err := tx.Bucket(kv.BucketImportBlocks).Put(kv.Key(r.Block), kv.Key(r.ID)); err != nil {
		return ImportResult{}, err
	}
	if _, err := wal.Enqueue(tx, wal.KindProject, r.Block, now); err != nil {
		return ImportResult{}, err
	}
	if err := bumpRevision(tx); err != nil {
		return ImportResult{}, err
	}
	r.State, r.Committed, r.Text = importCommitted, kv.ToStamp(now), ""
	return res, putImport(tx, r)
}

// importCard builds the card of one applied candidate: its text, quotes
// that occur verbatim in the source message, its dates as the document
// gave them (never the import's), and its links.
func importCard(tx *bolt.Tx, c *extmem.Candidate, d *decisionRecord, msg *Message, r *importRecord, block uint64, now time.Time) (events.Card, error) {
	card := events.Card{
		Scope: r.Scope, Thread: r.Thread, SourceBlockID: block, SourceMessageIDs: []uint64{msg.ID},
		Title: firstText(c.Title, c.Summary, c.OriginalText), Summary: firstText(c.Summary, c.Title, c.OriginalText),
		Quotes: importQuotes(c, msg.Content), EventType: importType(c), Status: events.NormalizeStatus(c.Temporal.Status),
		Participants: importNames(c.Temporal.Participants), Criticality: importCriticality(c),
		Tags:      importTags(c),
		Lifecycle: events.LifecycleActive, CreatedAt: now,
		Temporal: events.Temporal{
			MentionedAt: c.Temporal.MentionedAt, HappenedStart: c.Temporal.HappenedStart, HappenedEnd: c.Temporal.HappenedEnd,
			OriginalText: clipTo(c.Temporal.OriginalText, events.MaxTitleRunes), Precision: orUnknown(c.Temporal.Precision),
			Basis: orUnknown(c.Temporal.Basis),
		},
	}
	card.Title = clipTo(card.Title, events.MaxTitleRunes)
	switch extmem.Action(d.Applied) {
	case extmem.ActionMerge, extmem.ActionSupersede:
		card.SupersedesEventIDs = slices.Clone(d.AppliedTargets)
		if extmem.Action(d.Applied) == extmem.ActionMerge {
			if err := mergeInto(tx, &card, d.AppliedTargets); err != nil {
				return card, err
			}
		}
	case extmem.ActionConflict:
		card.ConflictsWithEventIDs = slices.Clone(d.AppliedTargets)
	}
	card.Summary = clipTo(card.Summary, events.MaxSummaryRunes)
	return card, nil
}

// mergeInto makes card the canonical event of itself and targets: their
// summaries are kept after its own where room allows, their participants
// are added, and their happened interval is kept when the candidate gave
// none.
func mergeInto(tx *bolt.Tx, card *events.Card, targets []uint64) error {
	for _, t := range targets {
		old, err := events.Get(tx, t)
		if err != nil {
			return err
		}
		if s := strings.TrimSpace(old.Summary); s != "" && !strings.Contains(strings.ToLower(card.Summary), strings.ToLower(s)) &&
			utf8.RuneCountInString(card.Summary)+utf8.RuneCountInString(s)+12 <= events.MaxSummaryRunes {
			card.Summary += " Earlier: " + s
		}
		for _, p := range old.Participants {
			if !slices.ContainsFunc(card.Participants, func(q string) bool { return strings.EqualFold(p, q) }) && len(card.Participants) < events.MaxNames {
				card.Participants = append(card.Participants, p)
			}
		}
		if card.Temporal.HappenedStart.IsZero() && !old.Temporal.HappenedStart.IsZero() {
			card.Temporal.HappenedStart, card.Temporal.HappenedEnd = old.Temporal.HappenedStart, old.Temporal.HappenedEnd
			card.Temporal.Precision, card.Temporal.Basis = old.Temporal.Precision, old.Temporal.Basis
			if card.Temporal.OriginalText == "" {
				card.Temporal.OriginalText = old.Temporal.OriginalText
			}
		}
	}
	return nil
}

func firstText(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return "imported memory"
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// importQuotes returns up to events.MaxQuotes quotes of c that occur in
// content (the stored import text): its quotes, else its original text,
// else its title or summary, each clipped to events.MaxQuoteRunes (a
// prefix of a verbatim span is verbatim).
func importQuotes(c *extmem.Candidate, content string) []string {
	var out []string
	add := func(q string) {
		q = strings.TrimSpace(q)
		if q == "" || len(out) == events.MaxQuotes {
			return
		}
		if utf8.RuneCountInString(q) > events.MaxQuoteRunes {
			q = strings.TrimSpace(string([]rune(q)[:events.MaxQuoteRunes]))
		}
		if events.QuoteIn(q, content) && !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	for _, q := range c.Verbatim.Quotes {
		add(q)
	}
	if len(out) == 0 {
		add(c.Verbatim.OriginalText)
	}
	if len(out) == 0 {
		add(c.Title)
		add(c.Summary)
	}
	return out
}

// importType maps a candidate onto an event type: its own event_type when
// given, else by kind (instructions and preferences are preferences).
func importType(c *extmem.Candidate) events.Type {
	if c.Temporal.EventType != "" {
		return events.NormalizeType(c.Temporal.EventType)
	}
	switch c.Kind {
	case extmem.KindInstruction, extmem.KindPreference:
		return events.TypePreference
	case extmem.KindEvent:
		return events.TypeOther
	}
	return events.TypeFact
}

// importCriticality is the candidate's own criticality, else preference
// for instructions and preferences (their weight floor keeps them), else
// routine.
func importCriticality(c *extmem.Candidate) events.Criticality {
	if c.Criticality != "" {
		return events.NormalizeCriticality(c.Criticality)
	}
	if c.Kind == extmem.KindInstruction || c.Kind == extmem.KindPreference {
		return events.CriticalityPreference
	}
	return events.CriticalityRoutine
}

func importNames(in []string) []string {
	var out []string
	for _, n := range in {
		if n = strings.TrimSpace(n); n != "" && utf8.RuneCountInString(n) <= events.MaxNameRunes && len(out) < events.MaxNames {
			out = append(out, n)
		}
	}
	return out
}

// importTags marks the card as imported, with its kind and category.
func importTags(c *extmem.Candidate) []string {
	tags := []string{"import", string(c.Kind)}
	if cat := strings.ToLower(strings.TrimSpace(c.Category)); cat != "" && !slices.Contains(tags, cat) {
		tags = append(tags, clipTo(cat, 32))
	}
	return tags
}
