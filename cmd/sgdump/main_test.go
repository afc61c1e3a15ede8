package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/internal/sample"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
)

var (
	binary    string // the sgdump binary built once by TestMain
	storePath string // the sample conversation, ingested, settled and closed
	sampleF   *sample.File
)

const firstContent = "Hi! Leo and I are starting a side project called Atlas: a small web app for planning group trips"

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sgdump-test-")
	if err != nil {
		log.Fatal(err)
	}
	code := func() int {
		defer os.RemoveAll(dir)
		binary = filepath.Join(dir, "sgdump")
		if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
			log.Printf("go build: %v\n%s", err, out)
			return 1
		}
		storePath = filepath.Join(dir, "sample.sg")
		if err := buildStore(storePath); err != nil {
			log.Print(err)
			return 1
		}
		return m.Run()
	}()
	os.Exit(code)
}

// buildStore ingests testdata/conversation.json, runs a few searches so
// that the retrieval log has entries, waits for every derivation and
// closes the file.
func buildStore(path string) error {
	f, err := sample.Load("../../testdata/conversation.json")
	if err != nil {
		return err
	}
	sampleF = f
	ctx := context.Background()
	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
	if err != nil {
		return err
	}
	defer mem.Close()
	for _, t := range f.Turns() {
		if _, err := mem.Append(ctx, t); err != nil {
			return err
		}
	}
	for _, q := range []string{"pnpm", "Kiwi parrot"} {
		if _, err := mem.SearchRaw(ctx, stratagate.Query{Text: q, Scopes: []string{"global", "project:atlas"}}); err != nil {
			return err
		}
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := mem.WaitIdle(wctx); err != nil {
		return err
	}
	return mem.Close()
}

type result struct {
	code           int
	stdout, stderr string
}

// sg runs sgdump in-process against storePath (unless args set -db).
func sg(t *testing.T, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	full := append([]string{"-db", storePath}, args...)
	code := run(full, &out, &errb)
	return result{code, out.String(), errb.String()}
}

// sgJSON runs sgdump with -json, checks that stdout is exactly one JSON
// document and decodes it into v.
func sgJSON(t *testing.T, v any, args ...string) result {
	t.Helper()
	r := sg(t, append([]string{"-json"}, args...)...)
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	require.NoError(t, dec.Decode(v), "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	var extra json.RawMessage
	assert.ErrorIs(t, dec.Decode(&extra), io.EOF, "exactly one JSON document")
	return r
}

func messageCount() int {
	n := 0
	for _, t := range sampleF.Turns() {
		n += len(t.Messages)
	}
	return n
}

func TestUsage(t *testing.T) {
	r := sg(t)
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "usage: sgdump")
	r = sg(t, "frobnicate")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `unknown command "frobnicate"`)
	for _, c := range []string{"stats", "threads", "blocks", "block", "events", "event", "graph", "trace", "jobs", "retrievals", "search", "verify"} {
		assert.Contains(t, r.stderr, "  "+c+" ", "usage lists %s", c)
	}
	assert.Contains(t, r.stderr, "trace block|message|event|fact|edge|node ID")
	r = sg(t, "help")
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "exit codes")
	r = sg(t, "help", "search")
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "-scope")
	r = sg(t, "block", "-h")
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "-level")
	r = sg(t, "-bogus", "stats")
	assert.Equal(t, exitUsage, r.code)
	r = sg(t, "stats", "extra")
	assert.Equal(t, exitUsage, r.code)
	r = sg(t, "blocks", "-nope")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "usage: sgdump")
}

func TestOpenErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.sg")
	var out, errb bytes.Buffer
	code := run([]string{"-db", missing, "stats"}, &out, &errb)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errb.String(), "cannot open "+missing)
	assert.NoFileExists(t, missing, "read-only: nothing is created")

	notOurs := filepath.Join(t.TempDir(), "junk.sg")
	require.NoError(t, os.WriteFile(notOurs, bytes.Repeat([]byte("junk"), 4096), 0o600))
	code = run([]string{"-db", notOurs, "verify"}, &out, &errb)
	assert.Equal(t, exitUsage, code)
}

func TestStatsSizes(t *testing.T) {
	r := sg(t, "stats", "-sizes")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Regexp(t, `(?m)^BUCKET +KEYS +KEY BYTES +VALUE BYTES +BYTES +PAGES +PAGE BYTES +BYTES/MSG$`, r.stdout)
	assert.Regexp(t, `(?m)^messages +\d+ +\d+ +\d+ +\d+ +\d+ +\d+ +\d+\.\d$`, r.stdout)
	assert.Regexp(t, `(?m)^idx\.raw +\d+ `, r.stdout, "index buckets are measured too")
	assert.Regexp(t, `(?m)^file \d+ bytes: [\d.]+ per message, [\d.]+ per turn \(\d+ turns\)`, r.stdout)
	assert.NotContains(t, sg(t, "stats").stdout, "PAGE BYTES", "sizes only with -sizes")

	var s struct {
		FileBytes int64 `json:"file_bytes"`
		Messages  int   `json:"messages"`
		Sizes     struct {
			Buckets []struct {
				Name       string  `json:"name"`
				Keys       int     `json:"keys"`
				KeyBytes   int64   `json:"key_bytes"`
				ValueBytes int64   `json:"value_bytes"`
				Bytes      int64   `json:"bytes"`
				Pages      int     `json:"pages"`
				AllocBytes int64   `json:"alloc_bytes"`
				PerMsg     float64 `json:"bytes_per_message"`
			} `json:"buckets"`
			Total struct {
				Bytes      int64 `json:"bytes"`
				AllocBytes int64 `json:"alloc_bytes"`
			} `json:"total"`
			Turns       int     `json:"turns"`
			FileBytes   int64   `json:"file_bytes"`
			FilePerMsg  float64 `json:"file_bytes_per_message"`
			FilePerTurn float64 `json:"file_bytes_per_turn"`
		} `json:"sizes"`
	}
	r = sgJSON(t, &s, "stats", "-sizes")
	require.Equal(t, exitOK, r.code)
	require.NotEmpty(t, s.Sizes.Buckets)
	var sum, alloc int64
	byName := map[string]int{}
	for i, b := range s.Sizes.Buckets {
		byName[b.Name] = i
		assert.Equal(t, b.KeyBytes+b.ValueBytes, b.Bytes, b.Name)
		sum, alloc = sum+b.Bytes, alloc+b.AllocBytes
		if i > 0 {
			assert.LessOrEqual(t, b.AllocBytes, s.Sizes.Buckets[i-1].AllocBytes, "largest first")
		}
	}
	msgs := s.Sizes.Buckets[byName["messages"]]
	assert.Equal(t, messageCount(), msgs.Keys)
	assert.Equal(t, int64(8*messageCount()), msgs.KeyBytes, "8-byte id keys")
	assert.Positive(t, msgs.Pages)
	assert.InDelta(t, float64(msgs.Bytes)/float64(messageCount()), msgs.PerMsg, 0.01)
	assert.Equal(t, sum, s.Sizes.Total.Bytes)
	assert.Equal(t, alloc, s.Sizes.Total.AllocBytes)
	assert.LessOrEqual(t, alloc, s.FileBytes, "pages in use fit in the file")
	assert.Equal(t, s.FileBytes, s.Sizes.FileBytes)
	assert.Equal(t, 70, s.Sizes.Turns, "the sample's 60 atlas and 10 mia turns")
	assert.InDelta(t, float64(s.FileBytes)/float64(s.Sizes.Turns), s.Sizes.FilePerTurn, 0.01)
}

