package model_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
)

func TestNewRequestRedactsSecrets(t *testing.T) {
	const key = "sk-proj-4fG7hJ2kL9mN3pQ8rS5tV1wX6yZ0aB"
	at := time.Date(2024, 5, 3, 14, 0, 0, 0, time.FixedZone("", 7200))
	in := &model.ExtractInput{BlockID: 1, Thread: "ops", Messages: []model.DeriveMessage{
		{ID: 1, Role: "user", Speaker: "Robin", At: at, Content: "Use OPENAI_API_KEY=" + key + " for the staging job."},
		{ID: 2, Role: "assistant", At: at, Content: "curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abcdefghijklmnop' https://deploy:hunter2@ci.example.com/run"},
	}, Existing: []model.ExistingEvent{{ID: 4, Title: "Rotated keys", Summary: "password=correcthorse", Quotes: []string{"password=correcthorse"}}}}
	req, err := model.NewRequest(model.TaskExtractEvents, in)
	require.NoError(t, err)
	for _, secret := range []string{key, "eyJhbGciOiJIUzI1NiJ9.abcdefghijklmnop", "hunter2", "correcthorse"} {
		assert.NotContains(t, req.Prompt, secret)
	}
	assert.Contains(t, req.Prompt, "[redacted:api_key]")
	assert.Contains(t, req.Prompt, "[redacted:bearer_token]")
	assert.Contains(t, req.Prompt, "[redacted:url_credentials]")
	assert.Contains(t, req.Prompt, "[redacted:secret]")
	assert.Contains(t, req.Prompt, `"at":"2024-05-03T14:00:00+02:00"`, "times survive the copy")
	assert.Contains(t, req.Prompt, "for the staging job.", "the rest of the text is kept")

	// The input, which a local model reads and which may alias stored
	// records, is untouched.
	assert.Same(t, in, req.Input)
	assert.Contains(t, in.Messages[0].Content, key)
	assert.Equal(t, []string{"password=correcthorse"}, in.Existing[0].Quotes)

	// Nothing to redact: the prompt is the input as is.
	clean := &model.AnswerInput{Question: "When is the launch?", Evidence: []model.EvidenceItem{{Ref: "e1", Text: "June"}}}
	req, err = model.NewRequest(model.TaskAnswer, clean)
	require.NoError(t, err)
	assert.False(t, strings.Contains(req.Prompt, "[redacted"))
}
