package heuristic

// The graph projection lexicon is data: trigger phrases with the action
// they propose, the schema's cardinalities, and the word lists that
// classify objects (tools, drinks, pets, roles ...). The rules that read
// it live in project.go; doc.go ("Graph projection") describes both.

// projAct is what a matched trigger phrase proposes.
type projAct uint8

const (
	actLivesIn     projAct = iota + 1 // subject lives_in the place after the phrase
	actInNow                          // "X is in Y now": lives_in Y
	actMovedTo                        // a completed move to a place (or a tool switch)
	actMovedFrom                      // "moved from A to B": close A, add B
	actLeftPlace                      // close lives_in
	actMovingTo                       // a planned move: remembered as a pending destination
	actMoved                          // a completed move without a destination
	actWorksAt                        // works_at the organization after the phrase
	actEmployer                       // "X's employer is Y"
	actLeftOrg                        // close works_at of a known employer
	actRoleAs                         // "work as a ROLE"
	actRoleIs                         // "I'm a ROLE", "X is a ROLE"
	actTool                           // adopt a tool: use, go with, switch to ...
	actToolTerm                       // adopt a listed tool only: chose, picked
	actSwitchFrom                     // "switched from A to B"
	actDeploy                         // deploy or host on a platform
	actDrinks                         // drink(s) a drink
	actIndent                         // indent with tabs/spaces
	actLikes                          // like, love, enjoy, prefer
	actDislikes                       // hate, dislike
	actHobby                          // take up, play, go ... a hobby
	actDiet                           // "I'm vegetarian", "went vegan"
	actFriendsWith                    // "friends with Y"
	actMet                            // "met Y", "X and I met"
	actVisited                        // visited, went to, trip to
	actWorksOn                        // working on a known project
	actMemberOf                       // member of an organization
	actLocatedIn                      // an organization located in a place
)

// projTrigger is one trigger phrase: lower-case words matched on
// consecutive tokens of one clause (’ read as ').
type projTrigger struct {
	phrase string
	act    projAct
}

