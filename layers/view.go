package layers

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrLevel is returned for a level outside 0–5.
var ErrLevel = errors.New("sg: block level must be 0–5")

// View is one level of one block.
type View struct {
	BlockID  uint64
	Level    int
	State    State
	Text     string
	Messages []Message // the verbatim messages, at level 5 only
}

// Render returns block b at level; msgs are b's messages, needed for level
// 5. Levels 3 and 4 are rendered from msgs when they are given, else taken
// from b.L3 and b.L4 (see LoadRenderings). L0–L2 exist only once the block is ready: asking for
// them earlier is ErrNotReady, never a silent substitute.
func Render(b *Block, level int, msgs []Message) (View, error) {
	v := View{BlockID: b.ID, Level: level, State: b.State}
	if level < 0 || level > 5 {
		return View{}, fmt.Errorf("%w: got %d", ErrLevel, level)
	}
	if level <= 2 && b.State != StateReady {
		return View{}, fmt.Errorf("%w: block %d is %s, L%d comes from its derivation", ErrNotReady, b.ID, b.State, level)
	}
	switch level {
	case 0:
		v.Text = b.Title + "\ntags: " + strings.Join(b.Tags, ", ") + "\n"
	case 1:
		v.Text = b.Summary + "\n"
	case 2:
		var s strings.Builder
		for _, f := range b.Facts {
			s.WriteString("- ")
			s.WriteString(f.Text)
			s.WriteString(" [")
			for i, id := range f.MessageIDs {
				if i > 0 {
					s.WriteString(", ")
				}
				s.WriteString("#")
				s.WriteString(strconv.FormatUint(id, 10))
			}
			s.WriteString("]\n")
		}
		v.Text = s.String()
	case 3:
		v.Text = b.L3
		if len(msgs) > 0 {
			v.Text = RenderL3(msgs)
		}
	case 4:
		v.Text = b.L4
		if len(msgs) > 0 {
			v.Text = RenderL4(msgs)
		}
	case 5:
		v.Text = RenderL5(msgs)
		v.Messages = msgs
	}
	return v, nil
}
