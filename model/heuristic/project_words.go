package heuristic

// relationKind maps a lower-case relation word ("my sister Ana") to the
// relation it proposes from the owner to the named person, and whether
// the word is plural ("my friends Priya and Dana").
func relationKind(w string) (rel string, plural bool) {
	switch w {
	case "sister", "brother", "sibling", "twin":
		return relSiblingOf, false
	case "sisters", "brothers", "siblings":
		return relSiblingOf, true
	case "mother", "father", "mom", "mum", "dad", "parent", "stepmother", "stepfather":
		return relChildOf, false
	case "parents":
		return relChildOf, true
	case "son", "daughter", "child", "kid", "stepson", "stepdaughter":
		return relParentOf, false
	case "sons", "daughters", "children", "kids":
		return relParentOf, true
	case "friend", "buddy", "pal", "bestie":
		return relFriendOf, false
	case "friends", "buddies", "pals":
		return relFriendOf, true
	case "neighbor", "neighbour", "colleague", "coworker", "co-worker",
		"boss", "manager", "roommate", "flatmate", "housemate", "wife",
		"husband", "partner", "girlfriend", "boyfriend", "fiancé", "fiance",
		"fiancée", "fiancee", "cousin", "aunt", "uncle", "niece", "nephew",
		"grandma", "grandpa", "grandmother", "grandfather", "teammate",
		"classmate", "mentor", "landlord", "landlady":
		return relKnows, false
	case "neighbors", "neighbours", "colleagues", "coworkers", "co-workers",
		"roommates", "flatmates", "housemates", "cousins", "teammates",
		"classmates":
		return relKnows, true
	}
	return "", false
}

// relationAdjective reports whether the lower-case word w may stand
// between an owner and a relation word ("my older sister Ana").
func relationAdjective(w string) bool {
	switch w {
	case "older", "younger", "little", "big", "best", "old", "twin", "dear",
		"close", "baby", "new", "oldest", "youngest", "elder", "good":
		return true
	}
	return false
}

// petSpecies reports whether the lower-case word w names a kind of pet.
func petSpecies(w string) bool {
	switch w {
	case "cat", "kitten", "kitty", "dog", "puppy", "pup", "parrot", "conure",
		"budgie", "parakeet", "cockatiel", "cockatoo", "macaw", "bird",
		"rabbit", "bunny", "hamster", "gerbil", "guinea", "turtle",
		"tortoise", "fish", "goldfish", "snake", "lizard", "gecko", "iguana",
		"ferret", "horse", "pony", "chinchilla", "rat", "mouse", "hedgehog",
		"axolotl", "tarantula":
		return true
	}
	return false
}

// petVerb reports whether the lower-case word w, before "a/an [adj]
// SPECIES", says the owner got a pet ("adopted a parrot").
func petVerb(w string) bool {
	switch w {
	case "adopted", "adopt", "adopting", "got", "get", "getting",
		"rescued", "bought", "have", "has":
		return true
	}
	return false
}

// roleNoun reports whether the lower-case word w ends a job description
// ("frontend developer", "backend engineer").
func roleNoun(w string) bool {
	switch w {
	case "developer", "engineer", "programmer", "designer", "architect",
		"manager", "scientist", "analyst", "researcher", "consultant",
		"teacher", "professor", "lecturer", "student", "nurse", "doctor",
		"physician", "surgeon", "dentist", "pharmacist", "lawyer",
		"attorney", "accountant", "writer", "journalist", "editor",
		"photographer", "artist", "musician", "chef", "cook", "baker",
		"founder", "cofounder", "co-founder", "ceo", "cto", "cfo", "coo",
		"freelancer", "contractor", "intern", "administrator", "admin",
		"technician", "mechanic", "electrician", "plumber", "carpenter",
		"pilot", "librarian", "therapist", "psychologist", "veterinarian",
		"vet", "marketer", "recruiter", "salesperson", "lead", "director",
		"officer", "specialist", "coordinator", "assistant", "tester",
		"devops", "sre", "translator", "illustrator", "animator":
		return true
	}
	return false
}

// projectNoun reports whether the lower-case word w, before "called" or
// "named", introduces a project ("a side project called Atlas").
func projectNoun(w string) bool {
	switch w {
	case "project", "app", "application", "product", "website", "site",
		"service", "tool", "library", "game", "repo", "codebase", "prototype":
		return true
	}
	return false
}