func TestStats(t *testing.T) {
	r := sg(t, "stats")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "format")
	assert.Contains(t, r.stdout, fmt.Sprintf("messages  %d", messageCount()))
	assert.Contains(t, r.stdout, "blocks    5 (ready 5, pending 0, failed 0)")
	assert.Contains(t, r.stdout, "thread_blocks")
	// The heuristic model's calls are counted (no tokens: it runs here).
	assert.Regexp(t, `(?m)^derive +5 +0 +0 +0 `, r.stdout)

	var s struct {
		Path       string         `json:"path"`
		Format     int            `json:"format"`
		FileBytes  int64          `json:"file_bytes"`
		Messages   int            `json:"messages"`
		Blocks     int            `json:"blocks"`
		JobsQueued int            `json:"jobs_queued"`
		JobsFailed int            `json:"jobs_failed"`
		Buckets    map[string]int `json:"buckets"`
	}
	// Global flags may follow the command too.
	r = sgJSON(t, &s, "stats")
	require.Equal(t, exitOK, r.code)
	assert.Equal(t, storePath, s.Path)
	assert.Equal(t, int(kv.FormatVersion), s.Format)
	assert.Positive(t, s.FileBytes)
	assert.Equal(t, messageCount(), s.Messages)
	assert.Equal(t, messageCount(), s.Buckets["messages"])
	assert.Equal(t, 5, s.Blocks)
	assert.Zero(t, s.JobsQueued, "settled")

	// Event and graph counts appear both as summary lines and per bucket.
	r = sg(t, "stats")
	assert.Regexp(t, `(?m)^events +\d+ cards$`, r.stdout)
	assert.Regexp(t, `(?m)^graph +\d+ nodes, \d+ facts, \d+ edges$`, r.stdout)
	for _, b := range []string{"events", "block_events", "graph.nodes", "graph.facts", "graph.edges"} {
		assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(b)+` +\d+$`, r.stdout)
	}
	var c struct {
		Events     int            `json:"events"`
		GraphNodes int            `json:"graph_nodes"`
		GraphFacts int            `json:"graph_facts"`
		GraphEdges int            `json:"graph_edges"`
		Buckets    map[string]int `json:"buckets"`
	}
	sgJSON(t, &c, "stats")
	assert.Positive(t, c.Events, "the sample yields event cards")
	assert.Equal(t, c.Buckets["events"], c.Events)
	assert.Equal(t, c.Buckets["graph.nodes"], c.GraphNodes)
	assert.Equal(t, c.Buckets["graph.facts"], c.GraphFacts)
	assert.Equal(t, c.Buckets["graph.edges"], c.GraphEdges)
}

func TestThreads(t *testing.T) {
	r := sg(t, "threads")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "team-atlas")
	assert.Contains(t, r.stdout, "project:atlas")
	assert.Contains(t, r.stdout, "2 threads")
	var doc struct {
		Threads []struct {
			Name           string   `json:"name"`
			Scope          string   `json:"scope"`
			Turns          int      `json:"turns"`
			Blocks         int      `json:"blocks"`
			OpenTurns      int      `json:"open_turns"`
			OpenMessageIDs []uint64 `json:"open_message_ids"`
		} `json:"threads"`
	}
	sgJSON(t, &doc, "threads")
	require.Len(t, doc.Threads, 2)
	assert.Equal(t, "mia-personal", doc.Threads[0].Name)
	assert.Equal(t, 10, doc.Threads[0].Turns)
	assert.Equal(t, 10, doc.Threads[0].OpenTurns)
	assert.NotEmpty(t, doc.Threads[0].OpenMessageIDs)
	assert.Equal(t, "team-atlas", doc.Threads[1].Name)
	assert.Equal(t, 5, doc.Threads[1].Blocks)
}

func TestBlocks(t *testing.T) {
	r := sg(t, "blocks")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "TITLE")
	assert.Contains(t, r.stdout, "5 blocks")
	r = sg(t, "blocks", "-thread", "mia-personal")
	require.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "0 blocks")
	r = sg(t, "blocks", "-thread", "nope")
	assert.Equal(t, exitFail, r.code)
	assert.Equal(t, "sgdump: thread \"nope\": not found\n", r.stderr)

	var doc struct {
		Blocks []struct {
			ID         uint64   `json:"id"`
			Thread     string   `json:"thread"`
			Seq        uint64   `json:"seq"`
			State      string   `json:"state"`
			MessageIDs []uint64 `json:"message_ids"`
			FirstAt    string   `json:"first_at"`
			Title      string   `json:"title"`
			Tags       []string `json:"tags"`
		} `json:"blocks"`
	}
	sgJSON(t, &doc, "blocks", "-thread", "team-atlas")
	require.Len(t, doc.Blocks, 5)
	for i, b := range doc.Blocks {
		assert.Equal(t, uint64(i+1), b.Seq)
		assert.Equal(t, "ready", b.State)
		assert.NotEmpty(t, b.Title)
		assert.NotEmpty(t, b.MessageIDs)
	}
	assert.Equal(t, "2024-03-05T19:30:00-05:00", doc.Blocks[0].FirstAt, "original offset kept")
}

func TestBlock(t *testing.T) {
	r := sg(t, "block", "1")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "block 1  L4  (ready)")
	assert.Contains(t, r.stdout, "[2024-03-05 19:30:00 -05:00] Mia Chen: "+firstContent)

	for _, lv := range []string{"3", "L3", "l3"} {
		r = sg(t, "block", "1", "-level", lv)
		require.Equal(t, exitOK, r.code, r.stderr)
		assert.Contains(t, r.stdout, "block 1  L3")
	}
	r = sg(t, "block", "-level", "0", "1")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "tags:")

	var v struct {
		BlockID  uint64 `json:"block_id"`
		Level    int    `json:"level"`
		State    string `json:"state"`
		Text     string `json:"text"`
		Messages []struct {
			ID       uint64 `json:"id"`
			Content  string `json:"content"`
			SHA256OK bool   `json:"sha256_ok"`
		} `json:"messages"`
	}
	sgJSON(t, &v, "block", "1", "-level", "L5")
	assert.Equal(t, uint64(1), v.BlockID)
	assert.Equal(t, 5, v.Level)
	require.NotEmpty(t, v.Messages)
	assert.True(t, strings.HasPrefix(v.Messages[0].Content, firstContent))
	assert.True(t, v.Messages[0].SHA256OK)

	r = sg(t, "block", "99")
	assert.Equal(t, exitFail, r.code)
	assert.Equal(t, "sgdump: block 99: not found\n", r.stderr)
	for _, bad := range [][]string{{"block"}, {"block", "x"}, {"block", "0"}, {"block", "-1"}, {"block", "1", "2"}, {"block", "1", "-level", "L9"}, {"block", "1", "-level", "-3"}} {
		r = sg(t, bad...)
		assert.Equal(t, exitUsage, r.code, "%v", bad)
		assert.Empty(t, r.stdout)
	}
}

func TestTraceBlock(t *testing.T) {
	r := sg(t, "trace", "block", "1")
	require.Equal(t, exitOK, r.code, r.stderr)
	for _, want := range []string{
		"thread   team-atlas (project:atlas), seq 1",
		"L0 title: ", "L1 summary:", "L2 facts:", "L3 (pruned):", "L4 (near-verbatim):", "L5 messages",
		"#1  turn 1  2024-03-05T19:30:00-05:00  user  Mia Chen",
		"    " + firstContent,
	} {
		assert.Contains(t, r.stdout, want)
	}
	assert.NotContains(t, r.stdout, "MISMATCH")
	assert.Regexp(t, `l5 hash +[0-9a-f]{64} ok`, r.stdout)
	assert.Regexp(t, `sha256 [0-9a-f]{64} ok`, r.stdout)

	var doc struct {
		Block struct {
			ID         uint64   `json:"id"`
			MessageIDs []uint64 `json:"message_ids"`
			L4         string   `json:"l4"`
			L5Hash     string   `json:"l5_hash"`
			Facts      []struct {
				Text       string   `json:"text"`
				MessageIDs []uint64 `json:"message_ids"`
			} `json:"facts"`
		} `json:"block"`
		L5HashComputed string `json:"l5_hash_computed"`
		L5HashOK       bool   `json:"l5_hash_ok"`
		Messages       []struct {
			ID           uint64 `json:"id"`
			Speaker      string `json:"speaker"`
			Role         string `json:"role"`
			At           string `json:"at"`
			Content      string `json:"content"`
			SHA256       string `json:"sha256"`
			SHA256Stored string `json:"sha256_stored"`
			SHA256OK     bool   `json:"sha256_ok"`
		} `json:"messages"`
		Missing []uint64 `json:"missing_message_ids"`
	}
	sgJSON(t, &doc, "trace", "block", "1")
	assert.True(t, doc.L5HashOK)
	assert.Equal(t, doc.Block.L5Hash, doc.L5HashComputed)
	assert.Empty(t, doc.Missing)
	require.Len(t, doc.Messages, len(doc.Block.MessageIDs))
	src := sampleF.Threads[0].Turns[0].Messages[0]
	m0 := doc.Messages[0]
	assert.Equal(t, src.Content, m0.Content, "verbatim source text")
	assert.Equal(t, src.Speaker, m0.Speaker)
	assert.Equal(t, "user", m0.Role)
	assert.Equal(t, "2024-03-05T19:30:00-05:00", m0.At)
	assert.True(t, m0.SHA256OK)
	assert.Equal(t, m0.SHA256Stored, m0.SHA256)
	assert.Len(t, m0.SHA256, 64)
	for _, f := range doc.Block.Facts {
		for _, id := range f.MessageIDs {
			assert.Contains(t, doc.Block.MessageIDs, id, "facts cite messages of the block")
		}
	}

	r = sg(t, "trace", "block", "42")
	assert.Equal(t, exitFail, r.code)
	assert.Equal(t, "sgdump: block 42: not found\n", r.stderr)
	for _, bad := range [][]string{{"trace"}, {"trace", "block"}, {"trace", "bogus", "1"}, {"trace", "block", "x"}, {"trace", "event", "0"}, {"trace", "fact"}} {
		assert.Equal(t, exitUsage, sg(t, bad...).code, "%v", bad)
	}
}

