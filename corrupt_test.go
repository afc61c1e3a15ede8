package stratagate_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/internal/corrupt"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// corruptionSeeds is how many seeds TestCorruptionHarness runs in `make
// test` (STRATAGATE_CORRUPTION_SEEDS overrides it, STRATAGATE_CORRUPTION_SEED
// runs one); FuzzCorruptStore (`make fuzz`) explores beyond them.
const corruptionSeeds = 16

// sampleBytes builds the sample store (events, graph and all) in a
// temporary directory and returns its bytes. The bytes differ from run to
// run (times, the order in which background jobs interleave with appends),
// so a failing seed keeps its damaged file (see checkDamaged).
func sampleBytes(t testing.TB) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sample.sg")
	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	ingestSample(t, mem)
	waitIdle(t, mem)
	require.NoError(t, mem.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// TestCorruptionHarness damages the sample store with seeded bit flips,
// page overwrites and truncations and runs every reading entry point on
// each copy: nothing may panic or fault, and every error must say the file
// is damaged (ErrCorrupt, or ErrVersionMismatch for a flipped version
// byte). What Verify finds is in its report.
func TestCorruptionHarness(t *testing.T) {
	data := sampleBytes(t)
	if v := os.Getenv("STRATAGATE_CORRUPTION_SEED"); v != "" { // run one seed
		seed, err := strconv.ParseUint(v, 10, 64)
		require.NoError(t, err)
		checkDamaged(t, data, seed)
		return
	}
	n := uint64(corruptionSeeds)
	if v := os.Getenv("STRATAGATE_CORRUPTION_SEEDS"); v != "" {
		var err error
		n, err = strconv.ParseUint(v, 10, 64)
		require.NoError(t, err)
	}
	for seed := range n {
		checkDamaged(t, data, seed)
	}
}

// FuzzCorruptStore is the corruption harness under the fuzzer: the input
// is the damage seed.
func FuzzCorruptStore(f *testing.F) {
	data := sampleBytes(f)
	for seed := range uint64(4) {
		f.Add(corruptionSeeds + seed) // beyond the harness's own seeds
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkDamaged(t, data, seed) })
}

// checkDamaged writes the damage of seed to a file and exercises it.
func checkDamaged(t *testing.T, data []byte, seed uint64) {
	t.Helper()
	damaged, what := corrupt.Damage(data, seed)
	path := filepath.Join(t.TempDir(), "damaged.sg")
	require.NoError(t, os.WriteFile(path, damaged, 0o600))
	c := &damageCheck{t: t, seed: seed, what: what}
	c.readOnly(path)
	c.writable(path)
	if t.Failed() {
		// Keep the damaged file: the sample's bytes vary between runs, so
		// the seed alone may not reproduce the failure.
		keep := filepath.Join(os.TempDir(), fmt.Sprintf("stratagate-damaged-seed%d.sg", seed))
		if os.WriteFile(keep, damaged, 0o600) == nil {
			t.Logf("seed %d: damaged file kept at %s", seed, keep)
		}
	}
}

type damageCheck struct {
	t    *testing.T
	seed uint64
	what string
}

// ok fails the test unless err is nil or says the file is damaged.
func (c *damageCheck) ok(call string, err error) bool {
	c.t.Helper()
	if err == nil {
		return true
	}
	if errors.Is(err, stratagate.ErrCorrupt) || errors.Is(err, stratagate.ErrVersionMismatch) {
		return false
	}
	c.t.Errorf("untyped error on a damaged file: seed %d (%s): %s: %v", c.seed, c.what, call, err)
	return false
}

func (c *damageCheck) readOnly(path string) {
	mem, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true, LockTimeout: time.Second})
	if !c.ok("Open read-only", err) {
		return
	}
	defer mem.Close()
	rep, err := mem.Verify(ctx)
	c.ok("Verify", err)
	_ = rep
	c.queries(mem)
}

// writable opens the damaged file for writing (which may rebuild indexes
// and resume jobs), lets the jobs settle and closes it.
func (c *damageCheck) writable(path string) {
	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true, LockTimeout: time.Second, JobBackoff: time.Millisecond})
	if !c.ok("Open writable", err) {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_ = mem.WaitIdle(wctx)
	c.queries(mem)
	_, err = mem.Append(ctx, turn("t-damaged", 1))
	c.ok("Append", err)
	c.ok("Close", mem.Close())
}

