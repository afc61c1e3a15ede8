package events

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stratagate/stratagate/events/temporal"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
)

// Limits on a card, enforced on every model's output.
const (
	MaxTitleRunes    = 120
	MaxSummaryRunes  = 600
	MaxTags          = 8
	MaxQuotes        = 4
	MaxQuoteRunes    = 500
	MaxCites         = 8
	MaxNames         = 12
	MaxNameRunes     = 64
	MaxCardsPerBlock = 48
)

// Source is what validation checks a proposed card against: the target
// block, its messages, and the existing events it may link to.
type Source struct {
	Block    layers.Block
	Messages []layers.Message
	Existing map[uint64]bool // ids the card may supersede or conflict with
	Now      time.Time
}

// Build validates a proposed card against src and returns the card to
// store (without an id). It rejects — never repairs — a card that cites a
// message outside the block, quotes text that is not in a cited message,
// names a participant absent from the cited messages, or links to an event
// it was not shown.
func Build(p *model.ExtractedEvent, src *Source) (Card, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidCard, fmt.Sprintf(format, a...))
	}
	text := func(field, s string, maxRunes int, required bool) (string, error) {
		s = strings.TrimSpace(s)
		if !utf8.ValidString(s) {
			return "", bad("%s: invalid UTF-8", field)
		}
		n := utf8.RuneCountInString(s)
		if (required && n == 0) || n > maxRunes {
			return "", bad("%s: %d runes, want %d–%d", field, n, b2i(required), maxRunes)
		}
		return s, nil
	}
	c := Card{
		Scope: src.Block.Scope, Thread: src.Block.Thread, SourceBlockID: src.Block.ID,
		EventType: NormalizeType(p.EventType), Status: NormalizeStatus(p.Status),
		Criticality: NormalizeCriticality(p.Criticality), Lifecycle: LifecycleActive, CreatedAt: src.Now.UTC(),
	}
	var err error
	if c.Title, err = text("title", p.Title, MaxTitleRunes, true); err != nil {
		return Card{}, err
	}
	if c.Summary, err = text("summary", p.Summary, MaxSummaryRunes, true); err != nil {
		return Card{}, err
	}
	// Citations: 1–8 distinct messages, all of the target block.
	if len(p.MessageIDs) == 0 || len(p.MessageIDs) > MaxCites {
		return Card{}, bad("cites %d messages, want 1–%d", len(p.MessageIDs), MaxCites)
	}
	byID := make(map[uint64]*layers.Message, len(src.Messages))
	for i := range src.Messages {
		byID[src.Messages[i].ID] = &src.Messages[i]
	}
	var cited []*layers.Message
	for _, id := range p.MessageIDs {
		m, ok := byID[id]
		if !ok {
			return Card{}, bad("cites message %d, which is not in block %d", id, src.Block.ID)
		}
		if !slices.Contains(c.SourceMessageIDs, id) {
			c.SourceMessageIDs = append(c.SourceMessageIDs, id)
			cited = append(cited, m)
		}
	}
	slices.Sort(c.SourceMessageIDs)
	// Quotes: verbatim (after whitespace/case folding) in a cited message.
	if len(p.Quotes) > MaxQuotes {
		return Card{}, bad("%d quotes, want at most %d", len(p.Quotes), MaxQuotes)
	}
	for _, q := range p.Quotes {
		q, err := text("quote", q, MaxQuoteRunes, true)
		if err != nil {
			return Card{}, err
		}
		found := false
		for _, m := range cited {
			if strings.Contains(fold(m.Content), fold(q)) {
				found = true
				break
			}
		}
		if !found {
			return Card{}, bad("quote %q occurs in no cited message", clip(q))
		}
		c.Quotes = append(c.Quotes, q)
	}
	if len(p.Tags) > MaxTags {
		return Card{}, bad("%d tags, want at most %d", len(p.Tags), MaxTags)
	}
	for _, t := range p.Tags {
		if t, err = text("tag", strings.ToLower(t), MaxNameRunes, true); err != nil {
			return Card{}, err
		}
		if !slices.Contains(c.Tags, t) {
			c.Tags = append(c.Tags, t)
		}
	}
	// Participants: a cited message's speaker or a name in its text.
	if c.Participants, err = names("participant", p.Participants, cited, true); err != nil {
		return Card{}, err
	}
	if c.Entities, err = names("entity", p.Entities, cited, false); err != nil {
		return Card{}, err
	}
	for _, id := range p.Supersedes {
		if !src.Existing[id] {
			return Card{}, bad("supersedes event %d, which was not offered", id)
		}
		if !slices.Contains(c.SupersedesEventIDs, id) {
			c.SupersedesEventIDs = append(c.SupersedesEventIDs, id)
		}
	}
	for _, id := range p.ConflictsWith {
		if !src.Existing[id] {
			return Card{}, bad("conflicts with event %d, which was not offered", id)
		}
		if !slices.Contains(c.ConflictsWithEventIDs, id) && !slices.Contains(c.SupersedesEventIDs, id) {
			c.ConflictsWithEventIDs = append(c.ConflictsWithEventIDs, id)
		}
	}
	// Time: resolve the expression against the message that contains it.
	c.Temporal = Temporal{MentionedAt: cited[0].At, Precision: string(temporal.PrecisionUnknown), Basis: string(temporal.BasisUnknown)}
	if tt := strings.TrimSpace(p.TimeText); tt != "" {
		if tt, err = text("time_text", tt, MaxTitleRunes, true); err != nil {
			return Card{}, err
		}
		ref := cited[0]
		for _, m := range cited {
			if strings.Contains(fold(m.Content), fold(tt)) {
				ref = m
				break
			}
		}
		r := resolveIn(c.Quotes, ref.Content, tt, ref.At)
		c.Temporal = Temporal{
			MentionedAt: ref.At, OriginalText: tt, Precision: string(r.Precision), Basis: string(r.Basis), Approx: r.Approx,
		}
		if r.Known() {
			if !r.End.IsZero() && r.End.Before(r.Start) {
				return Card{}, bad("time %q resolves to an inverted interval", tt)
			}
			c.Temporal.HappenedStart, c.Temporal.HappenedEnd = r.Start, r.End
		}
	}
	return c, nil
}

