package heuristic

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
