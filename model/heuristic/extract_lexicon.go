package heuristic

// The extraction lexicon is data: a table of cue phrases, each with the
// event type it suggests and the flags it sets, plus a few small word
// lists. Rules live in extract_candidates.go and its siblings; this file only
// says which words count.

// cueFlag marks what a cue says about a sentence besides its event type.
type cueFlag uint16

const (
	flagDecision   cueFlag = 1 << iota // a decision was taken
	flagCorrection                     // an earlier statement is corrected or replaced
	flagPlan                           // status planned
	flagCancel                         // status cancelled
	flagPast                           // status completed
	flagOngoing                        // status ongoing
	flagIdentity                       // criticality identity (home, work, family)
	flagSafety                         // criticality safety (health, security)
	flagDateShift                      // "moved to" etc.: counts only right before a time expression
)

// Event types, the normalized set of the events package.
const (
	typeDecision      = "decision"
	typePreference    = "preference"
	typePlan          = "plan"
	typeChange        = "change"
	typeCancellation  = "cancellation"
	typeMeeting       = "meeting"
	typeLifeEvent     = "life_event"
	typeActivity      = "activity"
	typeTaskCompleted = "task_completed"
	typeIncident      = "incident"
	typeMigration     = "migration"
	typeFact          = "fact"
)

// typePriority decides between the types of several cues in one
// sentence: the earliest type in this list wins.
var typePriority = [...]string{
	typeDecision, typeCancellation, typeMigration, typeLifeEvent,
	typeTaskCompleted, typeIncident, typePreference, typeMeeting,
	typeChange, typeActivity, typePlan, typeFact,
}

// cueEntry is one cue phrase: lower-case words matched as consecutive
// word tokens of a sentence (apostrophes kept, ’ read as ').
type cueEntry struct {
	phrase string  // space-separated lower-case words
	typ    string  // event type suggested, "" for a status/criticality-only word
	flags  cueFlag // what else the cue says
	lemma  string  // preference verb for the conflict rule, "" if none
}

