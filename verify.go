package stratagate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/wal"
)

// Violation kinds. An error is a broken invariant of the file; a warning is
// a state that is legal but worth a look (a job left running by a process
// that died, which resumes on the next writable Open).
const (
	ViolationError   = "error"
	ViolationWarning = "warning"
)

// VerifyReport is the result of Verify.
type VerifyReport struct {
	// OK is true when no violation of kind "error" was found; warnings do
	// not clear it.
	OK bool `json:"ok"`
	// Checked counts the records each pass audited, by record family
	// ("messages", "blocks", "threads", "jobs", ...).
	Checked map[string]int `json:"checked"`
	// Violations lists every problem found, in the order the passes ran.
	Violations []Violation `json:"violations"`
}

// Violation is one broken invariant, naming the record it was found on.
type Violation struct {
	// Check names the invariant, "<record>.<property>": "message.hash",
	// "block.l4", "thread_spans", "jobs.running", "index.raw", ...
	Check string `json:"check"`
	// Kind is ViolationError or ViolationWarning.
	Kind string `json:"kind"`
	// ID is the numeric id of the record (message, block, job), or 0.
	ID uint64 `json:"id"`
	// Key is the string key of the record (thread name, receipt id, index
	// key), or "".
	Key string `json:"key"`
	// Detail says what differs, for people.
	Detail string `json:"detail"`
}

// String renders v on one line: kind, check, record and detail.
func (v Violation) String() string {
	rec := v.Key
	if v.ID != 0 {
		rec = strconv.FormatUint(v.ID, 10)
		if v.Key != "" {
			rec += " " + strconv.Quote(v.Key)
		}
	} else if rec != "" {
		rec = strconv.Quote(rec)
	}
	return fmt.Sprintf("%s %s %s: %s", v.Kind, v.Check, rec, v.Detail)
}

// Verify audits the whole file against its invariants and reports every
// violation it finds, each naming its record:
//
//   - every message record decodes, its stored SHA-256 equals a fresh
//     Message.Hash (a changed content byte is caught), its thread exists,
//     and it is either in exactly one block or in its thread's open tail;
//   - every block decodes; its L5Hash equals layers.L5Hash of its messages,
//     fresh L3 and L4 renderings of its messages hash to its RenderHash
//     (version 1 records: equal its stored text; a hash of another
//     renderer version is a warning), its messages belong to its
//     thread and to no other block, its one thread_spans entry lists its
//     MessageIDs in order (a thread's spans in seq order, their id runs
//     disjoint), its L2 facts cite only its messages, a ready block has a
//     title, its L0–L2 pass the derive job's validation and equal their
//     stored DerivedHash, and a pending block has a queued derive job;
//   - thread_blocks entries point at existing blocks of that thread with the
//     matching Seq; each thread's open tail messages exist, belong to it and
//     are in no block; its Turns and Blocks counters agree with its records;
//   - receipts point at existing messages of their turn;
//   - every event card's text is valid UTF-8, its title and summary
//     within their lengths; recorded assessments are sufficient and cite
//     existing events, and use receipts name one that cites what they
//     adopted (a warning for receipts older than recorded assessments);
//   - every job decodes, jobs.queue holds exactly the pending and running
//     jobs, and a derive job's block exists; a job left running is reported
//     as a warning (the writer died or is mid-job; it resumes on the next
//     writable Open);
//   - the file format is one this build knows;
//   - every derived index, and the event rank table, equals a fresh
//     rebuild (CheckIndexes) and every id it indexes is a stored message.
//
// The record checks read one snapshot (one bbolt read transaction); the
// index comparison reads its own. Verify works on a ReadOnly Memory and
// writes nothing. Its error is for failures to run the audit (a closed
// Memory, a cancelled ctx, an I/O error); what the audit finds is in the
// report.
func (m *Memory) Verify(ctx context.Context) (VerifyReport, error) {
	rep, err := m.verifyRecords(ctx)
	if err != nil {
		return VerifyReport{}, err
	}
	// CheckIndexes takes m's lock itself, so it runs after verifyRecords
	// released it (a nested read lock could deadlock against Close).
	if err := m.CheckIndexes(ctx); err != nil {
		if errors.Is(err, ErrClosed) || errors.Is(err, ErrCanceled) || errors.Is(err, ErrIO) {
			return VerifyReport{}, err
		}
		rep.Violations = append(rep.Violations, indexViolation(err))
	}
	rep.Checked["indexes"]++
	rep.OK = true
	for _, v := range rep.Violations {
		if v.Kind == ViolationError {
			rep.OK = false
		}
	}
	return *rep, nil
}

