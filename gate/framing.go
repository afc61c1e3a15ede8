package gate

import "strings"

// Words that frame a question rather than name its topic, and the other
// question-shape tables of the analysis. Each is a word list (word keys:
// lower case, apostrophes removed) with the class of sentence it serves.
var (
	// framingWords ask for the shape of the answer, not its topic ("What
	// type of bike…", "Describe the trip…", "Besides hiking, what…",
	// "According to Sam, …"): evidence need not repeat them, so they are
	// not content terms.
	framingWords = wordSet("describe", "described", "describes", "type", "types", "kind", "kinds", "sort", "sorts",
		"besides", "regarding", "according", "example", "examples", "specific", "specifically", "particular",
		"exactly", "certain", "something", "anything", "stuff", "aspect", "aspects", "else", "apart", "aside",
		// generic heads of list questions ("What items has Sam bought?",
		// "Which activities…"): the evidence names the items themselves.
		"item", "items", "thing", "things", "activity", "activities")

	// sentenceFraming are sentence-initial capitalised words that are not
	// names ("According to…", "Considering…", "Overall, …"), beyond the
	// stopwords and question words.
	sentenceFraming = wordSet("according", "besides", "regarding", "considering", "given", "based", "apart", "aside",
		"overall", "also", "both", "each", "every", "many", "most", "such", "other", "another", "during", "since",
		"while", "after", "before", "recently", "lately", "currently", "please", "us", "both", "around", "within",
		"throughout", "near", "towards", "toward", "approximately", "roughly")

	// purposeDeterminers after "to <word>" show that the word is a verb
	// taking an object — a purpose clause ("…a fair to get more
	// exposure", "…to promote his shop") — not a place after a
	// preposition ("to the fair", "to Paris").
	purposeDeterminers = wordSet("a", "an", "the", "more", "some", "his", "her", "their", "my", "our", "your", "its",
		"new", "better", "people", "others", "them", "him", "me", "us")

	// stateVerbs after a present-tense do/does name a state that changes
	// ("Where does Sam live?", "Which editor does Sam use?"): the
	// question asks for the current state. Other verbs after do/does ask
	// for a habit ("What does Sam do to relax?", "What does Sam like to
	// cook?"), true across time, not for the latest statement.
	stateVerbs = wordSet("live", "work", "use", "own", "have", "drive", "prefer", "study", "attend", "date", "manage",
		"run", "lead", "belong", "stay", "reside", "need", "want", "go", "teach", "play", "support", "keep", "rent")
)

// mentionVerbs in a time question ask when something was said ("When
// did Sam mention the trip?"), not when it happened.
var mentionVerbs = wordSet("mention", "mentioned", "mentions", "say", "said", "tell", "told", "talk", "talked",
	"bring", "brought", "discuss", "discussed", "share", "shared")

// purposeSpan returns the word index where a purpose clause starts — "to"
// after the wh-phrase and at least one content word, followed by a word
// and then a determiner or object pronoun ("…go to a fair to get more
// exposure") — or -1. The clause runs to the end of the question.
func purposeSpan(words []word, from int) int {
	for i := from + 1; i+2 < len(words); i++ {
		if words[i].key != "to" {
			continue
		}
		if purposeDeterminers[words[i+2].key] && !purposeDeterminers[words[i+1].key] {
			return i
		}
	}
	return -1
}

// habitQuestion reports whether a present-tense question asks for a
// habit: its first auxiliary is do/does/dont/doesnt and the verb after
// the subject is not a state verb.
func habitQuestion(words []word) bool {
	for i, w := range words {
		if !presentAux[w.key] {
			if pastAux[w.key] {
				return false
			}
			continue
		}
		if w.key != "do" && w.key != "does" && w.key != "dont" && w.key != "doesnt" {
			return false
		}
		// The verb: the first lower-case word after the subject (names,
		// pronouns and possessives skipped).
		for j := i + 1; j < len(words); j++ {
			k := words[j].key
			if subjectWords[k] || upperInitial(words[j].text) {
				continue
			}
			return !stateVerbs[k]
		}
		return false
	}
	return false
}

// subjectWords may stand between do/does and the verb.
var subjectWords = wordSet("he", "she", "they", "you", "i", "we", "it", "his", "her", "their", "my", "your", "our",
	"the", "a", "an", "usually", "often", "typically", "normally", "always", "generally", "sometimes", "mostly")

func upperInitial(s string) bool {
	return s != "" && strings.ToUpper(s[:1]) == s[:1] && strings.ToLower(s[:1]) != s[:1]
}
