package extmem

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stratagate/stratagate/events/temporal"
)

// rawTemporal is a memory's "temporal" object as JSON holds it.
type rawTemporal struct {
	MentionedAt      json.RawMessage `json:"mentioned_at"`
	MentionedAtAlt   json.RawMessage `json:"mentionedAt"`
	HappenedStart    json.RawMessage `json:"happened_start"`
	HappenedStartAlt json.RawMessage `json:"happenedStart"`
	HappenedEnd      json.RawMessage `json:"happened_end"`
	HappenedEndAlt   json.RawMessage `json:"happenedEnd"`
	OriginalText     json.RawMessage `json:"original_text"`
	OriginalTextAlt  json.RawMessage `json:"originalText"`
	Precision        json.RawMessage `json:"precision"`
	Basis            json.RawMessage `json:"basis"`
	Status           json.RawMessage `json:"status"`
	Participants     json.RawMessage `json:"participants"`
	EventType        json.RawMessage `json:"event_type"`
	EventTypeAlt     json.RawMessage `json:"eventType"`
}

// Word sets of the temporal record (docs/IMPORT.md).
var (
	precisions = []string{"instant", "day", "week", "month", "season", "year", "range", "unknown"}
	bases      = []string{"explicit", "relative", "inferred", "said", "unknown"}
	statuses   = []string{"completed", "planned", "cancelled", "ongoing", "unknown"}
)

const unknown = "unknown"

// The years our time encoding holds (int64 nanoseconds since 1970 reach
// from September 1677 to April 2262): a date outside is treated as absent.
const (
	minYear = 1678
	maxYear = 2261
)

// maxEnd bounds a derived end: a start late in 2261 plus its precision
// still fits the encoding up to here.
var maxEnd = time.Date(maxYear+1, time.January, 2, 0, 0, 0, 0, time.UTC)

// Date granularities: how fine a date's written form is. A precision
// finer than its start's form ("day" for "2023-05") is lowered to it.
const (
	granInstant = iota // RFC 3339
	granDay            // YYYY-MM-DD
	granMonth          // YYYY-MM
	granYear           // YYYY
)

// temporal reads memories[i].temporal (participants may also sit on the
// memory) and normalises its dates by the rules of docs/IMPORT.md: no
// dates unless the exporter knew them, never a date from the export time.
func (p *parser) temporal(i int, data, memParticipants json.RawMessage, warnings *[]string) (Temporal, error) {
	t := Temporal{Precision: unknown, Basis: unknown, Status: unknown}
	var r rawTemporal
	if !isNull(data) {
		if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
			return t, invalid(ErrField, "memories[%d].temporal: want an object", i)
		}
		if err := json.Unmarshal(data, &r); err != nil {
			return t, invalid(ErrField, "memories[%d].temporal: %s", i, err.Error())
		}
	}
	at := func(field string) string { return fmt.Sprintf("memories[%d].temporal.%s", i, field) }
	var err error
	if t.OriginalText, err = p.line(at("original_text"), pick(r.OriginalText, r.OriginalTextAlt), MaxTimeTextRunes, warnings); err != nil {
		return t, err
	}
	if t.EventType, err = p.line(at("event_type"), pick(r.EventType, r.EventTypeAlt), MaxNameRunes, warnings); err != nil {
		return t, err
	}
	for _, f := range []struct {
		name  string
		data  json.RawMessage
		words []string
		dst   *string
	}{{"precision", r.Precision, precisions, &t.Precision}, {"basis", r.Basis, bases, &t.Basis}, {"status", r.Status, statuses, &t.Status}} {
		s, err := p.str(at(f.name), f.data)
		if err != nil {
			return t, err
		}
		*f.dst = word(f.name, s, f.words, warnings)
	}
	names := r.Participants
	if isNull(names) {
		names = memParticipants
	}
	if t.Participants, err = p.names(at("participants"), names, warnings); err != nil {
		return t, err
	}
	var start, end time.Time
	var gran int
	t.MentionedAt, _ = p.dateGran("mentioned_at", pick(r.MentionedAt, r.MentionedAtAlt), warnings)
	start, gran = p.dateGran("happened_start", pick(r.HappenedStart, r.HappenedStartAlt), warnings)
	end, _ = p.dateGran("happened_end", pick(r.HappenedEnd, r.HappenedEndAlt), warnings)
	happened(&t, start, gran, end, warnings)
	return t, nil
}

