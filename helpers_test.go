package stratagate_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/internal/sample"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

var base = time.Date(2024, 3, 5, 19, 30, 0, 0, time.FixedZone("", -5*3600))

// turn builds turn i of a thread: a user message and an assistant reply.
func turn(thread string, i int) stratagate.Turn {
	at := base.Add(time.Duration(i) * time.Minute)
	return stratagate.Turn{
		Thread: thread, ReceiptID: fmt.Sprintf("%s-%d", thread, i),
		Messages: []stratagate.Message{
			{Role: "user", Speaker: "Mia", Content: fmt.Sprintf("Message %d: we decided to use Postgres for Atlas on day %d.", i, i), At: at},
			{Role: "assistant", Speaker: "assistant", Content: fmt.Sprintf("Noted decision %d.", i), At: at.Add(5 * time.Second)},
		},
	}
}

func openMem(t testing.TB, o *stratagate.Options) (*stratagate.Memory, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.sg")
	mem, err := stratagate.Open(path, o)
	require.NoError(t, err)
	t.Cleanup(func() { _ = mem.Close() })
	return mem, path
}

func appendN(t testing.TB, mem *stratagate.Memory, thread string, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		_, err := mem.Append(context.Background(), turn(thread, i))
		require.NoError(t, err)
	}
}

func waitIdle(t testing.TB, mem *stratagate.Memory) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, mem.WaitIdle(ctx))
}

// scriptModel is a fake model that returns scripted outputs in order, then
// falls back to a valid derivation citing the first message of the block.
// It can also hold every call until released.
type scriptModel struct {
	mu      sync.Mutex
	outputs []string
	calls   int
	gate    chan struct{} // if non-nil, Complete waits for it (or ctx)
}

func (s *scriptModel) Name() string { return "script" }

func (s *scriptModel) Complete(ctx context.Context, req model.Request) (string, error) {
	if req.Task != model.TaskDeriveBlock {
		return heuristic.New().Complete(ctx, req) // only derivation is scripted
	}
	if s.gate != nil {
		select {
		case <-s.gate:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if len(s.outputs) > 0 {
		out := s.outputs[0]
		s.outputs = s.outputs[1:]
		return out, nil
	}
	in := req.Input.(*model.DeriveInput)
	return fmt.Sprintf(`{"title":"Block %d","tags":["test"],"summary":"A block of %d messages.","facts":[{"text":"first","message_ids":[%d]}]}`,
		in.BlockID, len(in.Messages), in.Messages[0].ID), nil
}

func (s *scriptModel) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

func loadSample(t testing.TB) *sample.File {
	t.Helper()
	f, err := sample.Load("testdata/conversation.json")
	require.NoError(t, err)
	return f
}

func mathExp(x float64) float64 { return math.Exp(x) }
func mathLog(x float64) float64 { return math.Log(x) }
