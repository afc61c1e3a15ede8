package heuristic

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The word lists are switch statements rather than package-level maps so
// that they are immutable and need no initialisation.

// stopword reports whether the lower-case word w is too common in chat to
// describe a topic: English function words, chat fillers and generic
// verbs. Words under three runes are dropped before this check, so they
// are not listed.
func stopword(w string) bool {
	switch w {
	// English function words.
	case "about", "above", "after", "again", "against", "all", "and", "any",
		"are", "because", "been", "before", "being", "below", "between",
		"both", "but", "can", "cannot", "did", "does", "doing", "down",
		"during", "each", "few", "for", "from", "further", "had", "has",
		"have", "having", "her", "here", "hers", "herself", "him", "himself",
		"his", "how", "into", "its", "itself", "more", "most", "myself",
		"nor", "not", "now", "off", "once", "only", "other", "our", "ours",
		"ourselves", "out", "over", "own", "same", "she", "some", "such",
		"than", "that", "the", "their", "theirs", "them", "themselves",
		"then", "there", "these", "they", "this", "those", "through", "too",
		"under", "until", "very", "was", "were", "what", "when", "where",
		"which", "while", "who", "whom", "why", "with", "you", "your",
		"yours", "yourself", "yourselves", "also", "may", "might", "must",
		"shall", "should", "would", "could", "will", "yet", "since", "though",
		"although", "however", "whether", "within", "without", "across",
		"around", "among", "upon", "onto", "via", "per", "etc", "e.g", "i.e",
		"every", "another", "anyone", "someone", "anything", "something",
		"everything", "nothing", "many", "much", "lot", "lots", "still",
		"even", "ever", "never", "always", "already", "soon", "later", "back",
		"next", "last", "first", "maybe", "perhaps", "probably", "definitely",
		// Contraction stems left after splitting at the apostrophe.
		"don", "doesn", "didn", "isn", "aren", "wasn", "weren", "won",
		"wouldn", "couldn", "shouldn", "haven", "hasn", "hadn", "ain",
		// Chat fillers and politeness.
		"yes", "yeah", "yep", "yup", "nope", "okay", "thanks", "thank", "thx",
		"sure", "hello", "hey", "please", "sorry", "well", "right", "cool",
		"great", "good", "nice", "fine", "awesome", "perfect", "wow", "lol",
		"haha", "hmm", "hmmm", "alright", "glad", "happy", "help", "sounds",
		"sound", "really", "just", "actually", "basically", "pretty", "quite",
		"kind", "sort", "bit", "little",
		// Generic verbs and nouns.
		"let", "lets", "think", "know", "get", "got", "getting", "like",
		"one", "want", "wants", "need", "needs", "make", "makes", "made",
		"use", "using", "used", "see", "say", "said", "tell", "told", "ask",
		"asked", "come", "take", "give", "put", "keep", "try", "mean",
		"going", "gonna", "wanna", "done", "thing", "things", "stuff", "way",
		"time", "day", "days", "today", "tomorrow", "yesterday",
		// Decision verbs: they mark a fact (see cueWord) but name no topic.
		"decide", "decided", "decides", "prefer", "prefers", "preferred",
		"instead", "ago",
		// Calendar names: they date a fact (see cueWord) but name no topic.
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
		"sunday", "january", "february", "march", "april", "june", "july",
		"august", "september", "october", "november", "december",
		// Web noise.
		"http", "https", "www", "com":
		return true
	}
	return false
}

// stopBigram reports whether the Han bigram b is noise: it contains a
// common function character, or is a common function word.
func stopBigram(b string) bool {
	for _, r := range b {
		if strings.ContainsRune("的了是在和吗吧呢啊也就都我你他她它这那不有个们么", r) {
			return true
		}
	}
	switch b {
	case "可以", "什么", "因为", "所以", "但是", "如果", "还是", "然后", "已经",
		"怎么", "现在", "觉得", "知道", "需要", "应该", "自己", "一下", "一些",
		"谢谢", "时候", "而且", "或者", "好的":
		return true
	}
	return false
}

// cueWord reports whether the lower-case word w, on its own, marks a
// decision, preference, plan, change or time.
func cueWord(w string) bool {
	switch w {
	case "decided", "decide", "decides", "we'll", "will", "switch",
		"switched", "switching", "moved", "prefer", "prefers", "preferred",
		"favorite", "favourite", "started", "adopted", "plan", "plans",
		"planned", "planning", "launch", "launched", "launching", "deadline",
		"actually", "correction", "instead", "yesterday", "tomorrow", "ago",
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
		"sunday", "january", "february", "april", "june", "july", "august",
		"september", "october", "november", "december":
		return true
	}
	return false
}

// cuePair reports whether the lower-case words prev, w form a two-word
// cue.
func cuePair(prev, w string) bool {
	switch prev {
	case "let's", "lets":
		return w == "use"
	case "going":
		return w == "to"
	case "no":
		return w == "longer"
	case "last":
		return w == "week"
	case "next":
		return w == "month"
	}
	return false
}

// hasCue reports whether sentence s carries a decision, preference, plan,
// change or time cue.
func hasCue(s string) bool {
	han := false
	for _, r := range s {
		if unicode.IsDigit(r) {
			return true // covers "in 2025", dates, amounts and versions
		}
		han = han || isHan(r)
	}
	if han {
		cues := [...]string{
			"决定", "改用", "换成", "切换", "喜欢", "偏好", "计划", "打算", "准备",
			"开始", "上线", "发布", "截止", "明天", "昨天", "下周", "上周", "下个月",
			"上个月", "以前", "之前", "以后", "其实", "更正", "不再", "星期", "周一",
			"周二", "周三", "周四", "周五", "周六", "周日",
		}
		for _, c := range cues {
			if strings.Contains(s, c) {
				return true
			}
		}
	}
	// Lower-case into two stack buffers that swap roles, so the previous
	// word stays available for pairs without allocating.
	var bufA, bufB [maxCueBytes]byte
	cur, prev := bufA[:0], bufB[:0]
	for i := 0; ; {
		w, next := cueToken(s, i)
		if w == "" {
			return false
		}
		i = next
		if len(w) > maxCueBytes {
			prev = prev[:0] // no cue is this long
			continue
		}
		cur = appendCueLower(cur[:0], w)
		if cueWord(string(cur)) || cuePair(string(prev), string(cur)) {
			return true
		}
		// "may" and "march" are also common verbs; only the capitalised
		// spelling counts as a month.
		if (string(cur) == "may" || string(cur) == "march") && isCapitalised(w) {
			return true
		}
		cur, prev = prev, cur
	}
}

// maxCueBytes bounds the length of a word that can be (part of) a cue;
// the longest, "correction", has 10 bytes.
const maxCueBytes = 16

// appendCueLower appends w lower-cased, with ’ read as an apostrophe.
func appendCueLower(dst []byte, w string) []byte {
	for _, r := range w {
		if r == '’' {
			r = '\''
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	return dst
}

// cueToken returns the word starting at or after byte i of s and the
// index after it; a word here is a run of letters, digits and marks that
// may contain apostrophes between letters ("we'll", "let’s").
func cueToken(s string, i int) (string, int) {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isWordStart(r) {
			break
		}
		i += n
	}
	start := i
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isWordRune(r) {
			i += n
			continue
		}
		if r == '\'' || r == '’' {
			r2, n2 := utf8.DecodeRuneInString(s[i+n:])
			if n2 > 0 && unicode.IsLetter(r2) {
				i += n + n2
				continue
			}
		}
		break
	}
	return s[start:i], i
}