func (c *damageCheck) queries(mem *stratagate.Memory) {
	q := stratagate.Query{Text: "parrot Kiwi Postgres move", Scopes: atlasScopes}
	_, err := mem.SearchRaw(ctx, q)
	c.ok("SearchRaw", err)
	evs, err := mem.SearchEvents(ctx, q)
	c.ok("SearchEvents", err)
	for _, e := range evs {
		_, err := mem.ExpandEvent(ctx, e.ID)
		c.ok("ExpandEvent", ignoreNotFound(err))
	}
	nodes, err := mem.SearchGraphNodes(ctx, q)
	c.ok("SearchGraphNodes", err)
	for _, n := range nodes {
		_, err := mem.ExpandGraphNode(ctx, n.ID, time.Time{})
		c.ok("ExpandGraphNode", ignoreNotFound(err))
		_, err = mem.GraphNodeHistory(ctx, n.ID)
		c.ok("GraphNodeHistory", ignoreNotFound(err))
	}
	_, err = mem.Ask(ctx, "What pet does Mia have?", stratagate.AskOptions{Scopes: atlasScopes})
	c.ok("Ask", err)
	_, err = mem.Stats(ctx)
	c.ok("Stats", err)
	c.ok("CheckIndexes", ignoreMismatch(mem.CheckIndexes(ctx)))
	threads, err := mem.Threads(ctx)
	c.ok("Threads", err)
	for _, th := range threads {
		blocks, err := mem.Blocks(ctx, th.Name)
		c.ok("Blocks", ignoreNotFound(err))
		for _, b := range blocks {
			for level := range 6 {
				_, err := mem.ExpandBlock(ctx, b.ID, level)
				c.ok("ExpandBlock", ignoreNotReady(ignoreNotFound(err)))
			}
		}
		_, err = mem.Context(ctx, th.Name, 4000)
		c.ok("Context", ignoreNotFound(err))
	}
	_, err = mem.Messages(ctx, 1, 2, 3, 50, 100)
	c.ok("Messages", ignoreNotFound(err))
}

// A damaged file may lose the record a listed id names (ErrNotFound), a
// block's state (ErrNotReady) or an index's agreement with its source
// (ErrIndexMismatch): those are answers, not failures to read.
func ignoreNotFound(err error) error {
	if errors.Is(err, stratagate.ErrNotFound) {
		return nil
	}
	return err
}

func ignoreNotReady(err error) error {
	if errors.Is(err, stratagate.ErrNotReady) {
		return nil
	}
	return err
}

func ignoreMismatch(err error) error {
	if errors.Is(err, stratagate.ErrIndexMismatch) {
		return nil
	}
	return err
}

// TestOpenRefusesDamagedAndForeignFiles: the files the black-box run
// crashed on or silently adopted are refused with ErrCorrupt, read-only and
// writable alike, and left byte for byte as they were.
func TestOpenRefusesDamagedAndForeignFiles(t *testing.T) {
	data := sampleBytes(t)
	cases := []struct {
		name    string
		content []byte
		detail  string
	}{
		{"truncated to half", data[:len(data)/2], "truncated"},
		{"truncated to a quarter, mid-page", data[:len(data)/4+100], "truncated"},
		{"zero-length", []byte{}, "zero-length file"},
		{"foreign text file", []byte("name,age\nann,41\n"), "sg: corrupt"},
		{"foreign binary file", bytes.Repeat([]byte{0x7f, 'E', 'L', 'F'}, 5000), "sg: corrupt"},
	}
	for _, tc := range cases {
		for _, ro := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s read-only=%v", tc.name, ro), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "bad.sg")
				require.NoError(t, os.WriteFile(path, tc.content, 0o600))
				mem, err := stratagate.Open(path, &stratagate.Options{ReadOnly: ro, LockTimeout: time.Second})
				require.Error(t, err)
				assert.Nil(t, mem)
				assert.ErrorIs(t, err, stratagate.ErrCorrupt)
				assert.Contains(t, err.Error(), tc.detail)
				after, err := os.ReadFile(path)
				require.NoError(t, err)
				assert.True(t, bytes.Equal(tc.content, after), "the refused file is unchanged")
			})
		}
	}
	// A path that does not exist is a new store (writable) or ErrNotExist.
	path := filepath.Join(t.TempDir(), "new.sg")
	_, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	assert.ErrorIs(t, err, os.ErrNotExist)
	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true})
	require.NoError(t, err)
	require.NoError(t, mem.Close())
}

