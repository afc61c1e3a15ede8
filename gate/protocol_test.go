package gate_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/gate"
)

func batchWith(id string, st gate.Strategy, refs ...string) *gate.Batch {
	b := &gate.Batch{ID: id, Strategy: st, Query: "q"}
	for _, r := range refs {
		b.Items = append(b.Items, gate.Item{Ref: r})
	}
	return b
}

func TestValidate(t *testing.T) {
	events := batchWith("s1-b1", gate.SearchEvents, "e1", "e2", "m3", "n4", "b5")
	raw := batchWith("s1-b2", gate.SearchRawMemory, "m3", "m6")
	rawNoMsg := batchWith("s1-b3", gate.SearchRawMemory, "e1")
	graph := batchWith("s1-b4", gate.SearchGraph, "n4")
	big := batchWith("s1-b5", gate.SearchEvents, "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10")
	long := strings.Repeat("é猫", 100) // 200 runes, multi-byte

	type want struct {
		verdict  gate.Verdict
		strategy gate.Strategy
		refs     []string
		rejected []gate.Rejected
		target   string
		query    string
		missing  string
	}
	tests := []struct {
		name string
		b    *gate.Batch
		a    gate.Assessment
		want want
	}{
		{
			name: "sufficient with a valid ref and answer is accepted",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Sufficient, EvidenceRefs: []string{"e1", "m3"}, NextStrategy: gate.Answer, Fit: "fits"},
			want: want{verdict: gate.Sufficient, strategy: gate.Answer, refs: []string{"e1", "m3"}},
		},
		{
			name: "malformed refs are invalid_ref",
			b:    events,
			a: gate.Assessment{BatchID: "s1-b1", Verdict: gate.Sufficient, NextStrategy: gate.Answer,
				EvidenceRefs: []string{"", "x1", "e0", "E1", "e01", "e1a", "e", "e-1", "e18446744073709551616", "e1"}},
			want: want{verdict: gate.Sufficient, strategy: gate.Answer, refs: []string{"e1"}, rejected: []gate.Rejected{
				{"", gate.ReasonInvalidRef}, {"x1", gate.ReasonInvalidRef}, {"e0", gate.ReasonInvalidRef},
				{"E1", gate.ReasonInvalidRef}, {"e01", gate.ReasonInvalidRef}, {"e1a", gate.ReasonInvalidRef},
				{"e", gate.ReasonInvalidRef}, {"e-1", gate.ReasonInvalidRef}, {"e18446744073709551616", gate.ReasonInvalidRef},
			}},
		},
		{
			name: "surrounding white space is trimmed",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Sufficient, EvidenceRefs: []string{" e1\t"}, NextStrategy: gate.Answer},
			want: want{verdict: gate.Sufficient, strategy: gate.Answer, refs: []string{"e1"}},
		},
		{
			name: "a repeated ref is a duplicate",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial, EvidenceRefs: []string{"e1", "e2", "e1", " e2"}, NextStrategy: gate.SearchRawMemory},
			want: want{verdict: gate.Partial, strategy: gate.SearchRawMemory, refs: []string{"e1", "e2"},
				rejected: []gate.Rejected{{"e1", gate.ReasonDuplicate}, {" e2", gate.ReasonDuplicate}}},
		},
		{
			name: "a ref of another batch is not_in_batch",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial, EvidenceRefs: []string{"m6", "e1", "e99", "m6"}, NextStrategy: gate.SearchGraph},
			want: want{verdict: gate.Partial, strategy: gate.SearchGraph, refs: []string{"e1"},
				rejected: []gate.Rejected{{"m6", gate.ReasonNotInBatch}, {"e99", gate.ReasonNotInBatch}, {"m6", gate.ReasonDuplicate}}},
		},
		{
			name: "the 9th valid ref and later exceed the limit",
			b:    big,
			a: gate.Assessment{BatchID: "s1-b5", Verdict: gate.Sufficient, NextStrategy: gate.Answer,
				EvidenceRefs: []string{"e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10"}},
			want: want{verdict: gate.Sufficient, strategy: gate.Answer, refs: []string{"e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"},
				rejected: []gate.Rejected{{"e9", gate.ReasonLimitExceeded}, {"e10", gate.ReasonLimitExceeded}}},
		},
		{
			name: "invalid refs do not use up the limit; invalid after the limit keeps its reason",
			b:    big,
			a: gate.Assessment{BatchID: "s1-b5", Verdict: gate.Sufficient, NextStrategy: gate.Answer,
				EvidenceRefs: []string{"zz", "e1", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e99", "e9"}},
			want: want{verdict: gate.Sufficient, strategy: gate.Answer, refs: []string{"e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"},
				rejected: []gate.Rejected{{"zz", gate.ReasonInvalidRef}, {"e1", gate.ReasonDuplicate}, {"e99", gate.ReasonNotInBatch}, {"e9", gate.ReasonLimitExceeded}}},
		},
		{
			name: "sufficient with a non-answer strategy is downgraded, strategy kept",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Sufficient, EvidenceRefs: []string{"e1"}, NextStrategy: gate.SearchGraph, NextQuery: "mia pets"},
			want: want{verdict: gate.Partial, strategy: gate.SearchGraph, refs: []string{"e1"}, query: "mia pets"},
		},
		{
			name: "sufficient and answer without a valid ref: partial, events switch to raw",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Sufficient, EvidenceRefs: []string{"e42"}, NextStrategy: gate.Answer},
			want: want{verdict: gate.Partial, strategy: gate.SearchRawMemory, rejected: []gate.Rejected{{"e42", gate.ReasonNotInBatch}},
				missing: "evidence refs from batch s1-b1"},
		},
		{
			name: "sufficient and answer without refs from raw: expand the block of a message",
			b:    raw,
			a:    gate.Assessment{BatchID: "s1-b2", Verdict: gate.Sufficient, NextStrategy: gate.Answer, Missing: "the date"},
			want: want{verdict: gate.Partial, strategy: gate.ExpandBlock, target: "m3", missing: "the date"},
		},
		{
			name: "sufficient and answer without refs from raw without messages: graph",
			b:    rawNoMsg,
			a:    gate.Assessment{BatchID: "s1-b3", Verdict: gate.Sufficient, NextStrategy: gate.Answer},
			want: want{verdict: gate.Partial, strategy: gate.SearchGraph, missing: "evidence refs from batch s1-b3"},
		},
		{
			name: "sufficient and answer without refs from graph: events",
			b:    graph,
			a:    gate.Assessment{BatchID: "s1-b4", Verdict: gate.Sufficient, NextStrategy: gate.Answer},
			want: want{verdict: gate.Partial, strategy: gate.SearchEvents, missing: "evidence refs from batch s1-b4"},
		},
		{
			name: "partial with answer after search_events becomes search_raw_memory",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial, EvidenceRefs: []string{"e1"}, NextStrategy: gate.Answer, Missing: "date"},
			want: want{verdict: gate.Partial, strategy: gate.SearchRawMemory, refs: []string{"e1"}, missing: "date"},
		},
		{
			name: "partial with answer after another strategy becomes search_events",
			b:    raw,
			a:    gate.Assessment{BatchID: "s1-b2", Verdict: gate.Partial, EvidenceRefs: []string{"m3"}, NextStrategy: gate.Answer},
			want: want{verdict: gate.Partial, strategy: gate.SearchEvents, refs: []string{"m3"}},
		},
		{
			name: "wrong with answer is normalised too",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Wrong, NextStrategy: gate.Answer},
			want: want{verdict: gate.Wrong, strategy: gate.SearchRawMemory},
		},
		{
			name: "expand_event keeps an event target of the batch",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial, EvidenceRefs: []string{"e1"}, NextStrategy: gate.ExpandEvent, NextTarget: "e2", NextQuery: "dropped"},
			want: want{verdict: gate.Partial, strategy: gate.ExpandEvent, refs: []string{"e1"}, target: "e2"},
		},
		{
			name: "expand_event with a target outside the batch takes the first cited event",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial, EvidenceRefs: []string{"m3", "e2"}, NextStrategy: gate.ExpandEvent, NextTarget: "e77"},
			want: want{verdict: gate.Partial, strategy: gate.ExpandEvent, refs: []string{"m3", "e2"}, target: "e2"},
		},
		{
			name: "expand_block with a wrong-kind target takes a message of the batch",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial, NextStrategy: gate.ExpandBlock, NextTarget: "e1"},
			want: want{verdict: gate.Partial, strategy: gate.ExpandBlock, target: "m3"},
		},
		{
			name: "expand_graph_node without any node becomes search_graph",
			b:    raw,
			a:    gate.Assessment{BatchID: "s1-b2", Verdict: gate.Partial, NextStrategy: gate.ExpandGraphNode, NextTarget: "n4"},
			want: want{verdict: gate.Partial, strategy: gate.SearchGraph},
		},
		{
			name: "a search clears the target; sufficient clears query and target",
			b:    events,
			a:    gate.Assessment{BatchID: "s1-b1", Verdict: gate.Sufficient, EvidenceRefs: []string{"e1"}, NextStrategy: gate.Answer, NextQuery: "x", NextTarget: "e1"},
			want: want{verdict: gate.Sufficient, strategy: gate.Answer, refs: []string{"e1"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := gate.Validate(tc.b, tc.a)
			require.NoError(t, err)
			assert.Equal(t, tc.b.ID+"-a1", got.ID)
			assert.Equal(t, tc.b.ID, got.BatchID)
			assert.Equal(t, tc.want.verdict, got.Verdict)
			assert.Equal(t, tc.want.strategy, got.NextStrategy)
			assert.Equal(t, tc.want.refs, got.EvidenceRefs)
			assert.Equal(t, tc.want.rejected, got.RejectedRefs)
			assert.Equal(t, tc.want.target, got.NextTarget)
			assert.Equal(t, tc.want.query, got.NextQuery)
			if tc.want.missing != "" {
				assert.Equal(t, tc.want.missing, got.Missing)
			}
			assert.LessOrEqual(t, len(got.EvidenceRefs), gate.MaxRefs)
		})
	}

	t.Run("fit and missing are truncated to 160 runes", func(t *testing.T) {
		got, err := gate.Validate(events, gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial, NextStrategy: gate.SearchGraph,
			Fit: long, Missing: "  " + long, NextQuery: strings.Repeat("q", 300)})
		require.NoError(t, err)
		for _, s := range []string{got.Fit, got.Missing} {
			assert.Equal(t, 160, utf8.RuneCountInString(s))
			assert.True(t, utf8.ValidString(s))
			assert.True(t, strings.HasPrefix(long, s))
		}
		assert.Equal(t, 256, utf8.RuneCountInString(got.NextQuery))
		short, err := gate.Validate(events, gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial, NextStrategy: gate.SearchGraph, Fit: strings.Repeat("猫", 160)})
		require.NoError(t, err)
		assert.Equal(t, strings.Repeat("猫", 160), short.Fit, "exactly 160 runes is kept")
	})

	errs := []struct {
		name string
		b    *gate.Batch
		a    gate.Assessment
		want error
	}{
		{"unknown verdict", events, gate.Assessment{BatchID: "s1-b1", Verdict: "maybe", NextStrategy: gate.Answer}, gate.ErrInvalidAssessment},
		{"empty verdict", events, gate.Assessment{BatchID: "s1-b1", NextStrategy: gate.Answer}, gate.ErrInvalidAssessment},
		{"upper-case verdict", events, gate.Assessment{BatchID: "s1-b1", Verdict: "Sufficient", NextStrategy: gate.Answer}, gate.ErrInvalidAssessment},
		{"unknown strategy", events, gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial, NextStrategy: "search_web"}, gate.ErrInvalidAssessment},
		{"empty strategy", events, gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial}, gate.ErrInvalidAssessment},
		{"nil batch", nil, gate.Assessment{BatchID: "s1-b1", Verdict: gate.Partial, NextStrategy: gate.SearchGraph}, gate.ErrInvalidAssessment},
		{"wrong batch id", events, gate.Assessment{BatchID: "s1-b2", Verdict: gate.Sufficient, EvidenceRefs: []string{"e1"}, NextStrategy: gate.Answer}, gate.ErrWrongBatch},
		{"empty batch id", events, gate.Assessment{Verdict: gate.Partial, NextStrategy: gate.SearchGraph}, gate.ErrWrongBatch},
		{"batch without id", batchWith("", gate.SearchEvents, "e1"), gate.Assessment{Verdict: gate.Partial, NextStrategy: gate.SearchGraph}, gate.ErrWrongBatch},
	}
	for _, tc := range errs {
		t.Run("error/"+tc.name, func(t *testing.T) {
			got, err := gate.Validate(tc.b, tc.a)
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.want)
			assert.Empty(t, got.ID)
		})
	}
}

func TestParseRef(t *testing.T) {
	for _, tc := range []struct {
		ref  string
		kind string
		id   uint64
		ok   bool
	}{
		{"e12", gate.KindEvent, 12, true},
		{"m345", gate.KindMessage, 345, true},
		{"n7", gate.KindNode, 7, true},
		{"b3", gate.KindBlock, 3, true},
		{"e18446744073709551615", gate.KindEvent, 18446744073709551615, true},
		{"e0", "", 0, false},
		{"x1", "", 0, false},
		{"e+1", "", 0, false},
		{"", "", 0, false},
	} {
		kind, id, ok := gate.ParseRef(tc.ref)
		assert.Equal(t, tc.ok, ok, tc.ref)
		assert.Equal(t, tc.kind, kind, tc.ref)
		assert.Equal(t, tc.id, id, tc.ref)
		if ok {
			assert.Equal(t, tc.ref, gate.MakeRef(kind, id))
		}
	}
	assert.Equal(t, "e5", fmt.Sprint(gate.MakeRef(gate.KindEvent, 5)))
}