// projTriggers lists every trigger phrase. At each token the longest
// phrase that matches wins; its action runs once per match. The subject
// is found before the phrase (see project.go, subject), unless the
// phrase's first word is itself a subject word ("i'm a").
var projTriggers = []projTrigger{
	// Where someone lives.
	{"live in", actLivesIn},
	{"lives in", actLivesIn},
	{"living in", actLivesIn},
	{"reside in", actLivesIn},
	{"resides in", actLivesIn},
	{"settled in", actLivesIn},
	{"in", actInNow},
	{"moved to", actMovedTo},
	{"moved back to", actMovedTo},
	{"moved over to", actMovedTo},
	{"relocated to", actMovedTo},
	{"moved from", actMovedFrom},
	{"moved out of", actLeftPlace},
	{"moved away from", actLeftPlace},
	{"moving to", actMovingTo},
	{"move to", actMovingTo},
	{"relocating to", actMovingTo},
	{"moving back to", actMovingTo},
	{"moved", actMoved},
	{"relocated", actMoved},

	// Work.
	{"work at", actWorksAt},
	{"works at", actWorksAt},
	{"working at", actWorksAt},
	{"work for", actWorksAt},
	{"works for", actWorksAt},
	{"working for", actWorksAt},
	{"start at", actWorksAt},
	{"starts at", actWorksAt},
	{"starting at", actWorksAt},
	{"started at", actWorksAt},
	{"joined", actWorksAt},
	{"job at", actWorksAt},
	{"job with", actWorksAt},
	{"hired by", actWorksAt},
	{"hired at", actWorksAt},
	{"employed at", actWorksAt},
	{"employed by", actWorksAt},
	{"employer is", actEmployer},
	{"quit", actLeftOrg},
	{"left", actLeftOrg},
	{"leaving", actLeftOrg},
	{"no longer work at", actLeftOrg},
	{"no longer works at", actLeftOrg},
	{"stopped working at", actLeftOrg},
	{"work as", actRoleAs},
	{"works as", actRoleAs},
	{"working as", actRoleAs},
	{"worked as", actRoleAs},
	{"freelance as", actRoleAs},
	{"freelances as", actRoleAs},
	{"freelancing as", actRoleAs},
	{"employed as", actRoleAs},
	{"hired as", actRoleAs},
	{"job as", actRoleAs},
	{"i'm a", actRoleIs},
	{"i'm an", actRoleIs},
	{"am a", actRoleIs},
	{"am an", actRoleIs},
	{"is a", actRoleIs},
	{"is an", actRoleIs},

	// Tools and project decisions.
	{"use", actTool},
	{"uses", actTool},
	{"using", actTool},
	{"go with", actTool},
	{"going with", actTool},
	{"went with", actTool},
	{"settled on", actTool},
	{"chose", actToolTerm},
	{"picked", actToolTerm},
	{"switch to", actTool},
	{"switched to", actTool},
	{"switching to", actTool},
	{"switches to", actTool},
	{"switched over to", actTool},
	{"migrate to", actTool},
	{"migrated to", actTool},
	{"migrating to", actTool},
	{"migrates to", actTool},
	{"switched from", actSwitchFrom},
	{"switch from", actSwitchFrom},
	{"switches from", actSwitchFrom},
	{"switching from", actSwitchFrom},
	{"migrated from", actSwitchFrom},
	{"moving from", actSwitchFrom},
	{"deploy on", actDeploy},
	{"deploy to", actDeploy},
	{"deploys on", actDeploy},
	{"deploys to", actDeploy},
	{"deploying on", actDeploy},
	{"deploying to", actDeploy},
	{"deployed on", actDeploy},
	{"deployed to", actDeploy},
	{"deploy it on", actDeploy},
	{"deploy it to", actDeploy},
	{"host on", actDeploy},
	{"hosted on", actDeploy},
	{"hosting on", actDeploy},
	{"host it on", actDeploy},
	{"runs on", actDeploy},

	// Personal preferences.
	{"drink", actDrinks},
	{"drinks", actDrinks},
	{"drinking", actDrinks},
	{"indent with", actIndent},
	{"indents with", actIndent},
	{"indent using", actIndent},
	{"indenting with", actIndent},
	{"love", actLikes},
	{"loves", actLikes},
	{"like", actLikes},
	{"likes", actLikes},
	{"enjoy", actLikes},
	{"enjoys", actLikes},
	{"prefer", actLikes},
	{"prefers", actLikes},
	{"a fan of", actLikes},
	{"a big fan of", actLikes},
	{"a huge fan of", actLikes},
	{"hate", actDislikes},
	{"hates", actDislikes},
	{"dislike", actDislikes},
	{"dislikes", actDislikes},
	{"can't stand", actDislikes},
	{"cannot stand", actDislikes},
	{"not a fan of", actDislikes},
	{"started", actHobby},
	{"took up", actHobby},
	{"taking up", actHobby},
	{"picked up", actHobby},
	{"go", actHobby},
	{"goes", actHobby},
	{"play", actHobby},
	{"plays", actHobby},
	{"playing", actHobby},
	{"i'm", actDiet},
	{"am", actDiet},
	{"is", actDiet},
	{"went", actDiet},
	{"became", actDiet},
	{"gone", actDiet},

	// People, places, projects.
	{"friends with", actFriendsWith},
	{"best friends with", actFriendsWith},
	{"met", actMet},
	{"visited", actVisited},
	{"went to", actVisited},
	{"trip to", actVisited},
	{"been to", actVisited},
	{"flew to", actVisited},
	{"traveled to", actVisited},
	{"travelled to", actVisited},
	{"working on", actWorksOn},
	{"work on", actWorksOn},
	{"works on", actWorksOn},
	{"building", actWorksOn},
	{"member of", actMemberOf},
	{"members of", actMemberOf},
	{"located in", actLocatedIn},
	{"headquartered in", actLocatedIn},
	{"based in", actLocatedIn},
}

// projTriggerIndex maps the first word of each trigger to its phrases,
// longest first (table order among equals). Built once, then only read.
var projTriggerIndex = buildProjTriggerIndex()

type projPhrase struct {
	words []string
	act   projAct
}

func buildProjTriggerIndex() map[string][]projPhrase {
	idx := make(map[string][]projPhrase, len(projTriggers))
	for _, t := range projTriggers {
		w := splitWords(t.phrase)
		idx[w[0]] = append(idx[w[0]], projPhrase{words: w, act: t.act})
	}
	for k, list := range idx {
		for i := 1; i < len(list); i++ {
			for j := i; j > 0 && len(list[j].words) > len(list[j-1].words); j-- {
				list[j], list[j-1] = list[j-1], list[j]
			}
		}
		idx[k] = list
	}
	return idx
}