func TestTraceMessage(t *testing.T) {
	r := sg(t, "trace", "message", "1")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "thread   team-atlas, turn 1")
	assert.Contains(t, r.stdout, "block    1 (seq 1, ready)")
	assert.Contains(t, r.stdout, "    "+firstContent)
	assert.Regexp(t, `sha256 +[0-9a-f]{64} ok`, r.stdout)

	var doc struct {
		Message struct {
			ID       uint64 `json:"id"`
			Thread   string `json:"thread"`
			SHA256OK bool   `json:"sha256_ok"`
		} `json:"message"`
		Block *struct {
			ID uint64 `json:"id"`
		} `json:"block"`
		CitedBy []struct {
			Text string `json:"text"`
		} `json:"cited_by"`
	}
	sgJSON(t, &doc, "trace", "message", "1")
	require.NotNil(t, doc.Block)
	assert.Equal(t, uint64(1), doc.Block.ID)
	assert.True(t, doc.Message.SHA256OK)

	// The last message is in mia-personal's open tail.
	last := fmt.Sprint(messageCount())
	doc.Block = nil
	sgJSON(t, &doc, "trace", "message", last)
	assert.Equal(t, "mia-personal", doc.Message.Thread)
	assert.Nil(t, doc.Block)
	r = sg(t, "trace", "message", last)
	assert.Contains(t, r.stdout, "none: in the open tail of thread mia-personal")

	r = sg(t, "trace", "message", "99999")
	assert.Equal(t, exitFail, r.code)
	assert.Equal(t, "sgdump: message 99999: not found\n", r.stderr)
}

func TestJobs(t *testing.T) {
	r := sg(t, "jobs")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Regexp(t, `(?m)^1 +derive +1 +done +1 +\S+ +1 +0/0 +derive_block/1/[0-9a-f]{8} `, r.stdout)
	assert.Regexp(t, `\d+ jobs: 0 pending, 0 running, \d+ done, \d+ failed`, r.stdout)
	var doc struct {
		Jobs []struct {
			ID       uint64 `json:"id"`
			Kind     string `json:"kind"`
			Target   uint64 `json:"target"`
			State    string `json:"state"`
			Attempts int    `json:"attempts"`
			Created  string `json:"created"`
			Prompt   string `json:"prompt"`
			Usage    struct {
				Calls int `json:"calls"`
			} `json:"usage"`
		} `json:"jobs"`
	}
	sgJSON(t, &doc, "jobs", "-state", "done")
	var derived []uint64
	for _, j := range doc.Jobs {
		assert.Equal(t, "done", j.State)
		assert.NotEmpty(t, j.Created)
		if j.Kind == "derive" {
			derived = append(derived, j.Target)
			assert.Equal(t, 1, j.Attempts)
			assert.Equal(t, 1, j.Usage.Calls)
			assert.Contains(t, j.Prompt, "derive_block/")
		}
	}
	assert.Equal(t, []uint64{1, 2, 3, 4, 5}, derived, "one derive job per block")
	sgJSON(t, &doc, "jobs", "-state", "running")
	assert.Empty(t, doc.Jobs)
	assert.Equal(t, exitUsage, sg(t, "jobs", "-state", "stuck").code)
}

func TestRetrievals(t *testing.T) {
	r := sg(t, "retrievals")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "pnpm")
	assert.Contains(t, r.stdout, "2 observations")
	var doc struct {
		Retrievals []struct {
			ID       uint64   `json:"id"`
			At       string   `json:"at"`
			Channel  string   `json:"channel"`
			Text     string   `json:"text"`
			Scopes   []string `json:"scopes"`
			Returned []uint64 `json:"returned"`
		} `json:"retrievals"`
	}
	sgJSON(t, &doc, "retrievals", "-n", "1")
	require.Len(t, doc.Retrievals, 1)
	o := doc.Retrievals[0]
	assert.Equal(t, "Kiwi parrot", o.Text, "the newest")
	assert.Equal(t, "raw", o.Channel)
	assert.Equal(t, []string{"global", "project:atlas"}, o.Scopes)
	assert.NotEmpty(t, o.Returned)
	assert.Equal(t, exitUsage, sg(t, "retrievals", "-n", "-2").code)
}

func TestSearch(t *testing.T) {
	r := sg(t, "search", "-scope", "project:atlas", "pnpm", "monorepo")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "SNIPPET")
	assert.Contains(t, r.stdout, "team-atlas")
	var doc struct {
		Query  string   `json:"query"`
		Scopes []string `json:"scopes"`
		Hits   []struct {
			Rank      int     `json:"rank"`
			MessageID uint64  `json:"message_id"`
			BlockID   uint64  `json:"block_id"`
			Thread    string  `json:"thread"`
			Score     float64 `json:"score"`
			Snippet   string  `json:"snippet"`
		} `json:"hits"`
	}
	sgJSON(t, &doc, "search", "-scope", "project:atlas", "-k", "3", "pnpm")
	assert.Equal(t, "pnpm", doc.Query)
	require.NotEmpty(t, doc.Hits)
	assert.LessOrEqual(t, len(doc.Hits), 3)
	assert.Equal(t, 1, doc.Hits[0].Rank)
	assert.Contains(t, strings.ToLower(doc.Hits[0].Snippet), "pnpm")
	assert.Equal(t, "team-atlas", doc.Hits[0].Thread)

	// Default scope: global only, so the atlas project stays invisible.
	sgJSON(t, &doc, "search", "pnpm")
	assert.Equal(t, []string{"global"}, doc.Scopes)
	for _, h := range doc.Hits {
		assert.Equal(t, "mia-personal", h.Thread)
	}

	assert.Equal(t, exitUsage, sg(t, "search").code)
	assert.Equal(t, exitUsage, sg(t, "search", "-k", "0", "x").code)
	r = sg(t, "search", "-scope", "Team:x", "pnpm")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "scope")

	// A read-only search is not logged.
	r = sg(t, "retrievals")
	assert.Contains(t, r.stdout, "2 observations")
}

// damagedCopy copies storePath, lets damage change the copy through bbolt
// and returns the copy's path.
func damagedCopy(t *testing.T, damage func(tx *bolt.Tx) error) string {
	t.Helper()
	data, err := os.ReadFile(storePath)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "damaged.sg")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	require.NoError(t, err)
	require.NoError(t, db.Update(damage))
	require.NoError(t, db.Close())
	return path
}

type verifyDoc struct {
	OK         bool           `json:"ok"`
	Checked    map[string]int `json:"checked"`
	Violations []struct {
		Check  string `json:"check"`
		Kind   string `json:"kind"`
		ID     uint64 `json:"id"`
		Key    string `json:"key"`
		Detail string `json:"detail"`
	} `json:"violations"`
}

func TestVerify(t *testing.T) {
	r := sg(t, "verify")
	require.Equal(t, exitOK, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "verify: OK: 0 errors, 0 warnings; checked ")
	assert.Contains(t, r.stdout, fmt.Sprintf("%d messages", messageCount()))
	var doc verifyDoc
	sgJSON(t, &doc, "verify")
	assert.True(t, doc.OK)
	assert.Empty(t, doc.Violations)
	assert.Equal(t, 5, doc.Checked["blocks"])

	// Block 2's hash of its L3 and L4 no longer matches fresh renderings.
	damaged := damagedCopy(t, func(tx *bolt.Tx) error {
		b, err := layers.GetBlock(tx, 2)
		if err != nil {
			return err
		}
		b.RenderHash[0] ^= 1
		return layers.PutBlock(tx, &b)
	})
	var out, errb bytes.Buffer
	code := run([]string{"-db", damaged, "verify"}, &out, &errb)
	assert.Equal(t, exitFail, code)
	assert.Regexp(t, `error +block\.render_hash +2 +team-atlas +block 2: stored L3/L4 hash`, out.String())
	assert.Contains(t, out.String(), "verify: FAILED: 1 error, 0 warnings")
	assert.Contains(t, errb.String(), "sgdump: verify: "+damaged+": 1 error found")

	out.Reset()
	code = run([]string{"-db", damaged, "-json", "verify"}, &out, &errb)
	assert.Equal(t, exitFail, code)
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc))
	assert.False(t, doc.OK)
	require.Len(t, doc.Violations, 1)
	assert.Equal(t, "block.render_hash", doc.Violations[0].Check)
	assert.Equal(t, "error", doc.Violations[0].Kind)
	assert.Equal(t, uint64(2), doc.Violations[0].ID)

	// trace renders L3 and L4 from the messages, which still verify.
	r = sg(t, "-db", damaged, "trace", "block", "2")
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "L4 (near-verbatim):")
}

