package gate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Verdict is the assessor's judgment of one evidence batch.
type Verdict string

// Verdict values.
const (
	Sufficient Verdict = "sufficient"
	Partial    Verdict = "partial"
	Wrong      Verdict = "wrong"
)

// Valid reports whether v is one of the three verdicts.
func (v Verdict) Valid() bool { return v == Sufficient || v == Partial || v == Wrong }

// Strategy is the next step the assessor asks for.
type Strategy string

// Strategy values.
const (
	Answer          Strategy = "answer"
	SearchEvents    Strategy = "search_events"
	ExpandEvent     Strategy = "expand_event"
	SearchGraph     Strategy = "search_graph"
	ExpandGraphNode Strategy = "expand_graph_node"
	SearchRawMemory Strategy = "search_raw_memory"
	ExpandBlock     Strategy = "expand_block"
)

// Valid reports whether s is one of the seven strategies.
func (s Strategy) Valid() bool {
	switch s {
	case Answer, SearchEvents, ExpandEvent, SearchGraph, ExpandGraphNode, SearchRawMemory, ExpandBlock:
		return true
	}
	return false
}

// IsSearch reports whether s is a query-driven retrieval step.
func (s Strategy) IsSearch() bool {
	return s == SearchEvents || s == SearchGraph || s == SearchRawMemory
}

// IsExpand reports whether s expands a Target ref.
func (s Strategy) IsExpand() bool {
	return s == ExpandEvent || s == ExpandGraphNode || s == ExpandBlock
}

// Item kinds; the first letter of a kind is its ref prefix.
const (
	KindEvent   = "event"   // ref "e<EventID>"
	KindMessage = "message" // ref "m<message id>"
	KindNode    = "node"    // ref "n<NodeID>"
	KindBlock   = "block"   // ref "b<BlockID>"
)

// Rejection reasons of Rejected.Reason.
const (
	ReasonInvalidRef    = "invalid_ref"
	ReasonDuplicate     = "duplicate"
	ReasonNotInBatch    = "not_in_batch"
	ReasonLimitExceeded = "limit_exceeded"
)

// Protocol bounds.
const (
	// MaxRefs is the most evidence refs an assessment keeps.
	MaxRefs = 8
	// MaxTextLen is the most runes of Fit and of Missing.
	MaxTextLen = 160
	// MaxQueryLen is the most runes of NextQuery.
	MaxQueryLen = 256
)

// Sentinel errors.
var (
	// ErrInvalidAssessment wraps every structural error of an assessment
	// (unknown verdict or strategy, nil batch).
	ErrInvalidAssessment = errors.New("gate: invalid assessment")
	// ErrWrongBatch: the assessment names another batch than the one it is
	// checked against (or that batch was already assessed).
	ErrWrongBatch = errors.New("gate: assessment for another batch")
)

// Ref identifies an item within a batch: a kind letter and a decimal id,
// "e12", "m345", "n7", "b3".
type Ref = string

// Item is one piece of evidence in a batch.
type Item struct {
	Ref  string // unique within the batch
	Kind string // event, message, node, block (derived from Ref by Session.Observe)

	EventID    uint64
	NodeID     uint64
	BlockID    uint64
	MessageIDs []uint64 // an event's source messages; a message's own id

	Title   string
	Text    string
	Quote   string
	Speaker string

	MentionedAt   time.Time // message time; zero = unknown
	HappenedStart time.Time // zero = unknown
	HappenedEnd   time.Time // exclusive; zero = unknown
	Precision     string    // a temporal.Precision value; "unknown" or "" = no date
	TimeText      string    // the time expression as written

	// Times, for a message, are all the known time expressions of its
	// text in order (the first also fills HappenedStart…TimeText); the
	// assessor dates the message by the one in the sentence about the
	// question (see dateOf).
	Times []TimeMention

	Facts []string // graph node facts
	Score float64  // retrieval score (higher is better)

	// Of, for a context item, is the ref of the retrieved item it
	// accompanies: a message next to a raw hit, or next to an event's
	// source message. The assessor reads it as part of that item's
	// window and may cite it; it does not count toward Budget.MaxItems.
	// Empty for a retrieved item.
	Of string

	// New is set by Session.Observe: the ref was not seen in an earlier
	// batch of the session.
	New bool
}

// Dated reports whether the item carries a resolved occurrence time.
func (it *Item) Dated() bool {
	return !it.HappenedStart.IsZero() && it.Precision != "unknown"
}

