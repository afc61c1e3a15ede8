package openai

import (
	"encoding/json"
	"strings"
)

// Limits on what an error message carries.
const (
	plainBodyLimit = 300  // bytes of a body that is not JSON
	messageLimit   = 1000 // bytes of a server's JSON message
)

// errorBody covers the error shapes of OpenAI-compatible servers:
// {"error":{"message","type","code","param"}} (OpenAI, DeepSeek, Ollama,
// llama.cpp), {"error":"text"} and a bare {"message","type","code"}
// (vLLM).
type errorBody struct {
	Error   json.RawMessage `json:"error"`
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
}

type errorDetail struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
	Param   json.RawMessage `json:"param"`
}

// newStatusError builds the error for a non-2xx reply, scrubbing key from
// everything the server sent.
func newStatusError(code int, body []byte, key string) *StatusError {
	msg, typ, ecode, param, ok := parseErrorBody(body)
	e := &StatusError{Code: code}
	if ok {
		e.Message = scrub(msg, key, messageLimit)
		e.Type = scrub(typ, key, 100)
		if e.Type == "" {
			e.Type = scrub(ecode, key, 100)
		}
	} else {
		e.Message = scrub(string(body), key, plainBodyLimit)
	}
	e.contextSize = code >= 400 && code < 500 && isContextSize(typ, ecode, msg)
	e.param = scrub(param, key, 100)
	return e
}

// parseErrorBody extracts message, type, code and param; ok is false for
// a body that is not a JSON error object.
func parseErrorBody(body []byte) (msg, typ, code, param string, ok bool) {
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err != nil {
		return "", "", "", "", false
	}
	if len(eb.Error) > 0 && string(eb.Error) != "null" {
		var d errorDetail
		if err := json.Unmarshal(eb.Error, &d); err == nil {
			return d.Message, d.Type, rawText(d.Code), rawText(d.Param), true
		}
		var s string
		if err := json.Unmarshal(eb.Error, &s); err == nil {
			return s, "", "", "", true
		}
		return "", "", "", "", false
	}
	if eb.Message == "" && eb.Type == "" {
		return "", "", "", "", false
	}
	return eb.Message, eb.Type, rawText(eb.Code), "", true
}

// rawText renders a JSON string or number as text; null and other values
// as "".
func rawText(raw json.RawMessage) string {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String()
	}
	return ""
}

// isContextSize recognises an oversize prompt by the servers' error types
// and wording.
func isContextSize(typ, code, msg string) bool {
	for _, s := range []string{typ, code} {
		switch strings.ToLower(s) {
		case "exceed_context_size_error", "context_length_exceeded":
			return true
		}
	}
	m := strings.ToLower(msg)
	for _, p := range []string{"maximum context length", "context size", "context length", "context window"} {
		if strings.Contains(m, p) {
			return true
		}
	}
	return false
}

// isSchemaUnsupported recognises a 400 refusing the json_schema response
// format (OpenAI: "'response_format' of type 'json_schema' is not
// supported with this model"; DeepSeek: "This response_format type is
// unavailable now"; servers that only know json_object: "unknown type").
func isSchemaUnsupported(e *StatusError) bool {
	if e.Code != 400 || e.contextSize {
		return false
	}
	m := strings.ToLower(e.Message + " " + e.Type + " " + e.param)
	if !strings.Contains(m, "response_format") && !strings.Contains(m, "json_schema") {
		return false
	}
	for _, p := range []string{"support", "unavailable", "not available", "unknown", "unrecognized", "not allowed", "must be one of"} {
		if strings.Contains(m, p) {
			return true
		}
	}
	return false
}
