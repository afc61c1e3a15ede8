package openai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/openai"
)

func Example() {
	// A stand-in for a real server (llama-server, Ollama, vLLM, OpenAI):
	// it answers every request with a fenced JSON object.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant",`+
			`"content":"`+"```json\\n{\\\"title\\\":\\\"Atlas on Postgres\\\"}\\n```"+`"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":42,"completion_tokens":9,"prompt_tokens_details":{"cached_tokens":32}}}`)
	}))
	defer srv.Close()

	c, err := openai.New(openai.Options{BaseURL: srv.URL + "/v1", Model: "local"})
	if err != nil {
		fmt.Println(err)
		return
	}
	mt := &model.Meter{}
	ctx := model.WithMeter(context.Background(), mt)
	raw, err := model.Call(ctx, c, model.Request{
		Task:   model.TaskDeriveBlock,
		System: "Title the conversation.",
		Prompt: "Mia: let's use Postgres for Atlas.",
		Schema: []byte(`{"type":"object","properties":{"title":{"type":"string","maxLength":40}},"required":["title"]}`),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var out struct {
		Title string `json:"title"`
	}
	if err := model.Decode(raw, &out); err != nil {
		fmt.Println(err)
		return
	}
	u := mt.Usage()
	fmt.Println(c.Name(), c.JSONMode())
	fmt.Println("title:", out.Title)
	fmt.Println("tokens:", u.Calls, u.PromptTokens, u.CompletionTokens, u.CachedTokens)
	// Output:
	// openai:local json_schema
	// title: Atlas on Postgres
	// tokens: 1 42 9 32
}