// orgNoun reports whether the lower-case word w, before "called" or
// "named", introduces an organization ("a startup called Northwind").
func orgNoun(w string) bool {
	switch w {
	case "company", "startup", "firm", "agency", "studio", "nonprofit",
		"employer", "organization", "organisation", "band", "club", "team",
		"group", "society", "association", "league", "community", "choir",
		"orchestra":
		return true
	}
	return false
}

// companySuffix reports whether the lower-case last word of a name marks
// a company ("Cascadia Labs", "Initech Inc").
func companySuffix(w string) bool {
	switch w {
	case "labs", "lab", "inc", "corp", "corporation", "llc", "ltd", "gmbh",
		"technologies", "tech", "systems", "software", "studios", "group",
		"company", "co", "partners", "consulting", "bank", "university",
		"institute", "agency", "ventures", "capital", "health", "media":
		return true
	}
	return false
}

// homeNoun reports whether the lower-case word w, after "my PLACE",
// names a home ("my Seattle place").
func homeNoun(w string) bool {
	switch w {
	case "place", "apartment", "flat", "house", "home", "condo", "loft", "studio":
		return true
	}
	return false
}

// greetingWord reports whether the lower-case word w opens "Hello from
// Y".
func greetingWord(w string) bool {
	switch w {
	case "hello", "hi", "hey", "greetings", "howdy", "cheers":
		return true
	}
	return false
}

// moveWord reports whether the lower-case word w says a move happened;
// with "Hello from Y" in the same text it makes Y a home.
func moveWord(w string) bool {
	switch w {
	case "moved", "move", "relocated", "unpack", "unpacking", "unpacked", "movers":
		return true
	}
	return false
}

// launchWord reports whether the lower-case word w names a launch.
func launchWord(w string) bool {
	switch w {
	case "launch", "launches", "launching", "launched", "go-live", "golive":
		return true
	}
	return false
}

// subjectSkip reports whether the lower-case word w may stand between a
// subject and its trigger phrase ("I've finally switched to", "we decided
// to deploy on"): adverbs, auxiliaries and verbs of intent.
func subjectSkip(w string) bool {
	switch w {
	case "also", "just", "now", "still", "finally", "recently", "currently",
		"already", "actually", "really", "officially", "definitely",
		"totally", "eventually", "soon", "then", "both", "all", "even",
		"only", "mostly", "usually", "always", "often", "basically",
		"honestly", "apparently", "obviously", "probably", "happily",
		"have", "has", "had", "will", "would", "shall", "should", "can",
		"could", "may", "might", "must", "do", "does", "did", "am", "is",
		"are", "was", "were", "be", "been", "being", "to", "gonna",
		"going", "want", "wants", "wanted", "plan", "plans", "planned",
		"planning", "decided", "decide", "agreed", "agree", "need",
		"needs", "got", "get", "the", "a", "an", "new", "first", "used",
		"who", "permanently", "temporarily":
		return true
	}
	return false
}

// negationWord reports whether the lower-case word w, just before a
// trigger (within the subject window), negates it.
func negationWord(w string) bool {
	switch w {
	case "not", "never", "no", "don't", "doesn't", "didn't", "won't",
		"isn't", "aren't", "wasn't", "weren't", "can't", "cannot",
		"couldn't", "shouldn't", "wouldn't", "haven't", "hasn't", "hadn't",
		"nobody", "neither", "nor", "if", "whether", "maybe", "might",
		"should", "could":
		return true
	}
	return false
}

// firstPersonSingular reports whether the lower-case word w is "I" or
// "my" in any form: the event's speaker.
func firstPersonSingular(w string) bool {
	switch w {
	case "i", "i'm", "i've", "i'll", "i'd", "my", "myself":
		return true
	}
	return false
}

// firstPersonPlural reports whether the lower-case word w is "we" in any
// form: the speaker's group, or its project for tool decisions.
func firstPersonPlural(w string) bool {
	switch w {
	case "we", "we're", "we've", "we'll", "we'd", "let's", "lets", "our":
		return true
	}
	return false
}

// notPersonName reports whether a single lower-case word can never be a
// speaker or participant name: assistant and system roles.
func notPersonName(w string) bool {
	switch w {
	case "assistant", "system", "tool", "user", "bot", "ai", "model",
		"function", "developer":
		return true
	}
	return false
}