// TimeMention is one resolved time expression of an item's text.
type TimeMention struct {
	Text       string // as written
	Start, End time.Time
	Precision  string // a temporal.Precision value
	Basis      string // a temporal.Basis value ("said": dated by the message itself)
}

// Batch is the result of one retrieval step.
type Batch struct {
	ID       string // assigned by Session.Observe, "s<session>-b<k>"
	Strategy Strategy
	Query    string
	Target   string // the ref expanded, for expand_* steps
	Items    []Item
}

// Item returns the item of b with the given ref.
func (b *Batch) Item(ref string) (Item, bool) {
	if b == nil {
		return Item{}, false
	}
	for i := range b.Items {
		if b.Items[i].Ref == ref {
			return b.Items[i], true
		}
	}
	return Item{}, false
}

// Rejected is an evidence ref that Validate refused, with the reason.
type Rejected struct {
	Ref    string
	Reason string
}

// Assessment is the five-field judgment of one batch (plus the optional
// next query/target), as normalised by Validate.
type Assessment struct {
	ID           string // "<batchID>-a1", assigned by Validate
	BatchID      string
	Verdict      Verdict
	EvidenceRefs []string
	Fit          string
	Missing      string
	NextStrategy Strategy
	NextQuery    string // optional query for the next search
	NextTarget   string // ref to expand, for expand_* strategies
	RejectedRefs []Rejected
}

// ParseRef splits a ref into its kind and id. A well-formed ref is one of
// the letters e, m, n, b followed by a decimal id without sign or leading
// zero that fits in a uint64 ("e12"; not "e0", "e012", "E12", "x1").
func ParseRef(ref string) (kind string, id uint64, ok bool) {
	if len(ref) < 2 || ref[1] == '0' {
		return "", 0, false
	}
	switch ref[0] {
	case 'e':
		kind = KindEvent
	case 'm':
		kind = KindMessage
	case 'n':
		kind = KindNode
	case 'b':
		kind = KindBlock
	default:
		return "", 0, false
	}
	for i := 1; i < len(ref); i++ {
		if ref[i] < '0' || ref[i] > '9' {
			return "", 0, false
		}
	}
	id, err := strconv.ParseUint(ref[1:], 10, 64)
	if err != nil {
		return "", 0, false
	}
	return kind, id, true
}

// MakeRef builds the ref of an item of the given kind and id.
func MakeRef(kind string, id uint64) string {
	if kind == "" {
		return ""
	}
	return kind[:1] + strconv.FormatUint(id, 10)
}

// targetFits reports whether ref is a valid target of the expand strategy s.
func targetFits(s Strategy, ref string) bool {
	kind, _, ok := ParseRef(ref)
	if !ok {
		return false
	}
	switch s {
	case ExpandEvent:
		return kind == KindEvent
	case ExpandGraphNode:
		return kind == KindNode
	case ExpandBlock:
		return kind == KindMessage || kind == KindBlock
	}
	return false
}

