package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// tsOutput is what testdata/tsclient/client.mjs prints.
type tsOutput struct {
	Transport string `json:"transport"`
	Tools     []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"tools"`
	Exchange []struct {
		Request struct {
			Name string `json:"name"`
		} `json:"request"`
		Result map[string]any `json:"result"`
	} `json:"exchange"`
}

// TestTypeScriptClient runs the official TypeScript MCP SDK against the
// built sgmcp, over stdio and over streamable HTTP: the tools must list,
// and search → assess → record_use must pass the SDK's own checks (its
// client validates every structured result against the tool's output
// schema). STRATAGATE_TS_SDK names a folder with the SDK in node_modules
// (.ci/run installs it).
func TestTypeScriptClient(t *testing.T) {
	sdk := os.Getenv("STRATAGATE_TS_SDK")
	if sdk == "" {
		t.Skip("STRATAGATE_TS_SDK unset: run `npm install --prefix DIR @modelcontextprotocol/sdk@1.32.2` and set STRATAGATE_TS_SDK=DIR (.ci/run does)")
	}
	node, err := exec.LookPath("node")
	require.NoError(t, err, "node is needed with STRATAGATE_TS_SDK")
	dir := t.TempDir()
	bin := filepath.Join(dir, "sgmcp")
	build := exec.Command("go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))
	db := filepath.Join(dir, "m.sg")
	mem, err := stratagate.Open(db, &stratagate.Options{BlockTurns: 2, NoSync: true})
	require.NoError(t, err)
	seed(t, mem)
	require.NoError(t, mem.Close())
	script, err := filepath.Abs("testdata/tsclient/client.mjs")
	require.NoError(t, err)

	runClient := func(t *testing.T, args ...string) tsOutput {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, append([]string{script}, args...)...)
		cmd.Dir = sdk
		cmd.Env = append(os.Environ(), "STRATAGATE_TS_SDK="+sdk, "NODE_PATH="+filepath.Join(sdk, "node_modules"))
		cmd.Stderr = os.Stderr
		b, err := cmd.Output()
		require.NoError(t, err, string(b))
		var o tsOutput
		require.NoError(t, json.Unmarshal(b, &o), string(b))
		t.Logf("%s", b)
		return o
	}
	check := func(t *testing.T, o tsOutput) {
		t.Helper()
		assert.Len(t, o.Tools, 19)
		require.Len(t, o.Exchange, 3)
		assert.NotEmpty(t, o.Exchange[0].Result["batch_id"])
		assert.Equal(t, "sufficient", o.Exchange[1].Result["verdict"])
		assert.Equal(t, true, o.Exchange[1].Result["recorded"])
		assert.Equal(t, true, o.Exchange[2].Result["recorded"])
	}
	t.Run("stdio", func(t *testing.T) {
		check(t, runClient(t, "stdio", bin, "serve", "-db", db, "-scope", scopeA, "-scope", "global"))
	})
	t.Run("http", func(t *testing.T) {
		const token = "ts-client-token-123"
		srv := exec.Command(bin, "serve", "-db", db, "-scope", scopeA, "-http", "127.0.0.1:0", "-token", token)
		stderr, err := srv.StderrPipe()
		require.NoError(t, err)
		require.NoError(t, srv.Start())
		t.Cleanup(func() {
			_ = srv.Process.Signal(os.Interrupt)
			_ = srv.Wait()
		})
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`on (http://\S+/mcp)`)
		var url string
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				url = m[1]
				break
			}
		}
		require.NotEmpty(t, url, "sgmcp did not report its address")
		go func() {
			for sc.Scan() {
			}
		}()
		check(t, runClient(t, "http", url, token))
	})
}