// TestVerifyReportsDamagedPages: Verify on a file whose pages are damaged
// reports the damage as violations naming the pass it stopped, instead of
// crashing or failing to run.
func TestVerifyReportsDamagedPages(t *testing.T) {
	data := sampleBytes(t)
	// Seeds of kind 3 overwrite one page; the first whose file still
	// opens but whose audit meets the damaged page is checked.
	for seed := uint64(3); seed < 400; seed += 4 { // kind 3: one page overwritten
		damaged, what := corrupt.Damage(data, seed)
		path := filepath.Join(t.TempDir(), "damaged.sg")
		require.NoError(t, os.WriteFile(path, damaged, 0o600))
		mem, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true, LockTimeout: time.Second})
		if err != nil {
			continue
		}
		rep, err := mem.Verify(ctx)
		require.NoError(t, mem.Close())
		require.NoError(t, err, "seed %d (%s)", seed, what)
		for _, v := range rep.Violations {
			if v.Check == "file.pages" {
				assert.False(t, rep.OK)
				assert.Contains(t, v.Detail, "Pass")
				return
			}
		}
	}
	t.Fatal("no seed produced page damage that Verify reports as file.pages")
}

// TestRebuildRefusesMisfiledRecords: a message record stored under another
// message's key (a flipped bit in its id) makes the index rebuild of
// CheckIndexes (and of a writable Open that rebuilds) fail with ErrCorrupt,
// not with the index's "already indexed".
func TestRebuildRefusesMisfiledRecords(t *testing.T) {
	src := sampleFile(t)
	path := damagedCopy(t, src, func(tx *bolt.Tx) error {
		b := tx.Bucket(kv.BucketMessages)
		return b.Put(kv.Key(9), bytes.Clone(b.Get(kv.Key(8)))) // message 8's record under key 9
	})
	mem, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	err = mem.CheckIndexes(ctx)
	require.NoError(t, mem.Close())
	require.Error(t, err)
	assert.ErrorIs(t, err, stratagate.ErrCorrupt)
	assert.Contains(t, err.Error(), "holds message 8")
}

// TestRebuildRefusesUnindexableCard: a stored card that the index refuses
// (a NUL in a participant name, which no write lets through) is damage:
// CheckIndexes says ErrCorrupt, not the index's schema error.
func TestRebuildRefusesUnindexableCard(t *testing.T) {
	path := damagedCopy(t, sampleFile(t), func(tx *bolt.Tx) error {
		b := tx.Bucket(kv.BucketEvents)
		c, err := events.Decode(b.Get(kv.Key(1)))
		require.NoError(t, err)
		c.Participants = append(c.Participants, "leo\x00park")
		v, err := events.Encode(&c)
		require.NoError(t, err)
		return b.Put(kv.Key(1), v)
	})
	mem, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	err = mem.CheckIndexes(ctx)
	require.Error(t, err)
	assert.ErrorIs(t, err, stratagate.ErrCorrupt)
	assert.Contains(t, err.Error(), "stored event 1 cannot be indexed")
}

// TestSearchRefusesMisfiledRecord: a message record read under another
// message's id is ErrCorrupt for SearchRaw, not a hit handing out the
// wrong id (Ask then asked for an id that names nothing).
func TestSearchRefusesMisfiledRecord(t *testing.T) {
	src := sampleFile(t)
	var content string
	path := damagedCopy(t, src, func(tx *bolt.Tx) error {
		b := tx.Bucket(kv.BucketMessages)
		m, err := layers.DecodeMessage(b.Get(kv.Key(9)))
		require.NoError(t, err)
		content = m.Content
		return b.Put(kv.Key(9), bytes.Clone(b.Get(kv.Key(8))))
	})
	mem, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer mem.Close()
	_, err = mem.SearchRaw(ctx, stratagate.Query{Text: content, Scopes: atlasScopes, Limit: stratagate.MaxLimit})
	require.Error(t, err)
	assert.ErrorIs(t, err, stratagate.ErrCorrupt)
	assert.Contains(t, err.Error(), "message 9 holds the record of message 8")
}
