package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// appendSessionTurns appends turns from..to-1 of a generated Claude Code
// session to path, each written whole (a prompt and its reply).
func appendSessionTurns(t *testing.T, path, cwd string, from, to int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	require.NoError(t, err)
	defer f.Close()
	base := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := from; i < to; i++ {
		at := base.Add(time.Duration(i) * time.Minute)
		fmt.Fprintf(f, `{"type":"user","uuid":"u%d","sessionId":"crash-session","cwd":%q,"timestamp":%q,"message":{"role":"user","content":"question %d about the build"}}`+"\n",
			i, cwd, at.Format(time.RFC3339Nano), i)
		fmt.Fprintf(f, `{"type":"assistant","uuid":"a%d","sessionId":"crash-session","cwd":%q,"timestamp":%q,"message":{"id":"msg_%d","role":"assistant","content":[{"type":"text","text":"answer %d: run make test"}]}}`+"\n",
			i, cwd, at.Add(time.Second).Format(time.RFC3339Nano), i, i)
	}
}

// TestHookSurvivesKill: hook processes SIGKILLed at random points while
// the session grows lose no turn and duplicate none: turns are stored
// before the cursor moves, and a replayed turn is a duplicate receipt.
func TestHookSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := shortDir(t)
	db := filepath.Join(dir, "m.sg")
	transcript := filepath.Join(dir, "session.jsonl")
	input := `{"session_id":"crash-session","transcript_path":"` + transcript + `","cwd":"` + dir + `","hook_event_name":"Stop","stop_hook_active":false}`
	self, err := os.Executable()
	require.NoError(t, err)
	hook := func() *exec.Cmd {
		cmd := exec.Command(self, "-test.run=^$", "--", "hook", "claude-code", "-db", db)
		cmd.Env = append(os.Environ(), mainEnv+"=1")
		cmd.Stdin = strings.NewReader(input)
		return cmd
	}
	const rounds = 12
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	// One whole run first: how long a hook takes here sets the range of
	// kill delays, so that kills land before, during and after appends.
	appendSessionTurns(t, transcript, dir, 0, 1)
	turns, killed := 1, 0
	start := time.Now()
	_, err = hook().Output()
	require.NoError(t, err)
	span := 2 * time.Since(start)
	for range rounds {
		n := 1 + rng.IntN(3)
		appendSessionTurns(t, transcript, dir, turns, turns+n)
		turns += n
		cmd := hook()
		require.NoError(t, cmd.Start())
		time.Sleep(time.Duration(rng.Int64N(int64(span))))
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			killed++ // the kill landed before the hook finished
		}
	}
	// One hook run to its end captures whatever the killed ones left.
	out, err := hook().Output()
	require.NoError(t, err)
	assert.JSONEq(t, `{"continue":true,"suppressOutput":true}`, strings.TrimSpace(string(out)))

	mem, err := stratagate.Open(db, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	ths, err := mem.Threads(t.Context())
	require.NoError(t, err)
	require.Len(t, ths, 1)
	assert.Equal(t, uint64(turns), ths[0].Turns, "every turn once (%d hooks killed)", killed)
	st, err := mem.Stats(t.Context())
	require.NoError(t, err)
	assert.Equal(t, turns, st.Receipts)
	assert.Equal(t, 2*turns, st.Messages)
	t.Logf("%d turns, %d of %d hook runs killed before they finished (kill delays up to %v)", turns, killed, rounds, span)
}
