package bm25_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/bm25"
)

func TestExpandQuery(t *testing.T) {
	cases := []struct {
		name  string
		query string
		want  [][]string
	}{
		{"chinese to english", "猫", [][]string{{"猫", "猫咪", "cat", "kitten"}}},
		{"english to chinese, stemmed key", "cats", [][]string{{"cat", "猫", "猫咪", "kitten"}}},
		{"verb forms share the key", "moving", [][]string{{"mov", "搬家", "relocat"}}},
		{"two values", "工作", [][]string{{"工作", "work", "job"}}},
		{"multi-term phrase expands", "上周", [][]string{{"上周", "last", "week"}}},
		{"multi-term phrase is not a key", "last week", [][]string{{"last"}, {"week"}}},
		{"term in two groups is merged", "sister", [][]string{{"sister", "妹妹", "姐姐"}}},
		{"groups stay apart", "妹妹", [][]string{{"妹妹", "sister"}}},
		{"single char inside bigram", "的猫", [][]string{{"的猫", "猫咪", "cat", "kitten"}}},
		{"unknown term", "pnpm", [][]string{{"pnpm"}}},
		{"mixed query", "我的咖啡", [][]string{{"我的"}, {"的咖"}, {"咖啡", "coff"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, bm25.ExpandQuery(bm25.AppendTerms(nil, tc.query)))
		})
	}
}

func TestExpandQueryEdges(t *testing.T) {
	assert.Empty(t, bm25.ExpandQuery(nil))
	out := bm25.ExpandQuery([]string{"", "cat", "cat"})
	require.Len(t, out, 3)
	assert.Equal(t, []string{""}, out[0])
	assert.Equal(t, out[1], out[2], "repeated terms expand alike")

	// Appending to one expansion must not clobber the next.
	out[1] = append(out[1], "extra")
	assert.Equal(t, "cat", out[2][0])
	assert.NotContains(t, out[2], "extra")
}

func TestSynonymTablePairs(t *testing.T) {
	// The pairs the table must cover, in raw text; both directions expand.
	pairs := []struct{ zh, en string }{
		{"猫", "cat"}, {"狗", "dog"}, {"宠物", "pet"}, {"工作", "work"}, {"工作", "job"},
		{"公司", "company"}, {"搬家", "move"}, {"喜欢", "like"}, {"喜欢", "prefer"},
		{"咖啡", "coffee"}, {"茶", "tea"}, {"会议", "meeting"}, {"项目", "project"},
		{"决定", "decide"}, {"决定", "decision"}, {"旅行", "trip"}, {"旅行", "travel"},
		{"妹妹", "sister"}, {"朋友", "friend"}, {"生日", "birthday"}, {"昨天", "yesterday"},
	}
	for _, p := range pairs {
		t.Run(p.zh+"/"+p.en, func(t *testing.T) {
			zh, en := bm25.AppendTerms(nil, p.zh), bm25.AppendTerms(nil, p.en)
			require.Len(t, zh, 1)
			require.Len(t, en, 1)
			assert.Contains(t, bm25.ExpandQuery(zh)[0], en[0])
			assert.Contains(t, bm25.ExpandQuery(en)[0], zh[0])
		})
	}
}
