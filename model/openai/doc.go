// Package openai is a model.Model that talks to any server speaking the
// OpenAI Chat Completions API: OpenAI itself, DeepSeek, Ollama, vLLM and
// llama.cpp's llama-server. It uses net/http only.
//
// The client sends one request per attempt, POST {BaseURL}/chat/completions,
// with a system and a user message, max_tokens, stream false and a
// structured-output request (see JSONMode), and returns the reply's
// content. It does not parse that content beyond unwrapping it: the caller
// decodes it strictly with model.Decode and validates every field.
//
// # Configuration
//
// Options is set in code; FromEnv reads a spec "openai:<model>" and the
// STRATAGATE_MODEL_* variables. There is no default model name: the model
// is always named by the caller. Model names below are examples only.
//
// OpenAI (the default base URL; the key falls back to OPENAI_API_KEY):
//
//	STRATAGATE_MODEL=openai:gpt-4o-mini
//	OPENAI_API_KEY=sk-...
//
// DeepSeek (no /v1 needed; the key falls back to DEEPSEEK_API_KEY; the
// client sends json_object with the schema in the system message, since
// DeepSeek has no json_schema mode, and turns thinking off):
//
//	STRATAGATE_MODEL=openai:deepseek-v4-flash
//	STRATAGATE_MODEL_BASE_URL=https://api.deepseek.com
//	DEEPSEEK_API_KEY=sk-...
//
// Ollama (enforces the json_schema locally; the key is ignored):
//
//	STRATAGATE_MODEL=openai:qwen2.5:7b
//	STRATAGATE_MODEL_BASE_URL=http://localhost:11434/v1
//
// vLLM:
//
//	STRATAGATE_MODEL=openai:Qwen/Qwen2.5-7B-Instruct
//	STRATAGATE_MODEL_BASE_URL=http://localhost:8000/v1
//
// llama.cpp llama-server (the model name is ignored; json_schema is
// enforced, plain json_object is not):
//
//	STRATAGATE_MODEL=openai:local
//	STRATAGATE_MODEL_BASE_URL=http://127.0.0.1:8080/v1
//	STRATAGATE_MODEL_TIMEOUT=300s
//	STRATAGATE_MODEL_MAX_CONCURRENCY=1
//
// The same in code:
//
//	c, err := openai.New(openai.Options{
//		BaseURL: "http://127.0.0.1:8080/v1",
//		Model:   "local",
//		Timeout: 5 * time.Minute,
//	})
//
// # Structured output
//
// JSONModeSchema sends {"type":"json_schema","json_schema":{"name":<task>,
// "schema":<Request.Schema>,"strict":false}}; JSONModeObject sends
// {"type":"json_object"} and appends "Reply with one JSON object matching
// this JSON Schema: <schema>" to the system message, since no server
// enforces a schema in that mode. JSONModeAuto is JSONModeSchema except
// for api.deepseek.com. A server that answers 400 saying the json_schema
// response format is unsupported makes the client switch to json_object
// for the rest of its life (Client.JSONMode reports it) and retry at once.
//
// # Replies
//
// The content of the first choice is returned after removing a
// surrounding ``` fence and any prose around the outermost JSON object;
// nothing is ever repaired. reasoning_content is ignored. finish_reason
// "length" is retried once with twice the token budget, then fails with
// model.ErrTruncated. Blank content is retried like a transient failure,
// then fails with model.ErrBadOutput. Reply bodies over 8 MiB are refused.
//
// # Retries and limits
//
// Transport errors, attempts over Options.Timeout, 429 and 5xx answers
// are retried up to Options.MaxRetries times, sleeping an exponential
// backoff with full jitter, or the server's Retry-After (seconds or an
// HTTP date, at most 60s); every sleep ends early when the caller's
// context does. Other 4xx answers are returned at once as a *StatusError;
// 400, 401, 403, 404 and 422 wrap model.ErrPermanent, and an oversize
// prompt (llama.cpp's exceed_context_size_error, OpenAI's
// context_length_exceeded, "maximum context length" messages) wraps
// model.ErrContextSize too. A semaphore bounds the Complete calls in
// flight per Client to Options.MaxConcurrency; a waiting call gives up
// when its context ends.
//
// # Usage
//
// The prompt, completion and cached tokens each attempt reports
// (usage.prompt_tokens_details.cached_tokens, or DeepSeek's
// prompt_cache_hit_tokens) are added to model.MeterOf(ctx), retries
// included. Calls and latency are counted by model.Call, not here.
//
// # Secrets
//
// The API key is sent only in the Authorization header. It is scrubbed
// from every error, including messages the server echoes back, and a
// Client prints without it.
//
// The prompts StrataGate sends are redacted before they reach the client
// (model.NewRequest, package redact): API keys (sk-…, sk-ant-…, ghp_…,
// github_pat_…, AKIA…, xox?-…, AIza…, Stripe keys), Authorization and
// Bearer tokens, password=/secret=/token= style values, PEM private keys
// and credentials in URLs become typed markers such as [redacted:api_key].
// The stored messages (L5) keep the original text.
package openai
