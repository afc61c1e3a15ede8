package events

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events/temporal"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

// Candidate list sizes of the lexical and each structured ranking.
const (
	lexicalCandidates    = 100
	structuredCandidates = 100
)

// Query is an event search.
type Query struct {
	Text   string   // the question as written (names, cues, time expressions)
	Terms  []string // its index terms, synonyms included
	Scopes []string
	Thread string // optional
	Limit  int
	Now    time.Time // reference for time expressions in Text
	// From and To, when set, keep only cards whose time lies in [From, To]
	// (see InRange).
	From, To time.Time
}

// InRange reports whether card c's time meets the bounds [from, to] (zero
// = unbounded): its happened interval [HappenedStart, HappenedEnd) overlaps
// them when it is known, else its mention time lies within them.
func InRange(c *Card, from, to time.Time) bool {
	if from.IsZero() && to.IsZero() {
		return true
	}
	return inRange(c.Temporal.HappenedStart, c.Temporal.HappenedEnd, c.Temporal.MentionedAt, from, to)
}

// inRange is InRange of a card with these times.
func inRange(start, end, mentioned, from, to time.Time) bool {
	if from.IsZero() && to.IsZero() {
		return true
	}
	if start.IsZero() {
		start = mentioned
		if start.IsZero() {
			return false // no time at all: a bounded search cannot place it
		}
		end = time.Time{}
	}
	if !end.After(start) {
		end = start.Add(time.Nanosecond) // an instant
	}
	return (to.IsZero() || !start.After(to)) && (from.IsZero() || end.After(from))
}

// Search ranks the cards of ix for q: BM25F over the card fields fused by
// reciprocal-rank fusion (k = 60) with structured rankings (participants
// and entities named in the query, the event type it implies, time overlap
// with a time expression in it, first/latest intent, and the use weight as
// a prior). Candidates come only from lexical or exact structured matches.
// Forgotten cards are never returned.
//
// The structured rankings read the candidates' fields from the rank table
// (see rank.go) and their keywords from the index: Search decodes no card
// record.
func Search(tx *bolt.Tx, ix *index.Index, q Query) ([]bm25.Ranked, error) {
	s := scratchPool.Get().(*scratch)
	defer s.release()
	ls, err := s.lists(tx, ix, &q)
	if err != nil || len(ls) == 0 {
		return nil, err
	}
	fused := bm25.RRF(bm25.RRFK, ls...)
	out := fused[:0]
	filter := q.Thread != "" || !q.From.IsZero() || !q.To.IsZero()
	for _, r := range fused {
		if q.Limit > 0 && len(out) == q.Limit {
			break
		}
		if filter {
			// Every fused id is a candidate, whose view lists read.
			v := s.view(r.ID)
			if v == nil {
				return nil, fmt.Errorf("%w: fused event %d is no candidate", kv.ErrCorrupt, r.ID)
			}
			if q.Thread != "" && string(v.thread) != q.Thread {
				continue
			}
			if !inRange(v.start, v.end, v.mentioned, q.From, q.To) {
				continue
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// typeCues maps query words onto the event type they imply.
var typeCues = map[string]Type{
	"decide": TypeDecision, "decided": TypeDecision, "decision": TypeDecision,
	"choose": TypeDecision, "chose": TypeDecision, "pick": TypeDecision, "picked": TypeDecision,
	"prefer": TypePreference, "prefers": TypePreference, "preference": TypePreference,
	"favorite": TypePreference, "favourite": TypePreference, "like": TypePreference, "likes": TypePreference,
	"plan": TypePlan, "plans": TypePlan, "planning": TypePlan, "planned": TypePlan,
	"change": TypeChange, "changed": TypeChange, "switch": TypeChange, "switched": TypeChange,
	"cancel": TypeCancellation, "cancelled": TypeCancellation, "canceled": TypeCancellation,
	"meet": TypeMeeting, "met": TypeMeeting, "meeting": TypeMeeting,
	"move": TypeLifeEvent, "moved": TypeLifeEvent, "adopt": TypeLifeEvent, "adopted": TypeLifeEvent,
	"married": TypeLifeEvent, "born": TypeLifeEvent, "job": TypeLifeEvent,
	"trip": TypeActivity, "visit": TypeActivity, "visited": TypeActivity, "went": TypeActivity,
	"finish": TypeTaskCompleted, "finished": TypeTaskCompleted, "completed": TypeTaskCompleted,
	"bug": TypeIncident, "outage": TypeIncident, "incident": TypeIncident,
	"migrate": TypeMigration, "migrated": TypeMigration, "migration": TypeMigration,
}

func eventTime(c *Card) time.Time {
	if !c.Temporal.HappenedStart.IsZero() {
		return c.Temporal.HappenedStart
	}
	return c.Temporal.MentionedAt
}

// chronologyIntent is -1 for "latest/now" questions, 1 for "first"
// questions, 0 otherwise.
func chronologyIntent(words []string) int {
	for _, w := range words {
		switch w {
		case "first", "earliest", "originally", "initially", "最早", "第一次":
			return 1
		case "latest", "last", "recent", "recently", "now", "currently", "current", "newest", "最近", "现在":
			return -1
		}
	}
	return 0
}

func firstKnown(ms []temporal.Match) *temporal.Resolution {
	for i := range ms {
		if ms[i].Known() {
			return &ms[i].Resolution
		}
	}
	return nil
}

// queryWords splits a query into lower-case words (letters, digits, dots
// inside words) for name and cue lookups.
func queryWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r == '.' || r == '-' || r == '\'' || isWordRune(r))
	})
}

func cmpDur(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
