package main

import (
	"context"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratagate/stratagate"
)

// version is the server version reported at initialize.
const version = "0.1.0"

// Server is StrataGate's MCP server: the tools over one open Memory,
// bounded to a fixed list of scopes. It is safe for concurrent use; one
// Server may serve many client sessions (stdio, or every HTTP session).
type Server struct {
	mem     *stratagate.Memory
	scopes  []string
	mcp     *mcp.Server
	tools   []string
	batches *batchStore
	metrics *metrics
	// curs is the store's cursor API: the Memory itself, or a test's
	// stand-in set before serving.
	curs cursorStore
}

// Config configures NewServer.
type Config struct {
	// Scopes are the scopes the server may read; writes go to the first.
	// Required: at least one.
	Scopes []string
}

// NewServer returns a server over mem with every tool registered.
func NewServer(mem *stratagate.Memory, cfg Config) *Server {
	s := &Server{
		mem:     mem,
		scopes:  slices.Clone(cfg.Scopes),
		batches: newBatchStore(maxBatches),
		metrics: newMetrics(),
	}
	// An assertion rather than a direct call: the cursor API arrives in
	// the store on another branch, and this file must build either way.
	s.curs = mem
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "stratagate", Version: version}, &mcp.ServerOptions{
		Instructions: instructions,
	})
	s.addSearchTools()
	s.addExpandTools()
	s.addThreadTools()
	s.addGateTools()
	s.addWriteTools()
	s.addImportTools()
	s.addStatusTool()
	return s
}

// MCP returns the SDK server, for a transport to run.
func (s *Server) MCP() *mcp.Server { return s.mcp }

const instructions = `StrataGate long-term memory. Search (memory_search_events, memory_search_graph, memory_search_raw) returns a batch_id and items with refs (e<id> events, m<id> messages, n<id> graph nodes, b<id> blocks). Expand an item with the batch it came from. Judge a batch with memory_assess (verdict, evidence_refs from that batch, fit, missing, next_strategy); a sufficient assessment's id can then be passed to memory_record_use. memory_ask runs the whole loop. memory_capture stores a completed turn.`

// readOnly, idempotent and destructive annotations.
func readOnly() *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
}

func writes(idempotent bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{IdempotentHint: idempotent, DestructiveHint: new(false), OpenWorldHint: new(false)}
}

// narrow returns the scopes a call may read: the server's, or the subset
// the call names. A scope the server does not serve is an error, never a
// silent widening or a silently empty search.
func (s *Server) narrow(req []string) ([]string, error) {
	if len(req) == 0 {
		return s.scopes, nil
	}
	var out []string
	for _, sc := range req {
		sc = strings.TrimSpace(sc)
		if !slices.Contains(s.scopes, sc) {
			return nil, retryable("scope %q is not served here; retry with scopes among %s, or omit scopes for all of them", sc, strings.Join(s.scopes, ", "))
		}
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out, nil
}

// threadIn checks that thread exists in one of scopes and returns it.
func (s *Server) threadIn(ctx context.Context, thread string, scopes []string) (stratagate.Thread, error) {
	ths, err := s.mem.Threads(ctx)
	if err != nil {
		return stratagate.Thread{}, err
	}
	for _, th := range ths {
		if th.Name == thread && slices.Contains(scopes, th.Scope) {
			return th, nil
		}
	}
	return stratagate.Thread{}, retryable("thread %q not found in scopes %s; retry with a thread listed by memory_get_blocks (no thread argument)", thread, strings.Join(scopes, ", "))
}