func TestTraceDamaged(t *testing.T) {
	damaged := damagedCopy(t, func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketMessages).Delete(kv.Key(3))
	})
	r := sg(t, "-db", damaged, "trace", "block", "1")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "#3  MISSING")
	assert.Regexp(t, `l5 hash +[0-9a-f]{64} MISMATCH`, r.stdout)
	r = sg(t, "-db", damaged, "trace", "message", "3")
	assert.Equal(t, exitFail, r.code)
	assert.Equal(t, "sgdump: message 3: not found\n", r.stderr)
	r = sg(t, "-db", damaged, "verify")
	assert.Equal(t, exitFail, r.code)
	assert.Regexp(t, `error +block\.messages +1 +team-atlas +block 1 lists message 3, which is not stored`, r.stdout)
}

// sgBinary runs the built binary.
func sgBinary(t *testing.T, args ...string) (result, time.Duration) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return result{code, out.String(), errb.String()}, elapsed
}

func TestBinaryExitCodes(t *testing.T) {
	r, _ := sgBinary(t, "-db", storePath, "stats")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "messages")

	r, _ = sgBinary(t, "-db", storePath, "nope")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "usage: sgdump")

	r, _ = sgBinary(t, "-db", storePath, "block", "99")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "sgdump: block 99: not found\n", r.stderr)

	r, _ = sgBinary(t, "-db", storePath, "event", "999999")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "sgdump: event 999999: not found\n", r.stderr)

	var spanned uint64 // the block whose span is removed
	damaged := damagedCopy(t, func(tx *bolt.Tx) error {
		c := tx.Bucket(kv.BucketThreadSpans).Cursor()
		k, v := c.First()
		sp, err := layers.DecodeSpan(k, v)
		require.NoError(t, err)
		spanned = sp.BlockID
		return c.Delete()
	})
	r, _ = sgBinary(t, "-db", damaged, "verify")
	assert.Equal(t, 1, r.code)
	assert.Regexp(t, fmt.Sprintf(`error +thread_spans +%d `, spanned), r.stdout)

	// A file of an older format: refused read-only, with how to migrate it.
	older := damagedCopy(t, func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketMeta).Put([]byte("format"), []byte{0, 0, 0, 3})
	})
	r, _ = sgBinary(t, "-db", older, "stats")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "file format 3 predates")
	assert.Contains(t, r.stderr, "serve -write")

	// A writer holds the file: read-only opens wait -timeout, then exit 3.
	data, err := os.ReadFile(storePath)
	require.NoError(t, err)
	locked := filepath.Join(t.TempDir(), "locked.sg")
	require.NoError(t, os.WriteFile(locked, data, 0o600))
	writer, err := stratagate.Open(locked, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	defer writer.Close()
	for _, cmd := range []string{"stats", "jobs"} {
		r, elapsed := sgBinary(t, "-db", locked, "-timeout", "500ms", cmd)
		assert.Equal(t, 3, r.code, "%s: %s", cmd, r.stderr)
		assert.Equal(t, "sgdump: "+locked+" is locked by a writer (waited 500ms); retry when it is idle\n", r.stderr)
		assert.Empty(t, r.stdout)
		assert.Less(t, elapsed, 3*time.Second)
		assert.GreaterOrEqual(t, elapsed, 400*time.Millisecond)
	}
}

// eventRow is one card of "events -json".
type eventRow struct {
	Rank             int      `json:"rank"`
	Score            float64  `json:"score"`
	ID               uint64   `json:"id"`
	Thread           string   `json:"thread"`
	Scope            string   `json:"scope"`
	BlockID          uint64   `json:"block_id"`
	Type             string   `json:"type"`
	Status           string   `json:"status"`
	Lifecycle        string   `json:"lifecycle"`
	Title            string   `json:"title"`
	MentionedAt      string   `json:"mentioned_at"`
	HappenedStart    string   `json:"happened_start"`
	HappenedEnd      string   `json:"happened_end"`
	Precision        string   `json:"precision"`
	Participants     []string `json:"participants"`
	SourceMessageIDs []uint64 `json:"source_message_ids"`
}

type eventsDoc struct {
	Query  string     `json:"query"`
	Scopes []string   `json:"scopes"`
	Thread string     `json:"thread"`
	Events []eventRow `json:"events"`
}

// allEvents lists every card of path.
func allEvents(t *testing.T, path string) []eventRow {
	t.Helper()
	var doc eventsDoc
	sgJSON(t, &doc, "-db", path, "events")
	return doc.Events
}

func TestEvents(t *testing.T) {
	r := sg(t, "events")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "ID  TYPE")
	assert.Contains(t, r.stdout, "HAPPENED")
	assert.Regexp(t, `(?m)^\d+ events in every scope$`, r.stdout)
	assert.Regexp(t, `\[\d{4}-\d\d-\d\d, \d{4}-\d\d-\d\d\) (day|week|month|season|year|range)`, r.stdout, "happened interval with its precision")

	var doc eventsDoc
	sgJSON(t, &doc, "events")
	require.NotEmpty(t, doc.Events, "the sample yields event cards")
	assert.Empty(t, doc.Query)
	assert.Equal(t, []string{}, doc.Scopes)
	for i, ev := range doc.Events {
		if i > 0 {
			assert.Greater(t, ev.ID, doc.Events[i-1].ID, "id order")
		}
		assert.Equal(t, "team-atlas", ev.Thread, "only team-atlas has sealed blocks")
		assert.Equal(t, "project:atlas", ev.Scope)
		assert.NotZero(t, ev.BlockID)
		assert.NotEmpty(t, ev.SourceMessageIDs)
		assert.NotEmpty(t, ev.MentionedAt)
		assert.Contains(t, []string{"active", "superseded", "forgotten"}, ev.Lifecycle)
		assert.Zero(t, ev.Rank, "no rank when listing")
		if ev.HappenedStart != "" {
			assert.NotEmpty(t, ev.Precision)
		}
	}
	all := doc.Events

	// -n: the newest N, still in id order.
	sgJSON(t, &doc, "events", "-n", "2")
	require.Len(t, doc.Events, 2)
	assert.Equal(t, all[len(all)-2:], doc.Events)
	sgJSON(t, &doc, "events", "-thread", "team-atlas")
	assert.Len(t, doc.Events, len(all))
	assert.Equal(t, "team-atlas", doc.Thread)
	sgJSON(t, &doc, "events", "-thread", "mia-personal")
	assert.Empty(t, doc.Events, "mia-personal has no sealed block")
	sgJSON(t, &doc, "events", "-scope", "global")
	assert.Empty(t, doc.Events)
	assert.Equal(t, []string{"global"}, doc.Scopes)

	// -q: SearchEvents over every scope of the file's threads by default.
	r = sg(t, "events", "-q", "pnpm monorepo")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "RANK  SCORE")
	assert.Regexp(t, `(?m)^\d+ hits in global, project:atlas$`, r.stdout)
	sgJSON(t, &doc, "events", "-q", "pnpm monorepo", "-n", "3")
	assert.Equal(t, "pnpm monorepo", doc.Query)
	assert.Equal(t, []string{"global", "project:atlas"}, doc.Scopes)
	require.NotEmpty(t, doc.Events)
	assert.LessOrEqual(t, len(doc.Events), 3)
	pnpm := false
	for i, h := range doc.Events {
		assert.Equal(t, i+1, h.Rank)
		assert.Positive(t, h.Score)
		assert.NotEqual(t, "forgotten", h.Lifecycle)
		pnpm = pnpm || strings.Contains(strings.ToLower(h.Title), "pnpm")
	}
	assert.True(t, pnpm, "a hit is about pnpm: %+v", doc.Events)
	sgJSON(t, &doc, "events", "-q", "pnpm", "-scope", "global")
	assert.Empty(t, doc.Events, "the atlas cards are out of scope")

	r = sg(t, "events", "-thread", "nope")
	assert.Equal(t, exitFail, r.code)
	assert.Equal(t, "sgdump: thread \"nope\": not found\n", r.stderr)
	for _, bad := range [][]string{{"events", "pnpm"}, {"events", "-n", "-1"}, {"events", "-q", "x", "-n", "999"}, {"events", "-q", "x", "-scope", "Bad Scope"}} {
		r = sg(t, bad...)
		assert.Equal(t, exitUsage, r.code, "%v: %s", bad, r.stderr)
		assert.Empty(t, r.stdout)
	}
	// A read-only search is not logged.
	assert.Contains(t, sg(t, "retrievals").stdout, "2 observations")
}

