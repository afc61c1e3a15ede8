package events

import (
	"strings"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/index"
)

// Field order of the events index and their BM25F weights (the
// prototype's): title 4, summary 3, tags 2, quotes 2, participants 5,
// event type 5, original time text 4, happened dates 4.
const (
	FieldTitle = iota
	FieldSummary
	FieldTags
	FieldQuotes
	FieldParticipants
	FieldType
	FieldTimeText
	FieldHappened
)

// Keyword prefixes of the events index (exact-match structured indexes).
const (
	KeywordParticipant = "participant:"
	KeywordType        = "type:"
	KeywordEntity      = "entity:"
	KeywordThread      = "thread:"
	KeywordStatus      = "status:"
)

// NewIndex returns the events index.
func NewIndex() *index.Index {
	return index.New("events", []index.Field{
		{Name: "title", Weight: 4}, {Name: "summary", Weight: 3}, {Name: "tags", Weight: 2},
		{Name: "quotes", Weight: 2}, {Name: "participants", Weight: 5}, {Name: "type", Weight: 5},
		{Name: "time_text", Weight: 4}, {Name: "happened", Weight: 4},
	}, index.Options{})
}

// Doc builds the index document of c.
func Doc(c *Card) index.Doc {
	terms := func(parts ...string) []string {
		var out []string
		for _, p := range parts {
			out = bm25.AppendTerms(out, p)
		}
		return out
	}
	d := index.Doc{
		ID:    c.ID,
		Scope: c.Scope,
		Fields: [][]string{
			terms(c.Title), terms(c.Summary), terms(c.Tags...), terms(c.Quotes...),
			terms(c.Participants...), terms(strings.ReplaceAll(string(c.EventType), "_", " ")),
			terms(c.Temporal.OriginalText), terms(HappenedWords(&c.Temporal)),
		},
		Keywords: Keywords(c),
		Start:    c.Temporal.HappenedStart,
		End:      c.Temporal.HappenedEnd,
	}
	return d
}

// Keywords returns the exact-match keywords Doc indexes for c: its thread,
// type, status, participants (whole names and each word) and entities.
func Keywords(c *Card) []string {
	kws := []string{KeywordThread + c.Thread, KeywordType + string(c.EventType), KeywordStatus + string(c.Status)}
	for _, p := range c.Participants {
		kws = append(kws, KeywordParticipant+NameKey(p))
		// Each word of a name is a key too, so that "Leo" finds "Leo Park".
		for _, w := range strings.Fields(p) {
			kws = append(kws, KeywordParticipant+NameKey(w))
		}
	}
	for _, e := range c.Entities {
		kws = append(kws, KeywordEntity+NameKey(e))
	}
	return kws
}

// NameKey normalises a participant or entity name for exact matching.
func NameKey(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// HappenedWords renders when a card happened as searchable words, no finer
// than its precision: "4 May 2024 Saturday 2024-05-04" for a day, "May
// 2024" for a month, "2024" for a year, "week of 29 April 2024" for a week.
func HappenedWords(t *Temporal) string {
	s := t.HappenedStart
	if s.IsZero() {
		return ""
	}
	switch t.Precision {
	case "day", "instant":
		return s.Format("2 January 2006 Monday 2006-01-02")
	case "week":
		return s.Format("week of 2 January 2006")
	case "year":
		return s.Format("2006")
	}
	return s.Format("January 2006")
}
