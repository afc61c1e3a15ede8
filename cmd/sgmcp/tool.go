package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratagate/stratagate/redact"
)

// maxResultBytes bounds the JSON of one tool result: about 16k tokens,
// under the ~25k-token cap of common clients (Claude Code's
// MAX_MCP_OUTPUT_TOKENS) with room for the text copy's framing.
const maxResultBytes = 64 << 10

// commonAliases maps argument names models often use to the canonical
// ones; a tool adds its own (its "id" field) in toolSpec.aliases.
var commonAliases = map[string]string{
	"q":         "query",
	"page_size": "limit",
	"k":         "limit",
	"top_k":     "limit",
	"scope":     "scopes",
	"offset":    "cursor",
}

// toolSpec describes one tool for addTool.
type toolSpec struct {
	name        string
	description string
	annotations *mcp.ToolAnnotations
	// required are the canonical argument names a call must give (after
	// aliases are mapped); fields with an alias are checked by the handler.
	required []string
	// aliases are this tool's extra argument aliases ("id" → its id field).
	aliases map[string]string
}

// toolErr is an error result: what went wrong and how to retry.
type toolErr struct {
	msg string
}

func (e *toolErr) Error() string { return e.msg }

// retryable returns an error result whose message says how to retry.
func retryable(format string, args ...any) error {
	return &toolErr{msg: fmt.Sprintf(format, args...)}
}

// addTool registers a typed tool on the low-level API, so that this layer,
// not the SDK, decodes arguments: aliases are mapped and unknown names are
// refused (an ignored "scope" would silently widen a search) before the
// arguments are decoded into In; every output string and every error
// message is redacted; a result over maxResultBytes becomes an error saying
// to ask for less.
func addTool[In, Out any](s *Server, spec toolSpec, h func(context.Context, *In) (*Out, error)) {
	in := inputSchema[In](spec.required...)
	known := jsonNames(reflect.TypeFor[In]())
	aliases := map[string]string{}
	for k, v := range commonAliases {
		if slices.Contains(known, v) {
			aliases[k] = v
		}
	}
	for k, v := range spec.aliases {
		aliases[k] = v
	}
	tool := &mcp.Tool{
		Name:         spec.name,
		Description:  spec.description,
		Annotations:  spec.annotations,
		InputSchema:  in,
		OutputSchema: outputSchema[Out](),
	}
	s.mcp.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := time.Now()
		res := s.call(ctx, spec, known, aliases, req.Params.Arguments, func(raw []byte) (any, error) {
			var args In
			if err := decodeArgs(raw, &args); err != nil {
				return nil, err
			}
			return h(ctx, &args)
		})
		s.metrics.observe(spec.name, time.Since(start), res.IsError)
		return res, nil
	})
	s.tools = append(s.tools, spec.name)
}

// call runs one tool call and turns its outcome into a result.
func (s *Server) call(ctx context.Context, spec toolSpec, known []string, aliases map[string]string, raw json.RawMessage,
	run func([]byte) (any, error)) *mcp.CallToolResult {
	args, err := normalizeArgs(raw, known, aliases)
	if err == nil {
		for _, r := range spec.required {
			if _, ok := args[r]; !ok {
				err = retryable("missing argument %q; retry with it set (arguments: %s)", r, strings.Join(known, ", "))
				break
			}
		}
	}
	var out any
	if err == nil {
		norm, _ := json.Marshal(args)
		out, err = run(norm)
	}
	if err != nil {
		return errorResult(spec.name, err)
	}
	body, err := redactJSON(out)
	if err != nil {
		return errorResult(spec.name, fmt.Errorf("encoding result: %w", err))
	}
	if len(body) > maxResultBytes {
		return errorResult(spec.name, retryable("result of %d bytes is over the %d-byte bound; retry with a smaller limit (or a lower level/budget)", len(body), maxResultBytes))
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(body)}},
		StructuredContent: json.RawMessage(body),
	}
}