type messageDoc struct {
	ID           uint64 `json:"id"`
	Thread       string `json:"thread"`
	Role         string `json:"role"`
	Speaker      string `json:"speaker"`
	At           string `json:"at"`
	Content      string `json:"content"`
	SHA256       string `json:"sha256"`
	SHA256Stored string `json:"sha256_stored"`
	SHA256OK     bool   `json:"sha256_ok"`
	InBlock      bool   `json:"in_block"`
}

type cardDoc struct {
	ID               uint64   `json:"id"`
	Thread           string   `json:"thread"`
	Scope            string   `json:"scope"`
	BlockID          uint64   `json:"block_id"`
	SourceMessageIDs []uint64 `json:"source_message_ids"`
	Title            string   `json:"title"`
	Summary          string   `json:"summary"`
	Quotes           []string `json:"quotes"`
	Type             string   `json:"type"`
	Participants     []string `json:"participants"`
	Entities         []string `json:"entities"`
	Criticality      string   `json:"criticality"`
	Lifecycle        string   `json:"lifecycle"`
	MentionedAt      string   `json:"mentioned_at"`
	HappenedStart    string   `json:"happened_start"`
	Precision        string   `json:"precision"`
	Basis            string   `json:"basis"`
	Supersedes       []uint64 `json:"supersedes_event_ids"`
	SupersededBy     uint64   `json:"superseded_by"`
	Conflicts        []uint64 `json:"conflicts_with_event_ids"`
}

type linkDoc struct {
	ID        uint64 `json:"id"`
	Title     string `json:"title"`
	Lifecycle string `json:"lifecycle"`
}

func TestEvent(t *testing.T) {
	all := allEvents(t, storePath)
	require.NotEmpty(t, all)
	// Prefer a superseded card: it has a link to show.
	id := all[0].ID
	for _, ev := range all {
		if ev.Lifecycle == "superseded" {
			id = ev.ID
			break
		}
	}
	ids := fmt.Sprint(id)
	r := sg(t, "event", ids)
	require.Equal(t, exitOK, r.code, r.stderr)
	for _, want := range []string{"event         " + ids, "title ", "lifecycle ", "mentioned ", "happened ", "precision ", "participants ", "weight ", "cited messages ("} {
		assert.Contains(t, r.stdout, want)
	}

	var d struct {
		Event        cardDoc      `json:"event"`
		Weight       float64      `json:"weight"`
		BlockSummary string       `json:"block_summary"`
		Supersedes   []linkDoc    `json:"supersedes"`
		SupersededBy *linkDoc     `json:"superseded_by"`
		Conflicts    []linkDoc    `json:"conflicts"`
		Sources      []messageDoc `json:"sources"`
	}
	sgJSON(t, &d, "event", ids)
	assert.Equal(t, id, d.Event.ID)
	assert.NotEmpty(t, d.Event.Title)
	assert.NotEmpty(t, d.Event.MentionedAt)
	assert.NotEmpty(t, d.Event.Criticality)
	assert.NotNil(t, d.Event.Quotes)
	assert.NotNil(t, d.Supersedes)
	assert.NotNil(t, d.Conflicts)
	assert.Positive(t, d.Weight)
	assert.NotEmpty(t, d.BlockSummary, "the source block's L1")
	require.Len(t, d.Sources, len(d.Event.SourceMessageIDs))
	for _, m := range d.Sources {
		assert.True(t, m.SHA256OK)
	}
	if d.Event.Lifecycle == "superseded" {
		require.NotNil(t, d.SupersededBy)
		assert.Equal(t, d.Event.SupersededBy, d.SupersededBy.ID)
		assert.NotEmpty(t, d.SupersededBy.Title)
		assert.Contains(t, r.stdout, "superseded by:")
		// The newer card names the older one.
		var nd struct {
			Supersedes []linkDoc `json:"supersedes"`
		}
		sgJSON(t, &nd, "event", fmt.Sprint(d.SupersededBy.ID))
		assert.True(t, slices.ContainsFunc(nd.Supersedes, func(l linkDoc) bool { return l.ID == id }))
	} else {
		t.Log("no superseded card in the sample: links not exercised")
	}

	r = sg(t, "event", "999999")
	assert.Equal(t, exitFail, r.code)
	assert.Equal(t, "sgdump: event 999999: not found\n", r.stderr)
	assert.Empty(t, r.stdout)
	for _, bad := range [][]string{{"event"}, {"event", "x"}, {"event", "0"}, {"event", "1", "2"}} {
		assert.Equal(t, exitUsage, sg(t, bad...).code, "%v", bad)
	}
}

// sampleContents is every message text of the sample, verbatim.
func sampleContents() map[string]bool {
	out := map[string]bool{}
	for _, th := range sampleF.Threads {
		for _, tu := range th.Turns {
			for _, m := range tu.Messages {
				out[m.Content] = true
			}
		}
	}
	return out
}

type chainDoc struct {
	Event cardDoc `json:"event"`
	Block *struct {
		ID         uint64   `json:"id"`
		Seq        uint64   `json:"seq"`
		State      string   `json:"state"`
		Summary    string   `json:"summary"`
		MessageIDs []uint64 `json:"message_ids"`
	} `json:"block"`
	Messages          []messageDoc `json:"messages"`
	MissingMessageIDs []uint64     `json:"missing_message_ids"`
	Quotes            []struct {
		Text       string   `json:"text"`
		Found      bool     `json:"found"`
		MessageIDs []uint64 `json:"message_ids"`
	} `json:"quotes"`
	OK bool `json:"ok"`
}

// checkChain asserts that a chain reaches verbatim, hash-checked messages.
func checkChain(t *testing.T, c *chainDoc) {
	t.Helper()
	contents := sampleContents()
	require.NotNil(t, c.Block, "event %d: source block", c.Event.ID)
	assert.Equal(t, c.Event.BlockID, c.Block.ID)
	assert.Equal(t, "ready", c.Block.State)
	assert.NotEmpty(t, c.Block.Summary, "L1")
	assert.Empty(t, c.MissingMessageIDs)
	require.Len(t, c.Messages, len(c.Event.SourceMessageIDs))
	for i, m := range c.Messages {
		assert.Equal(t, c.Event.SourceMessageIDs[i], m.ID)
		assert.True(t, contents[m.Content], "message %d is verbatim sample text", m.ID)
		assert.Regexp(t, `^[0-9a-f]{64}$`, m.SHA256)
		assert.Equal(t, m.SHA256Stored, m.SHA256)
		assert.True(t, m.SHA256OK)
		assert.True(t, m.InBlock)
		assert.Contains(t, c.Block.MessageIDs, m.ID)
		_, err := time.Parse(time.RFC3339, m.At)
		assert.NoError(t, err)
	}
	require.Len(t, c.Quotes, len(c.Event.Quotes))
	for _, q := range c.Quotes {
		assert.True(t, q.Found, "quote %q", q.Text)
		for _, id := range q.MessageIDs {
			assert.Contains(t, c.Event.SourceMessageIDs, id)
		}
	}
	assert.True(t, c.OK)
}

