package model

// TaskProjectGraph asks for graph operations derived from a batch of newly
// stored event cards. Input: ProjectInput. Output: ProjectOutput.
const TaskProjectGraph Task = "project_graph"

// ProjectInput is the payload of TaskProjectGraph.
type ProjectInput struct {
	// Events are the batch: the only events an operation may cite.
	Events []ProjectEvent `json:"events"`
	// Nodes are existing graph nodes whose name or alias occurs in the
	// batch, so that operations can refer to them by name.
	Nodes []KnownNode `json:"nodes,omitempty"`
}

// ProjectEvent is one event card of the batch.
type ProjectEvent struct {
	ID           uint64   `json:"id"`
	Title        string   `json:"title"`
	Summary      string   `json:"summary"`
	Quotes       []string `json:"quotes,omitempty"`
	EventType    string   `json:"event_type"`
	Status       string   `json:"status"`
	Participants []string `json:"participants,omitempty"`
	Entities     []string `json:"entities,omitempty"`
	// Speakers are the speakers of the cited messages (for "I"/"my").
	Speakers      []string `json:"speakers,omitempty"`
	MentionedAt   string   `json:"mentioned_at"`             // RFC 3339
	HappenedStart string   `json:"happened_start,omitempty"` // RFC 3339; empty = unknown
	HappenedEnd   string   `json:"happened_end,omitempty"`
	TimeText      string   `json:"time_text,omitempty"`
}

// KnownNode is an existing node.
type KnownNode struct {
	ID      uint64   `json:"id"`
	Kind    string   `json:"kind"`
	Name    string   `json:"name"`
	Aliases []string `json:"aliases,omitempty"`
}

// ProjectOutput is the JSON object a model returns for TaskProjectGraph.
type ProjectOutput struct {
	Ops []GraphOp `json:"ops"`
}

// Graph operation names.
const (
	OpUpsertNode = "upsert_node" // Kind, Name (+ Tags)
	OpAddAlias   = "add_alias"   // Kind, Name, Alias
	OpSetFact    = "set_fact"    // Kind, Name, Key, Value
	OpCloseFact  = "close_fact"  // Kind, Name, Key, Value
	OpAddEdge    = "add_edge"    // Kind, Name, Relation, Target, TargetKind
	OpCloseEdge  = "close_edge"  // Kind, Name, Relation, Target
)

// GraphOp is one proposed change. Nodes are named, not numbered: code
// resolves (kind, name) to a node of the batch's scope by exact normalised
// name or alias, creating it for upsert_node. Every op cites ≥ 1 event of
// the batch; code rejects any op that cites another.
type GraphOp struct {
	Op         string   `json:"op"`
	Kind       string   `json:"kind"` // person, project, organization, tool, place, topic
	Name       string   `json:"name"`
	Alias      string   `json:"alias,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	Key        string   `json:"key,omitempty"`
	Value      string   `json:"value,omitempty"`
	Relation   string   `json:"relation,omitempty"`
	Target     string   `json:"target,omitempty"`
	TargetKind string   `json:"target_kind,omitempty"` // empty = a named value with no node
	// ValidFrom is when the fact or edge became true (RFC 3339); empty =
	// the cited event's happened start, else its mention time.
	ValidFrom string   `json:"valid_from,omitempty"`
	EventIDs  []uint64 `json:"event_ids"`
}
