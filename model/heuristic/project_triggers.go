package heuristic

// The graph projection lexicon is data, in four files: this one (trigger
// phrases and the action each proposes), project_schema.go (the schema
// names the projector emits and their cardinalities), project_terms.go
// (the terms that classify objects: tools, databases, drinks ...) and
// project_words.go (small word lists). The rules that read them live in
// the other project_*.go files; doc.go ("Graph projection") describes
// both.

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
// is found before the phrase (see subjects in project_subjects.go),
// unless the phrase's first word is itself a subject word ("i'm a").
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
