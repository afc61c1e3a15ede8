package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// plantedKey is an API key planted in the seeded conversation: no output
// may carry it.
const plantedKey = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5"

const (
	scopeA = "project:alpha"
	scopeB = "project:beta"
)

// seedTurns is a conversation of the project scope; with BlockTurns 2
// it seals blocks whose derivation yields events and graph nodes.
var seedTurns = [][2]string{
	{"I adopted a dog named Shadow last week.", "Congratulations on adopting Shadow!"},
	{"My OpenAI key is " + plantedKey + " for the demo.", "Noted, keep that key safe."},
	{"Alice moved to Seattle in May 2024 for a new job at Contoso.", "Seattle is a great city."},
	{"I drink coffee every morning now, I used to drink tea.", "Coffee it is."},
	{"Shadow loves the park near our house.", "Dogs love parks."},
}

// fixture is a seeded memory served in-process.
type fixture struct {
	mem *stratagate.Memory
	srv *Server
	cs  *mcp.ClientSession
}

func openMemory(t *testing.T) *stratagate.Memory {
	t.Helper()
	mem, err := stratagate.Open(filepath.Join(t.TempDir(), "m.sg"), &stratagate.Options{BlockTurns: 2, NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, mem.Close()) })
	return mem
}

func seed(t *testing.T, mem *stratagate.Memory) {
	t.Helper()
	ctx := t.Context()
	at := time.Date(2024, 6, 1, 10, 0, 0, 0, time.UTC)
	for i, tu := range seedTurns {
		_, err := mem.Append(ctx, stratagate.Turn{Thread: "chat", Scope: scopeA, Messages: []stratagate.Message{
			{Role: "user", Speaker: "Sam", Content: tu[0], At: at.Add(time.Duration(2*i) * time.Minute)},
			{Role: "assistant", Speaker: "assistant", Content: tu[1], At: at.Add(time.Duration(2*i+1) * time.Minute)},
		}})
		require.NoError(t, err)
	}
	// Another scope's thread: never visible from scopeA-only calls.
	_, err := mem.Append(ctx, stratagate.Turn{Thread: "other", Scope: scopeB, Messages: []stratagate.Message{
		{Role: "user", Speaker: "Bob", Content: "Bob secretly adopted a dog named Rex.", At: at},
		{Role: "assistant", Content: "Rex is a fine name.", At: at},
	}})
	require.NoError(t, err)
	require.NoError(t, mem.WaitIdle(ctx))
}

// newFixture seeds a memory and connects a client to a server of scopes.
func newFixture(t *testing.T, scopes ...string) *fixture {
	t.Helper()
	mem := openMemory(t)
	seed(t, mem)
	if len(scopes) == 0 {
		scopes = []string{scopeA, "global"}
	}
	srv := NewServer(mem, Config{Scopes: scopes})
	return &fixture{mem: mem, srv: srv, cs: connect(t, srv)}
}

func connect(t *testing.T, srv *Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(t.Context(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool and returns the result's text and whether it is an error.
func (f *fixture) call(t *testing.T, tool string, args map[string]any) (string, bool) {
	t.Helper()
	return callOn(t, f.cs, tool, args)
}

func callOn(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err, tool)
	require.Len(t, res.Content, 1, tool)
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError {
		b, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err)
		require.JSONEq(t, text, string(b), "structured content and text agree")
		validateOutput(t, cs, tool, b)
	}
	return text, res.IsError
}

// ok calls a tool that must succeed and decodes its result into out.
func (f *fixture) ok(t *testing.T, tool string, args map[string]any, out any) string {
	t.Helper()
	text, isErr := f.call(t, tool, args)
	require.False(t, isErr, "%s: %s", tool, text)
	if out != nil {
		// Decode into a zero value: an omitted field must not keep an
		// earlier call's value.
		v := reflect.ValueOf(out).Elem()
		v.Set(reflect.Zero(v.Type()))
		require.NoError(t, json.Unmarshal([]byte(text), out), text)
	}
	return text
}

// fails calls a tool that must fail and returns its message.
func (f *fixture) fails(t *testing.T, tool string, args map[string]any) string {
	t.Helper()
	text, isErr := f.call(t, tool, args)
	require.True(t, isErr, "%s should fail: %s", tool, text)
	return text
}

func symlink(old, new string) error { return os.Symlink(old, new) }

// validateOutput checks a structured result against the tool's output
// schema, as strict clients (the TypeScript SDK) do.
func validateOutput(t *testing.T, cs *mcp.ClientSession, tool string, out []byte) {
	t.Helper()
	tools, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	for _, tl := range tools.Tools {
		if tl.Name != tool {
			continue
		}
		raw, err := json.Marshal(tl.OutputSchema)
		require.NoError(t, err)
		var s jsonschema.Schema
		require.NoError(t, json.Unmarshal(raw, &s))
		rs, err := s.Resolve(nil)
		require.NoError(t, err)
		var v any
		require.NoError(t, json.Unmarshal(out, &v))
		require.NoError(t, rs.Validate(v), "%s output against its schema: %s", tool, out)
		return
	}
	t.Fatalf("tool %s not listed", tool)
}