// Graph schema names (package graph declares them; these are the ones the
// projector emits).
const (
	kindPerson       = "person"
	kindProject      = "project"
	kindOrganization = "organization"
	kindTool         = "tool"
	kindPlace        = "place"

	relLivesIn   = "lives_in"
	relWorksAt   = "works_at"
	relLocatedIn = "located_in"
	relFriendOf  = "friend_of"
	relSiblingOf = "sibling_of"
	relParentOf  = "parent_of"
	relChildOf   = "child_of"
	relHasPet    = "has_pet"
	relMemberOf  = "member_of"
	relWorksOn   = "works_on"
	relUses      = "uses"
	relVisited   = "visited"
	relKnows     = "knows"

	keyRole          = "role"
	keyPackageMgr    = "uses_package_manager"
	keyDatabase      = "database"
	keyDeployPlatfrm = "deploy_platform"
	keyLaunchDate    = "launch_date"
	keyEditor        = "editor"
	keyIndentation   = "indentation"
	keyDrinks        = "drinks"
	keyDiet          = "diet"
	keyLikes         = "likes"
	keyDislikes      = "dislikes"
	keyHobby         = "hobby"
)

// singleValued reports whether a fact key or relation holds one current
// value (graph: state keys and "one" relations); a new value closes the
// old one, so a repeated op is merged only into the latest op of its key.
func singleValued(keyOrRelation string) bool {
	switch keyOrRelation {
	case "role", "job_title", "status", "uses_package_manager", "database",
		"deploy_platform", "launch_date", "editor", "indentation", "drinks",
		"diet", "lives_in", "works_at", "located_in":
		return true
	}
	return false
}

// termCat classifies a lexicon term.
type termCat uint8

const (
	catTool termCat = iota + 1 // a tool with no fact key: a uses edge
	catPackageManager
	catDatabase
	catDeploy
	catEditor
	catDrink
	catIndent
	catDiet
	catHobby
)

// catKey is the fact key of a category ("" for catTool).
func catKey(c termCat) string {
	switch c {
	case catPackageManager:
		return keyPackageMgr
	case catDatabase:
		return keyDatabase
	case catDeploy:
		return keyDeployPlatfrm
	case catEditor:
		return keyEditor
	case catDrink:
		return keyDrinks
	case catIndent:
		return keyIndentation
	case catDiet:
		return keyDiet
	case catHobby:
		return keyHobby
	}
	return ""
}

// catTag is the tag a tool node of the category gets.
func catTag(c termCat) string {
	switch c {
	case catPackageManager:
		return "package manager"
	case catDatabase:
		return "database"
	case catDeploy:
		return "deploy platform"
	case catEditor:
		return "editor"
	}
	return "tool"
}

// projTerm is a lexicon term: lower-case words (matched on consecutive
// tokens), the canonical spelling used as value or node name, and its
// category.
type projTerm struct {
	words string
	canon string
	cat   termCat
}

