package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

func TestPercentile(t *testing.T) {
	ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[i] = float64(i + 1)
	}
	for _, tc := range []struct {
		name   string
		sorted []float64
		p      float64
		want   float64
	}{
		{"empty", nil, 50, 0},
		{"one p50", []float64{7}, 50, 7},
		{"one p99", []float64{7}, 99, 7},
		{"two p50", []float64{1, 2}, 50, 1},
		{"two p51", []float64{1, 2}, 51, 2},
		{"ten p50", ten, 50, 5},
		{"ten p90", ten, 90, 9},
		{"ten p95", ten, 95, 10},
		{"ten p99", ten, 99, 10},
		{"ten p100", ten, 100, 10},
		{"ten p0 is min", ten, 0, 1},
		{"ten p>100 is max", ten, 150, 10},
		{"hundred p1", hundred, 1, 1},
		{"hundred p50", hundred, 50, 50},
		{"hundred p95", hundred, 95, 95},
		{"hundred p99", hundred, 99, 99},
		{"hundred p99.5", hundred, 99.5, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, percentile(tc.sorted, tc.p))
		})
	}
}

func TestReportJSONKeepsOrder(t *testing.T) {
	var r report
	r.add("b", "B", 1)
	r.add("a", "A", 2.123456)
	r.add("c", "C", []string{"x"})
	var buf bytes.Buffer
	require.NoError(t, r.write(&buf, true))
	assert.Equal(t, `{"b":1,"a":2.123,"c":["x"]}`+"\n", buf.String())
	buf.Reset()
	require.NoError(t, r.write(&buf, false))
	assert.Equal(t, "B  1\nA  2.123\nC  [\"x\"]\n", buf.String())
}

// sgbench runs one invocation and returns its exit code, stdout and stderr.
func sgbench(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func runJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, stderr := sgbench(t, append(args, "-json", "-progress", "0")...)
	require.Equal(t, exitOK, code, "stderr: %s", stderr)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &m), "stdout: %s", out)
	return m
}

func num(t *testing.T, m map[string]any, key string) float64 {
	t.Helper()
	v, ok := m[key]
	require.True(t, ok, "missing field %q in %v", key, m)
	f, ok := v.(float64)
	require.True(t, ok, "field %q is %T, want a number", key, v)
	return f
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, exitUsage, "usage: sgbench"},
		{[]string{"nope"}, exitUsage, "unknown command"},
		{[]string{"synth", "-bogus"}, exitUsage, "flag provided but not defined"},
		{[]string{"synth", "-turns", "10"}, exitUsage, "-out is required"},
		{[]string{"search", "-queries", "10"}, exitUsage, "-db is required"},
		{[]string{"search", "-db", "x", "-channel", "nodes"}, exitUsage, "want raw, events or graph"},
		{[]string{"ingest", "-turns", "0"}, exitUsage, "-turns must be positive"},
		{[]string{"ingest", "-batch", "0"}, exitUsage, "-batch must be in"},
		{[]string{"ingest", "extra"}, exitUsage, "unexpected argument"},
	} {
		code, _, stderr := sgbench(t, tc.args...)
		assert.Equal(t, tc.code, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
	code, out, _ := sgbench(t, "help")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "synth")
}

func TestGeneratorDeterministic(t *testing.T) {
	a, b, c := newGenerator(7), newGenerator(7), newGenerator(8)
	differs := false
	for i := range 200 {
		ta, ia := a.next()
		tb, ib := b.next()
		tc, _ := c.next()
		require.Equal(t, ta, tb, "turn %d", i)
		require.Equal(t, ia, ib)
		if ta.Messages[0].Content != tc.Messages[0].Content {
			differs = true
		}
		for _, m := range ta.Messages {
			require.NotEmpty(t, strings.TrimSpace(m.Content))
		}
	}
	assert.True(t, differs, "seeds 7 and 8 gave the same text")
	v := vocabulary(1)
	require.Len(t, v, vocabSize)
	seen := map[string]bool{}
	for _, w := range v {
		require.False(t, seen[w], "duplicate word %q", w)
		seen[w] = true
	}
}

func TestSynthDeterministic(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, name := range []string{"a.sg", "b.sg"} {
		path := filepath.Join(dir, name)
		rep := runJSON(t, "synth", "-turns", "60", "-out", path, "-seed", "3", "-nosync")
		assert.Equal(t, 60.0, num(t, rep, "turns"))
		assert.Equal(t, 120.0, num(t, rep, "messages"))
		files = append(files, path)
	}
	first := func(path string) []stratagate.Message {
		m, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
		require.NoError(t, err)
		defer m.Close()
		msgs, err := m.Messages(context.Background(), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
		require.NoError(t, err)
		return msgs
	}
	a, b := first(files[0]), first(files[1])
	require.Len(t, a, 10)
	for i := range a {
		assert.Equal(t, a[i].Content, b[i].Content, "message %d", i+1)
		assert.Equal(t, a[i].Speaker, b[i].Speaker)
		assert.Equal(t, a[i].Thread, b[i].Thread)
		assert.True(t, a[i].At.Equal(b[i].At))
		_, offA := a[i].At.Zone()
		_, offB := b[i].At.Zone()
		assert.Equal(t, offA, offB)
	}
	// The file matches the generator too.
	g := newGenerator(3)
	t0, _ := g.next()
	assert.Equal(t, t0.Messages[0].Content, a[0].Content)
	assert.Equal(t, t0.Messages[1].Content, a[1].Content)

	code, _, stderr := sgbench(t, "synth", "-turns", "5", "-out", files[0], "-progress", "0")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "exists")
}

