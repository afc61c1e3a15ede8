package bm25

import "unicode/utf8"

// synonymGroups lists Chinese–English synonym groups as raw text; every
// phrase of a group is a synonym of every other. They are tokenized once at
// package init with the index tokenizer, so the stored forms match query
// terms exactly (stemmed English, bigrammed Chinese).
//
// Synonyms apply at query time only, never at index time: the index stores
// what was written, and changing this table needs no reindex.
var synonymGroups = [][]string{
	{"猫", "猫咪", "cat", "kitten"},
	{"狗", "小狗", "dog", "puppy"},
	{"宠物", "pet"},
	{"工作", "work", "job"},
	{"公司", "company"},
	{"搬家", "move", "relocate"},
	{"喜欢", "like", "prefer"},
	{"讨厌", "dislike"},
	{"咖啡", "coffee"},
	{"茶", "tea"},
	{"会议", "开会", "meeting"},
	{"项目", "project"},
	{"决定", "decide", "decision"},
	{"旅行", "旅游", "trip", "travel"},
	{"妹妹", "sister"}, // younger and older siblings are not synonyms
	{"姐姐", "sister"}, // of each other, so they sit in separate groups
	{"弟弟", "brother"},
	{"哥哥", "brother"},
	{"朋友", "friend"},
	{"生日", "birthday"},
	{"昨天", "yesterday"},
	{"今天", "today"},
	{"明天", "tomorrow"},
	{"上周", "last week"},
	{"下周", "next week"},
	{"周末", "weekend"},
	{"妈妈", "母亲", "mother", "mom"},
	{"爸爸", "父亲", "father", "dad"},
	{"孩子", "child", "kid"},
	{"女儿", "daughter"},
	{"儿子", "son"},
	{"丈夫", "老公", "husband"},
	{"妻子", "老婆", "wife"},
	{"学校", "school"},
	{"医生", "doctor"},
	{"医院", "hospital"},
	{"电脑", "computer", "laptop"},
	{"手机", "phone"},
	{"邮件", "email"},
	{"电影", "movie", "film"},
	{"音乐", "music"},
	{"书", "book"},
	{"餐厅", "restaurant"},
	{"早餐", "breakfast"},
	{"晚饭", "晚餐", "dinner"},
	{"过敏", "allergy", "allergic"},
	{"素食", "vegetarian"},
	{"地址", "address"},
	{"名字", "name"},
	{"密码", "password"},
}

// synonyms maps a single-term key to its synonym terms: deduplicated, in
// table order, without the key itself. A phrase that tokenizes to several
// terms ("last week") is an expansion only, never a key: "last" alone must
// not expand to 上周.
var synonyms = buildSynonyms(synonymGroups)

func buildSynonyms(groups [][]string) map[string][]string {
	m := make(map[string][]string)
	for _, g := range groups {
		var all []string
		var keys []string
		for _, phrase := range g {
			terms := AppendTerms(nil, phrase)
			all = append(all, terms...)
			if len(terms) == 1 {
				keys = append(keys, terms[0])
			}
		}
		for _, k := range keys {
			for _, t := range all {
				if t != k && !contains(m[k], t) {
					m[k] = append(m[k], t)
				}
			}
		}
	}
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ExpandQuery returns, for each query term (as produced by Tokenize), the
// term itself followed by its synonym terms, deduplicated, in table order.
// A CJK bigram also picks up the synonyms of each of its two characters
// that is a single-character key (的猫 expands like 猫), because the index
// only ever holds 猫 as part of a bigram. The result is deterministic; each
// inner slice is independent of the others (appending to one is safe).
func ExpandQuery(terms []string) [][]string {
	out := make([][]string, len(terms))
	total := 0
	for _, t := range terms {
		total += 1 + len(synonyms[t])
		if a, b, ok := splitBigram(t); ok {
			total += len(synonyms[a]) + len(synonyms[b])
		}
	}
	backing := make([]string, 0, total)
	for i, t := range terms {
		from := len(backing)
		backing = append(backing, t)
		backing = appendNew(backing, from, synonyms[t])
		if a, b, ok := splitBigram(t); ok {
			backing = appendNew(backing, from, synonyms[a])
			backing = appendNew(backing, from, synonyms[b])
		}
		out[i] = backing[from:len(backing):len(backing)]
	}
	return out
}

// appendNew appends the elements of add not already in dst[from:].
func appendNew(dst []string, from int, add []string) []string {
	for _, s := range add {
		if !contains(dst[from:], s) {
			dst = append(dst, s)
		}
	}
	return dst
}

// splitBigram splits a two-rune CJK term into its two characters.
func splitBigram(t string) (string, string, bool) {
	r1, n1 := utf8.DecodeRuneInString(t)
	if n1 == len(t) || !isCJK(r1) {
		return "", "", false
	}
	r2, n2 := utf8.DecodeRuneInString(t[n1:])
	if n1+n2 != len(t) || !isCJK(r2) {
		return "", "", false
	}
	return t[:n1], t[n1:], true
}
