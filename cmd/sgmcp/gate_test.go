package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAssessAndRecordUse(t *testing.T) {
	f := newFixture(t)
	var ev SearchOut
	f.ok(t, "memory_search_events", map[string]any{"query": "Shadow dog"}, &ev)
	require.NotEmpty(t, ev.Items)
	var raw SearchOut
	f.ok(t, "memory_search_raw", map[string]any{"query": "Shadow"}, &raw)

	var a AssessOut
	f.ok(t, "memory_assess", map[string]any{"batch_id": ev.BatchID, "verdict": "sufficient",
		"evidence_refs": []string{ev.Items[0].Ref, raw.Items[0].Ref, "x1", ev.Items[0].Ref},
		"fit":           "names the dog", "missing": "", "next_strategy": "answer"}, &a)
	assert.Equal(t, "sufficient", a.Verdict)
	assert.True(t, a.Recorded)
	assert.Equal(t, []string{ev.Items[0].Ref}, a.EvidenceRefs)
	assert.Equal(t, []Rejected{{raw.Items[0].Ref, "not_in_batch"}, {"x1", "invalid_ref"}, {ev.Items[0].Ref, "duplicate"}}, a.RejectedRefs)

	msg := f.fails(t, "memory_assess", map[string]any{"batch_id": ev.BatchID, "verdict": "partial", "next_strategy": "search_raw_memory"})
	assert.Contains(t, msg, "already assessed")

	var u RecordUseOut
	f.ok(t, "memory_record_use", map[string]any{"assessment_id": a.AssessmentID}, &u)
	assert.True(t, u.Recorded)
	assert.Equal(t, []string{ev.Items[0].Ref}, u.Adopted)
	f.ok(t, "memory_record_use", map[string]any{"id": a.AssessmentID}, &u) // idempotent by receipt
	assert.True(t, u.Recorded)

	t.Run("record_use refused without a sufficient assessment", func(t *testing.T) {
		var p AssessOut
		f.ok(t, "memory_assess", map[string]any{"batch_id": raw.BatchID, "verdict": "sufficient", "evidence_refs": []string{},
			"fit": "", "missing": "", "next_strategy": "answer"}, &p)
		assert.Equal(t, "partial", p.Verdict, "sufficient without refs is downgraded")
		assert.False(t, p.Recorded)
		msg := f.fails(t, "memory_record_use", map[string]any{"assessment_id": p.AssessmentID})
		assert.Contains(t, msg, "not sufficient")
		msg = f.fails(t, "memory_record_use", map[string]any{"assessment_id": "p9-s9-b9-a1"})
		assert.Contains(t, msg, "unknown")
		msg = f.fails(t, "memory_record_use", map[string]any{})
		assert.Contains(t, msg, "assessment_id")
	})
	t.Run("bad verdicts and batches", func(t *testing.T) {
		var fresh SearchOut
		f.ok(t, "memory_search_raw", map[string]any{"query": "Shadow"}, &fresh)
		msg := f.fails(t, "memory_assess", map[string]any{"batch_id": fresh.BatchID, "verdict": "maybe", "next_strategy": "answer"})
		assert.Contains(t, msg, "verdict")
		msg = f.fails(t, "memory_assess", map[string]any{"batch_id": fresh.BatchID, "verdict": "partial", "next_strategy": "guess"})
		assert.Contains(t, msg, "next_strategy")
		msg = f.fails(t, "memory_assess", map[string]any{"batch_id": "s1-b1", "verdict": "partial", "next_strategy": "answer"})
		assert.Contains(t, msg, "unknown")
	})
	t.Run("status counts the gate", func(t *testing.T) {
		var st StatusOut
		f.ok(t, "memory_status", nil, &st)
		assert.Equal(t, 1, st.Gate.Sufficient)
		assert.Equal(t, 1, st.Gate.Partial)
		assert.Equal(t, 4, st.Gate.RefsSubmitted)
		assert.Equal(t, 3, st.Gate.RefsRejected)
		assert.NotEmpty(t, st.Database)
		for _, tool := range st.Tools {
			if tool.Name == "memory_assess" {
				assert.Equal(t, 6, tool.Calls)
				assert.Equal(t, 4, tool.Errors)
			}
		}
	})
}

func TestAsk(t *testing.T) {
	f := newFixture(t)
	var a AskOut
	f.ok(t, "memory_ask", map[string]any{"q": "What is the name of Sam's dog?"}, &a)
	assert.Equal(t, "sufficient", a.Verdict)
	assert.Contains(t, a.Answer, "Shadow")
	require.NotEmpty(t, a.Evidence)
	assert.NotEmpty(t, a.Evidence[0].Messages)
	require.NotEmpty(t, a.Trace)
	assert.NotEmpty(t, a.AssessmentID)

	f.ok(t, "memory_ask", map[string]any{"question": "What is the name of Sam's dog?", "scopes": "global"}, &a)
	assert.NotEqual(t, "sufficient", a.Verdict, "nothing in global")
	msg := f.fails(t, "memory_ask", map[string]any{"question": "x", "max_rounds": 99})
	assert.Contains(t, msg, "max_rounds")
}
