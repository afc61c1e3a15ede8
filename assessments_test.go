package stratagate_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
)

// sufficientAssessment drives a session of mem by hand, as an application
// would: one batch holding the given events and nodes, assessed
// sufficient, recorded with RecordAssessment. It returns the id.
func sufficientAssessment(t testing.TB, mem *stratagate.Memory, evs, nodes []uint64) string {
	t.Helper()
	b, a := assessedBatch(t, mem, gate.Sufficient, evs, nodes)
	id, err := mem.RecordAssessment(ctx, b, a)
	require.NoError(t, err)
	require.Equal(t, a.ID, id)
	return id
}

func assessedBatch(t testing.TB, mem *stratagate.Memory, v gate.Verdict, evs, nodes []uint64) (*gate.Batch, gate.Assessment) {
	t.Helper()
	s, err := mem.NewSession(ctx, gate.Analyze("what happened?", base), gate.Budget{})
	require.NoError(t, err)
	_, ok := s.Next()
	require.True(t, ok)
	var items []gate.Item
	var refs []string
	for _, e := range evs {
		items = append(items, gate.Item{Ref: gate.MakeRef(gate.KindEvent, e), EventID: e})
		refs = append(refs, gate.MakeRef(gate.KindEvent, e))
	}
	for _, n := range nodes {
		items = append(items, gate.Item{Ref: gate.MakeRef(gate.KindNode, n), NodeID: n})
		refs = append(refs, gate.MakeRef(gate.KindNode, n))
	}
	b := s.Observe(gate.Batch{Items: items})
	require.NotNil(t, b)
	next := gate.Answer
	if v != gate.Sufficient {
		next = gate.SearchRawMemory
	}
	a, err := s.Record(gate.Assessment{BatchID: b.ID, Verdict: v, EvidenceRefs: refs, NextStrategy: next, Fit: "test"})
	require.NoError(t, err)
	return b, a
}

func TestRecordMemoryUseNeedsASufficientAssessment(t *testing.T) {
	mem := sampleMemory(t)
	ids := allEventIDs(t, mem)
	require.GreaterOrEqual(t, len(ids), 3)
	e1, e2 := ids[0], ids[1]
	nodes, err := mem.SearchGraphNodes(ctx, stratagate.Query{Text: "Atlas", Scopes: atlasScopes})
	require.NoError(t, err)
	require.NotEmpty(t, nodes)
	n1 := nodes[0].ID
	id := sufficientAssessment(t, mem, []uint64{e1}, []uint64{n1})
	assert.True(t, strings.HasPrefix(id, "p"), "a Memory session id: %s", id)

	before := weightsOf(t, mem, ids)
	for name, c := range map[string]struct {
		use  stratagate.Use
		errs []error
	}{
		"made-up assessment": {stratagate.Use{ReceiptID: "r1", AssessmentID: "i-made-this-up", EventIDs: []uint64{e1}},
			[]error{stratagate.ErrInvalidInput, stratagate.ErrAssessment, stratagate.ErrNotFound}},
		"no assessment": {stratagate.Use{ReceiptID: "r2", EventIDs: []uint64{e1}}, []error{stratagate.ErrInvalidInput, stratagate.ErrEmpty}},
		"event not cited": {stratagate.Use{ReceiptID: "r3", AssessmentID: id, EventIDs: []uint64{e1, e2}},
			[]error{stratagate.ErrInvalidInput, stratagate.ErrAssessment}},
		"node not cited": {stratagate.Use{ReceiptID: "r4", AssessmentID: id, NodeIDs: []uint64{n1 + 1000}},
			[]error{stratagate.ErrInvalidInput, stratagate.ErrAssessment}},
		"whitespace assessment": {stratagate.Use{ReceiptID: "r5", AssessmentID: " ", EventIDs: []uint64{e1}}, []error{stratagate.ErrInvalidInput}},
	} {
		err := mem.RecordMemoryUse(ctx, c.use)
		for _, want := range c.errs {
			require.ErrorIs(t, err, want, name)
		}
		t.Logf("%s: %v", name, err)
	}
	assert.Equal(t, before, weightsOf(t, mem, ids), "no refused use wrote a weight")

	// The assessment's own citations are adopted, idempotently by receipt.
	require.NoError(t, mem.RecordMemoryUse(ctx, stratagate.Use{ReceiptID: "ok", AssessmentID: id, EventIDs: []uint64{e1}, NodeIDs: []uint64{n1}}))
	require.NoError(t, mem.RecordMemoryUse(ctx, stratagate.Use{ReceiptID: "ok", AssessmentID: id, EventIDs: []uint64{e1}, NodeIDs: []uint64{n1}}))
	after := weightsOf(t, mem, ids)
	assert.Greater(t, after[e1], before[e1])
	assert.Equal(t, before[e2], after[e2])

	// RecordAssessment: idempotent, refuses partial verdicts, foreign
	// batches, unknown events and a different assessment under a taken id.
	b, a := assessedBatch(t, mem, gate.Sufficient, []uint64{e2}, nil)
	id2, err := mem.RecordAssessment(ctx, b, a)
	require.NoError(t, err)
	again, err := mem.RecordAssessment(ctx, b, a)
	require.NoError(t, err)
	assert.Equal(t, id2, again)
	forged := *b
	forged.Items = []gate.Item{{Ref: gate.MakeRef(gate.KindEvent, e1), EventID: e1}}
	fa := a
	fa.EvidenceRefs = []string{gate.MakeRef(gate.KindEvent, e1)}
	_, err = mem.RecordAssessment(ctx, &forged, fa)
	require.ErrorIs(t, err, stratagate.ErrAssessment, "another assessment under a recorded id")

	pb, pa := assessedBatch(t, mem, gate.Partial, []uint64{e1}, nil)
	_, err = mem.RecordAssessment(ctx, pb, pa)
	require.ErrorIs(t, err, stratagate.ErrAssessment)
	require.ErrorIs(t, err, stratagate.ErrInvalidInput)
	assert.Contains(t, err.Error(), "not sufficient")

	wa := a
	wa.BatchID = "someone-else-b1"
	_, err = mem.RecordAssessment(ctx, b, wa)
	require.ErrorIs(t, err, stratagate.ErrInvalidInput)
	require.ErrorIs(t, err, gate.ErrWrongBatch)
	_, err = mem.RecordAssessment(ctx, nil, a)
	require.ErrorIs(t, err, stratagate.ErrInvalidInput)

	gb, ga := assessedBatch(t, mem, gate.Sufficient, []uint64{987654}, nil)
	_, err = mem.RecordAssessment(ctx, gb, ga)
	require.ErrorIs(t, err, stratagate.ErrNotFound)
	err = mem.RecordMemoryUse(ctx, stratagate.Use{ReceiptID: "ghost", AssessmentID: ga.ID, EventIDs: []uint64{987654}})
	require.ErrorIs(t, err, stratagate.ErrAssessment, "an assessment that was refused is not recorded")
}