// errorResult is a tool error result (isError) with a redacted message
// that says how to retry.
func errorResult(tool string, err error) *mcp.CallToolResult {
	msg := describe(err)
	return &mcp.CallToolResult{
		IsError: true,
		Content: []mcp.Content{&mcp.TextContent{Text: redact.String(tool + ": " + msg)}},
	}
}

// normalizeArgs parses the arguments object, maps aliases to canonical
// names (the canonical name wins when both are given) and refuses names
// the tool does not know.
func normalizeArgs(raw json.RawMessage, known []string, aliases map[string]string) (map[string]json.RawMessage, error) {
	args := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, retryable("arguments must be a JSON object (%v); retry with {\"name\": value, ...}", err)
		}
	}
	out := make(map[string]json.RawMessage, len(args))
	var unknown []string
	for k, v := range args {
		if string(bytes.TrimSpace(v)) == "null" {
			continue // a null argument is an absent one
		}
		name := k
		if !slices.Contains(known, k) {
			c, ok := aliases[k]
			if !ok {
				unknown = append(unknown, k)
				continue
			}
			if _, dup := args[c]; dup {
				continue // the canonical name wins
			}
			name = c
		}
		out[name] = v
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, retryable("unknown argument(s) %s; retry with only these: %s", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return out, nil
}

// decodeArgs decodes normalised arguments into the input struct, with
// a message naming the argument and the expected type.
func decodeArgs(raw []byte, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return retryable("argument %q must be of type %s, not a JSON %s; retry with the right type", te.Field, jsonType(te.Type), te.Value)
		}
		return retryable("bad arguments (%v); retry with arguments matching the tool's input schema", err)
	}
	return nil
}

func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return "integer"
	case reflect.String:
		return "string"
	case reflect.Slice:
		return "array"
	case reflect.Bool:
		return "boolean"
	case reflect.Struct:
		return "object"
	}
	return t.String()
}

// jsonNames lists the JSON names of a struct's fields.
func jsonNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// redactJSON encodes v and redacts every string in it (keys included): the
// one place every tool output passes, so that no field can be forgotten.
func redactJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	// Every decoded string is redacted, rather than the JSON text as a
	// whole: escapes (\" around a quoted password) would hide a pair.
	var tree any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	return json.Marshal(redactTree(tree))
}

func redactTree(v any) any {
	switch t := v.(type) {
	case string:
		return redact.String(t)
	case []any:
		for i := range t {
			t[i] = redactTree(t[i])
		}
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[redact.String(k)] = redactTree(x)
		}
		return out
	}
	return v
}

// flexInt is an integer argument that also accepts a numeric string
// ("5"), as some models send.
type flexInt int

// UnmarshalJSON implements json.Unmarshaler.
func (n *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(strings.TrimSpace(string(b)), `"`)
	v, err := strconv.Atoi(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != float64(int(f)) {
			return &json.UnmarshalTypeError{Value: "value " + string(b), Type: reflect.TypeFor[int]()}
		}
		v = int(f)
	}
	*n = flexInt(v)
	return nil
}

// stringList is a list argument that also accepts a single string.
type stringList []string

// UnmarshalJSON implements json.Unmarshaler.
func (l *stringList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*l = stringList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return &json.UnmarshalTypeError{Value: "value " + string(b), Type: reflect.TypeFor[[]string]()}
	}
	*l = many
	return nil
}

// cursorArg is a paging cursor: the offset a previous result's next gave,
// as a string or a number.
type cursorArg string

// UnmarshalJSON implements json.Unmarshaler.
func (c *cursorArg) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = cursorArg(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return &json.UnmarshalTypeError{Value: "value " + string(b), Type: reflect.TypeFor[string]()}
	}
	*c = cursorArg(n.String())
	return nil
}

// offset parses the cursor.
func (c cursorArg) offset() (int, error) {
	if c == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(string(c))
	if err != nil || n < 0 {
		return 0, retryable("cursor %q is not one this server gave; retry without cursor, or with the \"next\" of the previous result", string(c))
	}
	return n, nil
}