func TestTraceEvent(t *testing.T) {
	all := allEvents(t, storePath)
	require.NotEmpty(t, all)
	// A card with a quote.
	var d chainDoc
	for _, ev := range all {
		sgJSON(t, &d, "trace", "event", fmt.Sprint(ev.ID))
		if len(d.Event.Quotes) > 0 {
			break
		}
	}
	require.NotEmpty(t, d.Event.Quotes, "some card has a quote")
	checkChain(t, &d)
	id := fmt.Sprint(d.Event.ID)

	r := sg(t, "trace", "event", id)
	require.Equal(t, exitOK, r.code, r.stderr)
	m := d.Messages[0]
	for _, want := range []string{
		"event         " + id,
		fmt.Sprintf("source block %d (team-atlas seq %d, ready): ", d.Block.ID, d.Block.Seq),
		"  L1 summary:",
		fmt.Sprintf("quotes (%d):", len(d.Quotes)),
		"found in [#",
		fmt.Sprintf("#%d  turn ", m.ID),
		"  " + m.At + "  " + m.Role + "  " + m.Speaker,
		fmt.Sprintf("sha256 %s ok", m.SHA256),
		"provenance: ok: ",
	} {
		assert.Contains(t, r.stdout, want)
	}
	// The cited message, verbatim, every line indented by four spaces.
	for _, line := range strings.Split(m.Content, "\n") {
		assert.Contains(t, r.stdout, "    "+line+"\n")
	}
	assert.NotContains(t, r.stdout, "MISMATCH")
	assert.NotContains(t, r.stdout, "NOT FOUND")

	r = sg(t, "trace", "event", "999999")
	assert.Equal(t, exitFail, r.code)
	assert.Equal(t, "sgdump: event 999999: not found\n", r.stderr)

	// A tampered message shows as MISMATCH down the chain.
	// (The content's first letter flips case in the stored record, whose
	// hash stays: the quote, matched case-folded, is still found.)
	damaged := damagedCopy(t, func(tx *bolt.Tx) error {
		mb := tx.Bucket(kv.BucketMessages)
		v := mb.Get(kv.Key(m.ID))
		i := strings.IndexFunc(m.Content, unicode.IsLetter)
		require.GreaterOrEqual(t, i, 0)
		edited := []byte(m.Content)
		edited[i] ^= 0x20 // ASCII case flip, same length
		nv := bytes.Replace(v, []byte(m.Content), edited, 1)
		require.NotEqual(t, v, nv)
		return mb.Put(kv.Key(m.ID), nv)
	})
	var dd chainDoc
	sgJSON(t, &dd, "-db", damaged, "trace", "event", id)
	assert.False(t, dd.OK)
	assert.False(t, dd.Messages[0].SHA256OK)
	r = sg(t, "-db", damaged, "trace", "event", id)
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "MISMATCH")
	assert.Contains(t, r.stdout, "provenance: PROBLEMS: 1 hash MISMATCH")

	// A cited message deleted: trace reports it, event cannot expand.
	gone := damagedCopy(t, func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketMessages).Delete(kv.Key(m.ID))
	})
	sgJSON(t, &dd, "-db", gone, "trace", "event", id)
	assert.False(t, dd.OK)
	assert.Equal(t, []uint64{m.ID}, dd.MissingMessageIDs)
	r = sg(t, "-db", gone, "trace", "event", id)
	assert.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, fmt.Sprintf("  #%d  MISSING: not stored or unreadable", m.ID))
	assert.Contains(t, r.stdout, "provenance: PROBLEMS: 1 cited message missing")
	r = sg(t, "-db", gone, "event", id)
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "sgdump: event "+id+": ")
	assert.Contains(t, r.stderr, "sgdump trace event "+id+" shows what is missing")
}

// balanced reports whether dot has balanced braces and brackets outside
// its quoted strings, and no unterminated string.
func balanced(dot string) bool {
	var stack []rune
	inStr, esc := false, false
	for _, r := range dot {
		switch {
		case inStr && esc:
			esc = false
		case inStr && r == '\\':
			esc = true
		case inStr && r == '"':
			inStr = false
		case inStr:
		case r == '"':
			inStr = true
		case r == '{' || r == '[':
			stack = append(stack, r)
		case r == '}' || r == ']':
			open := map[rune]rune{'}': '{', ']': '['}[r]
			if len(stack) == 0 || stack[len(stack)-1] != open {
				return false
			}
			stack = stack[:len(stack)-1]
		}
	}
	return !inStr && len(stack) == 0
}

type graphFactDoc struct {
	ID             uint64   `json:"id"`
	Node           uint64   `json:"node"`
	Key            string   `json:"key"`
	Value          string   `json:"value"`
	ValidFrom      string   `json:"valid_from"`
	ValidTo        string   `json:"valid_to"`
	RecordedAt     string   `json:"recorded_at"`
	ClosedAt       string   `json:"closed_at"`
	Active         bool     `json:"active"`
	SourceEventIDs []uint64 `json:"source_event_ids"`
}

type graphEdgeDoc struct {
	ID             uint64   `json:"id"`
	From           uint64   `json:"from"`
	FromName       string   `json:"from_name"`
	To             uint64   `json:"to"`
	ToName         string   `json:"to_name"`
	Relation       string   `json:"relation"`
	ValidFrom      string   `json:"valid_from"`
	ValidTo        string   `json:"valid_to"`
	RecordedAt     string   `json:"recorded_at"`
	ClosedAt       string   `json:"closed_at"`
	Active         bool     `json:"active"`
	SourceEventIDs []uint64 `json:"source_event_ids"`
}

type graphNodeDoc struct {
	ID             uint64         `json:"id"`
	Name           string         `json:"name"`
	Kind           string         `json:"kind"`
	Scope          string         `json:"scope"`
	Aliases        []string       `json:"aliases"`
	SourceEventIDs []uint64       `json:"source_event_ids"`
	Facts          []graphFactDoc `json:"facts"`
}

type graphDoc struct {
	AsOf  string         `json:"as_of"`
	Nodes []graphNodeDoc `json:"nodes"`
	Edges []graphEdgeDoc `json:"edges"`
}

func TestGraph(t *testing.T) {
	var g graphDoc
	sgJSON(t, &g, "graph")
	_, err := time.Parse(time.RFC3339, g.AsOf)
	assert.NoError(t, err, "as_of %q", g.AsOf)
	require.NotNil(t, g.Nodes)
	require.NotNil(t, g.Edges)
	var jf graphDoc
	sgJSON(t, &jf, "graph", "-format", "json")
	assert.Equal(t, len(g.Nodes), len(jf.Nodes), "-format json is -json")

	r := sg(t, "graph")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "graph as of ")
	dot := sg(t, "graph", "-format", "dot")
	require.Equal(t, exitOK, dot.code, dot.stderr)
	assert.True(t, strings.HasPrefix(dot.stdout, "digraph"), dot.stdout)
	assert.True(t, balanced(dot.stdout), dot.stdout)

	if len(g.Nodes) == 0 {
		t.Log("the sample store has no graph node (no projector yet): checking the empty shape; TestGraphProjected covers a graph")
		assert.Empty(t, g.Edges)
		assert.Contains(t, r.stdout, "0 nodes, 0 facts, 0 edges")
		assert.Equal(t, 2, strings.Count(dot.stdout, "\n  "), "only the graph and node defaults: %s", dot.stdout)
	} else {
		t.Logf("the sample store has %d graph nodes", len(g.Nodes))
		for _, n := range g.Nodes {
			assert.Contains(t, r.stdout, n.Name+" ("+n.Kind+"): ")
			assert.Contains(t, dot.stdout, fmt.Sprintf("n%d [label=", n.ID))
			for _, f := range n.Facts {
				assert.NotEmpty(t, f.SourceEventIDs)
				assert.True(t, f.Active, "only facts with an active source event are current")
			}
		}
		for _, ed := range g.Edges {
			assert.Contains(t, r.stdout, " —"+ed.Relation+"→ ")
		}
	}
	var old graphDoc
	sgJSON(t, &old, "graph", "-as-of", "2000-01-01")
	assert.Equal(t, "2000-01-01T00:00:00Z", old.AsOf)
	for _, n := range old.Nodes {
		assert.Empty(t, n.Facts, "no fact held in 2000")
	}
	assert.Empty(t, old.Edges)

	for _, bad := range [][]string{{"graph", "-format", "svg"}, {"graph", "-as-of", "yesterday"}, {"graph", "-json", "-format", "dot"}, {"graph", "x"}} {
		r = sg(t, bad...)
		assert.Equal(t, exitUsage, r.code, "%v", bad)
		assert.Empty(t, r.stdout)
	}
}

const (
	quotedOrg   = `Quote "Co" \ Ltd`
	teaFrom     = "2024-03-05T19:44:43-05:00"
	coffeeFrom  = "2024-05-08T20:34:46-04:00"
	seattleFrom = "2024-05-04T00:00:00-07:00"
)

