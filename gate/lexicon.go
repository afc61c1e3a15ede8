package gate

import "github.com/stratagate/stratagate/bm25"

// This file is data: the question lexicon of Analyze and the concept
// lexicon shared by Analyze (query expansion) and HeuristicAssessor
// (coverage). Words are written as plain text; the ones compared with
// index terms are tokenized once at init with bm25.AppendTerms, so they
// match stemmed index terms exactly. See doc.go for the rules using them.

// WH values of Question.WH.
const (
	WhWhen    = "when"
	WhHowLong = "how_long"
	WhHowMany = "how_many"
	WhWhich   = "which"
	WhWho     = "who"
	WhWhere   = "where"
	WhWhat    = "what"
	WhWhy     = "why"
	WhYesNo   = "yes_no"
	WhOther   = "other"
)

// whRule is an English question phrase (lower-case words, apostrophes
// removed) and what it says about the expected answer.
type whRule struct {
	words []string
	wh    string
	time  bool // the answer is a point or interval in time
	list  bool // the answer is a list or a count
}

// whPhrases are tried in order at each word position: longer phrases first.
var whPhrases = []whRule{
	{words: []string{"how", "long", "ago"}, wh: WhHowLong, time: true},
	{words: []string{"since", "when"}, wh: WhWhen, time: true},
	{words: []string{"how", "long"}, wh: WhHowLong},
	{words: []string{"how", "many"}, wh: WhHowMany, list: true},
	{words: []string{"how", "much"}, wh: WhHowMany},
	{words: []string{"how", "often"}, wh: WhHowMany},
	{words: []string{"what", "date"}, wh: WhWhen, time: true},
	{words: []string{"what", "day"}, wh: WhWhen, time: true},
	{words: []string{"what", "week"}, wh: WhWhen, time: true},
	{words: []string{"what", "month"}, wh: WhWhen, time: true},
	{words: []string{"what", "year"}, wh: WhWhen, time: true},
	{words: []string{"what", "time"}, wh: WhWhen, time: true},
	{words: []string{"which", "date"}, wh: WhWhen, time: true},
	{words: []string{"which", "day"}, wh: WhWhen, time: true},
	{words: []string{"which", "week"}, wh: WhWhen, time: true},
	{words: []string{"which", "month"}, wh: WhWhen, time: true},
	{words: []string{"which", "year"}, wh: WhWhen, time: true},
	{words: []string{"when"}, wh: WhWhen, time: true},
	{words: []string{"which"}, wh: WhWhich},
	{words: []string{"whose"}, wh: WhWho},
	{words: []string{"whom"}, wh: WhWho},
	{words: []string{"who"}, wh: WhWho},
	{words: []string{"where"}, wh: WhWhere},
	{words: []string{"why"}, wh: WhWhy},
	{words: []string{"what"}, wh: WhWhat},
}

// zhRule is a Chinese question word, found anywhere in the question.
type zhRule struct {
	text string
	wh   string
	time bool
	list bool
}

// zhPhrases are tried in order (longer and more specific first).
var zhPhrases = []zhRule{
	{text: "什么时候", wh: WhWhen, time: true},
	{text: "哪一天", wh: WhWhen, time: true},
	{text: "哪天", wh: WhWhen, time: true},
	{text: "哪年", wh: WhWhen, time: true},
	{text: "几号", wh: WhWhen, time: true},
	{text: "何时", wh: WhWhen, time: true},
	{text: "多久以前", wh: WhHowLong, time: true},
	{text: "多久", wh: WhHowLong},
	{text: "多长时间", wh: WhHowLong},
	{text: "多少", wh: WhHowMany, list: true},
	{text: "几个", wh: WhHowMany, list: true},
	{text: "哪些", wh: WhWhich, list: true},
	{text: "哪里", wh: WhWhere},
	{text: "哪儿", wh: WhWhere},
	{text: "在哪", wh: WhWhere},
	{text: "哪个", wh: WhWhich},
	{text: "为什么", wh: WhWhy},
	{text: "谁", wh: WhWho},
	{text: "什么", wh: WhWhat},
}

// zhYesNo ends a Chinese yes/no question.
const zhYesNo = "吗"

// auxWords start a yes/no question when no wh-phrase follows the lead-in.
var auxWords = wordSet(
	"is", "are", "was", "were", "am", "do", "does", "did", "has", "have",
	"had", "can", "could", "will", "would", "should", "shall", "may",
	"might", "must", "isnt", "arent", "wasnt", "werent", "dont", "doesnt",
	"didnt", "hasnt", "havent", "hadnt", "cant", "couldnt", "wont",
	"wouldnt", "shouldnt",
)