func names(field string, in []string, cited []*layers.Message, speakers bool) ([]string, error) {
	if len(in) > MaxNames {
		return nil, fmt.Errorf("%w: %d %ss, want at most %d", ErrInvalidCard, len(in), field, MaxNames)
	}
	var out []string
	for _, n := range in {
		n = strings.TrimSpace(n)
		if n == "" || !utf8.ValidString(n) || utf8.RuneCountInString(n) > MaxNameRunes {
			return nil, fmt.Errorf("%w: %s %q", ErrInvalidCard, field, clip(n))
		}
		ok := false
		for _, m := range cited {
			if (speakers && strings.EqualFold(m.Speaker, n)) || strings.Contains(fold(m.Content), fold(n)) {
				ok = true
				break
			}
		}
		if !ok {
			return nil, fmt.Errorf("%w: %s %q is neither a speaker nor named in the cited messages", ErrInvalidCard, field, clip(n))
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// fold lower-cases s and collapses runs of whitespace to one space, so
// that a quote matches across line breaks and case.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func clip(s string) string {
	if utf8.RuneCountInString(s) <= 60 {
		return s
	}
	r := []rune(s)
	return string(r[:60]) + "…"
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// QuoteIn reports whether quote occurs in content with case and runs of
// whitespace folded, the rule Build applies.
func QuoteIn(quote, content string) bool { return strings.Contains(fold(content), fold(quote)) }

// resolveIn resolves the time expression tt where it occurs: in the
// first quote that holds it, else in content (the citing message), the
// first temporal.Find match whose text is tt, so that its sentence counts
// ("I'll start on Friday" is the coming Friday, "I moved on Friday" the
// last one); tt alone when Find reports it in neither.
func resolveIn(quotes []string, content, tt string, at time.Time) temporal.Resolution {
	for _, text := range append(slices.Clip(quotes), content) {
		for _, m := range temporal.Find(text, at) {
			if strings.EqualFold(strings.TrimSpace(m.Text), tt) {
				return m.Resolution
			}
		}
	}
	return temporal.Resolve(tt, at)
}