func TestIngestJSON(t *testing.T) {
	rep := runJSON(t, "ingest", "-turns", "300")
	assert.Equal(t, 300.0, num(t, rep, "turns"))
	assert.Equal(t, false, rep["sync"])
	assert.Greater(t, num(t, rep, "turns_per_s"), 0.0)
	require.Greater(t, num(t, rep, "seals"), 0.0, "300 turns over 20 threads seal blocks")
	p50, p99 := num(t, rep, "seal_p50_us"), num(t, rep, "seal_p99_us")
	assert.Greater(t, p50, 0.0)
	assert.LessOrEqual(t, p50, p99)
	assert.LessOrEqual(t, num(t, rep, "append_p50_us"), num(t, rep, "append_p99_us"))
	assert.Equal(t, 600.0, num(t, rep, "messages"))
	assert.Equal(t, num(t, rep, "seals"), num(t, rep, "blocks"))
	assert.Equal(t, num(t, rep, "blocks"), num(t, rep, "blocks_ready"))
	assert.GreaterOrEqual(t, num(t, rep, "wait_idle_ms"), 0.0)
	c, data := num(t, rep, "compacted_bytes"), num(t, rep, "data_bytes")
	assert.Positive(t, c)
	assert.LessOrEqual(t, data, num(t, rep, "file_bytes"))
	assert.InDelta(t, c/600, num(t, rep, "compacted_bytes_per_msg"), 0.01)
	assert.InDelta(t, c/300, num(t, rep, "compacted_bytes_per_turn"), 0.01)
}

// -batch appends through AppendBatch; -sync adds the bare bbolt fsync
// baseline measured in the same run.
func TestIngestBatchSyncJSON(t *testing.T) {
	rep := runJSON(t, "ingest", "-turns", "300", "-batch", "25", "-sync")
	assert.Equal(t, 25.0, num(t, rep, "batch"))
	assert.Equal(t, true, rep["sync"])
	assert.Equal(t, 600.0, num(t, rep, "messages"))
	assert.Equal(t, num(t, rep, "blocks"), num(t, rep, "blocks_ready"))
	assert.Greater(t, num(t, rep, "seals"), 0.0)
	assert.Greater(t, num(t, rep, "bbolt_commits_per_s"), 0.0)
	assert.Greater(t, num(t, rep, "vs_bbolt"), 0.0)
	assert.NotContains(t, rep, "vs_shaped", "a batch is not one turn's pages")
}

// One Append per turn with -sync also measures bbolt writing a turn's
// pages alone, on buckets as large as the ingest left them.
func TestIngestSyncShapedJSON(t *testing.T) {
	rep := runJSON(t, "ingest", "-turns", "100", "-sync")
	assert.Greater(t, num(t, rep, "shaped_commits_per_s"), 0.0)
	assert.Greater(t, num(t, rep, "vs_shaped"), 0.0)
}

func TestSearchJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sg")
	runJSON(t, "synth", "-turns", "150", "-out", path, "-nosync")
	for _, channel := range []string{"raw", "events", "graph"} {
		rep := runJSON(t, "search", "-db", path, "-queries", "40", "-channel", channel)
		assert.Equal(t, channel, rep["channel"])
		assert.Equal(t, 40.0, num(t, rep, "queries"))
		p50, p95, p99, mx := num(t, rep, "p50_us"), num(t, rep, "p95_us"), num(t, rep, "p99_us"), num(t, rep, "max_us")
		assert.Greater(t, p50, 0.0)
		assert.LessOrEqual(t, p50, p95)
		assert.LessOrEqual(t, p95, p99)
		assert.LessOrEqual(t, p99, mx)
		assert.Greater(t, num(t, rep, "allocs_per_op"), 0.0)
		if channel == "raw" {
			assert.Equal(t, 300.0, num(t, rep, "docs"))
			assert.Greater(t, num(t, rep, "mean_results"), 0.0)
		}
	}
	// The query set is a function of the file and the seed.
	a := runJSON(t, "search", "-db", path, "-queries", "20", "-readonly")
	b := runJSON(t, "search", "-db", path, "-queries", "20", "-readonly")
	assert.Equal(t, a["sample_queries"], b["sample_queries"])
	assert.Equal(t, a["mean_results"], b["mean_results"])
}