// cueTable lists every cue. A cue with a type makes a sentence a
// candidate; a cue without one only informs status or criticality.
var cueTable = []cueEntry{
	// Decisions.
	{"decided", typeDecision, flagDecision | flagPast, ""},
	{"decide", typeDecision, flagDecision, ""},
	{"decides", typeDecision, flagDecision, ""},
	{"decision", typeDecision, flagDecision, ""},
	{"let's use", typeDecision, flagDecision, ""},
	{"lets use", typeDecision, flagDecision, ""},
	{"let's just use", typeDecision, flagDecision, ""},
	{"let's go with", typeDecision, flagDecision, ""},
	{"let's switch to", typeDecision, flagDecision, ""},
	{"we'll use", typeDecision, flagDecision, ""},
	{"we will use", typeDecision, flagDecision, ""},
	{"we'll go with", typeDecision, flagDecision, ""},
	{"going with", typeDecision, flagDecision, ""},
	{"we chose", typeDecision, flagDecision | flagPast, ""},
	{"chose", typeDecision, flagDecision | flagPast, ""},
	{"opted", typeDecision, flagDecision | flagPast, ""},
	{"agreed", typeDecision, flagDecision | flagPast, ""},
	{"settled on", typeDecision, flagDecision | flagPast, ""},

	// Cancellations.
	{"cancel", typeCancellation, flagCancel, ""},
	{"cancels", typeCancellation, flagCancel, ""},
	{"cancelled", typeCancellation, flagCancel, ""},
	{"canceled", typeCancellation, flagCancel, ""},
	{"cancelling", typeCancellation, flagCancel, ""},
	{"canceling", typeCancellation, flagCancel, ""},
	{"cancellation", typeCancellation, flagCancel, ""},
	{"called off", typeCancellation, flagCancel, ""},
	{"call off", typeCancellation, flagCancel, ""},
	{"not going to", typeCancellation, flagCancel, ""},

	// Migrations.
	{"migrated", typeMigration, flagPast, ""},
	{"migrate", typeMigration, 0, ""},
	{"migrating", typeMigration, flagOngoing, ""},
	{"migration", typeMigration, 0, ""},

	// Life events (where someone lives or works, family, pets).
	{"moved", typeLifeEvent, flagPast | flagIdentity, ""},
	{"move", typeLifeEvent, flagIdentity, ""},
	{"moving", typeLifeEvent, flagIdentity, ""},
	{"adopted", typeLifeEvent, flagPast | flagIdentity, ""},
	{"adopt", typeLifeEvent, flagIdentity, ""},
	{"adopting", typeLifeEvent, flagIdentity, ""},
	{"adoption", typeLifeEvent, flagIdentity, ""},
	{"married", typeLifeEvent, flagPast | flagIdentity, ""},
	{"marry", typeLifeEvent, flagIdentity, ""},
	{"wedding", typeLifeEvent, flagIdentity, ""},
	{"engaged", typeLifeEvent, flagPast | flagIdentity, ""},
	{"graduated", typeLifeEvent, flagPast | flagIdentity, ""},
	{"graduate", typeLifeEvent, flagIdentity, ""},
	{"graduation", typeLifeEvent, flagIdentity, ""},
	{"joined", typeLifeEvent, flagPast | flagIdentity, ""},
	{"quit", typeLifeEvent, flagPast | flagIdentity, ""},
	{"resigned", typeLifeEvent, flagPast | flagIdentity, ""},
	{"retired", typeLifeEvent, flagPast | flagIdentity, ""},
	{"hired", typeLifeEvent, flagPast | flagIdentity, ""},
	{"got the job", typeLifeEvent, flagPast | flagIdentity, ""},
	{"got a job", typeLifeEvent, flagPast | flagIdentity, ""},
	{"new job", typeLifeEvent, flagIdentity, ""},
	{"laid off", typeLifeEvent, flagPast | flagIdentity, ""},
	{"start at", typeLifeEvent, flagIdentity, ""},
	{"starting at", typeLifeEvent, flagIdentity, ""},
	{"started at", typeLifeEvent, flagPast | flagIdentity, ""},
	{"born", typeLifeEvent, flagPast | flagIdentity, ""},
	{"divorced", typeLifeEvent, flagPast | flagIdentity, ""},
	{"pregnant", typeLifeEvent, flagIdentity, ""},
	{"passed away", typeLifeEvent, flagPast | flagIdentity, ""},
	{"died", typeLifeEvent, flagPast | flagIdentity, ""},

	// Completed tasks.
	{"finished", typeTaskCompleted, flagPast, ""},
	{"completed", typeTaskCompleted, flagPast, ""},
	{"shipped", typeTaskCompleted, flagPast, ""},
	{"released", typeTaskCompleted, flagPast, ""},
	{"launched", typeTaskCompleted, flagPast, ""},
	{"deployed", typeTaskCompleted, flagPast, ""},
	{"fixed", typeTaskCompleted, flagPast, ""},
	{"merged", typeTaskCompleted, flagPast, ""},
	{"resolved", typeTaskCompleted, flagPast, ""},
	{"published", typeTaskCompleted, flagPast, ""},
	{"submitted", typeTaskCompleted, flagPast, ""},
	{"delivered", typeTaskCompleted, flagPast, ""},

	// Incidents.
	{"outage", typeIncident, 0, ""},
	{"incident", typeIncident, 0, ""},
	{"bug", typeIncident, 0, ""},
	{"crashed", typeIncident, flagPast, ""},
	{"crash", typeIncident, 0, ""},
	{"broke", typeIncident, flagPast, ""},
	{"broken", typeIncident, 0, ""},
	{"failed", typeIncident, flagPast, ""},
	{"leaked", typeIncident, flagPast | flagSafety, ""},
	{"stolen", typeIncident, flagPast | flagSafety, ""},
	{"accident", typeIncident, flagSafety, ""},
	{"injured", typeIncident, flagPast | flagSafety, ""},

	// Preferences. A lemma makes the cue usable by the conflict rule.
	{"prefer", typePreference, 0, "prefer"},
	{"prefers", typePreference, 0, "prefer"},
	{"preferred", typePreference, 0, "prefer"},
	{"i like", typePreference, 0, "like"},
	{"we like", typePreference, 0, "like"},
	{"likes", typePreference, 0, "like"},
	{"love", typePreference, 0, "love"},
	{"loves", typePreference, 0, "love"},
	{"hate", typePreference, 0, "hate"},
	{"hates", typePreference, 0, "hate"},
	{"favorite", typePreference, 0, ""},
	{"favourite", typePreference, 0, ""},
	{"switched to", typePreference, flagPast, "switch"},
	{"switch to", typePreference, 0, "switch"},
	{"switching to", typePreference, 0, "switch"},
	{"rather", typePreference, 0, ""},
	{"fan of", typePreference, 0, ""},

	// Meetings.
	{"meeting", typeMeeting, 0, ""},
	{"meet", typeMeeting, 0, ""},
	{"met", typeMeeting, flagPast, ""},
	{"interview", typeMeeting, 0, ""},
	{"onsite", typeMeeting, 0, ""},
	{"appointment", typeMeeting, 0, ""},
	{"called me", typeMeeting, flagPast, ""},
	{"call", typeMeeting, 0, ""},
	{"lunch", typeMeeting, 0, ""},
	{"dinner", typeMeeting, 0, ""},
	{"catch up", typeMeeting, 0, ""},

	// Changes and corrections.
	{"correction", typeChange, flagCorrection, ""},
	{"corrected", typeChange, flagCorrection | flagPast, ""},
	{"no longer", typeChange, flagCorrection, ""},
	{"instead", typeChange, flagCorrection, ""},
	{"used to", typeChange, flagCorrection, ""},
	{"anymore", typeChange, flagCorrection, ""},
	{"replaced", typeChange, flagCorrection | flagPast, ""},
	{"replaces", typeChange, flagCorrection, ""},
	{"switched from", typeChange, flagCorrection | flagPast, ""},
	{"switches from", typeChange, flagCorrection, ""},
	{"switch from", typeChange, flagCorrection, ""},
	{"changed from", typeChange, flagCorrection | flagPast, ""},
	{"moved to", typeChange, flagCorrection | flagDateShift, ""},
	{"moves to", typeChange, flagCorrection | flagDateShift, ""},
	{"pushed to", typeChange, flagCorrection | flagDateShift, ""},
	{"postponed to", typeChange, flagCorrection | flagDateShift, ""},
	{"rescheduled to", typeChange, flagCorrection | flagDateShift, ""},
	{"changed to", typeChange, flagCorrection | flagDateShift, ""},
	{"changed", typeChange, flagPast, ""},
	{"switched", typeChange, flagPast, ""},
	{"switch", typeChange, 0, ""},
	{"switches", typeChange, 0, ""},
	{"postponed", typeChange, flagPast, ""},
	{"rescheduled", typeChange, flagPast, ""},

	// Plans.
	{"will", typePlan, flagPlan, ""},
	{"i'll", typePlan, flagPlan, ""},
	{"we'll", typePlan, flagPlan, ""},
	{"going to", typePlan, flagPlan, ""},
	{"gonna", typePlan, flagPlan, ""},
	{"plan", typePlan, flagPlan, ""},
	{"plans", typePlan, flagPlan, ""},
	{"planning", typePlan, flagPlan, ""},
	{"planned", typePlan, flagPlan, ""},
	{"aim", typePlan, flagPlan, ""},
	{"aiming", typePlan, flagPlan, ""},
	{"intend", typePlan, flagPlan, ""},
	{"scheduled", typePlan, flagPlan, ""},
	{"target", typePlan, flagPlan, ""},
	{"thinking about", typePlan, flagPlan, ""},
	{"about to", typePlan, flagPlan, ""},
	{"hope to", typePlan, flagPlan, ""},
	{"want to", typePlan, flagPlan, ""},
	{"tomorrow", typePlan, flagPlan, ""},
	{"next week", typePlan, flagPlan, ""},
	{"next month", typePlan, flagPlan, ""},
	{"next year", typePlan, flagPlan, ""},

	// Activities.
	{"went", typeActivity, flagPast, ""},
	{"visited", typeActivity, flagPast, ""},
	{"visiting", typeActivity, 0, ""},
	{"visit", typeActivity, 0, ""},
	{"bought", typeActivity, flagPast, ""},
	{"started", typeActivity, flagPast, ""},
	{"began", typeActivity, flagPast, ""},
	{"starting", typeActivity, flagOngoing, ""},
	{"built", typeActivity, flagPast, ""},
	{"tried", typeActivity, flagPast, ""},
	{"played", typeActivity, flagPast, ""},
	{"play", typeActivity, 0, ""},
	{"hiked", typeActivity, flagPast, ""},
	{"flew", typeActivity, flagPast, ""},
	{"flying", typeActivity, 0, ""},
	{"traveled", typeActivity, flagPast, ""},
	{"travelled", typeActivity, flagPast, ""},
	{"set up", typeActivity, 0, ""},
	{"picked up", typeActivity, flagPast, ""},
	{"join", typeActivity, 0, ""},
	{"attended", typeActivity, flagPast, ""},
	{"celebrated", typeActivity, flagPast, ""},
	{"learned", typeActivity, flagPast, ""},

	// Facts about identity.
	{"live in", typeFact, flagIdentity, ""},
	{"lives in", typeFact, flagIdentity, ""},
	{"living in", typeFact, flagIdentity, ""},
	{"work at", typeFact, flagIdentity, ""},
	{"works at", typeFact, flagIdentity, ""},
	{"working at", typeFact, flagIdentity, ""},
	{"freelance", typeFact, flagIdentity, ""},
	{"allergic", typeFact, flagSafety, ""},
	{"allergy", typeFact, flagSafety, ""},

	// Status words that make no sentence a candidate on their own.
	{"was", "", flagPast, ""},
	{"were", "", flagPast, ""},
	{"did", "", flagPast, ""},
	{"had", "", flagPast, ""},
	{"got", "", flagPast, ""},
	{"yesterday", "", flagPast, ""},
	{"ago", "", flagPast, ""},
	{"currently", "", flagOngoing, ""},
	{"still", "", flagOngoing, ""},
	{"these days", "", flagOngoing, ""},
	{"nowadays", "", flagOngoing, ""},
	{"right now", "", flagOngoing, ""},
	{"for now", "", flagOngoing, ""},

	// Criticality-only words.
	{"sister", "", flagIdentity, ""},
	{"brother", "", flagIdentity, ""},
	{"mother", "", flagIdentity, ""},
	{"father", "", flagIdentity, ""},
	{"mom", "", flagIdentity, ""},
	{"dad", "", flagIdentity, ""},
	{"wife", "", flagIdentity, ""},
	{"husband", "", flagIdentity, ""},
	{"son", "", flagIdentity, ""},
	{"daughter", "", flagIdentity, ""},
	{"parents", "", flagIdentity, ""},
	{"job", "", flagIdentity, ""},
	{"allergies", "", flagSafety, ""},
	{"medical", "", flagSafety, ""},
	{"medication", "", flagSafety, ""},
	{"hospital", "", flagSafety, ""},
	{"doctor", "", flagSafety, ""},
	{"diagnosed", "", flagSafety, ""},
	{"surgery", "", flagSafety, ""},
	{"asthma", "", flagSafety, ""},
	{"security", "", flagSafety, ""},
	{"password", "", flagSafety, ""},
	{"credentials", "", flagSafety, ""},
	{"secret", "", flagSafety, ""},
	{"secrets", "", flagSafety, ""},
	{"breach", "", flagSafety, ""},
	{"vulnerability", "", flagSafety, ""},
	{"toxic", "", flagSafety, ""},
	{"emergency", "", flagSafety, ""},
}

