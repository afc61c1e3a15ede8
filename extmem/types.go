package extmem

import (
	"errors"
	"time"
)

// Format is the value of a v2 document's "format" field.
const Format = "stratagate.external-memory.v2"

// Bounds on a document. Per-field bounds follow the event-card limits
// (events.MaxTitleRunes and friends), so a candidate always fits a card.
const (
	MaxDocumentBytes = 1 << 20 // the whole pasted text
	MaxCandidates    = 200
	MaxTitleRunes    = 120
	MaxSummaryRunes  = 600
	MaxCategoryRunes = 64
	MaxQuotes        = 4
	MaxQuoteRunes    = 500
	MaxOriginalRunes = 8000
	MaxNames         = 12
	MaxNameRunes     = 64
	MaxTimeTextRunes = 120
	MaxScopeBytes    = 256
	MaxSourceRunes   = 200
	DefaultTopK      = 5
	MaxTopK          = 20
	AutoConfidence   = 0.85 // decisions at or above apply without confirmation
	MaxReasonRunes   = 200
)

// Errors, checked with errors.Is. Every error Parse returns wraps
// ErrInvalidDocument and one of the more specific sentinels.
var (
	ErrInvalidDocument = errors.New("extmem: invalid import document")
	ErrNoDocument      = errors.New("extmem: no JSON document found")
	ErrSyntax          = errors.New("extmem: document is not valid JSON")
	ErrFormat          = errors.New("extmem: wrong or missing format")
	ErrTooLarge        = errors.New("extmem: document too large")
	ErrTooMany         = errors.New("extmem: too many memories")
	ErrField           = errors.New("extmem: invalid field")
)

// Kind is what an imported memory is.
type Kind string

// Kinds.
const (
	KindInstruction Kind = "instruction"
	KindPreference  Kind = "preference"
	KindFact        Kind = "fact"
	KindEvent       Kind = "event"
)

// Document is a parsed v2 export.
type Document struct {
	Format     string
	ExportedAt time.Time // metadata only: never used as an event date
	Source     string    // the exporting assistant, as it named itself
	Memories   []Candidate
	// Warnings lists what the parser ignored at the document level (a
	// malformed exported_at, a clipped source).
	Warnings []string
}

// Candidate is one imported memory, validated and bounded.
type Candidate struct {
	Index        int // position in the document's memories array
	Kind         Kind
	Category     string
	Title        string
	Summary      string
	Quotes       []string
	OriginalText string
	Scope        string  // requested scope; the import's scope wins when empty
	Criticality  string  // routine, preference, identity, safety ("" = by kind)
	Confidence   float64 // the exporter's own confidence, 0–1; 0 when absent
	Temporal     Temporal
	// Verbatim holds the candidate's texts exactly as they occur in the
	// imported document (JSON escapes kept where decoding changed them),
	// so a card can quote the stored import block byte for byte.
	Verbatim Verbatim
	// Warnings lists what the parser clipped or dropped ("summary clipped
	// to 600 runes").
	Warnings []string
}

// Verbatim are substrings of the imported text.
type Verbatim struct {
	OriginalText string
	Quotes       []string
}

// Temporal is a candidate's time record after normalisation: when the
// precision or the basis is unknown, or a relative date has no mention
// date to resolve against, HappenedStart and HappenedEnd are zero.
type Temporal struct {
	MentionedAt   time.Time // when the user told the exporting AI; zero if not given
	HappenedStart time.Time // [start, end), zero when unknown
	HappenedEnd   time.Time
	OriginalText  string // the time expression as written
	Precision     string // instant, day, week, month, season, year, range, unknown
	Basis         string // explicit, relative, inferred, said, unknown
	Status        string // completed, planned, cancelled, ongoing, unknown
	Participants  []string
	EventType     string
}

// Action is a decision's verb.
type Action string

// Actions.
const (
	ActionAdd       Action = "add"
	ActionMerge     Action = "merge"
	ActionSupersede Action = "supersede"
	ActionConflict  Action = "conflict"
	ActionIgnore    Action = "ignore"
)

// Existing is a local event offered to a decider as a comparison target:
// the fields a decision reads, and its BM25 rank among the candidate's
// matches (1 = best).
type Existing struct {
	ID            uint64
	Title         string
	Summary       string
	Quotes        []string
	EventType     string
	Status        string
	Participants  []string
	MentionedAt   time.Time
	HappenedStart time.Time
	HappenedEnd   time.Time
	Lifecycle     string
	Fingerprint   string
	Score         float64 // BM25 score of the match
	Rank          int
}

// Decision is what to do with one candidate.
type Decision struct {
	Action     Action
	Targets    []uint64 // existing event ids the action applies to (merge, supersede, conflict; ignore may name the duplicate)
	Confidence float64  // 0–1
	Reason     string   // one line
	Decider    string   // "fingerprint", "heuristic" or "model:<name>"
}
