package layers

import (
	"fmt"
	"strconv"
	"strings"
)

// ContextBlock says how one block appears in a ContextView.
type ContextBlock struct {
	BlockID uint64
	Seq     uint64
	State   State
	Age     int // -1 for pending and failed blocks, which do not age
	Level   int // the level shown; -1 when the block was omitted for budget
	Tokens  int
}

// ContextView is a thread's history laid out for a prompt: recent history in
// detail, older history as a compact index, within a token budget.
type ContextView struct {
	Thread  string
	Scope   string
	Budget  int
	Tokens  int // estimated tokens of Text
	Text    string
	Blocks  []ContextBlock // in Seq order
	Tail    []Message      // open-tail messages included, in order
	Omitted int            // blocks and tail messages left out for budget
}

// BuildContext lays out a thread's blocks and open tail within budget
// tokens. The open tail (newest first) takes priority, then blocks from
// newest to oldest, each at its decay level (pending and failed blocks at
// L4, since they have no L0–L2 yet); a block that does not fit is stepped
// down to shallower levels, and omitted only if even its shallowest level
// does not fit. Text lists everything in chronological order.
func BuildContext(th Thread, blocks []Block, tail []Message, budget int, coef float64) ContextView {
	cv := ContextView{Thread: th.Name, Scope: th.Scope, Budget: budget, Blocks: make([]ContextBlock, len(blocks))}
	// Reserve the tail heading so that Text never exceeds the budget.
	left := budget - EstimateTokens(tailHeading(len(tail)))
	// Open tail: keep the newest messages that fit.
	rendered := make([]string, len(tail))
	first := len(tail)
	for i := len(tail) - 1; i >= 0; i-- {
		rendered[i] = RenderL4(tail[i : i+1])
		t := EstimateTokens(rendered[i])
		if t > left {
			break
		}
		left -= t
		first = i
	}
	cv.Omitted += first
	cv.Tail = tail[first:]

	ages := Ages(blocks)
	texts := make([]string, len(blocks))
	for i := len(blocks) - 1; i >= 0; i-- {
		b := &blocks[i]
		cb := ContextBlock{BlockID: b.ID, Seq: b.Seq, State: b.State, Age: ages[i], Level: -1}
		want, floor := 4, 3
		if b.State == StateReady {
			want, floor = LevelForWeight(Weight(ages[i], coef)), 0
		}
		for lvl := min(want, 4); lvl >= floor; lvl-- {
			// L5 in a context is the L4 rendering: the verbatim record
			// stays one ExpandBlock away.
			v, err := Render(b, lvl, nil)
			if err != nil {
				continue
			}
			label := lvl
			if want == 5 && lvl == 4 {
				label = 5
			}
			head := fmt.Sprintf("## block %d (#%d, L%d, %s – %s)\n", b.Seq, b.ID, label,
				b.FirstAt.Format("2006-01-02"), b.LastAt.Format("2006-01-02"))
			t := EstimateTokens(head) + EstimateTokens(v.Text)
			if t <= left {
				left -= t
				cb.Level, cb.Tokens = label, t
				texts[i] = head + v.Text
				break
			}
		}
		if cb.Level < 0 {
			cv.Omitted++
		}
		cv.Blocks[i] = cb
	}
	var s strings.Builder
	for _, t := range texts {
		s.WriteString(t)
	}
	if len(cv.Tail) > 0 {
		s.WriteString(tailHeading(len(cv.Tail)))
		for i := first; i < len(tail); i++ {
			s.WriteString(rendered[i])
		}
	}
	cv.Text = s.String()
	cv.Tokens = EstimateTokens(cv.Text)
	return cv
}

func tailHeading(n int) string {
	return "## recent (open tail, " + strconv.Itoa(n) + " messages)\n"
}
