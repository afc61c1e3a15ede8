package model_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
)

var update = flag.Bool("update", false, "rewrite the golden prompt files in testdata/prompts")

// fixedInputs is one fixed input per task: the golden files show exactly
// what a remote model receives for it.
func fixedInputs() map[model.Task]any {
	at := time.Date(2024, 5, 3, 14, 0, 0, 0, time.FixedZone("", 2*3600))
	msgs := []model.DeriveMessage{
		{ID: 41, Role: "user", Speaker: "Robin", At: at, Content: "We moved the launch to June; testing slipped."},
		{ID: 42, Role: "assistant", At: at.Add(time.Minute), Content: "Noted: launch in June."},
	}
	return map[model.Task]any{
		model.TaskDeriveBlock:   &model.DeriveInput{BlockID: 7, Thread: "planning", Messages: msgs},
		model.TaskExtractEvents: &model.ExtractInput{BlockID: 7, Thread: "planning", Messages: msgs, Existing: []model.ExistingEvent{{ID: 3, Title: "Launch set for May", Summary: "The launch is planned for May.", EventType: "plan"}}},
		model.TaskProjectGraph: &model.ProjectInput{Events: []model.ProjectEvent{{
			ID: 9, Title: "Launch moved to June", Summary: "Robin moved the launch to June.", EventType: "change",
			Status: "completed", Participants: []string{"Robin"}, Speakers: []string{"Robin"},
			MentionedAt: "2024-05-03T14:00:00+02:00", TimeText: "June",
		}}, Nodes: []model.KnownNode{{ID: 2, Kind: "project", Name: "Launch"}}},
		model.TaskAssessEvidence: &model.AssessInput{
			Question: "When is the launch?", Now: "2024-05-10T09:00:00Z", BatchID: "s1-b1", Strategy: "search_events",
			Query: "launch", RoundsLeft: 2, Items: []model.EvidenceItem{{
				Ref: "e9", Kind: "event", Speaker: "Robin", MentionedAt: "2024-05-03T14:00:00+02:00",
				Happened: "June 2024", TimeText: "June",
				Title: "Launch moved to June", Text: "Robin moved the launch to June.", Quote: "We moved the launch to June",
			}},
		},
		model.TaskAnswer: &model.AnswerInput{Question: "When is the launch?", Now: "2024-05-10T09:00:00Z", Evidence: []model.EvidenceItem{{
			Ref: "e9", Kind: "event", Title: "Launch moved to June", Text: "Robin moved the launch to June.",
		}}},
		model.TaskImportDecide: &model.ImportDecideInput{
			Candidate: model.ImportCandidate{
				Kind: "event", Category: "work", Title: "Launch moved to July", Summary: "Robin moved the launch from June to July.",
				Quotes: []string{"the launch is now in July"}, OriginalText: "Robin said the launch is now in July.",
				MentionedAt: "2024-06-02T10:00:00Z", HappenedStart: "2024-07-01T00:00:00Z", HappenedEnd: "2024-08-01T00:00:00Z",
				TimeText: "July", Precision: "month", Participants: []string{"Robin"}, EventType: "change", Status: "planned",
			},
			Existing: []model.ImportExisting{{
				ID: 9, Title: "Launch moved to June", Summary: "Robin moved the launch to June.", Quotes: []string{"We moved the launch to June"},
				MentionedAt: "2024-05-03T14:00:00+02:00", HappenedStart: "2024-06-01T00:00:00Z", HappenedEnd: "2024-07-01T00:00:00Z",
				Participants: []string{"Robin"}, EventType: "change", Status: "completed",
			}},
		},
	}
}

func TestPromptGolden(t *testing.T) {
	inputs := fixedInputs()
	for _, task := range model.Tasks() {
		t.Run(string(task), func(t *testing.T) {
			req, err := model.NewRequest(task, inputs[task])
			require.NoError(t, err)
			var schema any
			require.NoError(t, json.Unmarshal(req.Schema, &schema), "schema is JSON")
			pretty, err := json.MarshalIndent(schema, "", "  ")
			require.NoError(t, err)
			got := "id: " + req.PromptID + "\nmax_tokens: " + fmt.Sprint(req.MaxTokens) + "\n--- system\n" + req.System + "\n--- user\n" + req.Prompt + "\n--- schema\n" + string(pretty) + "\n"
			path := filepath.Join("testdata", "prompts", string(task)+".golden")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./model -run TestPromptGolden -update")
			assert.Equal(t, string(want), got, "prompt changed: review it, bump PromptVersion if its meaning changed, and run with -update")
		})
	}
}