// leadWords may precede the wh-phrase ("Do you remember when…", "In which
// city…", "Can you tell me what…"). Together with auxWords and
// commandWords they form the lead-in, which is not part of the content.
var leadWords = wordSet(
	"you", "me", "i", "we", "remember", "recall", "know", "please", "and",
	"so", "ok", "okay", "hey", "hi", "then", "now", "again", "exactly",
	"in", "on", "at", "for", "to", "with", "by", "from", "of", "about",
	"during", "wonder", "think",
)

// commandWords are imperative lead-ins; "list" and "name" ask for a list.
var commandWords = wordSet(
	"tell", "list", "name", "give", "show", "remind", "describe",
	"explain", "summarize", "summarise", "recall", "remember",
)

// listCommands are the commandWords that ask for a list.
var listCommands = wordSet("list", "name")

// listWords anywhere in an English question ask for a list.
var listWords = wordSet("all", "every", "list")

// irregularPlurals are plural nouns that do not end in s.
var irregularPlurals = wordSet("people", "children", "men", "women", "feet", "teeth", "mice", "geese")

// notPlural are words ending in s that are not plural nouns.
var notPlural = wordSet("news", "series", "species", "always", "perhaps", "towards", "whereas", "besides")

// calendarWords are capitalised words that are not entities.
var calendarWords = wordSet(
	"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
	"sunday", "i",
)

// concept is a query concept: a question word among Keys expands to every
// member (query expansion and assessor coverage). Expansion is one-way:
// a member does not expand to its key or to the other members.
type concept struct {
	keys    []string
	members []string
}

// concepts is the concept lexicon.
var concepts = []concept{
	{keys: []string{"pet", "animal"}, members: []string{"cat", "dog", "parrot", "hamster", "fish", "rabbit", "bird", "conure", "kitten", "puppy"}},
	{keys: []string{"family", "relative"}, members: []string{"sister", "brother", "mother", "father", "parent", "son", "daughter", "wife", "husband", "cousin", "aunt", "uncle"}},
	{keys: []string{"job", "work", "career"}, members: []string{"work", "job", "employer", "company", "office", "career", "hired", "role"}},
	{keys: []string{"home", "live"}, members: []string{"live", "move", "moved", "city", "apartment", "house"}},
	{keys: []string{"drink", "beverage"}, members: []string{"coffee", "tea", "juice", "beer", "wine"}},
	{keys: []string{"tool"}, members: []string{"editor", "ide", "library", "framework", "package", "manager", "formatter", "linter", "compiler", "debugger", "terminal", "container", "monitoring", "dashboard"}},
	{keys: []string{"travel"}, members: []string{"trip", "visit", "flight", "vacation", "holiday"}},
	{keys: []string{"hobby", "pastime"}, members: []string{"hobby", "play", "game", "sport", "music"}},
	{keys: []string{"speech"}, members: []string{"talk", "presentation", "lecture", "keynote"}},
}

// irregularVerbs maps a base verb to its irregular past forms. Coverage
// treats every form as the base ("gave" covers "give"), and a question
// verb is expanded to its forms, since the stemmer cannot relate them.
var irregularVerbs = [][]string{
	{"give", "gave", "given"},
	{"go", "went", "gone"},
	{"buy", "bought"},
	{"meet", "met"},
	{"see", "saw", "seen"},
	{"take", "took", "taken"},
	{"make", "made"},
	{"tell", "told"},
	{"get", "got", "gotten"},
	{"run", "ran"},
	{"win", "won"},
	{"eat", "ate", "eaten"},
	{"write", "wrote", "written"},
	{"find", "found"},
	{"think", "thought"},
	{"teach", "taught"},
	{"speak", "spoke", "spoken"},
	{"begin", "began", "begun"},
	{"feel", "felt"},
	{"fly", "flew", "flown"},
	{"drive", "drove", "driven"},
	{"swim", "swam", "swum"},
	{"sing", "sang", "sung"},
	{"bring", "brought"},
	{"catch", "caught"},
	{"come", "came"},
	{"become", "became"},
	{"lose", "lost"},
	{"pay", "paid"},
	{"sell", "sold"},
	{"send", "sent"},
	{"spend", "spent"},
	{"build", "built"},
	{"choose", "chose", "chosen"},
	{"grow", "grew", "grown"},
	{"know", "knew", "known"},
	{"draw", "drew", "drawn"},
	{"break", "broke", "broken"},
	{"wear", "wore", "worn"},
	{"ride", "rode", "ridden"},
	{"hold", "held"},
	{"keep", "kept"},
	{"sleep", "slept"},
	{"leave", "left"},
	{"read", "read"},
	{"hear", "heard"},
	{"sit", "sat"},
	{"stand", "stood"},
	{"understand", "understood"},
	{"wake", "woke", "woken"},
	{"fall", "fell", "fallen"},
	{"forget", "forgot", "forgotten"},
}