// indexViolation turns a CheckIndexes error into a violation naming the
// index and, for ErrIndexMismatch, the differing key.
func indexViolation(err error) Violation {
	v := Violation{Check: "index", Kind: ViolationError, Detail: err.Error()}
	if !errors.Is(err, ErrIndexMismatch) {
		v.Detail = "cannot rebuild the indexes to compare: " + err.Error()
		return v
	}
	// The error names "idx.NAME/SUB: … key "K" …" (or "idx.NAME: index
	// missing"), or "events.rank: … key "K" …" for the event rank table.
	msg := err.Error()
	i := strings.Index(msg, "idx.")
	if i < 0 {
		i = strings.Index(msg, string(kv.BucketEventRank)+": ")
	}
	if i < 0 {
		return v
	}
	rest := strings.ReplaceAll(msg[i:], ErrIndexMismatch.Error()+": ", "")
	path, after, _ := strings.Cut(rest, ": ")
	v.Detail = rest
	name, _, _ := strings.Cut(strings.TrimPrefix(path, "idx."), "/")
	v.Check = "index." + name
	v.Key = path
	if j := strings.Index(after, `key "`); j >= 0 {
		if quoted, err := strconv.QuotedPrefix(after[j+len("key "):]); err == nil {
			v.Key = path + " " + quoted
		}
	}
	return v
}

// verifier carries one audit's state across its passes.
type verifier struct {
	ctx  context.Context
	m    *Memory
	tx   *bolt.Tx
	rep  *VerifyReport
	seen int // records visited, for periodic ctx checks

	threads map[string]*threadAudit
	msgs    map[uint64]*msgAudit
	blocks  map[uint64]*blockAudit
	// derivesQueued holds the blocks with a pending or running derive job.
	derivesQueued map[uint64]bool
	// extractJobs holds, per block, the state of its extract job.
	extractJobs map[uint64]wal.State
	cards       map[uint64]*events.Card
}

type threadAudit struct {
	th      layers.Thread
	decoded bool
	maxTurn uint64 // highest turn among its messages
	blocks  int    // blocks naming it
	entries int    // thread_blocks entries under it
	tail    map[uint64]bool
}

type msgAudit struct {
	thread string
	turn   uint64
	block  uint64 // the block listing it (first one, if several do)
}

type blockAudit struct {
	thread string
	seq    uint64
	state  layers.State
	msgs   map[uint64]bool
	ids    []uint64 // its MessageIDs, in order
	spans  int      // thread_spans entries naming it
}

// verifyPasses run in order inside one read transaction. Each audits one
// record family and may use what earlier passes recorded in the verifier;
// a new record family (events, graph) adds its pass here.
var verifyPasses = []func(*verifier) error{
	(*verifier).threadsPass,
	(*verifier).messagesPass,
	(*verifier).blocksPass,
	(*verifier).threadSpansPass,
	(*verifier).threadBlocksPass,
	(*verifier).threadStatePass,
	(*verifier).receiptsPass,
	(*verifier).jobsPass,
	(*verifier).pendingBlocksPass,
	(*verifier).rawIndexIDsPass,
	(*verifier).eventsPass,
	(*verifier).blockEventsPass,
	(*verifier).usePass,
	(*verifier).eventsIndexIDsPass,
	(*verifier).graphPass,
	(*verifier).importsPass,
}

// verifyBuckets are the buckets the record passes read.
var verifyBuckets = [][]byte{
	kv.BucketThreads, kv.BucketMessages, kv.BucketBlocks, kv.BucketThreadSpans,
	kv.BucketThreadBlocks, kv.BucketReceipts, kv.BucketJobs, kv.BucketJobQueue,
	kv.BucketEvents, kv.BucketBlockEvents, kv.BucketUse, kv.BucketUseReceipts, kv.BucketAssessments,
	kv.BucketGraphNodes, kv.BucketGraphFacts, kv.BucketGraphEdges, kv.BucketGraphNames, kv.BucketGraphLinks,
}

