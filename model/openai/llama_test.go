package openai_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/openai"
)

// envTestLlamaURL names a running llama-server's base URL
// ("http://127.0.0.1:8089/v1") for TestLlamaServer; see
// /work/shared/llm/README.md for a recipe. Unset, the test is skipped.
const envTestLlamaURL = "STRATAGATE_TEST_LLAMA_URL"

// TestLlamaServer checks the wire behaviour against a real llama-server.
// Its model may be a random-weight stand-in, so the content is never
// asserted, only its shape.
func TestLlamaServer(t *testing.T) {
	base := os.Getenv(envTestLlamaURL)
	if base == "" {
		t.Skipf("%s not set", envTestLlamaURL)
	}
	c, err := openai.New(openai.Options{BaseURL: base, Model: "smollm2", Timeout: 5 * time.Minute, MaxRetries: 1, MaxConcurrency: 1})
	require.NoError(t, err)
	schema := []byte(`{"type":"object","properties":{"word":{"type":"string","maxLength":20}},"required":["word"],"additionalProperties":false}`)

	t.Run("small schema", func(t *testing.T) {
		mt := &model.Meter{}
		start := time.Now()
		raw, err := model.Call(model.WithMeter(t.Context(), mt), c, model.Request{
			Task: "one_word", System: "Answer in JSON.", Prompt: "Give one word.", Schema: schema, MaxTokens: 64,
		})
		t.Logf("small schema: %v, err %v, usage %+v, output %q", time.Since(start), err, mt.Usage(), raw)
		if err != nil {
			require.ErrorIs(t, err, model.ErrTruncated, "only a clean truncation is acceptable")
		} else {
			var out map[string]any
			require.NoError(t, model.Decode(raw, &out))
		}
		u := mt.Usage()
		assert.Positive(t, u.PromptTokens)
		assert.Positive(t, u.CompletionTokens)
		assert.Equal(t, openai.JSONModeSchema, c.JSONMode(), "llama-server accepts json_schema")
	})

	t.Run("assess_evidence prompt", func(t *testing.T) {
		// A real StrataGate prompt and schema: the server's grammar must
		// hold the reply to the schema (enums, ref pattern, bounds), so a
		// reply that is not cut decodes strictly. Content is not judged:
		// the stand-in model's weights are random.
		req, err := model.NewRequest(model.TaskAssessEvidence, &model.AssessInput{
			Question: "When did the team move the launch?", Now: "2024-05-10T09:00:00Z", BatchID: "s1-b1",
			Strategy: "search_events", Query: "launch moved", RoundsLeft: 2,
			Items: []model.EvidenceItem{{Ref: "e9", Kind: "event", MentionedAt: "2024-05-03T14:00:00+02:00",
				Happened: "June 2024", Title: "Launch moved to June", Text: "The launch moved to June."}},
		})
		require.NoError(t, err)
		mt := &model.Meter{}
		start := time.Now()
		raw, err := model.Call(model.WithMeter(t.Context(), mt), c, req)
		t.Logf("assess_evidence: %v, err %v, usage %+v, output %q", time.Since(start), err, mt.Usage(), raw)
		if err != nil {
			require.ErrorIs(t, err, model.ErrTruncated, "only a clean truncation is acceptable")
			return
		}
		var out model.AssessOutput
		require.NoError(t, model.Decode(raw, &out), "the schema was enforced")
		assert.Contains(t, []string{"sufficient", "partial", "wrong"}, out.Verdict)
		assert.LessOrEqual(t, len(out.EvidenceRefs), 8)
	})

	t.Run("oversize prompt", func(t *testing.T) {
		start := time.Now()
		_, err := c.Complete(t.Context(), model.Request{
			Task: "one_word", Prompt: strings.Repeat("word ", 20000), Schema: schema, MaxTokens: 16,
		})
		t.Logf("oversize prompt: %v, err %v", time.Since(start), err)
		require.ErrorIs(t, err, model.ErrContextSize)
		assert.True(t, errors.Is(err, model.ErrPermanent))
	})
}
