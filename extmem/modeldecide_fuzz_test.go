package extmem_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/stratagate/stratagate/extmem"
)

// FuzzModelDecide: whatever a model replies, the model decider returns a
// decision code accepts (a known action, targets among the offered ids,
// none for add and some for merge, supersede and conflict, a confidence
// in [0, 1], a one-line reason of at most MaxReasonRunes) or an error
// wrapping ErrModelOutput; never a panic.
func FuzzModelDecide(f *testing.F) {
	f.Add(`{"action":"supersede","target_ids":[11],"confidence":0.9,"reason":"newer"}`)
	f.Add(`{"action":"merge","target_ids":[15,11],"confidence":0.5,"reason":"a\nb"}`)
	f.Add(`{"action":"add","target_ids":[],"confidence":1,"reason":""}`)
	f.Add(`{"action":"ignore","target_ids":null,"confidence":0,"reason":"x"}`)
	f.Add(`{"action":"conflict","target_ids":[99],"confidence":2,"reason":"x"}`)
	f.Add("```json\n{\"action\":\"add\",\"target_ids\":[],\"confidence\":0.3,\"reason\":\"\\u0000\\ud800\"}\n```")
	f.Add(`{"action":"add"} trailing`)
	f.Add(`not json`)
	offeredIDs := []uint64{11, 15}
	f.Fuzz(func(t *testing.T, reply string) {
		m := &scriptModel{replies: []string{reply}}
		c := decideCandidate
		d, err := extmem.NewModelDecider(m).Decide(context.Background(), &c, decideExisting)
		if err != nil {
			if !errors.Is(err, extmem.ErrModelOutput) {
				t.Fatalf("error %v does not wrap ErrModelOutput", err)
			}
			return
		}
		switch d.Action {
		case extmem.ActionAdd:
			if len(d.Targets) != 0 {
				t.Fatalf("add with targets %v", d.Targets)
			}
		case extmem.ActionMerge, extmem.ActionSupersede, extmem.ActionConflict:
			if len(d.Targets) == 0 {
				t.Fatalf("%s without targets", d.Action)
			}
		case extmem.ActionIgnore:
		default:
			t.Fatalf("unknown action %q", d.Action)
		}
		for i, id := range d.Targets {
			if !slices.Contains(offeredIDs, id) || slices.Contains(d.Targets[:i], id) {
				t.Fatalf("targets %v: not offered or repeated", d.Targets)
			}
		}
		if math.IsNaN(d.Confidence) || d.Confidence < 0 || d.Confidence > 1 {
			t.Fatalf("confidence %v", d.Confidence)
		}
		if !utf8.ValidString(d.Reason) || utf8.RuneCountInString(d.Reason) > extmem.MaxReasonRunes {
			t.Fatalf("reason %q", d.Reason)
		}
		for _, r := range d.Reason {
			if r == '\n' || r == '\r' {
				t.Fatalf("reason of more than one line: %q", d.Reason)
			}
		}
		if d.Decider != "model:script" {
			t.Fatalf("decider %q", d.Decider)
		}
	})
}
