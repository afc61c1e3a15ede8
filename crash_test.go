package stratagate_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/wal"
)

// The crash test re-executes this test binary as a writer (TestCrashChild),
// kills it with SIGKILL at a random moment, reopens the file and checks
// every invariant the storage layer promises. STRATAGATE_CRASH_KILLS sets
// the number of kills (30 by default; `make crash` runs 1,000); the last
// log line counts the kills by what they interrupted.

const (
	crashEnvPath = "STRATAGATE_CRASH_CHILD"
	crashTurns   = 3 // BlockTurns in the crash test: many block boundaries
)

// crashThreads are the threads the child writes: alpha and beta one Append
// per turn, concurrently; gamma in AppendBatch calls of 1–8 turns.
var crashThreads = []string{"alpha", "beta", "gamma"}

// crashBatchThread is the thread the child writes with AppendBatch.
const crashBatchThread = "gamma"

// crashIndexBuffer is the child's IndexBuffer: small, so that kills land
// before, during and after merges of the raw index's buffer.
const crashIndexBuffer = 16

// crashTurn is the deterministic content of turn k (1-based) of a thread,
// so that the parent can check acknowledged turns byte for byte. Some turns
// carry multi-byte text and a long tool result.
func crashTurn(thread string, k uint64) stratagate.Turn {
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.FixedZone("", 3600*int(k%5))).Add(time.Duration(k) * time.Minute)
	msgs := []stratagate.Message{
		{Role: "user", Speaker: "user-" + thread, Content: fmt.Sprintf("%s turn %d: I decided to use tool-%d yesterday. 记录 café décision #%d", thread, k, k%7, k*7919), At: at},
	}
	if k%4 == 0 {
		msgs = append(msgs,
			stratagate.Message{Role: "assistant", ToolName: "search", ToolCallID: fmt.Sprintf("c%d", k), Content: `{"q":"x"}`, At: at.Add(time.Second)},
			stratagate.Message{Role: "tool", ToolName: "search", ToolCallID: fmt.Sprintf("c%d", k), Content: strings.Repeat(fmt.Sprintf("result %d ", k), 50), At: at.Add(2 * time.Second)})
	}
	msgs = append(msgs, stratagate.Message{Role: "assistant", Speaker: "assistant", Content: fmt.Sprintf("ack %s %d", thread, k), At: at.Add(3 * time.Second)})
	return stratagate.Turn{Thread: thread, Scope: "session:crash", ReceiptID: fmt.Sprintf("%s/%d", thread, k), Messages: msgs}
}