func (m *Memory) verifyRecords(ctx context.Context) (*VerifyReport, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	rep := &VerifyReport{Checked: map[string]int{}, Violations: []Violation{}}
	format, err := m.db.Format()
	if errors.Is(err, ErrCorrupt) {
		rep.Violations = append(rep.Violations, Violation{Check: "file.pages", Kind: ViolationError, Key: "format", Detail: err.Error()})
	} else if err != nil {
		return nil, err
	}
	rep.Checked["format"] = 1
	if err == nil && (format == 0 || format > kv.FormatVersion) {
		rep.Violations = append(rep.Violations, Violation{Check: "format.version", Kind: ViolationError, Key: "format",
			Detail: fmt.Sprintf("file format %d is not one this build knows (1–%d)", format, kv.FormatVersion)})
	}
	err = m.db.View(func(tx *bolt.Tx) error {
		v := &verifier{
			ctx: ctx, m: m, tx: tx, rep: rep,
			threads: map[string]*threadAudit{}, msgs: map[uint64]*msgAudit{},
			blocks: map[uint64]*blockAudit{}, derivesQueued: map[uint64]bool{},
			extractJobs: map[uint64]wal.State{}, cards: map[uint64]*events.Card{},
		}
		// The passes (and the layers and wal readers they call) need these
		// buckets; without one the file is too damaged to audit further.
		missing := false
		for _, name := range verifyBuckets {
			if tx.Bucket(name) == nil {
				v.fail("file.buckets", 0, string(name), "bucket %q is missing", name)
				missing = true
			}
		}
		if missing {
			return nil
		}
		for i, pass := range verifyPasses {
			if err := v.runPass(i, pass); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// runPass runs pass number i. Damage that stops a pass — a panic or memory
// fault inside bbolt on a damaged page, or an ErrCorrupt from a reader —
// becomes a "file.pages" violation naming the pass, and the audit goes on
// with the next pass (bbolt's read transaction holds no state a panic can
// break). Only ctx's errors end the audit.
func (v *verifier) runPass(i int, pass func(*verifier) error) (err error) {
	name := runtime.FuncForPC(reflect.ValueOf(pass).Pointer()).Name()
	name = strings.TrimSuffix(name[strings.LastIndexByte(name, '.')+1:], "-fm")
	defer func() {
		if err != nil && (errors.Is(err, ErrCorrupt) || errors.Is(err, ErrVersionMismatch)) {
			v.fail("file.pages", 0, "", "%s (pass %d) stopped: %v", name, i+1, err)
			err = nil
		}
	}()
	defer kv.Guard(&err, name)()
	return pass(v)
}

func (v *verifier) add(check, kind string, id uint64, key, format string, a ...any) {
	v.rep.Violations = append(v.rep.Violations, Violation{Check: check, Kind: kind, ID: id, Key: key, Detail: fmt.Sprintf(format, a...)})
}

func (v *verifier) fail(check string, id uint64, key, format string, a ...any) {
	v.add(check, ViolationError, id, key, format, a...)
}

// tick counts one visited record and checks ctx every 1024 of them.
func (v *verifier) tick(family string) error {
	v.rep.Checked[family]++
	v.seen++
	if v.seen%1024 == 0 {
		return v.ctx.Err()
	}
	return nil
}

// forEach walks bucket name, counting each entry under family.
func (v *verifier) forEach(name []byte, family string, fn func(k, val []byte) error) error {
	v.rep.Checked[family] += 0 // present even when the bucket is empty
	b := v.tx.Bucket(name)
	if b == nil {
		v.fail(family, 0, string(name), "bucket %q is missing", name)
		return nil
	}
	c := b.Cursor()
	for k, val := c.First(); k != nil; k, val = c.Next() {
		if err := v.tick(family); err != nil {
			return err
		}
		if err := fn(k, val); err != nil {
			return err
		}
	}
	return nil
}

// splitThreadSeqKey splits a "thread 0x00 uint64" key (thread_blocks). Thread names contain no control characters, so the
// separator is unambiguous.
func splitThreadSeqKey(k []byte) (thread string, n uint64, ok bool) {
	if len(k) < 10 || k[len(k)-9] != 0 {
		return "", 0, false
	}
	return string(k[:len(k)-9]), kv.ID(k[len(k)-8:]), true
}

func threadSeqKey(thread string, n uint64) []byte {
	return append(append([]byte(thread), 0), kv.Key(n)...)
}

func (v *verifier) threadsPass() error {
	return v.forEach(kv.BucketThreads, "threads", func(k, _ []byte) error {
		name := string(k)
		ta := &threadAudit{tail: map[uint64]bool{}}
		v.threads[name] = ta
		th, _, err := layers.GetThread(v.tx, name)
		if err != nil {
			v.fail("thread.decode", 0, name, "%v", err)
			return nil
		}
		ta.th, ta.decoded = th, true
		if th.Name != name {
			v.fail("thread.name", 0, name, "record names thread %q", th.Name)
		}
		for _, id := range th.OpenTail {
			if ta.tail[id] {
				v.fail("thread.open_tail", id, name, "message %d is listed twice in the open tail", id)
			}
			ta.tail[id] = true
		}
		return nil
	})
}

func (v *verifier) messagesPass() error {
	seq := uint64(0)
	if b := v.tx.Bucket(kv.BucketMessages); b != nil {
		seq = b.Sequence()
	}
	return v.forEach(kv.BucketMessages, "messages", func(k, val []byte) error {
		id := kv.ID(k)
		if id == 0 {
			v.fail("message.key", 0, fmt.Sprintf("%x", k), "message key of %d bytes is not an id", len(k))
			return nil
		}
		if id > seq {
			v.fail("message.id", id, "", "message %d is beyond the bucket sequence %d: the next Append would collide", id, seq)
		}
		msg, err := layers.DecodeMessage(val)
		if err != nil {
			v.fail("message.decode", id, "", "message %d does not decode: %v", id, err)
			return nil
		}
		if msg.ID != id {
			v.fail("message.id", id, "", "message stored under %d says id %d", id, msg.ID)
		}
		if sum := msg.Hash(); sum != msg.SHA256 {
			v.fail("message.hash", id, msg.Thread, "message %d: stored sha256 %x, recomputed %x: its record changed after it was written", id, msg.SHA256, sum)
		}
		v.msgs[id] = &msgAudit{thread: msg.Thread, turn: msg.Turn}
		ta := v.threads[msg.Thread]
		if ta == nil {
			v.fail("message.thread", id, msg.Thread, "message %d names thread %q, which does not exist", id, msg.Thread)
			return nil
		}
		if msg.Turn == 0 || (ta.decoded && msg.Turn > ta.th.Turns) {
			v.fail("message.turn", id, msg.Thread, "message %d is in turn %d; thread %q has %d turns", id, msg.Turn, msg.Thread, ta.th.Turns)
		}
		ta.maxTurn = max(ta.maxTurn, msg.Turn)
		return nil
	})
}

func (v *verifier) blocksPass() error {
	return v.forEach(kv.BucketBlocks, "blocks", func(k, val []byte) error {
		id := kv.ID(k)
		if id == 0 {
			v.fail("block.key", 0, fmt.Sprintf("%x", k), "block key of %d bytes is not an id", len(k))
			return nil
		}
		b, err := layers.DecodeBlock(val)
		if err != nil {
			v.fail("block.decode", id, "", "block %d does not decode: %v", id, err)
			return nil
		}
		v.checkBlock(id, &b)
		return nil
	})
}

func (v *verifier) checkBlock(id uint64, b *layers.Block) {
	ba := &blockAudit{thread: b.Thread, seq: b.Seq, state: b.State, msgs: make(map[uint64]bool, len(b.MessageIDs)), ids: b.MessageIDs}
	v.blocks[id] = ba
	if b.ID != id {
		v.fail("block.id", id, b.Thread, "block stored under %d says id %d", id, b.ID)
	}
	ta := v.threads[b.Thread]
	if ta == nil {
		v.fail("block.thread", id, b.Thread, "block %d names thread %q, which does not exist", id, b.Thread)
	} else {
		ta.blocks++
	}
	switch b.State {
	case layers.StatePending, layers.StateFailed:
	case layers.StateReady:
		if strings.TrimSpace(b.Title) == "" {
			v.fail("block.title", id, b.Thread, "block %d is ready but has no title (L0)", id)
		}
		v.checkDerived(id, b)
	default:
		v.fail("block.state", id, b.Thread, "block %d has unknown state %q", id, b.State)
	}
	if len(b.MessageIDs) == 0 {
		v.fail("block.messages", id, b.Thread, "block %d lists no messages", id)
	}
	msgs := make([]layers.Message, 0, len(b.MessageIDs))
	complete := true // every message decoded: renderings and hash can be compared
	for _, mid := range b.MessageIDs {
		if ba.msgs[mid] {
			v.fail("block.messages", id, b.Thread, "block %d lists message %d twice", id, mid)
			continue
		}
		ba.msgs[mid] = true
		ma := v.msgs[mid]
		if ma == nil {
			v.fail("block.messages", id, b.Thread, "block %d lists message %d, which is not stored", id, mid)
			complete = false
			continue
		}
		if ma.thread != b.Thread {
			v.fail("block.messages", id, b.Thread, "block %d of thread %q lists message %d of thread %q", id, b.Thread, mid, ma.thread)
		}
		if ma.block != 0 {
			v.fail("message.block", mid, ma.thread, "message %d is listed by blocks %d and %d", mid, ma.block, id)
		} else {
			ma.block = id
		}
		msg, err := layers.GetMessage(v.tx, mid)
		if err != nil {
			complete = false // reported by the messages pass
			continue
		}
		msgs = append(msgs, msg)
	}
	for _, f := range b.Facts {
		for _, mid := range f.MessageIDs {
			if !ba.msgs[mid] {
				v.fail("block.facts", id, b.Thread, "block %d: L2 fact %q cites message %d, which is not in the block", id, f.Text, mid)
			}
		}
	}
	if !complete {
		return
	}
	if got := layers.L5Hash(msgs); !bytes.Equal(got, b.L5Hash) {
		v.fail("block.l5hash", id, b.Thread, "block %d: stored L5 hash %x, recomputed %x from its %d messages", id, b.L5Hash, got, len(msgs))
	}
	v.checkRenderings(id, b, msgs)
}

// checkRenderings compares a block's L3 and L4 with fresh renderings of
// its messages: the stored text of a version 1 record (with a diff), and
// the renderings' hash of either version. A hash taken by another
// renderer version cannot be compared; a writable Open re-hashes those.
func (v *verifier) checkRenderings(id uint64, b *layers.Block, msgs []layers.Message) {
	l3, l4 := layers.RenderL3(msgs), layers.RenderL4(msgs)
	if b.L3 != "" || b.L4 != "" {
		// A version 1 record: its text is compared, with a diff (its hash
		// was taken from that text, so it would only say the same again).
		if l4 != b.L4 {
			v.fail("block.l4", id, b.Thread, "block %d: L4 differs from a fresh rendering of its messages %s", id, describeDiff(b.L4, l4))
		}
		if l3 != b.L3 {
			v.fail("block.l3", id, b.Thread, "block %d: L3 differs from a fresh rendering of its messages %s", id, describeDiff(b.L3, l3))
		}
		return
	}
	if b.RenderVersion != layers.RendererVersion {
		v.add("block.render_version", ViolationWarning, id, b.Thread,
			"block %d: L3/L4 hash taken by renderer version %d, this build renders version %d; not compared (a writable Open re-hashes it)",
			id, b.RenderVersion, layers.RendererVersion)
		return
	}
	if got := layers.RenderSum(l3, l4); !bytes.Equal(got, b.RenderHash) {
		v.fail("block.render_hash", id, b.Thread, "block %d: stored L3/L4 hash %x, fresh renderings of its messages hash to %x: a message or the renderer changed (renderer version %d)",
			id, b.RenderHash, got, b.RenderVersion)
	}
}

// checkDerived checks a ready block's L0–L2: they pass the derive job's
// validation again (valid UTF-8, lengths, facts citing the block's
// messages), and equal the hash stored with them, when there is one.
func (v *verifier) checkDerived(id uint64, b *layers.Block) {
	out := model.DeriveOutput{Title: b.Title, Tags: slices.Clone(b.Tags), Summary: b.Summary}
	for _, f := range b.Facts {
		out.Facts = append(out.Facts, model.DeriveFact{Text: f.Text, MessageIDs: f.MessageIDs})
	}
	if err := layers.ValidateDerived(&out, b.MessageIDs); err != nil {
		v.fail("block.derived", id, b.Thread, "block %d: stored L0–L2 fail validation: %v", id, err)
	}
	if len(b.DerivedHash) > 0 {
		if got := b.DerivedSum(); !bytes.Equal(got, b.DerivedHash) {
			v.fail("block.derived_hash", id, b.Thread, "block %d: stored L0–L2 hash %x, recomputed %x: a title, tag, summary or fact changed", id, b.DerivedHash, got)
		}
	}
}

// describeDiff says where stored first differs from fresh, with a short
// excerpt of both.
func describeDiff(stored, fresh string) string {
	i := 0
	for i < len(stored) && i < len(fresh) && stored[i] == fresh[i] {
		i++
	}
	line := strings.Count(stored[:i], "\n") + 1
	excerpt := func(s string) string {
		if i >= len(s) {
			return "(end)"
		}
		end := min(len(s), i+40)
		return strconv.Quote(s[i:end])
	}
	return fmt.Sprintf("at byte %d (line %d): stored %s, fresh %s", i, line, excerpt(stored), excerpt(fresh))
}

// threadSpansPass checks thread_spans: each entry decodes and lists, in
// order, exactly the messages of the block it names, of its own thread;
// a thread's spans follow its blocks' seq order with growing, disjoint id
// runs (what one Seek relies on); and every block has one span.
func (v *verifier) threadSpansPass() error {
	var (
		thread  string
		lastID  uint64
		lastSeq uint64
	)
	err := v.forEach(kv.BucketThreadSpans, "thread_spans", func(k, val []byte) error {
		sp, err := layers.DecodeSpan(k, val)
		if err != nil {
			v.fail("thread_spans", 0, string(k), "%v", err)
			return nil
		}
		if sp.Thread != thread {
			thread, lastID, lastSeq = sp.Thread, 0, 0
		}
		ba := v.blocks[sp.BlockID]
		switch {
		case ba == nil:
			v.fail("thread_spans", sp.BlockID, sp.Thread, "thread %q has a span of block %d, which does not exist", sp.Thread, sp.BlockID)
			return nil
		case ba.thread != sp.Thread:
			v.fail("thread_spans", sp.BlockID, sp.Thread, "thread %q has a span of block %d of thread %q", sp.Thread, sp.BlockID, ba.thread)
		case !slices.Equal(ba.ids, sp.MessageIDs):
			v.fail("thread_spans", sp.BlockID, sp.Thread, "the span of block %d lists messages %v; the block lists %v", sp.BlockID, sp.MessageIDs, ba.ids)
		case sp.MessageIDs[0] <= lastID || ba.seq <= lastSeq:
			v.fail("thread_spans", sp.BlockID, sp.Thread, "the span of block %d (seq %d, messages from %d) is not after its thread's previous span (seq %d, messages to %d)",
				sp.BlockID, ba.seq, sp.MessageIDs[0], lastSeq, lastID)
		}
		ba.spans++
		if ba.spans > 1 {
			v.fail("thread_spans", sp.BlockID, sp.Thread, "block %d has %d spans", sp.BlockID, ba.spans)
		}
		lastID, lastSeq = sp.MessageIDs[len(sp.MessageIDs)-1], ba.seq
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range sortedMapKeys(v.blocks) {
		if ba := v.blocks[id]; ba.spans == 0 {
			v.fail("thread_spans", id, ba.thread, "block %d of thread %q has no thread_spans entry: its messages have no neighbours or block for search", id, ba.thread)
		}
	}
	return nil
}

func (v *verifier) threadBlocksPass() error {
	return v.forEach(kv.BucketThreadBlocks, "thread_blocks", func(k, val []byte) error {
		thread, seq, ok := splitThreadSeqKey(k)
		if !ok {
			v.fail("thread_blocks", 0, string(k), "malformed thread_blocks key %q", k)
			return nil
		}
		if ta := v.threads[thread]; ta != nil {
			ta.entries++
		}
		bid := kv.ID(val)
		ba := v.blocks[bid]
		switch {
		case ba == nil:
			v.fail("thread_blocks", bid, thread, "thread %q seq %d points at block %d, which does not exist", thread, seq, bid)
		case ba.thread != thread:
			v.fail("thread_blocks", bid, thread, "thread %q seq %d points at block %d of thread %q", thread, seq, bid, ba.thread)
		case ba.seq != seq:
			v.fail("thread_blocks", bid, thread, "thread %q seq %d points at block %d, whose seq is %d", thread, seq, bid, ba.seq)
		}
		return nil
	})
}

// threadStatePass checks each thread's open tail and counters, and that
// every message is in a block or in its thread's open tail.
func (v *verifier) threadStatePass() error {
	tb := v.tx.Bucket(kv.BucketThreadBlocks)
	for _, name := range sortedMapKeys(v.threads) {
		ta := v.threads[name]
		if !ta.decoded {
			continue
		}
		th := ta.th
		turns := map[uint64]bool{}
		found := 0
		for _, id := range th.OpenTail {
			ma := v.msgs[id]
			switch {
			case ma == nil:
				v.fail("thread.open_tail", id, name, "open tail of thread %q lists message %d, which is not stored", name, id)
			case ma.thread != name:
				v.fail("thread.open_tail", id, name, "open tail of thread %q lists message %d of thread %q", name, id, ma.thread)
			case ma.block != 0:
				v.fail("thread.open_tail", id, name, "open tail of thread %q lists message %d, which is sealed in block %d", name, id, ma.block)
			default:
				turns[ma.turn] = true
				found++
			}
		}
		if found == len(th.OpenTail) && len(turns) != th.OpenTurns {
			// Only comparable when every tail message was found.
			v.fail("thread.counters", 0, name, "thread %q counts %d open turns; its open tail holds %d", name, th.OpenTurns, len(turns))
		}
		if th.Turns != ta.maxTurn {
			v.fail("thread.counters", 0, name, "thread %q counts %d turns; its newest message is in turn %d", name, th.Turns, ta.maxTurn)
		}
		if th.Blocks != uint64(ta.blocks) || th.Blocks != uint64(ta.entries) {
			v.fail("thread.counters", 0, name, "thread %q counts %d blocks; %d block records and %d thread_blocks entries name it", name, th.Blocks, ta.blocks, ta.entries)
		} else if th.Blocks > 0 && tb.Get(threadSeqKey(name, th.Blocks)) == nil {
			v.fail("thread.counters", 0, name, "thread %q counts %d blocks but has no thread_blocks entry for seq %d", name, th.Blocks, th.Blocks)
		}
	}
	for _, id := range sortedMapKeys(v.msgs) {
		ma := v.msgs[id]
		ta := v.threads[ma.thread]
		if ma.block == 0 && ta != nil && ta.decoded && !ta.tail[id] {
			v.fail("message.unsealed", id, ma.thread, "message %d is in no block and not in the open tail of thread %q", id, ma.thread)
		}
	}
	return nil
}

func (v *verifier) receiptsPass() error {
	stored := map[string]bool{}
	err := v.forEach(kv.BucketReceipts, "receipts", func(k, val []byte) error {
		key := string(k)
		stored[key] = true
		ref, err := layers.DecodeReceipt(val)
		if err != nil {
			v.fail("receipt.decode", 0, key, "receipt %q does not decode: %v", key, err)
			return nil
		}
		if ref.Thread == "" {
			// A version 2 record: its turn is its first message's.
			ma := v.msgs[ref.MessageIDs[0]]
			if ma == nil {
				v.fail("receipt.messages", ref.MessageIDs[0], key, "receipt %q points at message %d, which is not stored", key, ref.MessageIDs[0])
				return nil
			}
			ref.Thread, ref.Turn = ma.thread, ma.turn
		}
		v.checkReceipt(key, &ref)
		if ref.SealedBlockID != 0 && v.blocks[ref.SealedBlockID] == nil {
			v.fail("receipt.block", ref.SealedBlockID, key, "receipt %q names sealed block %d, which does not exist", key, ref.SealedBlockID)
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Receipts pending in thread records: their turns are in the open
	// tail, and each id is held once, by one thread or by the bucket.
	pending := map[string]string{}
	for _, name := range sortedMapKeys(v.threads) {
		ta := v.threads[name]
		if !ta.decoded {
			continue
		}
		for _, p := range ta.th.Receipts {
			v.rep.Checked["receipts"]++
			switch {
			case stored[p.ID]:
				v.fail("receipt.pending", 0, p.ID, "receipt %q is pending in thread %q and stored in the receipts bucket", p.ID, name)
			case pending[p.ID] != "":
				v.fail("receipt.pending", 0, p.ID, "receipt %q is pending in threads %q and %q", p.ID, pending[p.ID], name)
			}
			pending[p.ID] = name
			ref := layers.Receipt{Thread: name, Turn: p.Turn, MessageIDs: p.MessageIDs}
			v.checkReceipt(p.ID, &ref)
			for _, id := range p.MessageIDs {
				if !ta.tail[id] {
					v.fail("receipt.pending", id, p.ID, "receipt %q is pending in thread %q, but its message %d is not in the open tail", p.ID, name, id)
				}
			}
		}
	}
	return nil
}

// checkReceipt checks that ref names the stored messages of its turn.
func (v *verifier) checkReceipt(key string, ref *layers.Receipt) {
	if len(ref.MessageIDs) == 0 {
		v.fail("receipt.messages", 0, key, "receipt %q lists no messages", key)
	}
	for _, id := range ref.MessageIDs {
		ma := v.msgs[id]
		switch {
		case ma == nil:
			v.fail("receipt.messages", id, key, "receipt %q points at message %d, which is not stored", key, id)
		case ma.thread != ref.Thread || ma.turn != ref.Turn:
			v.fail("receipt.messages", id, key, "receipt %q (thread %q turn %d) points at message %d of thread %q turn %d",
				key, ref.Thread, ref.Turn, id, ma.thread, ma.turn)
		}
	}
}

func (v *verifier) jobsPass() error {
	queued := map[uint64]bool{}
	jobs := map[uint64]wal.State{}
	err := v.forEach(kv.BucketJobs, "jobs", func(k, _ []byte) error {
		id := kv.ID(k)
		if id == 0 {
			v.fail("job.key", 0, fmt.Sprintf("%x", k), "job key of %d bytes is not an id", len(k))
			return nil
		}
		j, err := wal.Get(v.tx, id)
		if err != nil {
			v.fail("job.decode", id, "", "job %d does not decode: %v", id, err)
			return nil
		}
		jobs[id] = j.State
		if j.ID != id {
			v.fail("job.id", id, "", "job stored under %d says id %d", id, j.ID)
		}
		switch j.State {
		case wal.StatePending:
		case wal.StateRunning:
			v.add("jobs.running", ViolationWarning, id, string(j.Kind),
				"%s job %d (target %d, attempt %d) is running: its writer died or is mid-job; it resumes on the next writable Open", j.Kind, id, j.Target, j.Attempts)
		case wal.StateDone, wal.StateFailed:
		default:
			v.fail("job.state", id, string(j.Kind), "job %d has unknown state %q", id, j.State)
		}
		if j.Kind == wal.KindExtract {
			v.extractJobs[j.Target] = j.State
		}
		if j.Kind == wal.KindDerive {
			if v.blocks[j.Target] == nil {
				v.fail("job.target", id, string(j.Kind), "derive job %d targets block %d, which does not exist", id, j.Target)
			} else if j.State == wal.StatePending || j.State == wal.StateRunning {
				v.derivesQueued[j.Target] = true
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = v.forEach(kv.BucketJobQueue, "jobs.queue", func(k, _ []byte) error {
		id := kv.ID(k)
		queued[id] = true
		st, ok := jobs[id]
		switch {
		case !ok && v.tx.Bucket(kv.BucketJobs).Get(k) == nil:
			v.fail("jobs.queue", id, "", "jobs.queue holds job %d, which has no record", id)
		case ok && st != wal.StatePending && st != wal.StateRunning:
			v.fail("jobs.queue", id, "", "jobs.queue holds job %d, which is %s", id, st)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range sortedMapKeys(jobs) {
		if st := jobs[id]; (st == wal.StatePending || st == wal.StateRunning) && !queued[id] {
			v.fail("jobs.queue", id, "", "job %d is %s but not in jobs.queue: it would never run", id, st)
		}
	}
	return nil
}

func (v *verifier) pendingBlocksPass() error {
	for _, id := range sortedMapKeys(v.blocks) {
		if ba := v.blocks[id]; ba.state == layers.StatePending && !v.derivesQueued[id] {
			v.fail("block.job", id, ba.thread, "block %d is pending but no pending or running derive job targets it: it would never become ready", id)
		}
	}
	return nil
}

// rawIndexIDsPass checks that every record id of the raw index is a stored
// message.
// It also checks the converse, that every stored message is indexed.
func (v *verifier) rawIndexIDsPass() error {
	if err := v.indexIDs(v.m.raw, "message", len(v.msgs) > 0, func(id uint64) bool { return v.msgs[id] != nil }); err != nil {
		return err
	}
	if v.tx.Bucket([]byte(v.m.raw.Name())) == nil {
		return nil
	}
	// Messages past the persisted documents are in the index's buffer,
	// made from the messages themselves (see rawbuffer.go).
	persisted, err := v.m.raw.Count(v.tx)
	if err != nil {
		return err
	}
	for _, id := range sortedMapKeys(v.msgs) {
		if err := v.tick("index.raw.messages"); err != nil {
			return err
		}
		if id > uint64(persisted) {
			break
		}
		if _, ok := v.m.raw.Lookup(v.tx, id); !ok {
			v.fail("index.raw", id, v.m.raw.Name()+"/ids", "message %d is not in the raw index", id)
		}
	}
	return nil
}

// indexIDs checks that every record id indexed by ix (its ids table:
// record id → doc number, see index/doc.go) is a stored record of kind
// what. needed says whether the index must exist.
func (v *verifier) indexIDs(ix *index.Index, what string, needed bool, exists func(id uint64) bool) error {
	name := ix.Name()
	check := "index." + strings.TrimPrefix(name, "idx.")
	family := check + ".ids"
	v.rep.Checked[family] += 0
	if v.tx.Bucket([]byte(name)) == nil {
		if needed {
			v.fail(check, 0, name, "index bucket %q is missing (a writable Open rebuilds it)", name)
		}
		return nil
	}
	err := ix.ForEachID(v.tx, func(id uint64, doc uint32) error {
		if err := v.tick(family); err != nil {
			return err
		}
		if !exists(id) {
			v.fail(family, id, name+"/ids", "index %q holds record %d (doc %d), which is not a stored %s", name, id, doc, what)
		}
		return nil
	})
	if errors.Is(err, kv.ErrCorrupt) || errors.Is(err, index.ErrLayout) {
		v.fail(check, 0, name+"/ids", "index %q: %v", name, err)
		return nil
	}
	return err
}

func sortedMapKeys[K uint64 | string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