// Validate checks a against the batch it assesses and returns the
// normalised assessment. Errors: a.BatchID ≠ b.ID (or b has no id) wraps
// ErrWrongBatch; a nil batch, an unknown verdict or an unknown strategy
// wrap ErrInvalidAssessment. Everything else is normalised, never refused;
// see the package documentation for the exact rules.
func Validate(b *Batch, a Assessment) (Assessment, error) {
	if b == nil {
		return Assessment{}, fmt.Errorf("%w: nil batch", ErrInvalidAssessment)
	}
	if b.ID == "" || a.BatchID != b.ID {
		return Assessment{}, fmt.Errorf("%w: assessment names batch %q, checked against %q", ErrWrongBatch, a.BatchID, b.ID)
	}
	if !a.Verdict.Valid() {
		return Assessment{}, fmt.Errorf("%w: unknown verdict %q", ErrInvalidAssessment, a.Verdict)
	}
	if !a.NextStrategy.Valid() {
		return Assessment{}, fmt.Errorf("%w: unknown next_strategy %q", ErrInvalidAssessment, a.NextStrategy)
	}

	out := Assessment{
		ID:           b.ID + "-a1",
		BatchID:      b.ID,
		Verdict:      a.Verdict,
		Fit:          clip(a.Fit, MaxTextLen),
		Missing:      clip(a.Missing, MaxTextLen),
		NextStrategy: a.NextStrategy,
		NextQuery:    clip(a.NextQuery, MaxQueryLen),
		NextTarget:   strings.TrimSpace(a.NextTarget),
	}

	// Evidence refs.
	inBatch := make(map[string]bool, len(b.Items))
	for i := range b.Items {
		inBatch[b.Items[i].Ref] = true
	}
	mentioned := make(map[string]bool, len(a.EvidenceRefs))
	for _, raw := range a.EvidenceRefs {
		ref := strings.TrimSpace(raw)
		reason := ""
		switch _, _, ok := ParseRef(ref); {
		case !ok:
			reason = ReasonInvalidRef
		case mentioned[ref]:
			reason = ReasonDuplicate
		case !inBatch[ref]:
			reason = ReasonNotInBatch
		case len(out.EvidenceRefs) >= MaxRefs:
			reason = ReasonLimitExceeded
		}
		if ref != "" {
			mentioned[ref] = true
		}
		if reason != "" {
			out.RejectedRefs = append(out.RejectedRefs, Rejected{Ref: raw, Reason: reason})
			continue
		}
		out.EvidenceRefs = append(out.EvidenceRefs, ref)
	}

	// Verdict and strategy.
	noRefs := len(out.EvidenceRefs) == 0
	if out.Verdict == Sufficient && (out.NextStrategy != Answer || noRefs) {
		out.Verdict = Partial
		if noRefs && out.Missing == "" {
			out.Missing = clip("evidence refs from batch "+b.ID, MaxTextLen)
		}
		if out.NextStrategy == Answer {
			out.NextStrategy, out.NextTarget = switchChannel(b, out.EvidenceRefs)
		}
	}
	if out.Verdict != Sufficient && out.NextStrategy == Answer {
		if b.Strategy == SearchEvents {
			out.NextStrategy = SearchRawMemory
		} else {
			out.NextStrategy = SearchEvents
		}
	}
	if out.Verdict == Sufficient {
		out.NextQuery, out.NextTarget = "", ""
	}

	// Target of an expansion: an item of this batch of the right kind.
	if out.NextStrategy.IsExpand() {
		if !targetFits(out.NextStrategy, out.NextTarget) || !inBatch[out.NextTarget] {
			out.NextTarget = pickTarget(b, out.NextStrategy, out.EvidenceRefs)
		}
		if out.NextTarget == "" {
			out.NextStrategy = searchOf(out.NextStrategy)
		}
	}
	if !out.NextStrategy.IsExpand() {
		out.NextTarget = ""
	}
	if !out.NextStrategy.IsSearch() {
		out.NextQuery = ""
	}
	return out, nil
}

// channel groups strategies by the store they read.
type channel int

const (
	chEvents channel = iota
	chRaw
	chBlock
	chGraph
	numChannels
)

func channelOf(s Strategy) channel {
	switch s {
	case SearchRawMemory:
		return chRaw
	case ExpandBlock:
		return chBlock
	case SearchGraph, ExpandGraphNode:
		return chGraph
	}
	return chEvents
}

// switchChannel is the step after b's channel in the order events → raw
// source → block expansion → graph → events, for an assessment that
// cannot answer: expand_block needs a message or block item of b (the
// first cited one, else the first in the batch), else it skips to graph.
func switchChannel(b *Batch, refs []string) (Strategy, string) {
	switch channelOf(b.Strategy) {
	case chEvents:
		return SearchRawMemory, ""
	case chRaw:
		if t := pickTarget(b, ExpandBlock, refs); t != "" {
			return ExpandBlock, t
		}
		return SearchGraph, ""
	case chBlock:
		return SearchGraph, ""
	}
	return SearchEvents, ""
}

// pickTarget returns the first ref fitting the expand strategy s among
// refs (all items of b), then among b's items; "" when none fits.
func pickTarget(b *Batch, s Strategy, refs []string) string {
	for _, r := range refs {
		if targetFits(s, r) {
			return r
		}
	}
	for i := range b.Items {
		if targetFits(s, b.Items[i].Ref) {
			return b.Items[i].Ref
		}
	}
	return ""
}

// searchOf is the search of the channel of an expand strategy, used when
// there is nothing to expand.
func searchOf(s Strategy) Strategy {
	switch s {
	case ExpandEvent:
		return SearchEvents
	case ExpandGraphNode:
		return SearchGraph
	case ExpandBlock:
		return SearchRawMemory
	}
	return s
}

// clip trims surrounding white space and cuts s to at most n runes, on a
// rune boundary. Invalid UTF-8 bytes count as one rune each and are kept.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i < len(s) && count < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	return strings.TrimSpace(s[:i])
}
