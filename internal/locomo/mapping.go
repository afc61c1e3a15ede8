package locomo

import (
	"context"
	"fmt"

	"github.com/stratagate/stratagate"
)

// Role is the role of every LoCoMo message: both speakers are people.
const Role = "user"

// Content returns the message content of t: its text, plus
// " [image: <caption>]" for an image turn; "[no text]" when both are empty.
func (t *Turn) Content() string {
	content := t.Text
	if t.BlipCaption != "" {
		if content != "" {
			content += " "
		}
		content += "[image: " + t.BlipCaption + "]"
	}
	if content == "" {
		content = "[no text]"
	}
	return content
}

// TurnDiaIDs returns the dia_ids of the messages of each turn that Turns
// returns, in the same order: turns of two consecutive messages, a session
// boundary ending a turn.
func (c *Conversation) TurnDiaIDs() [][]string {
	var out [][]string
	for _, s := range c.Sessions {
		for i := 0; i < len(s.Turns); i += 2 {
			g := []string{s.Turns[i].DiaID}
			if i+1 < len(s.Turns) {
				g = append(g, s.Turns[i+1].DiaID)
			}
			out = append(out, g)
		}
	}
	return out
}

// Turns returns the conversation as StrataGate turns of thread and scope,
// in order (see the package documentation for the protocol). Append them
// one by one, in order, and keep the TurnRefs for MessageMap.
func (c *Conversation) Turns(thread, scope string) []stratagate.Turn {
	var out []stratagate.Turn
	for _, s := range c.Sessions {
		for i := 0; i < len(s.Turns); i += 2 {
			t := stratagate.Turn{Thread: thread, Scope: scope, ReceiptID: c.ID + "-" + s.Turns[i].DiaID}
			for j := i; j < i+2 && j < len(s.Turns); j++ {
				m := &s.Turns[j]
				t.Messages = append(t.Messages, stratagate.Message{
					Role: Role, Speaker: m.Speaker, Content: m.Content(), At: m.At,
				})
			}
			out = append(out, t)
		}
	}
	return out
}

// Mapping links stored message ids and dia_ids.
type Mapping struct {
	IDToDia map[uint64]string
	DiaToID map[string]uint64
}

// MessageMap builds the message id ↔ dia_id maps from the TurnRefs that
// Append returned for the turns of Turns, in the same order. It fails when
// refs do not match the turns in number or in message counts.
func (c *Conversation) MessageMap(refs []stratagate.TurnRef) (Mapping, error) {
	groups := c.TurnDiaIDs()
	if len(refs) != len(groups) {
		return Mapping{}, fmt.Errorf("locomo: %s: %d turn refs for %d turns", c.ID, len(refs), len(groups))
	}
	m := Mapping{IDToDia: map[uint64]string{}, DiaToID: map[string]uint64{}}
	for i, g := range groups {
		if len(refs[i].MessageIDs) != len(g) {
			return Mapping{}, fmt.Errorf("locomo: %s: turn %d has %d message ids, want %d", c.ID, i, len(refs[i].MessageIDs), len(g))
		}
		for j, dia := range g {
			id := refs[i].MessageIDs[j]
			m.IDToDia[id] = dia
			if _, ok := m.DiaToID[dia]; !ok {
				m.DiaToID[dia] = id
			}
		}
	}
	return m, nil
}

// Ingest appends the conversation's turns to mem as one thread and returns
// the id ↔ dia_id maps. Turns already stored (same receipt) are not stored
// again and still map.
func Ingest(ctx context.Context, mem *stratagate.Memory, c *Conversation, thread, scope string) (Mapping, error) {
	turns := c.Turns(thread, scope)
	refs := make([]stratagate.TurnRef, 0, len(turns))
	for i, t := range turns {
		ref, err := mem.Append(ctx, t)
		if err != nil {
			return Mapping{}, fmt.Errorf("locomo: %s: append turn %d (%s): %w", c.ID, i, t.ReceiptID, err)
		}
		refs = append(refs, ref)
	}
	return c.MessageMap(refs)
}
