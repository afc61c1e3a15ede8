package model

// TaskExtractEvents asks for the event cards of one block. Input:
// ExtractInput. Output: ExtractOutput.
const TaskExtractEvents Task = "extract_events"

// ExtractInput is the payload of TaskExtractEvents: the target block's
// messages, context from the blocks around it (never to be cited), and the
// thread's recent active events, which a new card may supersede or
// contradict.
type ExtractInput struct {
	BlockID  uint64          `json:"block_id"`
	Thread   string          `json:"thread"`
	Messages []DeriveMessage `json:"messages"`         // block N: the only citable messages
	Before   []DeriveMessage `json:"before,omitempty"` // block N-1, context only
	After    []DeriveMessage `json:"after,omitempty"`  // nearest later ready block, context only
	Existing []ExistingEvent `json:"existing,omitempty"`
}

// ExistingEvent is an active event a new card may supersede or conflict
// with.
type ExistingEvent struct {
	ID           uint64   `json:"id"`
	Title        string   `json:"title"`
	Summary      string   `json:"summary"`
	EventType    string   `json:"event_type"`
	Participants []string `json:"participants,omitempty"`
	Entities     []string `json:"entities,omitempty"`
	Quotes       []string `json:"quotes,omitempty"`
}

// ExtractOutput is the JSON object a model returns for TaskExtractEvents.
type ExtractOutput struct {
	Events []ExtractedEvent `json:"events"`
}

// ExtractedEvent is one proposed event card. Code validates every field
// (see the events package) before anything is stored.
type ExtractedEvent struct {
	Title        string   `json:"title"`
	Summary      string   `json:"summary"`
	Tags         []string `json:"tags,omitempty"`
	Quotes       []string `json:"quotes"`      // verbatim spans of the cited messages
	MessageIDs   []uint64 `json:"message_ids"` // messages of the target block only
	EventType    string   `json:"event_type"`
	Status       string   `json:"status"`
	Participants []string `json:"participants,omitempty"`
	Entities     []string `json:"entities,omitempty"`
	Criticality  string   `json:"criticality,omitempty"`
	// TimeText is the temporal expression as written in the cited message
	// ("last Saturday"); code resolves it against that message's time.
	TimeText string `json:"time_text,omitempty"`
	// Supersedes and ConflictsWith name ids from ExtractInput.Existing.
	Supersedes    []uint64 `json:"supersedes,omitempty"`
	ConflictsWith []uint64 `json:"conflicts_with,omitempty"`
}