// happened sets t's interval from the given start and end (zero when
// absent or malformed) by the precision and basis.
func happened(t *Temporal, start time.Time, gran int, end time.Time, warnings *[]string) {
	given := !start.IsZero() || !end.IsZero()
	drop := func(why string) {
		if given {
			*warnings = append(*warnings, "happened dates ignored: "+why)
		}
		t.HappenedStart, t.HappenedEnd, t.Precision = time.Time{}, time.Time{}, unknown
	}
	// a) The exporter does not know when: no dates, whatever it wrote.
	if t.Precision == unknown || t.Basis == unknown {
		t.Basis = unknown
		drop("precision or basis unknown")
		return
	}
	if t.Basis == "relative" {
		// b) A relative expression means something only against the day
		// it was said.
		if t.MentionedAt.IsZero() {
			drop("relative date without mentioned_at")
			return
		}
		if t.OriginalText != "" {
			if r := temporal.Resolve(t.OriginalText, t.MentionedAt); r.Known() && inRange(r.Start) && endInRange(r.End) {
				t.HappenedStart, t.HappenedEnd, t.Precision = r.Start, r.End, string(r.Precision)
				return
			}
		}
	}
	// c) A stated start, its end given or derived from the precision.
	if start.IsZero() {
		drop("no valid happened_start")
		return
	}
	if t.Precision != "range" && precisionRank(t.Precision) < gran {
		coarser := [...]string{granInstant: "instant", granDay: "day", granMonth: "month", granYear: "year"}[gran]
		*warnings = append(*warnings, fmt.Sprintf("precision %s is finer than happened_start; %s used", t.Precision, coarser))
		t.Precision = coarser
	}
	if !end.IsZero() && !end.After(start) {
		*warnings = append(*warnings, "happened_end is not after happened_start, ignored")
		end = time.Time{}
	}
	if end.IsZero() {
		switch t.Precision {
		case "instant":
			end = start.Add(time.Second)
		case "day":
			end = start.AddDate(0, 0, 1)
		case "week":
			end = start.AddDate(0, 0, 7)
		case "month":
			end = start.AddDate(0, 1, 0)
		case "season":
			end = start.AddDate(0, 3, 0)
		case "year":
			end = start.AddDate(1, 0, 0)
		default: // range
			drop("a range needs happened_end")
			return
		}
	}
	if !endInRange(end) {
		drop("the end falls outside the years " + fmt.Sprint(minYear, "–", maxYear))
		return
	}
	t.HappenedStart, t.HappenedEnd = start, end
}

// precisionRank orders precisions from fine to coarse on the granularity
// scale; week and season sit between the forms they are finer than.
func precisionRank(p string) int {
	switch p {
	case "instant":
		return granInstant
	case "day", "week":
		return granDay
	case "month", "season":
		return granMonth
	}
	return granYear
}

// word normalises an enum-like field: lower-case, one of words; missing
// is unknown, anything else unknown with a warning.
func word(name, s string, words []string, warnings *[]string) string {
	w := strings.ToLower(strings.TrimSpace(s))
	if w == "canceled" {
		w = "cancelled"
	}
	if slices.Contains(words, w) {
		return w
	}
	if w != "" {
		*warnings = append(*warnings, fmt.Sprintf("%s %q unknown, %s used", name, clip(s, MaxCategoryRunes), unknown))
	}
	return unknown
}

// names reads a list of participant names: empty and repeated ones are
// skipped, over-long ones and those beyond MaxNames dropped with a warning.
func (p *parser) names(field string, data json.RawMessage, warnings *[]string) ([]string, error) {
	if isNull(data) {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, invalid(ErrField, "%s: want an array of strings", field)
	}
	var out []string
	long, extra := 0, 0
	for k, lit := range list {
		s, err := p.str(fmt.Sprintf("%s[%d]", field, k), lit)
		if err != nil {
			return nil, err
		}
		switch s = oneLine(s); {
		case s == "" || slices.Contains(out, s):
		case len([]rune(s)) > MaxNameRunes:
			long++
		case len(out) == MaxNames:
			extra++
		default:
			out = append(out, s)
		}
	}
	if long > 0 {
		*warnings = append(*warnings, fmt.Sprintf("%d participant names over %d runes dropped", long, MaxNameRunes))
	}
	if extra > 0 {
		*warnings = append(*warnings, fmt.Sprintf("%d participant names dropped beyond the limit of %d", extra, MaxNames))
	}
	return out, nil
}

// date reads a date field: an RFC 3339 time or a plain YYYY-MM-DD,
// YYYY-MM or YYYY (UTC). A malformed or out-of-range date is absent, with
// a warning appended to the returned list.
func (p *parser) date(field string, data json.RawMessage, warnings []string) (time.Time, []string) {
	t, _ := p.dateGran(field, data, &warnings)
	return t, warnings
}

// dateGran is date with the granularity of the date's written form.
func (p *parser) dateGran(field string, data json.RawMessage, warnings *[]string) (time.Time, int) {
	if isNull(data) {
		return time.Time{}, 0
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		*warnings = append(*warnings, field+" is not a string, ignored")
		return time.Time{}, 0
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, 0
	}
	t, gran, ok := parseDate(s)
	switch {
	case !ok:
		*warnings = append(*warnings, fmt.Sprintf("%s %q is not a date, ignored", field, clip(s, MaxTimeTextRunes)))
		return time.Time{}, 0
	case !inRange(t):
		*warnings = append(*warnings, fmt.Sprintf("%s %q is outside the years %d–%d, ignored", field, s, minYear, maxYear))
		return time.Time{}, 0
	}
	return t, gran
}

// parseDate parses the four accepted date forms.
func parseDate(s string) (time.Time, int, bool) {
	for _, f := range []struct {
		layout string
		gran   int
	}{{"2006-01-02", granDay}, {"2006-01", granMonth}, {"2006", granYear}} {
		if len(s) == len(f.layout) {
			if t, err := time.Parse(f.layout, s); err == nil {
				return t, f.gran, true
			}
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, granInstant, err == nil
}

// inRange reports whether t's year is one the time encoding holds.
func inRange(t time.Time) bool { return t.Year() >= minYear && t.Year() <= maxYear }

// endInRange reports whether an exclusive end fits the time encoding.
func endInRange(t time.Time) bool { return t.Year() >= minYear && !t.After(maxEnd) }
