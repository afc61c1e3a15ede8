package graph

// Kind is a node kind.
type Kind string

// Node kinds.
const (
	KindPerson       Kind = "person"
	KindProject      Kind = "project"
	KindOrganization Kind = "organization"
	KindTool         Kind = "tool"
	KindPlace        Kind = "place"
	KindTopic        Kind = "topic"
)

// ValidKind reports whether k is one of the six node kinds.
func ValidKind(k Kind) bool {
	switch k {
	case KindPerson, KindProject, KindOrganization, KindTool, KindPlace, KindTopic:
		return true
	}
	return false
}

// Cardinality says how a fact key or relation holds values over time.
type Cardinality string

// Cardinalities. A new value of a State key (or a One relation) closes the
// current one by setting its ValidTo; Set keys and Many relations
// accumulate.
const (
	State Cardinality = "state"
	Set   Cardinality = "set"
	One   Cardinality = "one"
	Many  Cardinality = "many"
)

// FactKeys declares every fact key and its cardinality. A key not listed
// is rejected: the schema is data, and growing it is a reviewed change.
var FactKeys = map[string]Cardinality{
	"role": State, "job_title": State, "status": State, "uses_package_manager": State,
	"database": State, "deploy_platform": State, "launch_date": State, "editor": State,
	"indentation": State, "drinks": State, "diet": State,
	"likes": Set, "dislikes": Set, "hobby": Set, "uses_tool": Set, "skill": Set, "decision": Set,
}

// Relations declares every edge relation and its cardinality.
var Relations = map[string]Cardinality{
	"lives_in": One, "works_at": One, "located_in": One,
	"friend_of": Many, "sibling_of": Many, "parent_of": Many, "child_of": Many, "has_pet": Many,
	"member_of": Many, "works_on": Many, "uses": Many, "visited": Many, "knows": Many,
}
