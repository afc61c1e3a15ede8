package extmem_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stratagate/stratagate/extmem"
)

// requireValid fails t unless d is a decision code accepts: a known
// action, targets among offered without repeats, none for add and some
// for merge, supersede and conflict, a confidence in [0, 1], a one-line
// reason of at most MaxReasonRunes, and the decider's name.
func requireValid(t *testing.T, d extmem.Decision, offered []uint64, decider string) {
	t.Helper()
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
		if !slices.Contains(offered, id) || slices.Contains(d.Targets[:i], id) {
			t.Fatalf("targets %v of offered %v: not offered or repeated", d.Targets, offered)
		}
	}
	if math.IsNaN(d.Confidence) || d.Confidence < 0 || d.Confidence > 1 {
		t.Fatalf("confidence %v", d.Confidence)
	}
	if !utf8.ValidString(d.Reason) || utf8.RuneCountInString(d.Reason) > extmem.MaxReasonRunes || strings.ContainsAny(d.Reason, "\n\r") {
		t.Fatalf("reason %q", d.Reason)
	}
	if d.Decider != decider {
		t.Fatalf("decider %q, want %q", d.Decider, decider)
	}
}

// FuzzModelDecide: whatever a model replies, the model decider returns a
// decision code accepts or an error wrapping ErrModelOutput; never a
// panic.
func FuzzModelDecide(f *testing.F) {
	f.Add(`{"action":"supersede","target_ids":[11],"confidence":0.9,"reason":"newer"}`)
	f.Add(`{"action":"merge","target_ids":[15,11],"confidence":0.5,"reason":"a\nb"}`)
	f.Add(`{"action":"add","target_ids":[],"confidence":1,"reason":""}`)
	f.Add(`{"action":"ignore","target_ids":null,"confidence":0,"reason":"x"}`)
	f.Add(`{"action":"conflict","target_ids":[99],"confidence":2,"reason":"x"}`)
	f.Add("```json\n{\"action\":\"add\",\"target_ids\":[],\"confidence\":0.3,\"reason\":\"\\u0000\\ud800\"}\n```")
	f.Add(`{"action":"add"} trailing`)
	f.Add(`not json`)
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
		requireValid(t, d, []uint64{11, 15}, "model:script")
	})
}

// FuzzHeuristicDecide: whatever the texts, participants, kinds and dates
// of a candidate and two existing events (which may share an id), the
// heuristic returns a decision code accepts, the same one twice; never a
// panic.
func FuzzHeuristicDecide(f *testing.F) {
	f.Add("Switched code editor to Helix", "I no longer use Vim; now Helix.", "Code editor is Vim", "Uses Vim.", "Vim", "preference", "preference", int64(0), int64(86400), uint64(1), uint64(2))
	f.Add("Does not eat meat", "", "Eats meat", "Eats meat and fish.", "", "", "", int64(-5), int64(5), uint64(3), uint64(3))
	f.Add("", "\xff\xfe", "", "don't", "a\x00b", "event", "activity", int64(1<<40), int64(-1<<40), uint64(0), uint64(7))
	kinds := []extmem.Kind{extmem.KindInstruction, extmem.KindPreference, extmem.KindFact, extmem.KindEvent}
	f.Fuzz(func(t *testing.T, cTitle, cText, eTitle, eText, person, cType, eType string, cAt, eAt int64, id1, id2 uint64) {
		base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		at := func(s int64) time.Time { return base.Add(time.Duration(s%(1<<40)) * time.Second) }
		c := extmem.Candidate{Kind: kinds[int(uint64(cAt)%4)], Title: cTitle, Summary: cText, Quotes: []string{eText}, OriginalText: cText + " " + eTitle,
			Temporal: extmem.Temporal{MentionedAt: at(cAt), HappenedStart: at(cAt / 2), HappenedEnd: at(cAt), Participants: []string{person}, EventType: cType}}
		existing := []extmem.Existing{
			{ID: id1, Title: eTitle, Summary: eText, EventType: eType, Participants: []string{person, "x"}, MentionedAt: at(eAt), HappenedStart: at(eAt)},
			{ID: id2, Title: cTitle, Summary: eText + " " + cText, EventType: cType, HappenedStart: at(eAt), HappenedEnd: at(cAt)},
		}
		d, err := extmem.NewHeuristic().Decide(context.Background(), &c, existing)
		if err != nil {
			t.Fatalf("heuristic error: %v", err)
		}
		requireValid(t, d, []uint64{id1, id2}, "heuristic")
		again, _ := extmem.NewHeuristic().Decide(context.Background(), &c, existing)
		if !slices.Equal(d.Targets, again.Targets) || d.Action != again.Action || d.Confidence != again.Confidence || d.Reason != again.Reason {
			t.Fatalf("not deterministic: %+v then %+v", d, again)
		}
	})
}