// TestCrashChild is the writer process; it does nothing in a normal run.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnvPath)
	if path == "" {
		t.Skip("crash-test child; runs only under TestCrash")
	}
	mem, err := stratagate.Open(path, &stratagate.Options{BlockTurns: crashTurns, JobBackoff: time.Millisecond, IndexBuffer: crashIndexBuffer})
	if err != nil {
		fmt.Println("open-error", err)
		os.Exit(2)
	}
	threads, err := mem.Threads(ctx)
	if err != nil {
		fmt.Println("threads-error", err)
		os.Exit(2)
	}
	next := map[string]uint64{}
	for _, th := range threads {
		next[th.Name] = th.Turns + 1
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	// Writers pause together for 5 ms every 20 ms, as agents between
	// turns do: background jobs store their results in those pauses (they
	// yield to appends), so kills land inside jobs of every kind too.
	go func() {
		for {
			time.Sleep(20 * time.Millisecond)
			crashPause.Lock()
			time.Sleep(5 * time.Millisecond)
			crashPause.Unlock()
		}
	}()
	for _, thread := range crashThreads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if thread == crashBatchThread {
				crashAppendBatches(mem, thread, max(next[thread], 1), &mu)
				return
			}
			for k := max(next[thread], 1); ; k++ {
				crashPause.RLock()
				_, err := mem.Append(ctx, crashTurn(thread, k))
				crashPause.RUnlock()
				if err != nil {
					fmt.Println("append-error", err)
					os.Exit(2)
				}
				mu.Lock()
				fmt.Printf("ack %s %d\n", thread, k) // os.Stdout is unbuffered
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// crashPause holds the child's writers still while write-locked.
var crashPause sync.RWMutex

// crashAppendBatches appends turns of thread from k on in AppendBatch
// calls of 1–8 turns, acknowledging each turn once its batch returned.
func crashAppendBatches(mem *stratagate.Memory, thread string, k uint64, mu *sync.Mutex) {
	rng := rand.New(rand.NewPCG(k, uint64(os.Getpid())))
	for {
		n := 1 + rng.IntN(8)
		batch := make([]stratagate.Turn, n)
		for i := range batch {
			batch[i] = crashTurn(thread, k+uint64(i))
		}
		crashPause.RLock()
		_, err := mem.AppendBatch(ctx, batch)
		crashPause.RUnlock()
		if err != nil {
			fmt.Println("append-error", err)
			os.Exit(2)
		}
		mu.Lock()
		for i := range batch {
			fmt.Printf("ack %s %d\n", thread, k+uint64(i))
		}
		mu.Unlock()
		k += uint64(n)
	}
}

func TestCrash(t *testing.T) {
	if os.Getenv(crashEnvPath) != "" {
		t.Skip("inside the child")
	}
	kills := 30
	if s := os.Getenv("STRATAGATE_CRASH_KILLS"); s != "" {
		var err error
		kills, err = strconv.Atoi(s)
		require.NoError(t, err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d, %d kills", seed, kills)
	rng := rand.New(rand.NewPCG(seed, seed))
	dir := t.TempDir()
	path := filepath.Join(dir, "crash-0.sg")
	acked := map[string]uint64{}
	midAppend, atOpen, sealing, unmerged := 0, 0, 0, 0
	interrupted := map[wal.Kind]int{} // jobs the kill left running, by kind
	var s stratagate.Stats            // of the segment last closed
	var blocks, cards, nodes int      // summed over the segments
	for round := range kills {
		// Every crashSegment kills the workload moves to a fresh file: the
		// check after each kill reads the whole file, and on one file
		// growing for 1,000 kills it made the run quadratic (two hours
		// were not enough on a loaded 2-core machine).
		if round > 0 && round%crashSegment == 0 {
			s = crashSegmentStats(t, path)
			blocks, cards, nodes = blocks+s.Blocks, cards+s.Buckets["events"], nodes+s.Buckets["graph.nodes"]
			path = filepath.Join(dir, fmt.Sprintf("crash-%d.sg", round/crashSegment))
			acked = map[string]uint64{}
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnvPath+"="+path)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		var stderr stratagate.LockedBuffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())
		lines := make(chan string, 1024)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		// Kill at a random moment: a quarter of the time counted from the
		// start (during Open and recovery, or early appends), otherwise
		// counted from the first acknowledged append.
		delay := time.Duration(rng.IntN(150)) * time.Millisecond
		fromStart := rng.IntN(4) == 0
		var deadline <-chan time.Time
		if fromStart {
			deadline = time.After(delay)
		}
		got := 0
	read:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break read
				}
				f := strings.Fields(l)
				require.True(t, len(f) == 3 && f[0] == "ack", "child said %q; stderr: %s", l, stderr.String())
				k, _ := strconv.ParseUint(f[2], 10, 64)
				acked[f[1]] = max(acked[f[1]], k)
				got++
				if deadline == nil {
					deadline = time.After(delay)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("round %d: child silent for 30s; stderr: %s", round, stderr.String())
			case <-deadline:
				break read
			}
		}
		require.NoError(t, cmd.Process.Kill())
		_ = cmd.Wait()
		for l := range lines { // acks printed before the kill landed
			f := strings.Fields(l)
			if len(f) == 3 && f[0] == "ack" {
				k, _ := strconv.ParseUint(f[2], 10, 64)
				acked[f[1]] = max(acked[f[1]], k)
				got++
			}
		}
		if got > 0 {
			midAppend++
			for _, th := range crashThreads {
				if (acked[th]+1)%crashTurns == 0 {
					sealing++ // this thread's next append seals a block
					break
				}
			}
		} else {
			atOpen++
		}
		for _, k := range runningJobKinds(t, path) {
			interrupted[k]++
		}
		if n, err := stratagate.UnmergedRawDocs(path); err == nil && n > 0 {
			unmerged++ // the kill lost a raw index buffer: Open re-indexes it from L5
		}
		verifyCrashStore(t, path, acked, round)
	}
	s = crashSegmentStats(t, path)
	blocks, cards, nodes = blocks+s.Blocks, cards+s.Buckets["events"], nodes+s.Buckets["graph.nodes"]
	require.NotZero(t, cards, "the workload extracts event cards")
	require.NotZero(t, nodes, "the workload projects a graph")
	t.Logf("%d kills (%d after appends had started) on %d files of up to %d kills; acknowledged turns in the last: %v; %d blocks, %d event cards, %d graph nodes",
		kills, midAppend, (kills+crashSegment-1)/crashSegment, crashSegment, acked, blocks, cards, nodes)
	t.Logf("crash coverage: %d kills before the first acknowledged append (open, recovery, first append), %d during appends "+
		"(%d with a sealing append in flight, %d with raw index documents not yet merged); jobs killed while running: derive %d, extract %d, project %d",
		atOpen, midAppend, sealing, unmerged, interrupted[wal.KindDerive], interrupted[wal.KindExtract], interrupted[wal.KindProject])
	if kills >= 200 {
		// A long run must have interrupted every job kind mid-job.
		for _, k := range []wal.Kind{wal.KindDerive, wal.KindExtract, wal.KindProject} {
			require.NotZero(t, interrupted[k], "no kill landed during a %s job", k)
		}
		require.NotZero(t, sealing, "no kill landed with a sealing append in flight")
		require.NotZero(t, unmerged, "no kill left raw index documents unmerged")
	}
}

// crashSegment is how many kills land on one file before the workload
// moves to a fresh one.
const crashSegment = 100

// crashSegmentStats reopens a segment's file (its jobs run to the end)
// and returns its counts.
func crashSegmentStats(t *testing.T, path string) stratagate.Stats {
	t.Helper()
	mem, err := stratagate.Open(path, &stratagate.Options{BlockTurns: crashTurns})
	require.NoError(t, err)
	waitIdle(t, mem)
	s, err := mem.Stats(ctx)
	require.NoError(t, err)
	require.NoError(t, mem.Close())
	return s
}

// runningJobKinds lists the kinds of the jobs a killed writer left
// running (claimed, not done): the kill landed inside those jobs. It reads
// the file read-only, before the next writable Open recovers them.
func runningJobKinds(t *testing.T, path string) []wal.Kind {
	t.Helper()
	db, err := kv.Open(path, kv.Options{ReadOnly: true, LockTimeout: 5 * time.Second})
	if err != nil {
		return nil // killed before the file was initialised
	}
	defer db.Close()
	var kinds []wal.Kind
	require.NoError(t, db.View(func(tx *bolt.Tx) error {
		q, err := wal.Queue(tx)
		for _, j := range q {
			if j.State == wal.StateRunning {
				kinds = append(kinds, j.Kind)
			}
		}
		return err
	}))
	return kinds
}

// verifyCrashStore reopens the file after a kill and checks: every
// acknowledged turn is present byte for byte; every sealed block holds whole
// turns and its L5 hash verifies; every job left pending resumes and
// finishes with its block ready and extracted exactly once; the indexes
// equal a fresh rebuild; Verify finds nothing.
func verifyCrashStore(t *testing.T, path string, acked map[string]uint64, round int) {
	t.Helper()
	mem, err := stratagate.Open(path, &stratagate.Options{BlockTurns: crashTurns})
	require.NoError(t, err, "round %d: reopen", round)
	defer mem.Close()
	waitIdle(t, mem)
	threads, err := mem.Threads(ctx)
	require.NoError(t, err)
	for _, th := range threads {
		require.GreaterOrEqual(t, th.Turns, acked[th.Name], "round %d: thread %s lost acknowledged turns", round, th.Name)
		blocks, err := mem.Blocks(ctx, th.Name)
		require.NoError(t, err)
		require.Equal(t, th.Blocks, uint64(len(blocks)))
		var all []stratagate.Message
		for i, b := range blocks {
			require.Equal(t, stratagate.BlockReady, b.State, "round %d: block %d not derived after recovery", round, b.ID)
			require.Equal(t, uint64(i+1), b.Seq)
			require.Equal(t, uint64(i*crashTurns+1), b.TurnFirst, "round %d: block %d is not whole turns", round, b.ID)
			require.Equal(t, uint64((i+1)*crashTurns), b.TurnLast)
			v, err := mem.ExpandBlock(ctx, b.ID, 5)
			require.NoError(t, err)
			require.Equal(t, b.L5Hash, layers.L5Hash(v.Messages), "round %d: block %d L5 hash", round, b.ID)
			require.Equal(t, layers.RenderL4(v.Messages), b.L4)
			all = append(all, v.Messages...)
		}
		require.Equal(t, uint64(len(blocks)*crashTurns), th.Turns-uint64(th.OpenTurns))
		tail, err := mem.Messages(ctx, th.OpenTail...)
		require.NoError(t, err)
		all = append(all, tail...)
		i := 0
		for k := uint64(1); k <= th.Turns; k++ {
			want := crashTurn(th.Name, k).Messages
			for _, w := range want {
				require.Less(t, i, len(all), "round %d: thread %s turn %d missing", round, th.Name, k)
				m := all[i]
				require.Equal(t, w.Content, m.Content, "round %d: thread %s turn %d", round, th.Name, k)
				require.Equal(t, k, m.Turn)
				require.True(t, w.At.Equal(m.At))
				require.Equal(t, m.Hash(), m.SHA256)
				i++
			}
		}
		require.Equal(t, len(all), i, "round %d: thread %s has extra messages", round, th.Name)
	}
	require.NoError(t, mem.CheckIndexes(ctx), "round %d: indexes equal a rebuild from their records", round)
	// Verify audits everything else, events included: every ready block
	// extracted exactly once (no card listed twice, none missing), every
	// card citing only its own block, quotes present, links consistent.
	rep, err := mem.Verify(ctx)
	require.NoError(t, err)
	require.True(t, rep.OK, "round %d: %v", round, rep.Violations)
	s, err := mem.Stats(ctx)
	require.NoError(t, err)
	require.Zero(t, s.JobsQueued, "round %d", round)
	require.Zero(t, s.JobsFailed, "round %d", round)
	require.Zero(t, s.BlocksPending+s.BlocksFailed, "round %d", round)
}