// cueIndex maps the first word of each cue phrase to its entries, longest
// phrase first, so that "switched to" is tried before "switched". It is
// built once and only read afterwards.
var cueIndex = buildCueIndex()

type cuePhrase struct {
	words []string
	entry *cueEntry
}

func buildCueIndex() map[string][]cuePhrase {
	idx := make(map[string][]cuePhrase, len(cueTable))
	for i := range cueTable {
		e := &cueTable[i]
		words := splitWords(e.phrase)
		idx[words[0]] = append(idx[words[0]], cuePhrase{words: words, entry: e})
	}
	for k, list := range idx {
		// Stable insertion sort by descending length keeps table order
		// among phrases of equal length.
		for i := 1; i < len(list); i++ {
			for j := i; j > 0 && len(list[j].words) > len(list[j-1].words); j-- {
				list[j], list[j-1] = list[j-1], list[j]
			}
		}
		idx[k] = list
	}
	return idx
}

// splitWords splits a phrase at single spaces.
func splitWords(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// firstPerson reports whether the lower-case cue token w is a first-person
// word: the sentence then has the speaker as its subject.
func firstPerson(w string) bool {
	switch w {
	case "i", "i'm", "i've", "i'll", "i'd", "me", "my", "mine", "myself",
		"we", "we're", "we've", "we'll", "we'd", "us", "our", "ours",
		"ourselves", "let's":
		return true
	}
	return false
}

// restateWord reports whether the lower-case word w, in the head before
// the colon of an assistant sentence ("Decision recorded: …"), marks the
// sentence as restating something said.
func restateWord(w string) bool {
	switch w {
	case "recorded", "noted", "decision", "decided", "correction",
		"corrected", "updated", "logged", "confirmed":
		return true
	}
	return false
}

// fillerWord reports whether the lower-case word w may be dropped from the
// start of a title or skipped when looking for a sentence's named subject.
func fillerWord(w string) bool {
	switch w {
	case "also", "and", "so", "but", "well", "yes", "yeah", "ok", "okay",
		"oh", "anyway", "meanwhile", "honestly", "plus", "actually", "then",
		"now", "btw", "hey", "hi", "hello":
		return true
	}
	return false
}

// fillerPhrases are dropped from the start of a title (compared ignoring
// case, followed by a comma or a space).
var fillerPhrases = [...]string{
	"i know", "i mean", "i think", "i guess", "you know", "to be honest",
	"by the way", "fun fact",
}

// relationWord reports whether the lower-case word w, right before a
// capitalised name ("my sister Ana"), makes that name a person.
func relationWord(w string) bool {
	switch w {
	case "sister", "brother", "mother", "father", "mom", "mum", "dad",
		"wife", "husband", "partner", "son", "daughter", "cousin", "aunt",
		"uncle", "grandma", "grandpa", "grandmother", "grandfather",
		"friend", "neighbor", "neighbour", "boss", "colleague", "coworker",
		"roommate", "girlfriend", "boyfriend", "manager", "niece", "nephew":
		return true
	}
	return false
}

// nonName reports whether the lower-case form w of a capitalised word is
// never a name: pronouns, calendar words and common sentence openers.
func nonName(w string) bool {
	switch w {
	case "i", "me", "my", "we", "us", "our", "you", "your", "he", "him",
		"his", "she", "her", "it", "its", "they", "them", "their", "this",
		"that", "these", "those", "the", "a", "an", "what", "who", "when",
		"where", "why", "how", "which",
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
		"sunday", "january", "february", "march", "april", "may", "june",
		"july", "august", "september", "october", "november", "december",
		"mondays", "tuesdays", "wednesdays", "thursdays", "fridays",
		"saturdays", "sundays", "today", "tomorrow", "yesterday", "tonight":
		return true
	}
	return stopword(w) || fillerWord(w)
}

// calendarWord reports whether the lower-case word w names a month or a
// weekday; such words count when matching a correction to an earlier
// event even though they are stopwords for keywords.
func calendarWord(w string) bool {
	switch w {
	case "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
		"sunday", "january", "february", "march", "april", "may", "june",
		"july", "august", "september", "october", "november", "december":
		return true
	}
	return false
}

// productWord reports whether the lower-case word w is a tool or product
// name usually written in lower case; it becomes an entity.
func productWord(w string) bool {
	switch w {
	case "npm", "pnpm", "yarn", "vite", "webpack", "git", "kubectl",
		"docker", "postgres", "sqlite", "mysql", "redis", "nginx", "golang",
		"terraform", "kubernetes", "k8s":
		return true
	}
	return false
}

// pastVerb reports whether the lower-case word w is an irregular past
// tense; together with words ending in "ed" these keep their form when a
// title replaces a leading "I" with the speaker's name.
func pastVerb(w string) bool {
	switch w {
	case "went", "got", "bought", "built", "met", "ran", "made", "took",
		"flew", "had", "was", "did", "quit", "left", "began", "saw", "found",
		"wrote", "came", "sold", "kept", "felt", "told", "gave", "lost",
		"won", "spent", "sent", "brought", "thought", "set", "put", "read",
		"hit", "cut", "let":
		return true
	}
	return false
}

// keepVerb reports whether the lower-case word w keeps its form after a
// third-person subject: modal verbs and their negated contractions.
func keepVerb(w string) bool {
	switch w {
	case "can", "could", "might", "must", "should", "would", "may", "will",
		"shall", "can't", "can’t", "cannot", "couldn't", "won't", "won’t",
		"wouldn't", "shouldn't", "mustn't":
		return true
	}
	return false
}

// adverbWord reports whether the lower-case word w is an adverb that may
// sit between "I" and its verb ("I also started").
func adverbWord(w string) bool {
	switch w {
	case "also", "just", "really", "still", "finally", "already", "never",
		"always", "actually", "usually", "often", "mostly", "only", "even",
		"probably", "recently", "now", "then", "totally", "definitely":
		return true
	}
	return false
}