// graphCopy copies the sample store and projects a small graph into it
// through graph.Apply, citing two active cards of the store: a (older)
// and b (newer). Mia drinks tea from teaFrom, coffee from coffeeFrom
// (closing tea); Leo Park lives in Seattle (a node) from seattleFrom and
// has a pet named Kiwi (a value, no node); an organization with a quote
// and a backslash in its name has a status.
func graphCopy(t *testing.T) (path string, a, b uint64) {
	t.Helper()
	var active []eventRow
	for _, ev := range allEvents(t, storePath) {
		if ev.Lifecycle == "active" && ev.Scope == "project:atlas" {
			active = append(active, ev)
		}
	}
	require.GreaterOrEqual(t, len(active), 2)
	ea, eb := active[0], active[len(active)-1]
	at := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		require.NoError(t, err)
		return tm
	}
	batch := &graph.Batch{Scope: "project:atlas", Now: at("2024-06-01T12:00:00Z"), Events: map[uint64]*graph.BatchEvent{
		ea.ID: {ID: ea.ID, MentionedAt: at(ea.MentionedAt)},
		eb.ID: {ID: eb.ID, MentionedAt: at(eb.MentionedAt)},
	}}
	ops := []model.GraphOp{
		{Op: model.OpUpsertNode, Kind: "person", Name: "Mia Chen", EventIDs: []uint64{ea.ID}},
		{Op: model.OpSetFact, Kind: "person", Name: "Mia Chen", Key: "drinks", Value: "tea", ValidFrom: teaFrom, EventIDs: []uint64{ea.ID}},
		{Op: model.OpSetFact, Kind: "person", Name: "Mia Chen", Key: "drinks", Value: "coffee", ValidFrom: coffeeFrom, EventIDs: []uint64{eb.ID}},
		{Op: model.OpAddEdge, Kind: "person", Name: "Leo Park", Relation: "lives_in", Target: "Seattle", TargetKind: "place", ValidFrom: seattleFrom, EventIDs: []uint64{eb.ID}},
		{Op: model.OpAddEdge, Kind: "person", Name: "Leo Park", Relation: "has_pet", Target: "Kiwi", ValidFrom: teaFrom, EventIDs: []uint64{ea.ID}},
		{Op: model.OpSetFact, Kind: "organization", Name: quotedOrg, Key: "status", Value: "open for business", ValidFrom: teaFrom, EventIDs: []uint64{ea.ID}},
	}
	path = damagedCopy(t, func(tx *bolt.Tx) error {
		// Start from an empty graph, whatever a projector made of the sample.
		for _, name := range [][]byte{kv.BucketGraphNodes, kv.BucketGraphEdges, kv.BucketGraphFacts,
			kv.BucketGraphNames, kv.BucketGraphLinks, kv.BucketGraphBatches} {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
			if _, err := tx.CreateBucket(name); err != nil {
				return err
			}
		}
		res, err := graph.Apply(tx, batch, ops, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err == nil && res.Accepted != len(ops) {
			err = fmt.Errorf("graph.Apply accepted %d of %d ops", res.Accepted, len(ops))
		}
		return err
	})
	return path, ea.ID, eb.ID
}

func nodeNamed(t *testing.T, g *graphDoc, name string) graphNodeDoc {
	t.Helper()
	for _, n := range g.Nodes {
		if n.Name == name {
			return n
		}
	}
	require.Failf(t, "no node", "%q in %+v", name, g.Nodes)
	return graphNodeDoc{}
}

func edgeNamed(t *testing.T, g *graphDoc, relation string) graphEdgeDoc {
	t.Helper()
	for _, ed := range g.Edges {
		if ed.Relation == relation {
			return ed
		}
	}
	require.Failf(t, "no edge", "%q in %+v", relation, g.Edges)
	return graphEdgeDoc{}
}

