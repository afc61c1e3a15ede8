package events

import (
	"strings"
	"time"
)

// Type is a card's normalised event type.
type Type string

// Event types: a stable set; synonyms map onto them (NormalizeType).
const (
	TypeDecision      Type = "decision"
	TypePreference    Type = "preference"
	TypePlan          Type = "plan"
	TypeChange        Type = "change"
	TypeCancellation  Type = "cancellation"
	TypeMeeting       Type = "meeting"
	TypeLifeEvent     Type = "life_event"
	TypeActivity      Type = "activity"
	TypeTaskCompleted Type = "task_completed"
	TypeIncident      Type = "incident"
	TypeMigration     Type = "migration"
	TypeFact          Type = "fact"
	TypeOther         Type = "other"
)

// Types lists every event type.
var Types = []Type{TypeDecision, TypePreference, TypePlan, TypeChange, TypeCancellation, TypeMeeting,
	TypeLifeEvent, TypeActivity, TypeTaskCompleted, TypeIncident, TypeMigration, TypeFact, TypeOther}

var typeSynonyms = map[string]Type{
	"decided": TypeDecision, "choice": TypeDecision, "resolution": TypeDecision,
	"preferences": TypePreference, "like": TypePreference, "dislike": TypePreference, "taste": TypePreference,
	"intention": TypePlan, "goal": TypePlan, "schedule": TypePlan, "planned": TypePlan, "todo": TypePlan,
	"update": TypeChange, "correction": TypeChange, "switch": TypeChange, "modification": TypeChange,
	"cancelled": TypeCancellation, "canceled": TypeCancellation, "cancel": TypeCancellation,
	"call": TypeMeeting, "appointment": TypeMeeting, "event": TypeMeeting,
	"life": TypeLifeEvent, "milestone": TypeLifeEvent, "personal": TypeLifeEvent, "move": TypeLifeEvent,
	"hobby": TypeActivity, "trip": TypeActivity, "travel": TypeActivity, "visit": TypeActivity,
	"done": TypeTaskCompleted, "completed": TypeTaskCompleted, "task": TypeTaskCompleted, "achievement": TypeTaskCompleted,
	"bug": TypeIncident, "outage": TypeIncident, "problem": TypeIncident, "issue": TypeIncident, "error": TypeIncident,
	"upgrade": TypeMigration, "migrate": TypeMigration, "port": TypeMigration,
	"info": TypeFact, "information": TypeFact, "statement": TypeFact,
}

// NormalizeType maps a type word (any case, spaces or dashes) onto the
// stable set; unknown words become TypeFact, never an error.
func NormalizeType(s string) Type {
	k := strings.NewReplacer(" ", "_", "-", "_").Replace(strings.ToLower(strings.TrimSpace(s)))
	for _, t := range Types {
		if string(t) == k {
			return t
		}
	}
	if t, ok := typeSynonyms[k]; ok {
		return t
	}
	if k == "" {
		return TypeFact
	}
	return TypeFact
}

// Status is whether an event happened, will happen, or was called off.
type Status string

// Statuses.
const (
	StatusCompleted Status = "completed"
	StatusPlanned   Status = "planned"
	StatusCancelled Status = "cancelled"
	StatusOngoing   Status = "ongoing"
	StatusUnknown   Status = "unknown"
)

// NormalizeStatus maps a status word onto the set; unknown → StatusUnknown.
func NormalizeStatus(s string) Status {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "completed", "complete", "done", "finished", "happened", "past":
		return StatusCompleted
	case "planned", "plan", "scheduled", "upcoming", "future", "intended":
		return StatusPlanned
	case "cancelled", "canceled", "called off", "aborted", "dropped":
		return StatusCancelled
	case "ongoing", "in progress", "in_progress", "current", "active", "continuing":
		return StatusOngoing
	}
	return StatusUnknown
}

// Criticality sets the floor of a card's use weight.
type Criticality string

// Criticalities and their weight floors (DESIGN.md).
const (
	CriticalityRoutine    Criticality = "routine"
	CriticalityPreference Criticality = "preference"
	CriticalityIdentity   Criticality = "identity"
	CriticalitySafety     Criticality = "safety"
)

// NormalizeCriticality maps a word onto the set; unknown → routine.
func NormalizeCriticality(s string) Criticality {
	switch c := Criticality(strings.ToLower(strings.TrimSpace(s))); c {
	case CriticalityPreference, CriticalityIdentity, CriticalitySafety:
		return c
	}
	return CriticalityRoutine
}

// Lifecycle is a card's visibility state.
type Lifecycle string

// Lifecycles. Superseded cards stay searchable (as history) with a capped
// weight; forgotten cards are hidden from search until restored.
const (
	LifecycleActive     Lifecycle = "active"
	LifecycleSuperseded Lifecycle = "superseded"
	LifecycleForgotten  Lifecycle = "forgotten"
)

// Temporal says when an event was mentioned and when it happened.
type Temporal struct {
	// MentionedAt is the timestamp of the cited message that carries the
	// time expression (the first cited message if none does).
	MentionedAt time.Time
	// HappenedStart and HappenedEnd bound when it happened or will happen
	// as a half-open interval [start, end); zero when unknown (never
	// defaulted to MentionedAt).
	HappenedStart time.Time
	HappenedEnd   time.Time
	// OriginalText is the time expression as written ("last Saturday").
	OriginalText string
	Precision    string // instant, day, week, month, season, year, range, unknown
	Basis        string // explicit, relative, inferred, said, unknown (temporal.Basis)
	Approx       bool
}

// Card is one event: what happened, who took part, when it was mentioned
// and when it happened, and exactly which messages it came from.
type Card struct {
	ID                    uint64
	Scope                 string
	Thread                string
	SourceBlockID         uint64
	SourceMessageIDs      []uint64
	Title                 string
	Summary               string
	Tags                  []string
	Quotes                []string
	EventType             Type
	Status                Status
	Participants          []string
	Entities              []string
	Criticality           Criticality
	Temporal              Temporal
	Lifecycle             Lifecycle
	SupersedesEventIDs    []uint64
	SupersededBy          uint64 // the latest card that superseded this one, if any
	ConflictsWithEventIDs []uint64
	CreatedAt             time.Time
}