// Tokenized forms of the lexicon, built once at init.
var (
	// conceptMembers maps a key term to its member terms (table order).
	conceptMembers = buildConcepts(concepts)
	// verbBase maps every term of an irregular form to its base term.
	verbBase, verbForms = buildVerbs(irregularVerbs)
)

func buildConcepts(cs []concept) map[string][]string {
	m := make(map[string][]string)
	for _, c := range cs {
		var members []string
		for _, w := range c.members {
			members = appendUnique(members, bm25.AppendTerms(nil, w)...)
		}
		for _, k := range c.keys {
			for _, kt := range bm25.AppendTerms(nil, k) {
				for _, t := range members {
					if t != kt {
						m[kt] = appendUnique(m[kt], t)
					}
				}
			}
		}
	}
	return m
}

func buildVerbs(groups [][]string) (base map[string]string, forms map[string][]string) {
	base = make(map[string]string)
	forms = make(map[string][]string)
	for _, g := range groups {
		b := bm25.AppendTerms(nil, g[0])
		if len(b) != 1 {
			continue // the base is a stopword ("go" is not, but be safe)
		}
		for _, w := range g[1:] {
			for _, t := range bm25.AppendTerms(nil, w) {
				if t == b[0] {
					continue
				}
				if _, taken := base[t]; !taken {
					base[t] = b[0]
				}
				forms[b[0]] = appendUnique(forms[b[0]], t)
			}
		}
	}
	return base, forms
}

// canon maps an index term to the term coverage compares: the base of an
// irregular verb form, the term itself otherwise.
func canon(t string) string {
	if b, ok := verbBase[t]; ok {
		return b
	}
	return t
}

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// appendUnique appends each element of add not yet in dst.
func appendUnique(dst []string, add ...string) []string {
	for _, s := range add {
		dup := false
		for _, d := range dst {
			if d == s {
				dup = true
				break
			}
		}
		if !dup {
			dst = append(dst, s)
		}
	}
	return dst
}

// Current-state and tense markers of a question (word keys: lower case,
// apostrophes removed). See Analyze and doc.go ("Current state").
var (
	// currentWords ask for the present state wherever they stand.
	currentWords = wordSet("now", "currently", "current", "nowadays", "presently", "still", "anymore")
	// currentPhrases are multiword current-state markers.
	currentPhrases = [][]string{{"these", "days"}, {"at", "the", "moment"}, {"at", "present"}, {"right", "now"}, {"as", "of", "now"}, {"any", "more"}}
	// zhCurrentWords are the Chinese current-state markers (found anywhere).
	zhCurrentWords = []string{"现在", "目前", "如今", "当前", "眼下"}
	// presentAux and pastAux give the tense of the question's first
	// auxiliary.
	presentAux = wordSet("do", "does", "is", "are", "am", "has", "have", "dont", "doesnt", "isnt", "arent", "hasnt", "havent")
	pastAux    = wordSet("did", "was", "were", "had", "didnt", "wasnt", "werent", "hadnt")
	// pastMarkers put a question in the past whatever its auxiliary
	// ("What did Mia use to drink?", "Has Tom ever…", "…previously").
	pastMarkers = wordSet("used", "ago", "previously", "formerly", "originally", "initially", "before", "earlier", "ever")
	// headSkip are words between a wh-word and its noun that are not the
	// noun ("what kind of music").
	headSkip = wordSet("kind", "kinds", "type", "types", "sort", "sorts", "of")
)