// outputs is the output type of each task.
func outputs() map[model.Task]func() any {
	return map[model.Task]func() any{
		model.TaskDeriveBlock:    func() any { return new(model.DeriveOutput) },
		model.TaskExtractEvents:  func() any { return new(model.ExtractOutput) },
		model.TaskProjectGraph:   func() any { return new(model.ProjectOutput) },
		model.TaskAssessEvidence: func() any { return new(model.AssessOutput) },
		model.TaskAnswer:         func() any { return new(model.AnswerOutput) },
		model.TaskImportDecide:   func() any { return new(model.ImportDecideOutput) },
	}
}

func TestPromptContract(t *testing.T) {
	idRE := regexp.MustCompile(`^[a-z_]+/[0-9]+/[0-9a-f]{8}$`)
	seen := map[string]bool{}
	for _, task := range model.Tasks() {
		t.Run(string(task), func(t *testing.T) {
			p := model.PromptFor(task)
			require.NotNil(t, p)
			assert.Equal(t, task, p.Task)
			assert.Regexp(t, idRE, p.ID())
			assert.True(t, strings.HasPrefix(p.ID(), string(task)+"/"))
			assert.False(t, seen[p.ID()], "prompt ids are unique")
			seen[p.ID()] = true
			// JSON mode of some servers (DeepSeek) requires the word.
			assert.Contains(t, p.System, "JSON")
			assert.Contains(t, p.System, "Code ", "the prompt says what code rejects")
			// The example reply decodes strictly into the output type.
			i := strings.LastIndex(p.System, "Example reply:\n")
			require.GreaterOrEqual(t, i, 0, "an example reply")
			example := p.System[i+len("Example reply:\n"):]
			assert.NoError(t, model.Decode(example, outputs()[task]()), "example: %s", example)
			// The schema is a closed object.
			var s map[string]any
			require.NoError(t, json.Unmarshal(p.Schema, &s))
			assert.Equal(t, "object", s["type"])
			assert.Equal(t, false, s["additionalProperties"])
		})
	}
}

func TestNewRequest(t *testing.T) {
	in := fixedInputs()[model.TaskAnswer]
	req, err := model.NewRequest(model.TaskAnswer, in)
	require.NoError(t, err)
	assert.Equal(t, model.TaskAnswer, req.Task)
	assert.Same(t, in, req.Input, "heuristic models read the input as is")
	assert.Equal(t, model.PromptFor(model.TaskAnswer).ID(), req.PromptID)
	assert.True(t, strings.HasPrefix(req.Prompt, model.PromptFor(model.TaskAnswer).Lead))
	assert.Equal(t, 400, req.MaxTokens, "the task's completion budget")
	assert.Contains(t, req.Prompt, `"question":"When is the launch?"`)

	_, err = model.NewRequest("no_such_task", in)
	assert.ErrorContains(t, err, "no prompt")
	_, err = model.NewRequest(model.TaskAnswer, func() {})
	assert.ErrorContains(t, err, "encoding answer input")
}

// inProcess and remote are models that do and do not declare themselves
// in-process.
type inProcess struct{ remote }

func (inProcess) InProcess() bool { return true }

type remote struct{}

func (remote) Name() string                                            { return "remote" }
func (remote) Complete(context.Context, model.Request) (string, error) { return "{}", nil }

// A request for an in-process model is NewRequest's without the rendered
// prompt; any other model gets NewRequest's request exactly.
func TestNewRequestFor(t *testing.T) {
	for task, in := range fixedInputs() {
		want, err := model.NewRequest(task, in)
		require.NoError(t, err)
		got, err := model.NewRequestFor(remote{}, task, in)
		require.NoError(t, err)
		assert.Equal(t, want, got, "%s: a remote model's request", task)

		got, err = model.NewRequestFor(inProcess{}, task, in)
		require.NoError(t, err)
		assert.Empty(t, got.Prompt, "%s: nothing rendered", task)
		want.Prompt = ""
		assert.Equal(t, want, got, "%s: everything else as NewRequest", task)
	}
	_, err := model.NewRequestFor(inProcess{}, "no_such_task", nil)
	assert.ErrorContains(t, err, "no prompt")
}

func TestEnums(t *testing.T) {
	for _, name := range []string{"event_type", "status", "criticality", "kind", "op", "key", "relation", "verdict", "next_strategy", "action"} {
		assert.NotEmpty(t, model.Enums(name), name)
	}
	assert.Nil(t, model.Enums("nope"))
}
