package gate_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stratagate/stratagate/gate"
	"github.com/stratagate/stratagate/model"
)

// FuzzModelReplies: whatever a model replies to the assessor and the
// answerer, the result is an assessment Session.Record accepts (refs in
// the batch, ≤ MaxRefs) or answer text citing only its evidence, or an
// error wrapping ErrModelOutput; never a panic.
func FuzzModelReplies(f *testing.F) {
	f.Add(`{"verdict":"sufficient","evidence_refs":["e9","e9","m1"],"fit":"x","missing":"","next_strategy":"answer"}`,
		`{"answer":"June","refs":["e9"]}`)
	f.Add(`{"verdict":"partial","evidence_refs":[],"fit":"","missing":"date","next_strategy":"expand_event","next_target":"e9"}`,
		"```json\n{\"answer\":\"x\",\"refs\":[\"m41\"]}\n```")
	f.Add(`{}`, `{"answer":"","refs":null}`)
	f.Add(`not json`, `{"answer":"x","refs":["e1"]} trailing`)
	q := gate.Analyze("When is the launch?", time.Date(2024, 5, 10, 0, 0, 0, 0, time.UTC))
	f.Fuzz(func(t *testing.T, assess, answer string) {
		m := &scriptModel{replies: map[model.Task][]string{model.TaskAssessEvidence: {assess}, model.TaskAnswer: {answer}}}
		s := gate.NewSessionQuestion(q, gate.Budget{})
		step, ok := s.Next()
		if !ok {
			t.Fatal("no first step")
		}
		b := modelBatch()
		b.Strategy, b.Query, b.ID = step.Strategy, step.Query, ""
		nb := s.Observe(*b)
		if nb == nil {
			t.Fatal("batch not observed")
		}
		a, err := gate.ModelAssessor{Model: m}.Assess(context.Background(), q, nb, s.State())
		if err != nil {
			if !errors.Is(err, gate.ErrModelOutput) {
				t.Fatalf("assessor error %v does not wrap ErrModelOutput", err)
			}
		} else {
			got, err := s.Record(a)
			if err != nil {
				t.Fatalf("a decoded assessment is refused: %v", err)
			}
			if len(got.EvidenceRefs) > gate.MaxRefs {
				t.Fatalf("%d refs kept", len(got.EvidenceRefs))
			}
			for _, ref := range got.EvidenceRefs {
				if _, ok := nb.Item(ref); !ok {
					t.Fatalf("ref %q outside the batch kept", ref)
				}
			}
		}
		text, used, err := gate.ModelAnswerer{Model: m}.Answer(context.Background(), q, nb.Items)
		if err != nil {
			if !errors.Is(err, gate.ErrModelOutput) {
				t.Fatalf("answerer error %v does not wrap ErrModelOutput", err)
			}
			return
		}
		if text == "" || len(used) == 0 || len(used) > gate.MaxRefs {
			t.Fatalf("answer %q with refs %v accepted", text, used)
		}
		for _, ref := range used {
			if _, ok := nb.Item(ref); !ok {
				t.Fatalf("answer cites %q outside its evidence", ref)
			}
		}
	})
}