func TestGraphProjected(t *testing.T) {
	path, a, b := graphCopy(t)

	r := sg(t, "-db", path, "graph")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Regexp(t, `(?m)^Mia Chen \(person\): drinks=coffee   # node \d+, facts \d+$`, r.stdout)
	assert.Regexp(t, `(?m)^Leo Park \(person\): \(no facts\)   # node \d+$`, r.stdout)
	assert.Contains(t, r.stdout, quotedOrg+` (organization): status="open for business"`)
	assert.Regexp(t, `(?m)^Leo Park —lives_in→ Seattle   # edge \d+$`, r.stdout)
	assert.Contains(t, r.stdout, "Leo Park —has_pet→ Kiwi")
	assert.Contains(t, r.stdout, "4 nodes, 2 facts, 2 edges")
	assert.NotContains(t, r.stdout, "tea", "closed at coffeeFrom")

	var g graphDoc
	sgJSON(t, &g, "-db", path, "graph")
	require.Len(t, g.Nodes, 4)
	mia := nodeNamed(t, &g, "Mia Chen")
	assert.Equal(t, "person", mia.Kind)
	assert.Equal(t, "project:atlas", mia.Scope)
	assert.NotNil(t, mia.Aliases)
	require.Len(t, mia.Facts, 1)
	coffee := mia.Facts[0]
	assert.Equal(t, "drinks", coffee.Key)
	assert.Equal(t, "coffee", coffee.Value)
	assert.Equal(t, coffeeFrom, coffee.ValidFrom, "original offset kept")
	assert.Empty(t, coffee.ValidTo)
	assert.Equal(t, []uint64{b}, coffee.SourceEventIDs)
	lives := edgeNamed(t, &g, "lives_in")
	seattle := nodeNamed(t, &g, "Seattle")
	assert.Equal(t, seattle.ID, lives.To)
	assert.Equal(t, "Seattle", lives.ToName)
	assert.Equal(t, nodeNamed(t, &g, "Leo Park").ID, lives.From)
	assert.Equal(t, []uint64{b}, lives.SourceEventIDs)
	pet := edgeNamed(t, &g, "has_pet")
	assert.Zero(t, pet.To, "a named value")
	assert.Equal(t, "Kiwi", pet.ToName)

	// As of April 2024: tea, and Leo not in Seattle yet.
	var apr graphDoc
	sgJSON(t, &apr, "-db", path, "graph", "-as-of", "2024-04-01T12:00:00-04:00")
	assert.Equal(t, "2024-04-01T12:00:00-04:00", apr.AsOf)
	miaApr := nodeNamed(t, &apr, "Mia Chen")
	require.Len(t, miaApr.Facts, 1)
	assert.Equal(t, "tea", miaApr.Facts[0].Value)
	assert.Equal(t, coffeeFrom, miaApr.Facts[0].ValidTo, "valid until coffee")
	require.Len(t, apr.Edges, 1)
	assert.Equal(t, "has_pet", apr.Edges[0].Relation)
	r = sg(t, "-db", path, "graph", "-as-of", "2024-04-01")
	assert.Contains(t, r.stdout, "Mia Chen (person): drinks=tea")

	// 2000: nodes, but no current fact or edge.
	r = sg(t, "-db", path, "graph", "-as-of", "2000-01-01")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "graph as of 2000-01-01T00:00:00Z")
	assert.Contains(t, r.stdout, "Mia Chen (person): (no facts)")
	assert.Contains(t, r.stdout, "4 nodes, 0 facts, 0 edges")
	assert.NotContains(t, r.stdout, "edges:")
	var old graphDoc
	sgJSON(t, &old, "-db", path, "graph", "-as-of", "2000-01-01")
	require.Len(t, old.Nodes, 4)
	for _, n := range old.Nodes {
		assert.Empty(t, n.Facts)
	}
	assert.Empty(t, old.Edges)

	// dot: quoted and escaped, balanced.
	r = sg(t, "-db", path, "graph", "-format", "dot")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stdout, "digraph stratagate {\n"))
	assert.True(t, strings.HasSuffix(r.stdout, "}\n"))
	assert.True(t, balanced(r.stdout), r.stdout)
	assert.Contains(t, r.stdout, fmt.Sprintf(`n%d [label="Mia Chen\n(person)"];`, mia.ID))
	assert.Contains(t, r.stdout, `[label="Quote \"Co\" \\ Ltd\n(organization)"];`)
	assert.Contains(t, r.stdout, fmt.Sprintf(`n%d -> n%d [label="lives_in"];`, lives.From, lives.To))
	assert.Regexp(t, `v1 \[label="Kiwi", shape=ellipse, style=dashed\];`, r.stdout)
	assert.Regexp(t, fmt.Sprintf(`n%d -> v1 \[label="has_pet"\];`, pet.From), r.stdout)

	// -scope filters nodes.
	sgJSON(t, &g, "-db", path, "graph", "-scope", "global")
	assert.Empty(t, g.Nodes)
	assert.Empty(t, g.Edges)

	t.Run("trace fact", func(t *testing.T) {
		var d struct {
			Fact            graphFactDoc  `json:"fact"`
			Node            *graphNodeDoc `json:"node"`
			SourceEvents    []chainDoc    `json:"source_events"`
			MissingEventIDs []uint64      `json:"missing_event_ids"`
		}
		sgJSON(t, &d, "-db", path, "trace", "fact", fmt.Sprint(coffee.ID))
		assert.Equal(t, coffee.ID, d.Fact.ID)
		assert.Equal(t, coffeeFrom, d.Fact.ValidFrom)
		assert.Empty(t, d.Fact.ValidTo)
		assert.Equal(t, "2024-06-01T12:00:00Z", d.Fact.RecordedAt)
		assert.Empty(t, d.Fact.ClosedAt)
		assert.True(t, d.Fact.Active)
		require.NotNil(t, d.Node)
		assert.Equal(t, "Mia Chen", d.Node.Name)
		assert.Empty(t, d.MissingEventIDs)
		require.Len(t, d.SourceEvents, 1)
		assert.Equal(t, b, d.SourceEvents[0].Event.ID)
		checkChain(t, &d.SourceEvents[0])

		r := sg(t, "-db", path, "trace", "fact", fmt.Sprint(coffee.ID))
		require.Equal(t, exitOK, r.code, r.stderr)
		m := d.SourceEvents[0].Messages[0]
		for _, want := range []string{
			fmt.Sprintf("fact         %d", coffee.ID),
			"statement    drinks=coffee",
			"valid from   " + coffeeFrom,
			"valid to     - (still true)",
			"recorded at  2024-06-01T12:00:00Z",
			"closed at    - (not closed)",
			"active       yes",
			"source events (1):",
			fmt.Sprintf("  event #%d  active  ", b),
			fmt.Sprintf("    #%d  %s  %s  %s  sha256 %s ok", m.ID, m.At, m.Role, m.Speaker, m.SHA256),
			"    provenance: ok: ",
		} {
			assert.Contains(t, r.stdout, want)
		}

		// The closed tea fact: both clocks say when and since when.
		var h struct {
			Facts []graphFactDoc `json:"facts"`
		}
		sgJSON(t, &h, "-db", path, "trace", "node", fmt.Sprint(mia.ID))
		require.Len(t, h.Facts, 2)
		tea := h.Facts[0]
		assert.Equal(t, "tea", tea.Value)
		sgJSON(t, &d, "-db", path, "trace", "fact", fmt.Sprint(tea.ID))
		assert.Equal(t, teaFrom, d.Fact.ValidFrom)
		assert.Equal(t, coffeeFrom, d.Fact.ValidTo)
		assert.Equal(t, "2024-06-01T12:00:00Z", d.Fact.ClosedAt)
		assert.Equal(t, a, d.SourceEvents[0].Event.ID)

		r = sg(t, "-db", path, "trace", "fact", "999")
		assert.Equal(t, exitFail, r.code)
		assert.Equal(t, "sgdump: fact 999: not found\n", r.stderr)
	})

	t.Run("trace edge", func(t *testing.T) {
		var d struct {
			Edge         graphEdgeDoc  `json:"edge"`
			From         *graphNodeDoc `json:"from"`
			To           *graphNodeDoc `json:"to"`
			SourceEvents []chainDoc    `json:"source_events"`
		}
		sgJSON(t, &d, "-db", path, "trace", "edge", fmt.Sprint(lives.ID))
		assert.Equal(t, "lives_in", d.Edge.Relation)
		assert.Equal(t, "Leo Park", d.Edge.FromName)
		assert.Equal(t, seattleFrom, d.Edge.ValidFrom)
		assert.True(t, d.Edge.Active)
		require.NotNil(t, d.From)
		require.NotNil(t, d.To)
		assert.Equal(t, "place", d.To.Kind)
		require.Len(t, d.SourceEvents, 1)
		checkChain(t, &d.SourceEvents[0])

		sgJSON(t, &d, "-db", path, "trace", "edge", fmt.Sprint(pet.ID))
		assert.Nil(t, d.To, "a named value has no node")
		assert.Equal(t, "Kiwi", d.Edge.ToName)

		r := sg(t, "-db", path, "trace", "edge", fmt.Sprint(pet.ID))
		require.Equal(t, exitOK, r.code, r.stderr)
		assert.Contains(t, r.stdout, "relation     Leo Park —has_pet→ Kiwi")
		assert.Contains(t, r.stdout, `to           "Kiwi" (a named value, no node)`)
		assert.Contains(t, r.stdout, fmt.Sprintf("  event #%d  active  ", a))
		assert.Regexp(t, `sha256 [0-9a-f]{64} ok`, r.stdout)

		r = sg(t, "-db", path, "trace", "edge", "999")
		assert.Equal(t, exitFail, r.code)
		assert.Equal(t, "sgdump: edge 999: not found\n", r.stderr)
	})

	t.Run("trace node", func(t *testing.T) {
		var d struct {
			Node            graphNodeDoc   `json:"node"`
			Facts           []graphFactDoc `json:"facts"`
			Edges           []graphEdgeDoc `json:"edges"`
			SourceEvents    []chainDoc     `json:"source_events"`
			MissingEventIDs []uint64       `json:"missing_event_ids"`
		}
		sgJSON(t, &d, "-db", path, "trace", "node", fmt.Sprint(mia.ID))
		assert.Equal(t, "Mia Chen", d.Node.Name)
		require.Len(t, d.Facts, 2, "whole history: tea (closed) and coffee")
		assert.NotEmpty(t, d.Facts[0].ClosedAt)
		assert.Empty(t, d.Facts[1].ClosedAt)
		assert.Empty(t, d.Edges)
		require.Len(t, d.SourceEvents, 2)
		assert.Equal(t, a, d.SourceEvents[0].Event.ID)
		assert.Equal(t, b, d.SourceEvents[1].Event.ID)
		for i := range d.SourceEvents {
			checkChain(t, &d.SourceEvents[i])
		}

		sgJSON(t, &d, "-db", path, "trace", "node", fmt.Sprint(seattle.ID))
		require.Len(t, d.Edges, 1, "the incoming lives_in")
		assert.Equal(t, "Leo Park", d.Edges[0].FromName)

		r := sg(t, "-db", path, "trace", "node", fmt.Sprint(mia.ID))
		require.Equal(t, exitOK, r.code, r.stderr)
		for _, want := range []string{
			fmt.Sprintf("node      %d", mia.ID),
			"name      Mia Chen",
			"facts, whole history (2):",
			"drinks=tea  valid [" + teaFrom + ", " + coffeeFrom + ")",
			"closed 2024-06-01T12:00:00Z  active",
			"drinks=coffee  valid [" + coffeeFrom + ", open)",
			"source events (2):",
		} {
			assert.Contains(t, r.stdout, want)
		}
		assert.NotContains(t, r.stdout, "MISMATCH")

		r = sg(t, "-db", path, "trace", "node", "999")
		assert.Equal(t, exitFail, r.code)
		assert.Equal(t, "sgdump: node 999: not found\n", r.stderr)
	})
}

// TestBinaryVerifyDamage runs the built binary's verify on copies damaged
// in each way the audit must catch; each run exits 1 and names the record.
func TestBinaryVerifyDamage(t *testing.T) {
	r, _ := sgBinary(t, "-db", storePath, "-json", "verify")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"ok": true`)

	var card1 struct {
		block uint64
		msg   uint64
	}
	cases := []struct {
		name   string
		damage func(tx *bolt.Tx) error
		want   string // regexp over the text output: check and record id
	}{
		{"message byte flipped", func(tx *bolt.Tx) error {
			b := tx.Bucket(kv.BucketMessages)
			v := append([]byte(nil), b.Get(kv.Key(1))...)
			i := bytes.Index(v, []byte("Atlas"))
			require.Positive(t, i)
			v[i] ^= 0x20 // 'A' → 'a': the record still decodes
			return b.Put(kv.Key(1), v)
		}, `error +message\.hash +1 `},
		{"index entry deleted", func(tx *bolt.Tx) error {
			// The ids table is chunked (64 ids a key): drop a whole chunk,
			// so that stored messages are missing from the raw index.
			return tx.Bucket([]byte("idx.raw")).Bucket([]byte("ids")).Delete(kv.Key(0))
		}, `error +index\.raw `},
		{"event cites a foreign message", func(tx *bolt.Tx) error {
			b := tx.Bucket(kv.BucketEvents)
			c, err := events.Decode(b.Get(kv.Key(1)))
			require.NoError(t, err)
			bl, err := layers.GetBlock(tx, c.SourceBlockID+1)
			require.NoError(t, err)
			card1.block, card1.msg = c.SourceBlockID, bl.MessageIDs[0]
			c.SourceMessageIDs = append(c.SourceMessageIDs, bl.MessageIDs[0])
			v, err := events.Encode(&c)
			require.NoError(t, err)
			return b.Put(kv.Key(1), v)
		}, `error +event\.source +1 `},
		{"source event of a fact removed", func(tx *bolt.Tx) error {
			var ev uint64
			require.NoError(t, graph.ForEachFact(tx, func(f graph.Fact) error {
				if ev == 0 {
					ev = f.SourceEventIDs[0]
				}
				return nil
			}))
			require.NotZero(t, ev, "the store has graph facts")
			return tx.Bucket(kv.BucketEvents).Delete(kv.Key(ev))
		}, `error +graph\.fact +\d+ `},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := damagedCopy(t, c.damage)
			r, _ := sgBinary(t, "-db", path, "verify")
			assert.Equal(t, 1, r.code, r.stderr)
			assert.Regexp(t, c.want, r.stdout)
		})
	}
}