// Evidence cues, matched on the word keys of an item's text. See doc.go
// ("Current state").
var (
	// changeCues say that a state changed or is the present one: the item
	// is evidence of the current state.
	changeCues = [][]string{
		{"now"}, {"currently"}, {"nowadays"}, {"anymore"}, {"no", "longer"}, {"used", "to"}, {"instead", "of"},
		{"switched"}, {"switch", "to"}, {"switches"}, {"switching"}, {"replaced"}, {"replaces"}, {"replacing"},
		{"moved"}, {"moves", "to"}, {"relocated"}, {"migrated"}, {"changed"}, {"stopped"}, {"quit"},
		{"gave", "up"}, {"correction"}, {"updated"},
	}
	// planWords mark a statement about the future or a hypothesis (a
	// plan, not a state); so do "next" before a periodWords or calendar
	// word, planVerbs before "to"/"on" and wishPhrases.
	planWords   = wordSet("will", "gonna", "soon", "tomorrow", "intend", "intends")
	periodWords = wordSet("week", "weekend", "month", "year", "time", "day", "summer", "winter", "spring", "autumn", "fall")
	planVerbs   = wordSet("plan", "plans", "planning", "planned")
	// wishPhrases are hypothetical plans ("thinking about adopting").
	wishPhrases = [][]string{{"maybe"}, {"might"}, {"considering"}, {"thinking", "about"}, {"thinking", "of"},
		{"hoping", "to"}, {"want", "to"}, {"wants", "to"}}
	// beWords before a changeVerbs -ing form make a plan ("I'm moving").
	beWords = wordSet("im", "am", "is", "are", "hes", "shes", "theyre", "were", "be")
	// changeVerbs in the -ing form after a beWords word are plans.
	changeVerbs = wordSet("moving", "switching", "relocating", "changing", "leaving", "starting", "joining", "migrating")
	// oldMarkers within the three words before an either-or alternative
	// mark it as the former state ("used to be a tea person", "coffee
	// instead of tea", "switched from npm").
	oldMarkers = wordSet("used", "longer", "not", "no", "never", "stopped", "quit", "instead", "from", "replaced", "without", "formerly", "goodbye", "dropped", "ditched", "abandoned")
	// locationCues and employerCues are relation phrases that, followed by
	// a name (optionally after "the"/"a"), state where someone lives or
	// works. dwellingCues are nouns ("apartment in Paris") whose subject is
	// the speaker.
	locationCues = [][]string{
		{"live", "in"}, {"lives", "in"}, {"living", "in"}, {"lived", "in"}, {"moved", "to"}, {"moving", "to"},
		{"move", "to"}, {"moves", "to"}, {"relocated", "to"}, {"relocating", "to"}, {"based", "in"},
		{"settled", "in"}, {"stay", "in"}, {"stays", "in"}, {"staying", "in"}, {"reside", "in"}, {"resides", "in"},
	}
	dwellingCues = [][]string{{"apartment", "in"}, {"house", "in"}, {"home", "in"}, {"place", "in"}, {"flat", "in"}}
	employerCues = [][]string{
		{"work", "at"}, {"works", "at"}, {"working", "at"}, {"worked", "at"}, {"work", "for"}, {"works", "for"},
		{"working", "for"}, {"worked", "for"}, {"employed", "at"}, {"employed", "by"}, {"job", "at"}, {"joined"},
		{"joining"}, {"start", "at"}, {"starts", "at"}, {"started", "at"}, {"starting", "at"}, {"hired", "by"},
		{"hired", "at"}, {"engineer", "at"}, {"developer", "at"}, {"intern", "at"},
	}
	// subjectSkip are words between a subject and its relation cue ("Leo
	// has finally moved to").
	subjectSkip = wordSet("has", "have", "had", "is", "am", "are", "was", "be", "been", "just", "now", "recently",
		"also", "finally", "already", "still", "officially", "actually", "currently", "really", "then", "probably")
	// firstPerson subjects are the speaker (lower case, apostrophes kept).
	firstPerson = wordSet("i", "i'm", "i've", "i'd", "i'll", "we", "we're", "we've", "we'll", "we'd")
	// nameSkip are determiners between a relation cue and its name.
	nameSkip = wordSet("the", "a", "an")
	// locationTopics and employerTopics are question words (bm25 terms,
	// built at init) that select the location or employer cues of a
	// where-question; with neither, both apply.
	locationTopics = termSet("live", "home", "move", "stay", "reside", "house", "apartment", "city", "based")
	employerTopics = termSet("work", "job", "employer", "employ", "career", "office", "company")
)

// weakTerms are reporting and generic verbs (bm25 terms) that are not a
// question's topic: "What did Mia say about Python?" is about Python.
var weakTerms = termSet("say", "said", "says", "tell", "told", "talk", "talked", "mention", "mentioned",
	"speak", "spoke", "discuss", "discussed", "think", "thought", "know", "knew", "happen", "happened",
	"ask", "asked", "remember", "recall",
	// generic verbs: "What has Sam done…", "What did Sam do…"
	"do", "does", "did", "done", "doing")

// termSet is the set of bm25 terms of words.
func termSet(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		for _, t := range bm25.AppendTerms(nil, w) {
			m[t] = true
		}
	}
	return m
}
