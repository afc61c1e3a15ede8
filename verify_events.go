package stratagate

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/wal"
)

// eventsPass audits every card's provenance: its source block exists, it
// cites only messages of that block, every quote occurs in a cited
// message, and its links point at existing cards (both ways for
// supersede).
func (v *verifier) eventsPass() error {
	err := v.forEach(kv.BucketEvents, "events", func(k, val []byte) error {
		id := kv.ID(k)
		c, err := events.Decode(val)
		if err != nil {
			v.fail("event.decode", id, "", "event %d does not decode: %v", id, err)
			return nil
		}
		if c.ID != id {
			v.fail("event.id", id, "", "event stored under %d says id %d", id, c.ID)
		}
		v.checkCardText(id, &c)
		v.cards[id] = &c
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range sortedMapKeys(v.cards) {
		c := v.cards[id]
		ba := v.blocks[c.SourceBlockID]
		if ba == nil {
			v.fail("event.block", id, "", "event %d names source block %d, which does not exist", id, c.SourceBlockID)
			continue
		}
		if len(c.SourceMessageIDs) == 0 {
			v.fail("event.source", id, "", "event %d cites no message", id)
		}
		var cited []layers.Message
		for _, mid := range c.SourceMessageIDs {
			if !ba.msgs[mid] {
				v.fail("event.source", id, "", "event %d cites message %d, which is not in its source block %d", id, mid, c.SourceBlockID)
				continue
			}
			m, err := layers.GetMessage(v.tx, mid)
			if err != nil {
				v.fail("event.source", id, "", "event %d cites message %d: %v", id, mid, err)
				continue
			}
			cited = append(cited, m)
		}
		for _, q := range c.Quotes {
			found := false
			for i := range cited {
				found = found || events.QuoteIn(q, cited[i].Content)
			}
			if !found {
				v.fail("event.quote", id, "", "event %d quotes %q, which occurs in no cited message", id, clipText(q))
			}
		}
		if c.Lifecycle == events.LifecycleUndone {
			continue // its import was undone: the cards it linked to were restored
		}
		for _, o := range c.SupersedesEventIDs {
			if oc := v.cards[o]; oc == nil {
				v.fail("event.link", id, "", "event %d supersedes event %d, which does not exist", id, o)
			} else if s := oc.SupersededBy; s == 0 || v.cards[s] == nil || !slices.Contains(v.cards[s].SupersedesEventIDs, o) {
				// Several corrections may supersede one card; it names the
				// latest, which must list it.
				v.fail("event.link", id, "", "event %d supersedes event %d, which names no valid successor (%d)", id, o, s)
			}
		}
		if s := c.SupersededBy; s != 0 && (v.cards[s] == nil || !slices.Contains(v.cards[s].SupersedesEventIDs, id)) {
			v.fail("event.link", id, "", "event %d is superseded by %d, which does not list it", id, s)
		}
		for _, o := range c.ConflictsWithEventIDs {
			if v.cards[o] == nil {
				v.fail("event.link", id, "", "event %d conflicts with event %d, which does not exist", id, o)
			}
		}
	}
	return nil
}

// checkCardText checks what extraction validated in a card's text: every
// field valid UTF-8, title and summary non-empty and within their limits.
func (v *verifier) checkCardText(id uint64, c *events.Card) {
	fields := []struct {
		name string
		vals []string
	}{
		{"title", []string{c.Title}}, {"summary", []string{c.Summary}}, {"tag", c.Tags}, {"quote", c.Quotes},
		{"participant", c.Participants}, {"entity", c.Entities}, {"time text", []string{c.Temporal.OriginalText}},
		{"scope", []string{c.Scope}}, {"thread", []string{c.Thread}},
	}
	for _, f := range fields {
		for _, s := range f.vals {
			if !utf8.ValidString(s) {
				v.fail("event.text", id, "", "event %d: %s %q is not valid UTF-8", id, f.name, clipText(s))
			}
		}
	}
	for _, f := range []struct {
		name string
		s    string
		max  int
	}{{"title", c.Title, events.MaxTitleRunes}, {"summary", c.Summary, events.MaxSummaryRunes}} {
		if n := utf8.RuneCountInString(strings.TrimSpace(f.s)); n == 0 || n > f.max {
			v.fail("event.text", id, "", "event %d: %s of %d runes, want 1–%d", id, f.name, n, f.max)
		}
	}
}

// blockEventsPass checks the extraction records: each lists existing cards
// of that block, no card is listed twice (duplicated extraction), every
// card is listed, and every ready block is extracted or has its extract
// job queued or failed.
func (v *verifier) blockEventsPass() error {
	listed := map[uint64]uint64{}
	extracted := map[uint64]bool{}
	err := v.forEach(kv.BucketBlockEvents, "block_events", func(k, _ []byte) error {
		block := kv.ID(k)
		extracted[block] = true
		ids, _, err := events.BlockCards(v.tx, block)
		if err != nil {
			v.fail("block_events.decode", block, "", "extraction record of block %d does not decode: %v", block, err)
			return nil
		}
		if v.blocks[block] == nil {
			v.fail("block_events.block", block, "", "extraction record for block %d, which does not exist", block)
		}
		for _, id := range ids {
			c := v.cards[id]
			switch {
			case c == nil:
				v.fail("block_events.card", block, "", "block %d lists event %d, which does not exist", block, id)
			case c.SourceBlockID != block:
				v.fail("block_events.card", block, "", "block %d lists event %d, whose source block is %d", block, id, c.SourceBlockID)
			}
			if prev, dup := listed[id]; dup {
				v.fail("block_events.duplicate", id, "", "event %d is listed by blocks %d and %d", id, prev, block)
			}
			listed[id] = block
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range sortedMapKeys(v.cards) {
		if _, ok := listed[id]; !ok {
			v.fail("block_events.card", id, "", "event %d is in no block's extraction record", id)
		}
	}
	for _, id := range sortedMapKeys(v.blocks) {
		if v.blocks[id].state != layers.StateReady || extracted[id] {
			continue
		}
		switch st, ok := v.extractJobs[id]; {
		case !ok:
			v.fail("block.extract", id, v.blocks[id].thread, "block %d is ready but has no extraction record and no extract job", id)
		case st == wal.StateDone:
			v.fail("block.extract", id, v.blocks[id].thread, "block %d's extract job is done but its extraction record is missing", id)
		}
	}
	return nil
}

// usePass checks that every weight record belongs to an existing event
// named by some recorded use receipt: only RecordMemoryUse writes weights.
// Recorded assessments decode, are sufficient and cite existing events; a
// use receipt whose assessment is not recorded, or does not cite what it
// adopted, is a warning (files written before assessments were recorded
// hold such receipts legitimately).
func (v *verifier) usePass() error {
	assessed := map[string]*assessmentRecord{}
	err := v.forEach(kv.BucketAssessments, "assessments", func(k, val []byte) error {
		var r assessmentRecord
		if _, err := kv.Decode(val, &r, assessmentVersion); err != nil {
			v.fail("assessment.decode", 0, string(k), "assessment %q does not decode: %v", k, err)
			return nil
		}
		if r.ID != string(k) || r.Verdict != "sufficient" {
			v.fail("assessment.record", 0, string(k), "assessment stored under %q says id %q, verdict %q", k, r.ID, r.Verdict)
		}
		for _, id := range r.EventIDs {
			if v.cards[id] == nil {
				v.fail("assessment.event", id, string(k), "assessment %q cites event %d, which does not exist", k, id)
			}
		}
		assessed[string(k)] = &r
		return nil
	})
	if err != nil {
		return err
	}
	used := map[uint64]bool{}
	err = v.forEach(kv.BucketUseReceipts, "use.receipts", func(k, val []byte) error {
		var r useReceipt
		if _, err := kv.Decode(val, &r, useReceiptVersion); err != nil {
			v.fail("use.receipt", 0, string(k), "use receipt %q does not decode: %v", k, err)
			return nil
		}
		for _, id := range append(r.EventIDs, r.Reinforced...) {
			used[id] = true
		}
		if a := assessed[r.AssessmentID]; a == nil {
			v.add("use.assessment", ViolationWarning, 0, string(k), "use receipt %q names assessment %q, which is not recorded", k, r.AssessmentID)
		} else if err := checkBacked(a, r.EventIDs, r.NodeIDs); err != nil {
			v.fail("use.assessment", 0, string(k), "use receipt %q: %v", k, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return v.forEach(kv.BucketUse, "use", func(k, _ []byte) error {
		id := kv.ID(k)
		if v.cards[id] == nil {
			v.fail("use.event", id, "", "weight record for event %d, which does not exist", id)
		} else if !used[id] {
			v.fail("use.bookkeeping", id, "", "event %d has a weight but no recorded use names it", id)
		}
		return nil
	})
}

func (v *verifier) eventsIndexIDsPass() error {
	return v.indexIDs(v.m.events, "event", len(v.cards) > 0, func(id uint64) bool { return v.cards[id] != nil })
}

func clipText(s string) string {
	r := []rune(s)
	if len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