// valueStop reports whether the lower-case word w ends a likes/dislikes
// value ("I love hiking in the rain" → "hiking").
func valueStop(w string) bool {
	switch w {
	case "and", "but", "or", "because", "so", "when", "if", "since",
		"than", "over", "instead", "with", "for", "in", "on", "at", "to",
		"from", "about", "as", "while", "though", "too", "very", "much",
		"now", "every", "more", "most", "really", "anyway", "again",
		"today", "tonight", "tomorrow", "yesterday", "these", "those",
		"lately", "nowadays", "during", "after", "before", "by", "of":
		return true
	}
	return false
}

// valueBad reports whether the lower-case word w cannot start a
// likes/dislikes value: pronouns, infinitives and question words.
func valueBad(w string) bool {
	switch w {
	case "it", "this", "that", "them", "you", "him", "her", "us", "me",
		"to", "how", "what", "when", "where", "which", "who", "why",
		"same", "one", "ones", "something", "anything", "everything",
		"nothing", "idea", "more", "most", "less", "some", "any", "all",
		"none", "both", "each", "either", "neither", "lot", "bit", "way",
		"thing", "things", "stuff", "being", "having", "doing", "getting",
		"it's", "that's", "there", "here", "so", "too", "very":
		return true
	}
	return false
}

// valueDeterminer reports whether the lower-case word w is dropped from
// the start of a value ("the mountains" → "mountains").
func valueDeterminer(w string) bool {
	switch w {
	case "the", "a", "an", "my", "our", "your", "his", "her", "their", "some":
		return true
	}
	return false
}

// weekday reports whether w is a lower-case weekday name.
func weekday(w string) bool {
	switch w {
	case "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday":
		return true
	}
	return false
}

// petAdjective reports whether the lower-case word w may stand between
// "a" or an owner and a species ("a green-cheeked conure").
func petAdjective(w string) bool {
	return hasLetter(w) && !stopword(w) && !firstPersonSingular(w) && !firstPersonPlural(w) &&
		w != "a" && w != "an" && w != "the" && !petVerb(w)
}

// isPreposition reports whether w places the next word ("in Somerville").
func isPreposition(w string) bool {
	switch w {
	case "in", "from", "at", "to", "of", "near", "on", "with", "by", "for", "into", "via":
		return true
	}
	return false
}

// makingVerb reports whether w says someone makes or runs a project.
func makingVerb(w string) bool {
	switch w {
	case "starting", "started", "start", "building", "built", "build",
		"making", "made", "creating", "created", "working", "run",
		"running", "maintain", "maintaining", "launching", "launched",
		"developing", "developed", "writing", "wrote":
		return true
	}
	return false
}

// intentWord reports whether a skipped word makes a statement a plan or a
// wish rather than a fact.
func intentWord(w string) bool {
	switch w {
	case "will", "would", "shall", "gonna", "going", "want", "wants", "wanted",
		"plan", "plans", "planned", "planning", "need", "needs", "to":
		return true
	}
	return false
}

// conditionalWord reports whether w, right before a subject, makes its
// statement hypothetical.
func conditionalWord(w string) bool {
	switch w {
	case "if", "whether", "unless", "maybe", "perhaps", "when":
		return true
	}
	return false
}

// moveParticle reports whether the lower-case word w, right after "moved",
// makes a phrase the completed-move rule does not read: "moved to X" and
// "moved from X" name places (other rules), "moved out", "moved away",
// "moved back", "moved over", "moved into", "moved in" are not the
// completion of a planned move to a named place.
func moveParticle(w string) bool {
	switch w {
	case "to", "from", "out", "away", "back", "over", "into", "in":
		return true
	}
	return false
}

// joinedTimeWord reports whether the lower-case word w, right after
// "joined X", still lets the sentence be a job statement: it starts a time
// ("last month", "this week", "yesterday") or qualifies the joining
// ("back", "full-time", "officially").
func joinedTimeWord(w string) bool {
	switch w {
	case "last", "this", "recently", "today", "yesterday", "back", "full-time", "officially":
		return true
	}
	return false
}

// dietModifier reports whether the lower-case word w may stand between a
// diet trigger and the diet ("I'm a strictly vegan", "now fully
// vegetarian").
func dietModifier(w string) bool {
	switch w {
	case "a", "an", "strictly", "fully", "mostly", "now", "full", "totally":
		return true
	}
	return false
}