// askQuestion is answerable from the sample conversation.
const askQuestion = "When did Mia pick up her parrot Kiwi?"

// askQuestions are answerable from the sample conversation: the third
// process asks the first one's question again.
var askQuestions = []string{askQuestion, "When did Mia set up Postgres in Docker Compose?", askQuestion}

const (
	askEnvPath     = "STRATAGATE_ASK_CHILD_PATH"
	askEnvQuestion = "STRATAGATE_ASK_CHILD_QUESTION"
)

// TestAskChild asks the question named by the environment of the file
// named there and prints the assessment id; it does nothing in a normal
// run.
func TestAskChild(t *testing.T) {
	path := os.Getenv(askEnvPath)
	if path == "" {
		t.Skip("child of TestAskAcrossProcesses")
	}
	mem, err := stratagate.Open(path, nil)
	require.NoError(t, err)
	defer mem.Close()
	a, err := mem.Ask(ctx, os.Getenv(askEnvQuestion), stratagate.AskOptions{Scopes: atlasScopes})
	require.NoError(t, err)
	require.Equal(t, "sufficient", a.Verdict)
	fmt.Printf("assessment %s\n", a.AssessmentID)
}

// TestAskAcrossProcesses: three fresh processes ask questions of one file,
// the third the first one's again. Every Ask succeeds (a reused assessment
// id made the second one ErrReceiptConflict) and three uses are recorded
// under three assessments (the third question recorded none).
func TestAskAcrossProcesses(t *testing.T) {
	if os.Getenv(askEnvPath) != "" {
		t.Skip("inside the child")
	}
	mem, path := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	require.NoError(t, mem.Close())

	seen := map[string]bool{}
	for _, question := range askQuestions {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAskChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), askEnvPath+"="+path, askEnvQuestion+"="+question)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		sc := bufio.NewScanner(bytes.NewReader(out))
		id := ""
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "assessment "); ok {
				id = rest
			}
		}
		require.NotEmpty(t, id, "%s", out)
		assert.False(t, seen[id], "assessment id %s repeated", id)
		seen[id] = true
	}
	assertUses(t, path, 3)
}

// TestAskAcrossReopen: the same through Open/Close cycles of one process.
func TestAskAcrossReopen(t *testing.T) {
	mem, path := openMem(t, nil)
	ingestSample(t, mem)
	waitIdle(t, mem)
	require.NoError(t, mem.Close())
	seen := map[string]bool{}
	for range 3 {
		m, err := stratagate.Open(path, nil)
		require.NoError(t, err)
		a, err := m.Ask(ctx, askQuestion, stratagate.AskOptions{Scopes: atlasScopes})
		require.NoError(t, err)
		require.Equal(t, "sufficient", a.Verdict)
		assert.False(t, seen[a.AssessmentID])
		seen[a.AssessmentID] = true
		require.NoError(t, m.Close())
	}
	assertUses(t, path, 3)
}

func assertUses(t *testing.T, path string, n int) {
	t.Helper()
	m, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	require.NoError(t, err)
	defer m.Close()
	s, err := m.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, n, s.Buckets["use.receipts"], "one use per Ask")
	assert.Equal(t, n, s.Buckets["assessments"], "one recorded assessment per Ask")
	rep, err := m.Verify(ctx)
	require.NoError(t, err)
	assert.True(t, rep.OK, "%v", rep.Violations)
}
