package locomo

import (
	"context"
	"fmt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
)

// Coverage measures card coverage: how many gold evidence turns of the
// measured questions (categories 1–4) are the source of at least one event
// card. A turn without a card can be found by SearchRaw but never by
// SearchEvents, so this bounds what the event channel can recall.
// Covered ≤ Turns.
type Coverage struct {
	// Turns counts distinct gold evidence turns that map to a stored
	// message (a turn cited by several questions counts once).
	Turns int
	// Covered counts those whose message is a source message of a card.
	Covered int
}

// Fraction is Covered / Turns (0 when no turn was counted).
func (c Coverage) Fraction() float64 {
	if c.Turns == 0 {
		return 0
	}
	return float64(c.Covered) / float64(c.Turns)
}

// String renders the coverage as "0.612 (30 of 49 gold turns)".
func (c Coverage) String() string {
	return fmt.Sprintf("%.3f (%d of %d gold turns)", c.Fraction(), c.Covered, c.Turns)
}

// CardCoverage is the coverage of conv's gold evidence turns by cards; m
// maps conv's dia_ids to the stored message ids. Cards of other
// conversations (other message ids) are ignored.
func CardCoverage(conv *Conversation, m Mapping, cards []events.Card) Coverage {
	sources := map[uint64]bool{}
	for i := range cards {
		for _, id := range cards[i].SourceMessageIDs {
			sources[id] = true
		}
	}
	var cov Coverage
	seen := map[string]bool{}
	for _, q := range conv.QA {
		if !Measured(q.Category) {
			continue
		}
		for _, dia := range q.Evidence {
			id, ok := m.DiaToID[dia]
			if !ok || seen[dia] {
				continue
			}
			seen[dia] = true
			cov.Turns++
			if sources[id] {
				cov.Covered++
			}
		}
	}
	return cov
}

// Measure adds conv's card coverage on mem (every card mem holds) to c.
func (c *Coverage) Measure(ctx context.Context, mem *stratagate.Memory, conv *Conversation, m Mapping) error {
	cards, err := allCards(ctx, mem)
	if err != nil {
		return err
	}
	one := CardCoverage(conv, m, cards)
	c.Turns += one.Turns
	c.Covered += one.Covered
	return nil
}
