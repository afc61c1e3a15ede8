package model

// TaskImportDecide asks what to do with one imported memory given the
// local events that match it best: add, merge, supersede, conflict or
// ignore. Input: ImportDecideInput. Output: ImportDecideOutput. The
// offline decider for imports lives in package extmem, not in
// model/heuristic: it needs no prompt rendering at all.
const TaskImportDecide Task = "import_decide"

// Import decision actions, the values of ImportDecideOutput.Action.
const (
	ImportAdd       = "add"
	ImportMerge     = "merge"
	ImportSupersede = "supersede"
	ImportConflict  = "conflict"
	ImportIgnore    = "ignore"
)

// ImportDecideInput is the payload of TaskImportDecide: the candidate and
// its top matches among the local events, best first. Existing ids are
// the only ids a reply may name.
type ImportDecideInput struct {
	Candidate ImportCandidate  `json:"candidate"`
	Existing  []ImportExisting `json:"existing"`
}

// ImportCandidate is an imported memory as a model sees it. Times are
// RFC 3339 or "" when unknown.
type ImportCandidate struct {
	Kind          string   `json:"kind"` // instruction, preference, fact, event
	Category      string   `json:"category,omitempty"`
	Title         string   `json:"title"`
	Summary       string   `json:"summary,omitempty"`
	Quotes        []string `json:"quotes,omitempty"`
	OriginalText  string   `json:"original_text,omitempty"`
	MentionedAt   string   `json:"mentioned_at,omitempty"`
	HappenedStart string   `json:"happened_start,omitempty"`
	HappenedEnd   string   `json:"happened_end,omitempty"`
	TimeText      string   `json:"time_text,omitempty"`
	Precision     string   `json:"precision,omitempty"`
	Participants  []string `json:"participants,omitempty"`
	EventType     string   `json:"event_type,omitempty"`
	Status        string   `json:"status,omitempty"`
}

// ImportExisting is one local event offered as a target. It carries the
// candidate's fields where a local event has them; those it lacks
// (kind, category, original text) stay empty and are omitted.
type ImportExisting struct {
	ID            uint64   `json:"id"`
	Kind          string   `json:"kind,omitempty"`
	Category      string   `json:"category,omitempty"`
	Title         string   `json:"title"`
	Summary       string   `json:"summary,omitempty"`
	Quotes        []string `json:"quotes,omitempty"`
	OriginalText  string   `json:"original_text,omitempty"`
	MentionedAt   string   `json:"mentioned_at,omitempty"`
	HappenedStart string   `json:"happened_start,omitempty"`
	HappenedEnd   string   `json:"happened_end,omitempty"`
	Participants  []string `json:"participants,omitempty"`
	EventType     string   `json:"event_type,omitempty"`
	Status        string   `json:"status,omitempty"`
}

// ImportDecideOutput is the JSON object a model returns for
// TaskImportDecide. Code validates every field (see package extmem):
// the action, that every target is an offered id, the confidence range.
type ImportDecideOutput struct {
	Action     string   `json:"action"`
	TargetIDs  []uint64 `json:"target_ids"`
	Confidence float64  `json:"confidence"`
	Reason     string   `json:"reason"`
}
