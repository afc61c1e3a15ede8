package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/stratagate/stratagate/model"
)

// chatRequest is the body of POST /chat/completions.
type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []chatMessage   `json:"messages"`
	MaxTokens      int             `json:"max_tokens"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
	Temperature    *float64        `json:"temperature,omitempty"`
	Stream         bool            `json:"stream"`
	Thinking       *thinking       `json:"thinking,omitempty"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type responseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *jsonSchema `json:"json_schema,omitempty"`
}

type jsonSchema struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Strict bool            `json:"strict"`
}

// thinking turns DeepSeek's reasoning off: its reasoning tokens cost time
// and budget and never reach the JSON answer.
type thinking struct {
	Type string `json:"type"`
}

// schemaHint introduces the schema appended to the system message in
// json_object mode. It contains "JSON", which DeepSeek's JSON mode
// requires somewhere in the prompt.
const schemaHint = "Reply with one JSON object matching this JSON Schema: "

// objectHint is appended in json_object mode when the request has no
// schema.
const objectHint = "Reply with one JSON object."

// compactSchema checks that schema is one JSON value and returns it
// without insignificant white space (nil for an empty schema).
func compactSchema(schema []byte) ([]byte, error) {
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, schema); err != nil {
		// Sending it cannot help: the request itself is malformed.
		return nil, fmt.Errorf("openai: request schema is not valid JSON: %w", model.ErrPermanent)
	}
	return b.Bytes(), nil
}

// buildRequest renders req for mode. schema is the compacted
// Request.Schema (nil: none).
func (c *Client) buildRequest(req model.Request, schema []byte, mode JSONMode, maxTokens int) chatRequest {
	system := req.System
	var rf *responseFormat
	if mode == JSONModeSchema && schema == nil {
		mode = JSONModeObject // json_schema needs a schema; nil means "any object"
	}
	switch mode {
	case JSONModeSchema:
		rf = &responseFormat{Type: string(JSONModeSchema), JSONSchema: &jsonSchema{
			Name: schemaName(req.Task), Schema: schema, Strict: false,
		}}
	case JSONModeObject:
		rf = &responseFormat{Type: string(JSONModeObject)}
		hint := objectHint
		if schema != nil {
			hint = schemaHint + string(schema)
		}
		system = appendLine(system, hint)
	}
	var msgs []chatMessage
	if system != "" {
		msgs = append(msgs, chatMessage{Role: "system", Content: system})
	}
	msgs = append(msgs, chatMessage{Role: "user", Content: req.Prompt})
	body := chatRequest{
		Model:          c.opts.Model,
		Messages:       msgs,
		MaxTokens:      maxTokens,
		ResponseFormat: rf,
		Temperature:    c.opts.Temperature,
	}
	if c.deepSeek {
		body.Thinking = &thinking{Type: "disabled"}
	}
	return body
}

func appendLine(s, line string) string {
	if strings.TrimSpace(s) == "" {
		return line
	}
	return strings.TrimRight(s, "\n") + "\n\n" + line
}

// schemaName turns a task into a json_schema name, which OpenAI limits to
// 64 characters of [a-zA-Z0-9_-].
func schemaName(t model.Task) string {
	var b strings.Builder
	for _, r := range string(t) {
		if b.Len() == 64 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "reply"
	}
	return b.String()
}
