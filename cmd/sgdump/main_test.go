package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/internal/sample"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
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
	for _, c := range []string{"stats", "threads", "blocks", "block", "trace", "jobs", "retrievals", "search", "verify"} {
		assert.Contains(t, r.stderr, "  "+c+" ", "usage lists %s", c)
	}
	for _, c := range []string{"events", "graph"} {
		assert.NotContains(t, r.stderr, "  "+c+" ", "usage does not list %s yet", c)
	}
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

func TestStats(t *testing.T) {
	r := sg(t, "stats")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "format")
	assert.Contains(t, r.stdout, fmt.Sprintf("messages  %d", messageCount()))
	assert.Contains(t, r.stdout, "blocks    5 (ready 5, pending 0, failed 0)")
	assert.Contains(t, r.stdout, "thread_blocks")

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
	assert.Equal(t, 1, s.Format)
	assert.Positive(t, s.FileBytes)
	assert.Equal(t, messageCount(), s.Messages)
	assert.Equal(t, messageCount(), s.Buckets["messages"])
	assert.Equal(t, 5, s.Blocks)
	assert.Zero(t, s.JobsQueued, "settled")
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
	for _, bad := range [][]string{{"trace"}, {"trace", "block"}, {"trace", "event", "1"}, {"trace", "block", "x"}} {
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
	assert.Regexp(t, `(?m)^1 +derive +1 +done +1 `, r.stdout)
	assert.Regexp(t, `\d+ jobs: 0 pending, 0 running, \d+ done, \d+ failed`, r.stdout)
	var doc struct {
		Jobs []struct {
			ID       uint64 `json:"id"`
			Kind     string `json:"kind"`
			Target   uint64 `json:"target"`
			State    string `json:"state"`
			Attempts int    `json:"attempts"`
			Created  string `json:"created"`
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

	// Block 2's L4 no longer matches its messages.
	damaged := damagedCopy(t, func(tx *bolt.Tx) error {
		bb := tx.Bucket(kv.BucketBlocks)
		v := bb.Get(kv.Key(2))
		b, err := layers.DecodeBlock(v)
		if err != nil {
			return err
		}
		b.L4 = strings.Replace(b.L4, "Leo", "Lee", 1)
		nv, err := kv.Encode(v[0], &b)
		if err != nil {
			return err
		}
		return bb.Put(kv.Key(2), nv)
	})
	var out, errb bytes.Buffer
	code := run([]string{"-db", damaged, "verify"}, &out, &errb)
	assert.Equal(t, exitFail, code)
	assert.Regexp(t, `error +block\.l4 +2 +team-atlas +block 2: L4 differs`, out.String())
	assert.Contains(t, out.String(), "verify: FAILED: 1 error, 0 warnings")
	assert.Contains(t, errb.String(), "sgdump: verify: "+damaged+": 1 error found")

	out.Reset()
	code = run([]string{"-db", damaged, "-json", "verify"}, &out, &errb)
	assert.Equal(t, exitFail, code)
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc))
	assert.False(t, doc.OK)
	require.Len(t, doc.Violations, 1)
	assert.Equal(t, "block.l4", doc.Violations[0].Check)
	assert.Equal(t, "error", doc.Violations[0].Kind)
	assert.Equal(t, uint64(2), doc.Violations[0].ID)

	// trace shows the stored L4 as it is, and the messages still verify.
	r = sg(t, "-db", damaged, "trace", "block", "2")
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "Lee")
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

	damaged := damagedCopy(t, func(tx *bolt.Tx) error {
		return tx.Bucket(kv.BucketMessageBlock).Delete(kv.Key(3))
	})
	r, _ = sgBinary(t, "-db", damaged, "verify")
	assert.Equal(t, 1, r.code)
	assert.Regexp(t, `error +message_block +3 `, r.stdout)

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