// projTerms lists the known tools, drinks, diets and hobbies. The longest
// term that matches at an object position wins. Several spellings of one
// thing share a canonical value so that a restatement does not look like
// a change of state ("PostgreSQL" after "Postgres").
var projTerms = []projTerm{
	// Package managers.
	{"npm", "npm", catPackageManager},
	{"pnpm", "pnpm", catPackageManager},
	{"yarn", "Yarn", catPackageManager},
	{"bun", "Bun", catPackageManager},
	// Databases.
	{"postgres", "Postgres", catDatabase},
	{"postgresql", "Postgres", catDatabase},
	{"sqlite", "SQLite", catDatabase},
	{"sqlite3", "SQLite", catDatabase},
	{"mysql", "MySQL", catDatabase},
	{"mariadb", "MariaDB", catDatabase},
	{"mongodb", "MongoDB", catDatabase},
	{"mongo", "MongoDB", catDatabase},
	{"dynamodb", "DynamoDB", catDatabase},
	{"supabase", "Supabase", catDatabase},
	{"firebase", "Firebase", catDatabase},
	// Deploy platforms.
	{"fly.io", "Fly.io", catDeploy},
	{"fly", "Fly.io", catDeploy},
	{"heroku", "Heroku", catDeploy},
	{"vercel", "Vercel", catDeploy},
	{"render", "Render", catDeploy},
	{"netlify", "Netlify", catDeploy},
	{"aws", "AWS", catDeploy},
	{"gcp", "GCP", catDeploy},
	{"google cloud", "Google Cloud", catDeploy},
	{"azure", "Azure", catDeploy},
	{"railway", "Railway", catDeploy},
	{"digitalocean", "DigitalOcean", catDeploy},
	{"cloudflare", "Cloudflare", catDeploy},
	{"hetzner", "Hetzner", catDeploy},
	// Editors.
	{"vs code", "VS Code", catEditor},
	{"vscode", "VS Code", catEditor},
	{"visual studio code", "VS Code", catEditor},
	{"neovim", "Neovim", catEditor},
	{"nvim", "Neovim", catEditor},
	{"vim", "Vim", catEditor},
	{"emacs", "Emacs", catEditor},
	{"sublime text", "Sublime Text", catEditor},
	{"sublime", "Sublime Text", catEditor},
	{"zed", "Zed", catEditor},
	{"helix", "Helix", catEditor},
	{"intellij", "IntelliJ", catEditor},
	{"cursor", "Cursor", catEditor},
	// Other tools written in lower case.
	{"docker compose", "Docker Compose", catTool},
	{"docker", "Docker", catTool},
	{"git", "Git", catTool},
	{"vite", "Vite", catTool},
	{"webpack", "webpack", catTool},
	{"kubernetes", "Kubernetes", catTool},
	{"k8s", "Kubernetes", catTool},
	{"terraform", "Terraform", catTool},
	{"redis", "Redis", catTool},
	{"nginx", "nginx", catTool},
	{"prettier", "Prettier", catTool},
	{"eslint", "ESLint", catTool},
	{"grafana", "Grafana", catTool},
	// Drinks.
	{"coffee", "coffee", catDrink},
	{"tea", "tea", catDrink},
	{"green tea", "tea", catDrink},
	{"black tea", "tea", catDrink},
	{"matcha", "matcha", catDrink},
	{"decaf", "decaf", catDrink},
	// Indentation.
	{"tabs", "tabs", catIndent},
	{"spaces", "spaces", catIndent},
	// Diets.
	{"vegetarian", "vegetarian", catDiet},
	{"vegan", "vegan", catDiet},
	{"pescatarian", "pescatarian", catDiet},
	{"gluten-free", "gluten-free", catDiet},
	{"dairy-free", "dairy-free", catDiet},
	{"keto", "keto", catDiet},
	{"paleo", "paleo", catDiet},
	{"halal", "halal", catDiet},
	{"kosher", "kosher", catDiet},
	// Hobbies.
	{"trail running", "trail running", catHobby},
	{"running", "running", catHobby},
	{"bouldering", "bouldering", catHobby},
	{"climbing", "climbing", catHobby},
	{"rock climbing", "climbing", catHobby},
	{"hiking", "hiking", catHobby},
	{"cycling", "cycling", catHobby},
	{"biking", "cycling", catHobby},
	{"swimming", "swimming", catHobby},
	{"surfing", "surfing", catHobby},
	{"skiing", "skiing", catHobby},
	{"snowboarding", "snowboarding", catHobby},
	{"yoga", "yoga", catHobby},
	{"chess", "chess", catHobby},
	{"bass", "bass", catHobby},
	{"guitar", "guitar", catHobby},
	{"piano", "piano", catHobby},
	{"drums", "drums", catHobby},
	{"violin", "violin", catHobby},
	{"tennis", "tennis", catHobby},
	{"football", "football", catHobby},
	{"soccer", "soccer", catHobby},
	{"basketball", "basketball", catHobby},
	{"painting", "painting", catHobby},
	{"photography", "photography", catHobby},
	{"knitting", "knitting", catHobby},
	{"baking", "baking", catHobby},
	{"gardening", "gardening", catHobby},
	{"pottery", "pottery", catHobby},
	{"dancing", "dancing", catHobby},
}

// projTermIndex maps a term's first word to its entries, longest first.
var projTermIndex = buildProjTermIndex()

type projTermPhrase struct {
	words []string
	term  *projTerm
}

func buildProjTermIndex() map[string][]projTermPhrase {
	idx := make(map[string][]projTermPhrase, len(projTerms))
	for i := range projTerms {
		t := &projTerms[i]
		w := splitWords(t.words)
		idx[w[0]] = append(idx[w[0]], projTermPhrase{words: w, term: t})
	}
	for k, list := range idx {
		for i := 1; i < len(list); i++ {
			for j := i; j > 0 && len(list[j].words) > len(list[j-1].words); j-- {
				list[j], list[j-1] = list[j-1], list[j]
			}
		}
		idx[k] = list
	}
	return idx
}

// projTermSet maps each whole term (lower-case words) to its entry.
var projTermSet = func() map[string]*projTerm {
	m := make(map[string]*projTerm, len(projTerms))
	for i := range projTerms {
		m[projTerms[i].words] = &projTerms[i]
	}
	return m
}()

// isTerm reports whether name, as a whole, is a lexicon term.
func isTerm(name string) bool {
	_, ok := projTermSet[nkey(name)]
	return ok
}

// lowerOnlyTerm reports whether the lower-case term w is also a common
// English word, so that it counts as a tool only after a deploy phrase
// ("deploy on fly") or when written capitalised ("Render").
func lowerOnlyTerm(w string) bool {
	switch w {
	case "fly", "render", "railway", "cursor", "bun", "helix", "zed", "sublime":
		return true
	}
	return false
}

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
