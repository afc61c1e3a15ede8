package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// locomoFixture is the small LoCoMo-schema conversation of
// internal/locomo's tests (two sessions, 8 turns, questions of categories
// 1–5 with an unresolvable (D9:9) and a malformed (D1-5) evidence id, a
// question without evidence and a temporal gold answer that is no date).
const locomoFixture = "../../internal/locomo/testdata/mini.json"

func writeLoCoMo(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "locomo.json")
	require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
	return p
}

func obj(t *testing.T, m map[string]any, key string) map[string]any {
	t.Helper()
	v, ok := m[key].(map[string]any)
	require.True(t, ok, "field %q is %T, want an object", key, m[key])
	return v
}

func fraction(t *testing.T, m map[string]any, key string) float64 {
	t.Helper()
	f := num(t, m, key)
	assert.True(t, f >= 0 && f <= 1, "%s = %v not in [0, 1]", key, f)
	return f
}

func TestLoCoMoJSON(t *testing.T) {
	data := locomoFixture
	details := filepath.Join(t.TempDir(), "details.jsonl")
	rep := runJSON(t, "locomo", "-data", data, "-k", "5", "-details", details)

	assert.Equal(t, 8.0, num(t, rep, "questions"), "categories 1–4")
	assert.Equal(t, 5.0, num(t, rep, "k"))
	assert.Equal(t, 2.0, num(t, rep, "unresolved_evidence"), "D9:9 and D1-5")
	assert.Equal(t, 1.0, num(t, rep, "questions_no_gold"))
	assert.Equal(t, 1.0, num(t, rep, "adversarial_skipped"))
	assert.Equal(t, 1.0, num(t, rep, "conversations"))
	assert.Equal(t, 8.0, num(t, rep, "messages"))
	assert.GreaterOrEqual(t, num(t, rep, "elapsed_s"), num(t, rep, "ingest_s"))
	// Scored questions per category (question 3, category 3, has no gold).
	wantN := map[string]float64{"1": 2, "2": 3, "3": 0, "4": 2}
	for _, name := range []string{"raw", "events", "ask"} {
		ch := obj(t, rep, name)
		fraction(t, ch, "recall_at_k")
		fraction(t, ch, "hit_at_k")
		assert.Equal(t, 7.0, num(t, ch, "n"), name)
		by := obj(t, ch, "by_category")
		assert.Len(t, by, 4, name)
		for cat, n := range wantN {
			c := obj(t, by, cat)
			fraction(t, c, "recall_at_k")
			fraction(t, c, "hit_at_k")
			assert.Equal(t, n, num(t, c, "n"), "%s category %s", name, cat)
		}
	}
	raw := obj(t, rep, "raw")
	assert.Positive(t, num(t, raw, "hit_at_k"), "the question words are in the gold turns")

	ask := obj(t, rep, "ask")
	fraction(t, ask, "false_sufficient_rate")
	fraction(t, ask, "abstention_rate")
	rounds := num(t, ask, "mean_rounds")
	assert.True(t, rounds >= 1 && rounds <= 4, "mean_rounds %v", rounds)
	verdicts := obj(t, ask, "verdicts")
	total := 0.0
	for _, v := range []string{"sufficient", "partial", "wrong"} {
		total += num(t, verdicts, v)
	}
	assert.Equal(t, 8.0, total)
	assert.Equal(t, 8.0-num(t, verdicts, "sufficient"), num(t, ask, "abstentions"))

	temporal := obj(t, rep, "temporal")
	assert.Equal(t, 2.0, num(t, temporal, "scored"))
	assert.Equal(t, 1.0, num(t, temporal, "unparsed"), `"a few weeks"`)
	fraction(t, temporal, "accuracy")

	f, err := os.Open(details)
	require.NoError(t, err)
	defer f.Close()
	lines := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var it map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &it))
		assert.Equal(t, "conv-mini", it["conversation"])
		lines++
	}
	require.NoError(t, sc.Err())
	assert.Equal(t, 8, lines)
}

func TestLoCoMoTable(t *testing.T) {
	code, out, stderr := sgbench(t, "locomo", "-data", locomoFixture, "-progress", "0")
	require.Equal(t, exitOK, code, stderr)
	for _, want := range []string{"SearchRaw", "SearchEvents", "Ask", "recall@10", "1 multi-hop (n=2)", "verdicts", "false sufficient", "Temporal", "accuracy"} {
		assert.Contains(t, out, want)
	}
	assert.False(t, strings.HasPrefix(out, "{"))
}

func TestLoCoMoErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.json")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no data", []string{"locomo"}, exitUsage, "-data is required"},
		{"bad k", []string{"locomo", "-data", "x", "-k", "0"}, exitUsage, "-k must be in"},
		{"bad rounds", []string{"locomo", "-data", "x", "-rounds", "13"}, exitUsage, "-rounds must be in"},
		{"bad flag", []string{"locomo", "-bogus"}, exitUsage, "flag provided but not defined"},
		{"extra argument", []string{"locomo", "-data", "x", "extra"}, exitUsage, "unexpected argument"},
		{"missing file", []string{"locomo", "-data", missing}, exitFail, "no such file"},
		{"malformed", []string{"locomo", "-data", writeLoCoMo(t, `[{"sample_id": "c", "conversation": {`)}, exitFail, "malformed JSON"},
		{"not a list", []string{"locomo", "-data", writeLoCoMo(t, `{"sample_id": "c"}`)}, exitFail, "want a JSON list"},
		{"empty list", []string{"locomo", "-data", writeLoCoMo(t, `[]`)}, exitFail, "no conversation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := sgbench(t, append(tc.args, "-progress", "0")...)
			assert.Equal(t, tc.code, code)
			assert.Contains(t, stderr, tc.want)
			assert.Empty(t, out)
		})
	}
}
